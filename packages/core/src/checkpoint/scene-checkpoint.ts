import type { BaseObject } from '../base-object.js';
import { isMechanicalState } from '../behavior/mechanical-state.js';
import { isOdeSolver } from '../behavior/solvers.js';
import type { Data } from '../data.js';
import { SofaError, SofaErrors } from '../errors.js';
import type { Node } from '../node.js';
import type { Simulation } from '../simulation.js';
import { asCheckpointable, type CheckpointContext, type RestoreContext } from './checkpointable.js';
import {
  CheckpointReader,
  copyCheckpointValue,
  copyTypedArray,
  isCheckpointTypedArray,
  typedArrayKind,
  type CheckpointRecord,
  type CheckpointValue,
} from './checkpoint-value.js';
import { dataCheckpointValue, type IdentityEntry, type SceneBaseline } from './scene-baseline.js';

/** One saved Data: its name, its value (or SOFA's text of it) and whether it counted as set. */
export interface SavedData {
  readonly name: string;
  readonly value: { v: CheckpointValue } | { t: string };
  readonly isSet: boolean;
}

/** What a checkpoint keeps of one node or component. */
export interface ComponentCheckpoint {
  readonly key: string;
  readonly data: readonly SavedData[];
  /** The record of a Checkpointable component. */
  readonly state?: CheckpointRecord;
}

/**
 * The whole state of a simulation after a step: every Data changed since the first step, every
 * Checkpointable component's hidden state, the step count, and the identity of the scene (checked
 * when it is restored). `extra` is kept for the caller (the CLI stores its state files there).
 */
export interface SceneCheckpoint {
  /** Steps since init (the step the checkpoint was taken after) and the simulated time, s. */
  readonly step: number;
  readonly time: number;
  readonly identity: readonly IdentityEntry[];
  readonly components: readonly ComponentCheckpoint[];
  readonly simulation: CheckpointRecord;
  readonly extra: CheckpointRecord;
}

/** The result of a capture: the checkpoint, and what it could not save (each a located warning). */
export interface CaptureResult {
  readonly checkpoint: SceneCheckpoint;
  readonly warnings: SofaError[];
}

function describeOwner(o: Node | BaseObject, key: string): string {
  return o.className === 'Node' ? `node ${key}` : `${key} (${o.className})`;
}

function isNodeOwner(o: Node | BaseObject): o is Node {
  return o.className === 'Node' && 'children' in o;
}

/** Key of a component created during the run: its creator's key and its rank among the creator's. */
function ownedKey(ownerKey: string, i: number): string {
  return `${ownerKey}::${i}`;
}

/**
 * Saves the simulation's state. Throws a SofaError when it cannot be saved whole: a component of
 * the scene was removed during the run, a state changed size (topological changes), or a
 * component's record holds something a checkpoint cannot hold. Components created during the run
 * and not declared by their creator (Checkpointable.checkpointOwnedComponents) are warned about.
 */
