import {
  RealArray,
  isMechanicalState,
  isTopology,
  stateTypeOf,
  type BaseObject,
  type Data,
  type DataType,
  type StateType,
} from '@sofa-ts/core';
import { isMeshLoader } from '@sofa-ts/topology';

/**
 * Shared pieces of the engines: the Data types they exchange, SOFA's rules for the inputs an
 * engine takes from its context when the scene leaves them empty, and small vector helpers.
 */

/** A vector of coordinates of the engine's template (Vec3d: 3 numbers per point, Rigid3d: 7). */
export const Coords: DataType<Float64Array> = RealArray(0, 'vector<Coord>');
/** A vector of 3D vectors. */
export const Vec3s: DataType<Float64Array> = RealArray(3, 'vector<Vec3d>');
/** A vector of reals. */
export const Reals: DataType<Float64Array> = RealArray(1, 'vector<double>');
/** A 4×4 matrix, row-major (SOFA's Mat4x4d, printed row by row). */
export const Mat4: DataType<Float64Array> = RealArray(16, 'Mat4x4d');

export const IDENTITY4 = Float64Array.of(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1);

/** Given by the scene: a value or a link. */
export function isGiven(d: Data<unknown>): boolean {
  return d.isSet || d.linkPath !== undefined || d.parent !== undefined;
}

/** The StateType of an engine's template, the node's state's when the scene gives none (else Vec3d). */
export function engineStateType(engine: BaseObject, accepted?: readonly string[]): StateType {
  if (!engine.template) {
    const local = engine.context.getObject(isMechanicalState, 'local');
    const fromState = local?.stateType.name;
    engine.template = fromState && (!accepted || accepted.includes(fromState)) ? fromState : 'Vec3d';
  }
  const t = stateTypeOf(engine.template);
  if (!t) throw engine.error(`template '${engine.template}' is not a state template (Vec1d, Vec2d, Vec3d, Rigid2d, Rigid3d, ...)`);
  return t;
}

/** Where an engine finds the positions the scene did not give (SOFA's engines differ in this). */
export interface PositionSource {
  /** The state's Data to follow: SOFA's ROIs take rest_position, some engines position. */
  readonly stateData: 'rest_position' | 'position';
  /**
   * 'local-then-up' (BaseROI, PairBoxROI): a state of the node, else a loader of the node, else a
   * state above. 'up' (SubsetTopology, PlaneROI, ValuesFromPositions): the first state of the node
   * or above, else the first loader of the node or above.
   */
  readonly search: 'local-then-up' | 'up';
  /** Not found: an error (true) or the Data stays empty (false). */
  readonly required: boolean;
  /** What the positions are for, in the error message ("select from"). */
  readonly purpose?: string;
  /**
   * The engine's coordinate type: a state of another type (a Rigid3d ROI on a Vec3d body, as
   * Tripod's SphereROI) is converted element by element, as SOFA's Data link between two vector
   * types does (BaseData::genericCopyValueFrom: each element takes the first numbers it has room for).
   */
  readonly coordType?: StateType;
}

/**
 * positions ← a context Data when the scene left it empty; returns the owner followed, if any.
 * A loader is followed through its `position` Data.
 */
export function followContextPositions(engine: BaseObject, positions: Data<Float64Array>, src: PositionSource): string | undefined {
  if (isGiven(positions)) return undefined;
  const node = engine.context;
  const follow = (owner: BaseObject, name: string): string => {
    const d = owner.findData(name);
    if (!d) throw engine.error(`${owner.describe()} has no '${name}' Data to take the positions from`);
    const from = isMechanicalState(owner) ? owner.stateType : undefined;
    if (src.coordType && from && from.coordSize !== src.coordType.coordSize) {
      engine.warn(
        `takes its positions from ${owner.describe()} (${from.name}) for its ${src.coordType.name} template: each point is converted element by element, as SOFA's Data link does`,
      );
      followConverted(positions, d as Data<Float64Array>, from, src.coordType);
    } else positions.setParent(d);
    return owner.describe();
  };
  if (src.search === 'local-then-up') {
    const local = node.getObject(isMechanicalState, 'local');
    if (local) return follow(local, src.stateData);
    const loader = node.getObject(isMeshLoader, 'local');
    if (loader) return follow(loader, 'position');
    const above = node.getObject(isMechanicalState, 'up');
    if (above) return follow(above, src.stateData);
  } else {
    const state = node.getObject(isMechanicalState, 'up');
    if (state) return follow(state, src.stateData);
    const loader = node.getObject(isMeshLoader, 'up');
    if (loader) return follow(loader, 'position');
  }
  if (src.required) {
    throw engine.error(
      `no positions to ${src.purpose ?? 'work on'}: the scene gives none, and there is no mechanical state or mesh loader ${src.search === 'up' ? 'in this node or above' : 'in this node, and no mechanical state above'}`,
      `set ${positions.name}='@path.position' or add a MechanicalObject before the ${engine.className}`,
    );
  }
  return undefined;
}

