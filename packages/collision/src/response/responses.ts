import type { BaseObject, Node } from '@sofa-ts/core';
import type { DetectionOutputs } from '../detection/detection-outputs.js';
import type { IntersectionMethod } from '../detection/intersection-method.js';
import type { CollisionModel } from '../model/CollisionModel.js';
import type { Contact } from './contact.js';
import { AugmentedLagrangianResponse } from './AugmentedLagrangianResponse.js';
import { FrictionContact } from './FrictionContact.js';
import { PenalityContact } from './PenalityContact.js';
import { PersistentFrictionContact } from './PersistentFrictionContact.js';
import { StickContact } from './StickContact.js';

/** A contact response class, by the name scenes give it (SOFA's Contact factory). */
export interface ResponseClass {
  readonly name: string;
  readonly aliases: readonly string[];
  /** Null when sofa-ts does not implement it yet: the scene loads, the first contact fails. */
  readonly create:
    ((m1: CollisionModel, m2: CollisionModel, method: IntersectionMethod, owner: BaseObject, response: string) => Contact) | null;
  readonly missing?: string;
}

const responseClasses: ResponseClass[] = [
  {
    name: 'PenalityContactForceField',
    aliases: ['default'],
    create: (m1, m2, method, owner) => new PenalityContact(m1, m2, method, owner),
  },
  {
    name: 'FrictionContactConstraint',
    aliases: ['FrictionContact'],
    create: (m1, m2, method, owner, response) => new FrictionContact(m1, m2, method, owner, response),
  },
  {
    name: 'AugmentedLagrangianResponseConstraint',
    aliases: [],
    create: (m1, m2, method, owner, response) => new AugmentedLagrangianResponse(m1, m2, method, owner, response),
  },
  // plugin PersistentContact: FrictionContact whose contact points persist on the bodies' material
  {
    name: 'PersistentFrictionContact',
    aliases: [],
    create: (m1, m2, method, owner, response) => new PersistentFrictionContact(m1, m2, method, owner, response),
  },
  { name: 'StickContactConstraint', aliases: [], create: (m1, m2, _method, owner, response) => new StickContact(m1, m2, owner, response) },
  // SOFA's BarycentricStickContact: springs gluing the contact points (a penalty response), not the constraint above
  {
    name: 'StickContactForceField',
    aliases: [],
    create: null,
    missing:
      'SOFA\'s BarycentricStickContact (springs gluing the contact points) is not implemented in sofa-ts; response="StickContactConstraint" glues them with Lagrangian constraints',
  },
];

/** Names a contact manager accepts for `response` (SOFA's registered contact classes). */
export const responseNames: readonly string[] = responseClasses.flatMap((r) => [r.name, ...r.aliases]);

/**
 * Registers (or replaces, by name) a contact response class: how a package that implements a
 * response (e.g. the constraint-based FrictionContactConstraint) makes contact managers create it.
 * Names and aliases already known keep their place in `responseNames`.
 */
export function registerContactResponse(cls: ResponseClass & { create: NonNullable<ResponseClass['create']> }): void {
  const i = responseClasses.findIndex((r) => r.name === cls.name);
  if (i >= 0) responseClasses[i] = cls;
  else responseClasses.push(cls);
  for (const n of [cls.name, ...cls.aliases]) if (!responseNames.includes(n)) (responseNames as string[]).push(n);
}

/** The response class of a response string ("Name" or "Name?param=value&..."), or undefined. */
export function findResponse(response: string): ResponseClass | undefined {
  const name = response.split('?')[0].trim();
  return responseClasses.find((r) => r.name === name || r.aliases.includes(name));
}

/** A response that is registered but not implemented: fails, located at the contact manager, at the first contact. */
export class MissingResponse implements Contact {
  constructor(
    readonly model1: CollisionModel,
    readonly model2: CollisionModel,
    private readonly owner: BaseObject,
    private readonly response: string,
    private readonly why: string,
  ) {}

  setDetectionOutputs(_outputs: DetectionOutputs): void {
    throw this.owner.error(
      `contact between ${this.model1.describe()} and ${this.model2.describe()}: response '${this.response}' is not available: ${this.why}`,
      'use response="PenalityContactForceField" with DefaultAnimationLoop until the constraint solvers are available',
    );
  }

  createResponse(_node: Node): void {}
  removeResponse(): void {}
}
