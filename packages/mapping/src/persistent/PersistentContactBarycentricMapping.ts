import {
  NAME_OF_INPUT_MAP,
  AnimateEndEvent,
  contextMeshTopology,
  sofaComponent,
  type BaseMechanicalState,
  type PersistentContactMapping,
  type SofaEvent,
} from '@sofa-ts/core';
import { BarycentricMapping } from '../BarycentricMapping.js';
import { BarycentricMapBuilder } from '../barycentric/barycentric-map.js';
import { addElementTerms, elementFrames, elementScore } from '../barycentric/elements.js';
import { persistentOutputChanged } from './persistent-output.js';

/**
 * SOFA's PersistentContactBarycentricMapping (plugin PersistentContact; Vec3d → Vec3d): a
 * BarycentricMapping whose output holds the contact points of a PersistentFrictionContact, each
 * attached to the material of the input body by its tetrahedron e and barycentric coordinates
 * f = (f0, f1, f2):
 *   x_out = (1 − f0 − f1 − f2)·x_a + f0·x_b + f1·x_c + f2·x_d    (tetrahedron (a, b, c, d))
 *   J = [φ_k·I₃] (constant while the points stay)
 * A new contact point p is located as SOFA's persistent mapper does, over every tetrahedron of the
 * input topology at the input's current positions: f = B·(p − x_a) with B the inverse of the
 * tetrahedron's edge frame, score max(−f0, −f1, −f2, f0 + f1 + f2 − 1) (≤ 0 inside), a score > 0
 * replaced by the squared distance to the tetrahedron's centre; the smallest score wins (the first
 * on ties). A kept point takes its (e, f) of the last step again: it stays at the same material
 * point while its contact sticks. The points are stored at AnimateEndEvent for the next step.
 * The output's initial points are mapped as by BarycentricMapping (SOFA's base init) until the
 * first contact. Inputs without tetrahedra (SOFA's sparse-grid and surface persistent mappers)
 * are refused at init. `nameOfInputMap` names the BarycentricMapping of the collision model whose
 * contacts this mapping serves.
 */
@sofaComponent({
  name: 'PersistentContactBarycentricMapping',
  category: 'Mapping',
  module: 'PersistentContact',
  description: 'Mapping using barycentric coordinates of the child with respect to cells of its parent',
  templates: ['Vec3d,Vec3d'],
})
export class PersistentContactBarycentricMapping extends BarycentricMapping implements PersistentContactMapping {
  readonly isPersistentContactMapping = true as const;
  readonly nameOfInputMap = this.initData(NAME_OF_INPUT_MAP);

  /** Tetrahedra of the input topology (4 per element). */
  private tets: Uint32Array = new Uint32Array(0);
  /** Per tetrahedron, B (9) and its centre (3), computed at the first new point of a step. */
  private bases = new Float64Array(0);
  private centers = new Float64Array(0);
  private basesValid = false;
  /** This step's points: tetrahedron and coordinates (3 each); and the last step's, stored at AnimateEndEvent. */
  private elem = new Int32Array(8);
  private coord = new Float64Array(24);
  private count = 0;
  private storedElem = new Int32Array(0);
  private storedCoord = new Float64Array(0);
  /** True between the first beginAddContactPoint of a step and AnimateEndEvent (SOFA's m_init). */
  private begun = false;
  /** The points the output and J were built for (to tell the compiled systems only when they change). */
  private builtElem = new Int32Array(0);
  private builtCoord = new Float64Array(0);
  /** The local coordinates of a point in the element being tried. */
  private readonly scratch = new Float64Array(3);
  readonly checkpointFields: readonly string[] = ['elem', 'coord', 'count', 'storedElem', 'storedCoord', 'begun'];

  override init(): void {
    super.init();
    const topo = contextMeshTopology(this.from.context) ?? this.inputTopology.get();
    const tets = topo?.getTetrahedra() ?? new Uint32Array(0);
    if (tets.length === 0)
      throw this.error(
        `the input topology ${topo ? topo.describe() : '(none)'} has no tetrahedra: sofa-ts's persistent contact points are located in tetrahedra only (SOFA also has sparse-grid and surface persistent mappers)`,
        'give the input state a TetrahedronSetTopologyContainer (e.g. from a Hexa2TetraTopologicalMapping)',
      );
    this.tets = tets;
    const nEl = tets.length / 4;
    this.bases = new Float64Array(9 * nEl);
    this.centers = new Float64Array(3 * nEl);
  }

  beginAddContactPoint(): void {
    if (this.begun) return;
    this.begun = true;
    this.count = 0;
    this.basesValid = false;
  }