/** positions ← `source` converted from `from` coordinates to `to` ones, refreshed when the source changes. */
function followConverted(positions: Data<Float64Array>, source: Data<Float64Array>, from: StateType, to: StateType): void {
  let seen = -1;
  const copy = Math.min(from.coordSize, to.coordSize);
  positions.setReadHook(() => {
    if (source.counter === seen) return;
    seen = source.counter;
    const x = source.value;
    const n = Math.floor(x.length / from.coordSize);
    const out = new Float64Array(n * to.coordSize);
    for (let i = 0; i < n; i++) {
      to.setDefaultCoord(out, i);
      for (let k = 0; k < copy; k++) out[i * to.coordSize + k] = x[i * from.coordSize + k];
    }
    positions.value = out;
  });
}

/**
 * Element lists the scene did not give follow the same-named Data of the context topology
 * ('local': the node's first topology; 'up': the first in the node or above). A pair whose flag is
 * false is left alone (SOFA's computeEdges, computeTriangles, ... flags). `lazy`: each list is
 * copied at its first read, not now (Data.setParent).
 */
export function followContextTopology(
  engine: BaseObject,
  lists: ReadonlyArray<readonly [Data<Uint32Array>, string, boolean?]>,
  search: 'local' | 'up',
  lazy = false,
): void {
  const topo = engine.context.getObject(isTopology, search);
  if (!topo) return;
  for (const [d, name, enabled] of lists) {
    if (isGiven(d) || enabled === false) continue;
    const parent = topo.findData(name);
    if (parent) d.setParent(parent, lazy);
  }
}

/** Checks that every index of `elems` names one of `n` points; throws a located error otherwise. */
export function checkIndices(engine: BaseObject, elems: ArrayLike<number>, n: number, what: string): void {
  for (let i = 0; i < elems.length; i++) {
    if (elems[i] >= n) throw engine.error(`${what}: index ${elems[i]} is out of range (${n} points)`);
  }
}

/** The number of coordinates per point of `x` under template t, checked. */
export function pointCount(engine: BaseObject, x: Float64Array, size: number, what: string): number {
  if (size <= 0 || x.length % size !== 0) throw engine.error(`'${what}' has ${x.length} numbers, not a multiple of ${size}`);
  return x.length / size;
}

/**
 * SOFA's vectorData: a numbered family of Data (`input1`, `input2`, …) whose count another Data
 * sets (nbInputs, nbMeshes). Members are created on demand — when the scene names one or when the
 * count grows — through `create`, which declares the Data on the engine.
 */
export class DataVector<T> {
  readonly items: Data<T>[] = [];

  constructor(
    readonly base: string,
    private readonly create: (name: string, index: number) => Data<T>,
    initial = 0,
  ) {
    this.resize(initial);
  }

  /** Makes members 1 … n exist (members past n are kept, as SOFA keeps the Data). */
  resize(n: number): void {
    while (this.items.length < n) this.items.push(this.create(`${this.base}${this.items.length + 1}`, this.items.length));
  }

  /** The member called `name` (`input3`), created if needed; undefined for another name. */
  find(name: string): Data<T> | undefined {
    if (!name.startsWith(this.base)) return undefined;
    const m = /^(\d+)$/.exec(name.slice(this.base.length));
    if (!m) return undefined;
    const k = Number(m[1]);
    if (k < 1 || k > 10000) return undefined;
    this.resize(k);
    return this.items[k - 1];
  }
}

/** The generator's state grows by this at each draw: after n draws it is seed + n·SEED_INCREMENT (mod 2³²). */
export const SEED_INCREMENT = 0x6d2b79f5;

/** A small seeded generator of uniform numbers in [0, 1) (mulberry32): reproducible draws for the random engines. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + SEED_INCREMENT) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
