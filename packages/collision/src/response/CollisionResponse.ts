import {
  SofaError,
  BaseObject,
  Str,
  didYouMean,
  sofaComponent,
  type CheckpointContext,
  type CheckpointReader,
  type CheckpointRecord,
  type Node,
  type RestoreContext,
} from '@sofa-ts/core';
import type { IntersectionMethod } from '../detection/intersection-method.js';
import type { PairOutputs } from '../detection/narrow-phase.js';
import type { CollisionModel } from '../model/CollisionModel.js';
import type { Contact } from './contact.js';
import { MissingResponse, findResponse, responseNames } from './responses.js';

/**
 * SOFA's CollisionResponse (formerly DefaultContactManager): keeps one contact per pair of
 * colliding collision models. At each step, pairs with detection outputs get their contact created
 * (response class `response`, unless the models ask for one with contactResponse) or updated;
 * contacts of pairs without outputs are removed with their response, except those that keep alive
 * (a StickContactConstraint by default), which keep their last contacts. The pipeline then places the
 * responses: with the other model's node when one model is not simulated, else in the pipeline's
 * node. Response parameters (`responseParams`, "name=value&...") are appended to the response name
 * as SOFA does ("Name?params").
 */
@sofaComponent({
  name: 'CollisionResponse',
  aliases: ['DefaultContactManager'],
  category: 'CollisionAlgorithm',
  module: 'Sofa.Component.Collision.Response.Contact',
  description: 'Default class to create reactions to the collisions.',
})
export class CollisionResponse extends BaseObject {
  readonly isContactManager = true;
  readonly response = this.initData({
    name: 'response',
    type: Str,
    default: 'PenalityContactForceField',
    help: `contact response class (${responseNames.join(', ')})`,
  });
  readonly responseParams = this.initData({
    name: 'responseParams',
    type: Str,
    default: '',
    help: 'contact response parameters (syntax: name1=value1&name2=value2&...)',
  });

  /** Contacts by pair of models (model1 → model2 → contact), and in creation order. */
  private readonly byPair = new Map<CollisionModel, Map<CollisionModel, Contact>>();
  private contactList: Contact[] = [];
  private readonly seen = new Set<Contact>();

  override init(): void {
    this.checkResponse(this.response.value, 'response');
  }

  /** Throws when a response name is not a known contact class. */
  protected checkResponse(response: string, what: string): void {
    if (response === '' || response === 'nullptr') return;
    if (!findResponse(response)) {
      const name = response.split('?')[0];
      const hint = didYouMean(name, [...responseNames]);
      // A contact response sofa-ts does not have is a missing component, as an unknown tag is.
      throw new SofaError(`unknown contact response '${name}' (${what}); sofa-ts has ${responseNames.join(', ')}`, {
        ...(this.loc ? { loc: this.loc } : {}),
        component: this.describe(),
        ...(hint ? { hint } : {}),
        code: 'unknown-component',
        source: this,
      });
    }
  }

  /** SOFA's getContactResponse: the manager's response, unless the models name one. */
  getContactResponse(m1: CollisionModel, m2: CollisionModel): string {
    let used = this.response.value;
    if (this.responseParams.value) used += `?${this.responseParams.value}`;
    const r1 = m1.contactResponse.value,
      r2 = m2.contactResponse.value;
    if (!r1 && !r2) return used;
    if (!r1) return r2;
    if (!r2) return r1;
    return r1 !== r2 ? used : r1;
  }

  /** The current contacts, in creation order. */
  getContacts(): readonly Contact[] {
    return this.contactList;
  }

  /** SOFA's createContacts: new and updated contacts from the outputs, inactive ones removed. */
  createContacts(pairs: readonly PairOutputs[], method: IntersectionMethod): void {
    const seen = this.seen;
    seen.clear();
    for (const p of pairs) {
      let inner = this.byPair.get(p.a);
      let contact = inner?.get(p.b);
      if (!contact) {
        const response = this.getContactResponse(p.a, p.b);
        if (response === 'nullptr') continue;
        contact = this.createContact(p.a, p.b, response, method);
        if (!inner) this.byPair.set(p.a, (inner = new Map()));
        inner.set(p.b, contact);
        this.contactList.push(contact);
      }
      contact.setDetectionOutputs(p.outputs);
      seen.add(contact);
    }
    // Contacts without outputs this step end, unless they keep alive (then with their last contacts).
    if (seen.size !== this.contactList.length) {
      const kept: Contact[] = [];
      for (const c of this.contactList) {
        if (seen.has(c) || c.keepAlive?.() === true) {
          kept.push(c);
          continue;
        }
        c.removeResponse();
        this.byPair.get(c.model1)?.delete(c.model2);
      }
      this.contactList = kept;
    }
    this.setNumberOfContacts();
  }

  /** The intersection method each contact was made with (its contact distance). */
  private readonly methodOf = new WeakMap<Contact, IntersectionMethod>();

  /**
   * Checkpoint: the contacts in order, each with its pair of models, response, intersection
   * method, the node its response is in, and its own state. Their response objects (force fields,
   * constraints) are components this one created (checkpointOwnedComponents).
   */
  checkpointState(ctx: CheckpointContext): CheckpointRecord {
    return {
      contacts: this.contactList.map((c) => {
        const o = c.responseObject?.();
        const method = this.methodOf.get(c);
        if (!method)
          throw this.error(`checkpoint: the contact between ${c.model1.describe()} and ${c.model2.describe()} has no intersection method`);
        return {
          model1: ctx.keyOf(c.model1),
          model2: ctx.keyOf(c.model2),
          response: this.responseOf.get(c) ?? '',
          method: ctx.keyOf(method),
          node: o?.hasContext ? ctx.keyOf(o.context) : null,
          state: c.checkpointState?.() ?? null,
        };
      }),
    };
  }

