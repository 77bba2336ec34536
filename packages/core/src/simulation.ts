import type { BaseObject } from './base-object.js';
import { isAnimationLoop, type BaseAnimationLoop } from './behavior/solvers.js';
import { isBaseMapping } from './behavior/mapping.js';
import { checkDataRanges } from './data-rules.js';
import { addSceneWarning } from './scene-warnings.js';
import { componentCall } from './component-call.js';
import { componentError, type LifecyclePhase } from './component-error.js';
import { DivergenceError, DivergenceGuard, type Divergence } from './divergence.js';
import { captureBaseline, type SceneBaseline } from './checkpoint/scene-baseline.js';
import type { CheckpointReader } from './checkpoint/checkpoint-value.js';
import { SofaError, SofaErrors } from './errors.js';
import { ResetEvent } from './events.js';
import { Node } from './node.js';
import { isNode } from './paths.js';

/** What a step that leaves a non-finite position or velocity does: 'stop' throws a DivergenceError
 *  (at every such step), 'continue' records the first divergence in `Simulation.divergence` and goes on. */
export type DivergencePolicy = 'stop' | 'continue';

/**
 * Runs a scene graph: init (SOFA's InitVisitor: context from the root, init of each node's objects
 * top-down in document order, bwdInit bottom-up), steps through the root's animation loop, reset.
 *
 * Nothing fails silently: an exception of a component (init, bwdInit, a step, reset) comes out as a
 * located ComponentError naming the component, its node and the phase; after each step every
 * mechanical state is checked for NaN/Infinity (DivergenceGuard) and the divergence policy applies.
 */
export class Simulation {
  private initialised = false;
  private readonly loop: BaseAnimationLoop;
  private readonly guard: DivergenceGuard;
  /** Steps run since init or the last reset. */
  stepCount = 0;
  /** See DivergencePolicy (default 'stop'). */
  onDivergence: DivergencePolicy = 'stop';
  /** The first divergence since init or the last reset, whatever the policy. */
  divergence: Divergence | undefined;
  /** The scene before its first step, for checkpoints (see checkpoint/scene-checkpoint.ts). */
  private baseline: SceneBaseline | undefined;

  constructor(readonly root: Node) {
    const loop = root.objects.find(isAnimationLoop);
    if (!loop) throw new SofaError('the root node has no animation loop (add <DefaultAnimationLoop/>)', root.loc ? { loc: root.loc } : {});
    this.loop = loop;
    this.guard = new DivergenceGuard(root);
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
    if (errors.length > 0) throw errors.length === 1 ? errors[0] : new SofaErrors(errors);
    initNode(this.root, errors);
    if (errors.length > 0) throw errors.length === 1 ? errors[0] : new SofaErrors(errors);
    this.runPhase({ kind: 'init' }, () => propagateMechanicalMappings(this.root));
    this.initialised = true;
  }

  /**
   * One time step of `dt` (default: the root's dt). Throws a ComponentError when a component
   * throws, and a DivergenceError when the step left a non-finite position or velocity (policy 'stop').
   */
  step(dt = this.root.getDt()): void {
    if (!this.initialised) this.init();
    if (this.baseline === undefined) this.baseline = captureBaseline(this.root);
    const step = this.stepCount + 1;
    this.runPhase({ kind: 'step', step, time: this.root.getTime() }, () => this.loop.step(dt));
    this.stepCount = step;
    if (this.onDivergence === 'continue' && this.divergence) return;
    const d = this.guard.check(step, this.root.getTime());
    if (!d) return;
    this.divergence ??= d;
    if (this.onDivergence === 'stop') throw new DivergenceError(d);
  }

  /**
   * The scene as it was before its first step (names, identity, Data write counters): taken at the
   * first step, or now when the simulation has not stepped yet (a checkpoint restored into it).
   */
  checkpointBaseline(): SceneBaseline {
    if (!this.initialised) this.init();
    this.baseline ??= captureBaseline(this.root);
    return this.baseline;
  }

