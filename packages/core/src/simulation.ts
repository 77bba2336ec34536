import type { BaseObject } from './base-object.js';
import { isAnimationLoop, type BaseAnimationLoop } from './behavior/solvers.js';
import { isBaseMapping } from './behavior/mapping.js';
import { checkDataRanges } from './data-rules.js';
import { SofaError, SofaErrors } from './errors.js';
import { ResetEvent } from './events.js';
import type { Node } from './node.js';

/**
 * Runs a scene graph: init (SOFA's InitVisitor: context from the root, init of each node's objects
 * top-down in document order, bwdInit bottom-up), steps through the root's animation loop, reset.
 */
export class Simulation {
  private initialised = false;
  private readonly loop: BaseAnimationLoop;

  constructor(readonly root: Node) {
    const loop = root.objects.find(isAnimationLoop);
    if (!loop) throw new SofaError('the root node has no animation loop (add <DefaultAnimationLoop/>)', root.loc ? { loc: root.loc } : {});
    this.loop = loop;
  }

  get animationLoop(): BaseAnimationLoop {
    return this.loop;
  }

  get time(): number {
    return this.root.getTime();
  }

  get dt(): number {
    return this.root.getDt();
  }

  /**
   * Initialises every component; throws SofaErrors listing every component that failed. A second
   * call does nothing: init is not idempotent for components (a MechanicalObject would apply its
   * translation twice), and loadScene has usually run it already.
   */
  init(): void {
    if (this.initialised) return;
    const errors: SofaError[] = [];
    // Values written in the scene are checked first: a refused value stops the scene before any
    // component runs (its consequences would only add confusing errors).
    checkSceneValues(this.root, errors);
    if (errors.length > 0) throw errors.length === 1 ? errors[0]! : new SofaErrors(errors);
    initNode(this.root, errors);
    if (errors.length > 0) throw errors.length === 1 ? errors[0]! : new SofaErrors(errors);
    propagateMechanicalMappings(this.root);
    this.initialised = true;
  }

  /** One time step of `dt` (default: the root's dt). */
  step(dt = this.root.getDt()): void {
    if (!this.initialised) this.init();
    this.loop.step(dt);
  }

  /** Back to the state after init: time 0 and every component's reset(). */
  reset(): void {
    this.root.setTime(0);
    this.root.visit((n) => {
      for (const o of n.objects) o.reset();
    });
    this.root.propagateEvent(new ResetEvent());
    propagateMechanicalMappings(this.root);
  }
}

/**
 * SOFA's MechanicalPropagateOnlyPositionAndVelocityVisitor, run after init and after reset: every
 * mechanical mapping, parents before children, sets its output's positions (apply) and velocities
 * (applyJ), so mapped states are consistent before the first step.
 */
function propagateMechanicalMappings(root: Node): void {
  root.visit((n) => {
    if (!n.activated.value) return false;
    for (const o of n.objects) {
      if (!isBaseMapping(o)) continue;
      const to = o.getTo();
      if (!to) continue;
      o.apply();
      o.applyJ(to.v, o.getFrom().map((s) => s.v));
    }
    return true;
  });
}

/** Declared ranges and finiteness of the values the scene gives directly (not through links). */
function checkSceneValues(root: Node, errors: SofaError[]): void {
  root.visit((node) => {
    const nodeCheck = checkDataRanges(node.dataFields, `Node '${node.getName()}'`, node.loc);
    errors.push(...nodeCheck.errors);
    for (const w of nodeCheck.warnings) node.messages.warn(w);
    for (const obj of node.objects) {
      const check = checkDataRanges(obj.dataFields, obj.describe(), obj.loc, 'unlinked');
      errors.push(...check.errors);
      for (const w of check.warnings) node.messages.warn(w);
    }
  });
}

function initNode(node: Node, errors: SofaError[]): void {
  node.copyContextFromParent();
  for (const obj of node.objects) {
    // Values that follow another Data are known now that their source ran its init.
    const check = checkDataRanges(obj.dataFields, obj.describe(), obj.loc, 'linked');
    for (const w of check.warnings) node.messages.warn(w);
    if (check.errors.length > 0) {
      errors.push(...check.errors);
      obj.invalidate(check.errors[0]!.detail);
      continue;
    }
    try {
      resolveSearchLinks(obj);
      obj.init();
      if (obj.componentState !== 'invalid') obj.componentState = 'valid';
      else errors.push(obj.error(obj.invalidReason ?? 'component is invalid'));
    } catch (e) {
      errors.push(asSofaError(obj, e));
      obj.invalidate(e instanceof Error ? e.message : String(e));
    }
  }
  for (const child of node.children) initNode(child, errors);
  for (const obj of node.objects) {
    try {
      obj.bwdInit();
    } catch (e) {
      errors.push(asSofaError(obj, e));
    }
  }
}

/** Fills unset links that declare a search rule, then checks required ones. */
export function resolveSearchLinks(obj: BaseObject): void {
  for (const l of obj.links) {
    if (l.get() !== undefined || l.linkPath !== undefined) continue;
    const search = l.spec.search ?? 'none';
    if (search !== 'none') {
      const found = obj.context.getObject((o): o is BaseObject => o !== obj && l.spec.accepts(o), search);
      if (found) l.set(found as never);
    }
    if (l.get() === undefined && l.spec.required) {
      const where = search === 'up' ? 'in this node or its ancestors' : search === 'down' ? 'in this subtree' : search === 'local' ? 'in this node' : 'given';
      throw obj.error(`link '${l.name}' needs ${l.spec.expected}, none ${where}`, `add one, or set ${l.name}="@path"`);
    }
  }
}

function asSofaError(obj: BaseObject, e: unknown): SofaError {
  if (e instanceof SofaError) return e;
  return obj.error(e instanceof Error ? e.message : String(e));
}