  restoreState(saved: CheckpointReader, ctx: RestoreContext): void {
    this.reset();
    for (const r of saved.records('contacts')) {
      const m1 = ctx.objectOf(r.string('model1')) as CollisionModel,
        m2 = ctx.objectOf(r.string('model2')) as CollisionModel;
      const contact = this.createContact(m1, m2, r.string('response'), ctx.objectOf(r.string('method')) as IntersectionMethod);
      if (r.record['state'] !== null) contact.restoreState?.(r.sub('state'));
      let inner = this.byPair.get(m1);
      if (!inner) this.byPair.set(m1, (inner = new Map()));
      inner.set(m2, contact);
      this.contactList.push(contact);
      if (r.record['node'] !== null) contact.createResponse(ctx.nodeOf(r.string('node')));
    }
  }

  /** The contacts' response objects, in contact order. */
  *checkpointOwnedComponents(): Iterable<BaseObject> {
    for (const c of this.contactList) {
      const o = c.responseObject?.();
      if (o) yield o;
    }
  }

  private readonly responseOf = new WeakMap<Contact, string>();

  private createContact(m1: CollisionModel, m2: CollisionModel, response: string, method: IntersectionMethod): Contact {
    const contact = this.makeContact(m1, m2, response, method);
    this.methodOf.set(contact, method);
    this.responseOf.set(contact, response);
    return contact;
  }

  private makeContact(m1: CollisionModel, m2: CollisionModel, response: string, method: IntersectionMethod): Contact {
    this.checkResponse(response, 'contact response');
    const cls = findResponse(response)!;
    if (!cls.create) return new MissingResponse(m1, m2, this, cls.name, cls.missing ?? 'not implemented');
    return cls.create(m1, m2, method, this, response);
  }

  /**
   * Places every response (SOFA's SubCollisionPipeline::doComputeCollisionResponse): with the other
   * model's node when one model is not simulated, else in the pipeline's node.
   *
   * Order. SOFA keeps its contacts in a map keyed by the addresses of the two models and, every
   * step, takes all responses out and adds them back in that map's order, so the order of the
   * contact constraints (and of the rows a Gauss-Seidel sweep visits) is the order of the pairs
   * (model1, model2). With `rank` (the models' creation order, the pipeline's list), sofa-ts uses
   * the order of SOFA's reference runs: descending rank of model1, then of model2 (the models
   * created later come first). It reproduces BilateralLagrangianConstraint_PGS to the last printed
   * digit, where the loose solver tolerance makes the row order visible. A response already in
   * place stays there (no change to the graph) unless the responses of its node are out of that
   * order, in which case they are all taken out and added back in order.
   */
  placeResponses(pipelineNode: Node, rank?: ReadonlyMap<CollisionModel, number>): void {
    if (rank) this.sortContacts(rank);
    const byNode = this.byNode;
    for (const list of byNode.values()) list.length = 0;
    for (const c of this.contactList) {
      const node = !c.model1.isSimulated ? c.model2.context : !c.model2.isSimulated ? c.model1.context : pipelineNode;
      let list = byNode.get(node);
      if (!list) byNode.set(node, (list = []));
      list.push(c);
    }
    for (const [node, list] of byNode) {
      if (list.length === 0) {
        byNode.delete(node);
        continue;
      }
      if (!inNodeOrder(node, list)) for (const c of list) c.removeResponse();
      for (const c of list) c.createResponse(node);
    }
  }

  /** Contacts by descending (rank of model1, rank of model2); unranked models count as −1. */
  private sortContacts(rank: ReadonlyMap<CollisionModel, number>): void {
    const r = (m: CollisionModel): number => rank.get(m) ?? -1;
    this.contactList.sort((a, b) => r(b.model1) - r(a.model1) || r(b.model2) - r(a.model2));
  }

  /** Scratch of placeResponses: the contacts whose response goes to each node. */
  private readonly byNode = new Map<Node, Contact[]>();

  /** numberOfContacts of each model: the number of contacts it takes part in. */
  private setNumberOfContacts(): void {
    const counts = new Map<CollisionModel, number>();
    for (const c of this.contactList) {
      counts.set(c.model1, (counts.get(c.model1) ?? 0) + 1);
      if (c.model2 !== c.model1) counts.set(c.model2, (counts.get(c.model2) ?? 0) + 1);
    }
    for (const [m, n] of counts) if (m.numberOfContacts.value !== n) m.numberOfContacts.value = n;
  }

  /** Removes every contact and its response (SOFA's cleanup, at reset). */
  override reset(): void {
    for (const c of this.contactList) c.removeResponse();
    this.contactList = [];
    this.byPair.clear();
  }
}

/**
 * True when the responses of `list` already in `node` come in the list's order and those not yet
 * there come after them (adding them at the end keeps the order).
 */
function inNodeOrder(node: Node, list: readonly Contact[]): boolean {
  let last = -1;
  let appending = false;
  for (const c of list) {
    const o = c.responseObject?.();
    if (!o) continue;
    if (!o.hasContext || o.context !== node) {
      appending = true;
      continue;
    }
    if (appending) return false;
    const i = node.objects.indexOf(o);
    if (i < last) return false;
    last = i;
  }
  return true;
}

export function isContactManager(o: unknown): o is CollisionResponse {
  return typeof o === 'object' && o !== null && (o as { isContactManager?: unknown }).isContactManager === true;
}