  /** The step count and divergence of a checkpoint (restoreCheckpoint). */
  restoreCounters(saved: CheckpointReader): void {
    this.stepCount = saved.number('stepCount');
    // A run that diverged and went on ('continue') keeps the step and time of its first divergence;
    // the value shown is the first non-finite one of the restored states.
    if (saved.has('divergence')) {
      const d = saved.sub('divergence');
      const found = this.guard.check(this.stepCount, this.root.getTime());
      if (found) this.divergence = { ...found, step: d.number('step'), time: d.number('time') };
    }
  }

  /**
   * Runs `body` with the animation loop as the running component; an exception comes out as the
   * ComponentError of the innermost component that was running (see componentCall).
   */
  private runPhase(phase: LifecyclePhase, body: () => void): void {
    const caller = componentCall.current;
    componentCall.current = this.loop;
    try {
      body();
    } catch (e) {
      const failed = componentCall.current ?? this.loop;
      componentCall.current = caller;
      throw componentError(failed, phase, e);
    }
    componentCall.current = caller;
  }

  /** Back to the state after init: time 0 and every component's reset(). */
  reset(): void {
    this.root.setTime(0);
    this.stepCount = 0;
    this.divergence = undefined;
    this.root.visit((n) => {
      for (const o of n.objects) {
        try {
          o.reset();
        } catch (e) {
          throw componentError(o, { kind: 'reset' }, e);
        }
      }
    });
    this.runPhase({ kind: 'reset' }, () => {
      this.root.propagateEvent(new ResetEvent());
      propagateMechanicalMappings(this.root);
    });
  }
}

/**
 * SOFA's MechanicalPropagateOnlyPositionAndVelocityVisitor, run after init and after reset (and by
 * components that set states, such as ReadState): every mechanical mapping of the subtree, parents
 * before children, sets its output's positions (apply) and velocities (applyJ), so mapped states
 * are consistent with their inputs.
 */
export function propagateMechanicalMappings(root: Node): void {
  root.visit((n) => {
    if (!n.activated.value) return false;
    for (const o of n.objects) {
      if (!isBaseMapping(o)) continue;
      const to = o.getTo();
      if (!to) continue;
      componentCall.current = o;
      o.apply();
      o.applyJ(
        to.v,
        o.getFrom().map((s) => s.v),
      );
    }
    return true;
  });
}

/** Declared ranges and finiteness of the values the scene gives directly (not through links). */
function checkSceneValues(root: Node, errors: SofaError[]): void {
  root.visit((node) => {
    const nodeCheck = checkDataRanges(node.dataFields, `Node '${node.getName()}'`, node.loc);
    errors.push(...nodeCheck.errors);
    for (const w of nodeCheck.warnings) addSceneWarning(node.root, w);
    for (const obj of node.objects) {
      const check = checkDataRanges(obj.dataFields, obj.describe(), obj.loc, 'unlinked');
      errors.push(...check.errors);
      for (const w of check.warnings) addSceneWarning(node.root, w);
    }
  });
}

/**
 * SOFA's InitVisitor: top down, a node's objects' init (after its context is inherited), then their
 * bwdInit once its subtree is initialised; in a DAG a node is initialised once, after all its parents.
 */
function initNode(root: Node, errors: SofaError[]): void {
  const pass = new InitPass(errors, hasSharedNode(root));
  root.visitDownUp(
    (node) => {
      pass.initNode(node);
    },
    (node) => {
      for (const obj of node.objects) {
        try {
          obj.bwdInit();
        } catch (e) {
          addOnce(errors, asSofaError(obj, 'bwdInit', e));
        }
      }
    },
  );
}

/**
 * The init of the nodes of one scene. SOFA's Data are read lazily through their links, whereas
 * sofa-ts components read their inputs at init: a component that links to a node the top-down
 * order reaches later would find it not initialised. In a DAG (`dag`: Tripod's visual model below
 * the body, whose mechanical node has its other parents further on), before a component's init
 * the nodes it links to (and the nodes of the Data its own follow) are initialised first, each
 * after its parents; a node is initialised once. In a tree, only the targets of links declared
 * `initTargetFirst` (a mapping that reads its input's positions as SOFA reads that Data: a later
 * sibling's state), nodes below the component's own left to their turn (they come after its node's
 * objects, which their own init may read).
 */
class InitPass {
  private readonly done = new Set<Node>();
  private readonly busy = new Set<Node>();

  constructor(
    private readonly errors: SofaError[],
    private readonly dag: boolean,
  ) {}