  addContactPointFromInputMapping(px: number, py: number, pz: number): number {
    const x = this.from.x;
    const tets = this.tets;
    const nEl = tets.length / 4;
    if (!this.basesValid) {
      elementFrames(this.bases, this.centers, 'tetrahedron', x, tets, nEl);
      this.basesValid = true;
    }
    const f = this.scratch;
    let best = -1,
      distance = 1e10,
      f0 = 0,
      f1 = 0,
      f2 = 0;
    for (let e = 0; e < nEl; e++) {
      const d = elementScore(f, 'tetrahedron', this.bases, this.centers, x, tets, e, px, py, pz);
      if (d < distance) {
        distance = d;
        best = e;
        f0 = f[0];
        f1 = f[1];
        f2 = f[2];
      }
    }
    return this.push(best, f0, f1, f2);
  }

  keepContactPointFromInputMapping(index: number): number {
    if (index < 0 || index >= this.storedElem.length) {
      this.warn(
        `a kept contact point refers to point ${index}, which the last step did not store (SOFA reports the same error and uses point 0)`,
      );
      return 0;
    }
    return this.push(this.storedElem[index], this.storedCoord[3 * index], this.storedCoord[3 * index + 1], this.storedCoord[3 * index + 2]);
  }

  private push(e: number, f0: number, f1: number, f2: number): number {
    const i = this.count++;
    if (this.elem.length < this.count) {
      const elem = new Int32Array(2 * this.count);
      elem.set(this.elem);
      const coord = new Float64Array(6 * this.count);
      coord.set(this.coord);
      this.elem = elem;
      this.coord = coord;
    }
    this.elem[i] = e;
    this.coord[3 * i] = f0;
    this.coord[3 * i + 1] = f1;
    this.coord[3 * i + 2] = f2;
    return i;
  }

  /** The points of this step as (tetrahedron, coordinates) (for tests and tools). */
  get contactPoints(): { count: number; element: Int32Array; coordinates: Float64Array } {
    return { count: this.count, element: this.elem.subarray(0, this.count), coordinates: this.coord.subarray(0, 3 * this.count) };
  }

  applyPositionAndFreePosition(): void {
    const n = this.count;
    const elem = this.elem.subarray(0, n),
      coord = this.coord.subarray(0, 3 * n);
    const to = this.getTo()!;
    if (!sameInt(elem, this.builtElem) || !sameReal(coord, this.builtCoord) || to.size !== n) {
      const b = new BarycentricMapBuilder();
      for (let i = 0; i < n; i++)
        addElementTerms(b, 'tetrahedron', this.tets, elem[i], coord[3 * i], coord[3 * i + 1], coord[3 * i + 2], false);
      this.map = b.build(this.from.size);
      this.builtElem = Int32Array.from(elem);
      this.builtCoord = Float64Array.from(coord);
      persistentOutputChanged(this, to, n);
    }
    // x = φ(x_in), v = J·v_in, and the same for the free motion
    this.map.apply(to.x, this.from.x);
    this.map.apply(to.v, this.from.v);
    ensureFree(to, this.from);
    this.map.apply(to.xFree, this.from.xFree);
    this.map.apply(to.vFree, this.from.vFree);
    to.touch();
  }

  override handleEvent(event: SofaEvent): void {
    if (!(event instanceof AnimateEndEvent)) return;
    // SOFA's storeBarycentricData: the points of the step, for the contacts kept at the next one
    this.storedElem = Int32Array.from(this.elem.subarray(0, this.count));
    this.storedCoord = Float64Array.from(this.coord.subarray(0, 3 * this.count));
    this.begun = false;
  }

  override reset(): void {
    this.count = 0;
    this.storedElem = new Int32Array(0);
    this.storedCoord = new Float64Array(0);
    this.begun = false;
  }
}

function sameInt(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sameReal(a: Float64Array, b: Float64Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The output's free vectors sized as its state (the input's exist once a free motion ran). */
export function ensureFree(to: BaseMechanicalState, from: BaseMechanicalState): void {
  const t = to.stateType;
  if (to.xFree.length !== to.size * t.coordSize) to.xFree = new Float64Array(to.size * t.coordSize);
  if (to.vFree.length !== to.size * t.derivSize) to.vFree = new Float64Array(to.size * t.derivSize);
  const f = from.stateType;
  if (from.xFree.length !== from.size * f.coordSize) from.xFree = Float64Array.from(from.x);
  if (from.vFree.length !== from.size * f.derivSize) from.vFree = Float64Array.from(from.v);
}