export function captureCheckpoint(sim: Simulation, extra: CheckpointRecord = {}): CaptureResult {
  const baseline = sim.checkpointBaseline();
  const root = sim.root;
  const inScene = new Set<BaseObject>(root.subtreeObjects());
  const nodesInScene = new Set<Node>();
  root.visit((n) => {
    nodesInScene.add(n);
  });
  const keys = new Map<Node | BaseObject, string>(baseline.keys);
  const warnings: SofaError[] = [];
  // Components created during the run, keyed after their creators.
  const created: { obj: BaseObject; key: string }[] = [];
  for (const o of baseline.owners) {
    const cp = asCheckpointable(o, '');
    if (!cp?.checkpointOwnedComponents) continue;
    let i = 0;
    for (const c of cp.checkpointOwnedComponents()) {
      const key = ownedKey(baseline.keys.get(o)!, i++);
      keys.set(c, key);
      created.push({ obj: c, key });
    }
  }
  const ctx: CheckpointContext = {
    keyOf(o) {
      const k = keys.get(o);
      if (k === undefined)
        throw new SofaError(
          `checkpoint: a record refers to ${o.className === 'Node' ? `node ${(o as Node).path}` : (o as BaseObject).describe()}, which is neither in the scene it started with nor declared by the component that created it`,
        );
      return k;
    },
    knows(o) {
      return keys.has(o as BaseObject);
    },
    warn(o, detail) {
      warnings.push(o.error(detail, 'a resumed run may differ from the uninterrupted one'));
    },
  };
  const components: ComponentCheckpoint[] = [];
  const save = (o: Node | BaseObject, key: string, changed: (d: Data<unknown>) => boolean): void => {
    const where = describeOwner(o, key);
    let state: CheckpointRecord | undefined;
    const ownArrays = new Set<unknown>();
    const cp = asCheckpointable(o, where);
    if (cp) {
      const rec = cp.checkpointState(ctx);
      for (const v of Object.values(rec)) if (isCheckpointTypedArray(v)) ownArrays.add(v);
      state = copyCheckpointValue(rec, where) as CheckpointRecord;
    }
    const data: SavedData[] = [];
    for (const d of o.dataFields) {
      if (!changed(d) || ownArrays.has(d.rawValue)) continue;
      const dv = dataCheckpointValue(d);
      data.push({ name: d.spec.name, value: 'v' in dv ? { v: copyCheckpointValue(dv.v, `${where}.${d.spec.name}`) } : dv, isSet: d.isSet });
    }
    if (data.length > 0 || state !== undefined) components.push({ key, data, ...(state !== undefined ? { state } : {}) });
  };
  // A topological change (elements removed or added, even with the state sizes kept) lives in the
  // containers' tables and every handler's per-element data, which no checkpoint holds: refuse,
  // naming the deepest node whose topology changed.
  let changedNode: string | undefined;
  for (const [n, rev] of baseline.topologyRevisions) {
    const key = baseline.keys.get(n)!;
    if (n.topologyRevision !== rev && (changedNode === undefined || key.length > changedNode.length)) changedNode = key;
  }
  if (changedNode !== undefined)
    throw new SofaError(
      `checkpoint: the topology of node ${changedNode} changed during the run: topological changes are not checkpointed`,
      { hint: 'take the checkpoint before the first topological change, or run the scene without checkpoints' },
    );
  for (const o of baseline.owners) {
    const key = baseline.keys.get(o)!;
    if (isNodeOwner(o)) {
      if (!nodesInScene.has(o))
        throw new SofaError(
          `checkpoint: ${describeOwner(o, key)} was removed from the scene during the run; a checkpoint needs the nodes the scene started with`,
        );
    } else {
      if (!inScene.has(o))
        throw new SofaError(
          `checkpoint: ${describeOwner(o, key)} was removed from the scene during the run; a checkpoint needs the components the scene started with`,
        );
      const size0 = baseline.stateSizes.get(o);
      if (size0 !== undefined && isMechanicalState(o) && o.size !== size0)
        throw new SofaError(
          `checkpoint: ${describeOwner(o, key)} has ${o.size} points, ${size0} before the first step: topological changes are not checkpointed`,
        );
    }
    save(o, key, (d) => changedSince(d, baseline));
  }
  // A created component: every Data written since its construction (its creator makes it again).
  for (const { obj, key } of created) save(obj, key, (d) => d.parent === undefined && d.version !== 0);
  // Two ODE solvers in one node each compile a system over the same states, which then show the
  // last one's values only: the first keeps values no checkpoint holds.
  root.visit((n) => {
    const solvers = n.objects.filter(isOdeSolver);
    if (solvers.length > 1)
      warnings.push(
        solvers[1].error(
          `${n.path} has ${solvers.length} ODE solvers (${solvers.map((o) => o.describe()).join(', ')}): each keeps values of its own system that the states no longer show, and the checkpoint does not hold them`,
          'a resumed run may differ from the uninterrupted one; keep one ODE solver per node',
        ),
      );
  });
  for (const obj of inScene) {
    if (keys.has(obj)) continue;
    warnings.push(
      obj.error(
        `created during the run (in ${obj.context.path}) and declared by no component: its state is not in the checkpoint`,
        'a resumed run may differ from the uninterrupted one',
      ),
    );
  }
  // The order of the objects of nodes that hold created components (it is the order of the rows,
  // the forces' sums, the events).
  const nodeOrder: CheckpointValue[] = [];
  if (created.length > 0) {
    root.visit((n) => {
      if (!n.objects.some((o) => !baseline.keys.has(o))) return;
      nodeOrder.push({ node: keys.get(n)!, objects: n.objects.filter((o) => keys.has(o)).map((o) => keys.get(o)!) });
    });
  }
  const simulation: CheckpointRecord = { stepCount: sim.stepCount, created: created.map((c) => c.key), nodeOrder };
  if (sim.divergence) simulation['divergence'] = { step: sim.divergence.step, time: sim.divergence.time };
  const checkpoint: SceneCheckpoint = {
    step: sim.stepCount,
    time: root.getTime(),
    identity: baseline.identity,
    components,
    simulation,
    extra: copyCheckpointValue(extra, 'extra') as CheckpointRecord,
  };
  return { checkpoint, warnings };
}