  initNode(node: Node): void {
    if (this.done.has(node) || this.busy.has(node)) return;
    this.busy.add(node);
    if (this.dag) for (const p of node.parents) this.initNode(p);
    node.inheritContextFromParent();
    for (const obj of node.objects) this.initObject(obj);
    this.busy.delete(node);
    this.done.add(node);
  }

  private initObject(obj: BaseObject): void {
    const errors = this.errors;
    // Values that follow another Data are known now that their source ran its init.
    this.initDependencies(obj);
    const check = checkDataRanges(obj.dataFields, obj.describe(), obj.loc, 'linked');
    for (const w of check.warnings) addSceneWarning(obj.context.root, w);
    if (check.errors.length > 0) {
      errors.push(...check.errors);
      obj.invalidate(check.errors[0].detail);
      return;
    }
    try {
      resolveSearchLinks(obj);
      obj.init();
      if (obj.componentState !== 'invalid') obj.componentState = 'valid';
      else errors.push(obj.error(obj.invalidReason ?? 'component is invalid'));
    } catch (e) {
      addOnce(errors, asSofaError(obj, 'init', e));
      obj.invalidate(e instanceof Error ? e.message : String(e));
    }
  }

  /** Initialises the other nodes whose components or Data `obj` links to. */
  private initDependencies(obj: BaseObject): void {
    const own = obj.context;
    const visit = (n: Node | undefined): void => {
      if (n && n !== own && !this.done.has(n) && (this.dag || !isBelow(n, own))) this.initNode(n);
    };
    for (const l of obj.links) {
      if (!this.dag && !l.spec.initTargetFirst) continue;
      for (const t of l.getAll() as readonly unknown[]) visit(isNode(t) ? t : isContextual(t) ? t.context : undefined);
    }
    if (!this.dag) return;
    for (const d of obj.dataFields) {
      const owner = d.parent?.owner;
      visit(isNode(owner) ? owner : isContextual(owner) ? owner.context : undefined);
    }
  }
}

/** Whether `n` is in the subtree below `top` (a tree: through first parents). */
function isBelow(n: Node, top: Node): boolean {
  for (let p = n.parent; p; p = p.parent) if (p === top) return true;
  return false;
}

/** Whether a node of the subtree has several parents. */
function hasSharedNode(root: Node): boolean {
  if (!Node.hasSharedNodes()) return false;
  let found = false;
  root.visit((n) => {
    if (n.parents.length > 1) found = true;
  });
  return found;
}

function isContextual(x: unknown): x is BaseObject {
  return typeof x === 'object' && x !== null && 'hasContext' in x && (x as BaseObject).hasContext;
}

/** Fills unset links that declare a search rule, then checks required ones. */
export function resolveSearchLinks(obj: BaseObject): void {
  for (const l of obj.links) {
    if (l.get() !== undefined || l.linkPath !== undefined) continue;
    const own = l.spec.find?.(obj);
    if (own !== undefined) l.set(own as never);
    const search = l.spec.search ?? 'none';
    if (search !== 'none' && l.get() === undefined) {
      const found = obj.context.getObject((o): o is BaseObject => o !== obj && l.spec.accepts(o), search);
      if (found) l.set(found as never);
    }
    if (l.get() === undefined && l.spec.required) {
      const where =
        search === 'up'
          ? 'in this node or its ancestors'
          : search === 'down'
            ? 'in this subtree'
            : search === 'local'
              ? 'in this node'
              : 'given';
      throw obj.error(`link '${l.name}' needs ${l.spec.expected}, none ${where}`, `add one, or set ${l.name}="@path"`);
    }
  }
}

/** One report per message: a component's error met again through another one's init (a state
 *  reading its grid's size) is not repeated. */
function addOnce(errors: SofaError[], e: SofaError): void {
  if (!errors.some((x) => x.message === e.message)) errors.push(e);
}

/** A component's own SofaErrors are its init checks, already located: kept as they are. Anything else
 *  (a TypeError, a plugin's plain Error) is reported with the component, its node and the phase. */
function asSofaError(obj: BaseObject, phase: 'init' | 'bwdInit', e: unknown): SofaError {
  if (e instanceof SofaError) return e;
  return componentError(obj, { kind: phase }, e);
}