/** A Data changed during the run: not a follower of a link (its parent is saved), counter moved. */
function changedSince(d: Data<unknown>, baseline: SceneBaseline): boolean {
  if (d.parent !== undefined) return false;
  const v0 = baseline.versions.get(d);
  return v0 === undefined || d.version !== v0;
}

/**
 * The differences between the checkpoint's scene and this one, one line each (at most `max`):
 * components added, removed, of another class or template, Data of another value before the first
 * step (a changed attribute, mesh, or --dt). Empty when they are the same scene.
 */
export function identityDifferences(saved: readonly IdentityEntry[], current: readonly IdentityEntry[], max = 12): string[] {
  const out: string[] = [];
  const byKey = new Map(current.map((e) => [e.key, e]));
  const savedKeys = new Set(saved.map((e) => e.key));
  const what = (e: IdentityEntry): string => (e.cls === 'Node' ? `node ${e.key}` : `${e.key} (${e.cls})`);
  for (const s of saved) {
    const c = byKey.get(s.key);
    if (!c) {
      out.push(`${what(s)} is in the checkpoint's scene, not in this one`);
      continue;
    }
    if (c.cls !== s.cls) out.push(`${s.key} is a ${c.cls}, a ${s.cls} in the checkpoint's scene`);
    else if (c.template !== s.template) out.push(`${what(s)} has template '${c.template}', '${s.template}' in the checkpoint's scene`);
    else {
      const names = new Set([...Object.keys(s.data), ...Object.keys(c.data)]);
      const differ = [...names].filter((n) => s.data[n] !== c.data[n]);
      if (differ.length > 0)
        out.push(
          `${what(s)}: ${differ.length === 1 ? 'Data' : 'Data'} ${differ.map((n) => `'${n}'`).join(', ')} ${differ.length === 1 ? 'differs' : 'differ'} from the checkpoint's scene`,
        );
    }
  }
  for (const c of current) if (!savedKeys.has(c.key)) out.push(`${what(c)} is in this scene, not in the checkpoint's`);
  if (out.length > max) return [...out.slice(0, max), `… and ${out.length - max} more difference(s)`];
  return out;
}

/**
 * Puts a checkpoint back into the same scene, freshly loaded and initialised, before its first
 * step. The scene's identity is checked first: a checkpoint of another scene is refused with the
 * differences named. Then every saved Data is restored (arrays in place when they have the same
 * length, so live views stay live); the creators of components restore theirs (their Data and
 * records follow, and the objects of their nodes are put back in order); then every other
 * Checkpointable component's record, in document order. `source` names the checkpoint in messages.
 */
export function restoreCheckpoint(sim: Simulation, checkpoint: SceneCheckpoint, source = 'the checkpoint'): SofaError[] {
  if (sim.stepCount !== 0)
    throw new SofaError(
      `cannot restore ${source}: the simulation already ran ${sim.stepCount} step(s); restore into a freshly loaded scene`,
    );
  const baseline = sim.checkpointBaseline();
  const diff = identityDifferences(checkpoint.identity, baseline.identity);
  if (diff.length > 0) {
    throw new SofaErrors([
      new SofaError(`${source} was taken from another scene (or another version of it); refusing to restore it:`),
      ...diff.map((d) => new SofaError(`  ${d}`)),
    ]);
  }
  const damaged = (what: string): SofaError =>
    new SofaError(`${source}: ${what} (damaged checkpoint, or written by another version of sofa-ts)`);
  const byKey = new Map<string, Node | BaseObject>();
  for (const [o, k] of baseline.keys) byKey.set(k, o);
  const ctx: RestoreContext = {
    objectOf(key) {
      const o = byKey.get(key);
      if (!o || isNodeOwner(o)) throw damaged(`a record refers to component '${key}', which is not in the scene`);
      return o;
    },
    nodeOf(key) {
      const o = byKey.get(key);
      if (!o || !isNodeOwner(o)) throw damaged(`a record refers to node '${key}', which is not in the scene`);
      return o;
    },
    warn(o, detail) {
      warnings.push(o.error(`${source}: ${detail}`));
    },
  };
  const warnings: SofaError[] = [];
  const saved = new Map(checkpoint.components.map((c) => [c.key, c]));
  const restoreDataOf = (o: Node | BaseObject, c: ComponentCheckpoint): void => {
    const where = describeOwner(o, c.key);
    for (const s of c.data) {
      const d = o.dataFields.find((x) => x.spec.name === s.name);
      if (!d) throw damaged(`${where} has no Data '${s.name}'`);
      restoreData(d, s, where);
    }
  };
  const restoreStateOf = (o: Node | BaseObject, key: string): void => {
    const c = saved.get(key);
    const where = describeOwner(o, key);
    const cp = asCheckpointable(o, where);
    if (c?.state === undefined && !cp) return;
    if (c?.state === undefined) throw damaged(`${where} keeps hidden state that the checkpoint does not hold`);
    if (!cp) throw damaged(`${where} has a saved state but does not restore one`);
    cp.restoreState(new CheckpointReader(c.state, where), ctx);
  };
  for (const c of checkpoint.components) {
    const o = byKey.get(c.key);
    if (o) restoreDataOf(o, c);
    else if (!c.key.includes('::')) throw damaged(`${c.key} is not in the scene`);
  }
  // Creators first: they make their components again, which then get their Data and records.
  const sim0 = new CheckpointReader(checkpoint.simulation, 'simulation');
  const createdKeys = new Set(sim0.list('created').map((k) => String(k)));
  const creators = baseline.owners.filter((o) => asCheckpointable(o, '')?.checkpointOwnedComponents);
  for (const o of creators) {
    const key = baseline.keys.get(o)!;
    restoreStateOf(o, key);
    let i = 0;
    for (const c of asCheckpointable(o, key)!.checkpointOwnedComponents!()) {
      const ck = ownedKey(key, i++);
      if (!createdKeys.has(ck)) throw damaged(`${describeOwner(o, key)} made a component the checkpoint does not have (${c.describe()})`);
      byKey.set(ck, c);
    }
  }
  for (const k of createdKeys) {
    const o = byKey.get(k);
    if (!o) throw damaged(`the component created during the run as '${k}' was not made again by its creator`);
    const c = saved.get(k);
    if (c) restoreDataOf(o, c);
    restoreStateOf(o, k);
  }
  for (const r of sim0.records('nodeOrder'))
    reorderNode(
      ctx.nodeOf(r.string('node')),
      r.list('objects').map((k) => byKey.get(String(k))),
      damaged,
    );
  const creatorSet = new Set(creators);
  for (const o of baseline.owners) if (!creatorSet.has(o)) restoreStateOf(o, baseline.keys.get(o)!);
  sim.restoreCounters(sim0);
  return warnings;
}

/** Puts the objects of a node in the saved order (created components among the scene's). */
function reorderNode(node: Node, order: readonly (Node | BaseObject | undefined)[], damaged: (what: string) => SofaError): void {
  const objects = node.objects as BaseObject[];
  if (order.length !== objects.length || order.some((o) => o === undefined || !objects.includes(o as BaseObject))) {
    throw damaged(`the objects of node ${node.path} are not those of the checkpoint`);
  }
  objects.splice(0, objects.length, ...(order as BaseObject[]));
}

function restoreData(d: Data<unknown>, s: SavedData, where: string): void {
  try {
    if ('t' in s.value) d.read(s.value.t);
    else {
      const v = s.value.v;
      const cur = d.rawValue;
      if (
        isCheckpointTypedArray(v) &&
        isCheckpointTypedArray(cur) &&
        typedArrayKind(cur) === typedArrayKind(v) &&
        cur.length === v.length
      ) {
        (cur as unknown as { set(a: ArrayLike<number>): void }).set(v);
        d.touch();
      } else {
        d.value = isCheckpointTypedArray(v) ? copyTypedArray(v) : v;
      }
    }
  } catch (e) {
    throw new SofaError(`checkpoint: ${where}: cannot restore Data '${s.name}': ${e instanceof Error ? e.message : String(e)}`, {
      cause: e,
    });
  }
  d.isSet = s.isSet;
}
