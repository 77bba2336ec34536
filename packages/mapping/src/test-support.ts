/**
 * Helpers shared by the mapping *.spec.ts files (not exported from the package): stub states and
 * topologies, a seeded random generator, and the generic checks every mapping must pass
 * (J = finite differences of apply, applyJ = J·u, applyJT = Jᵀ).
 */
import { expect } from 'chai';
import {
  ArrayMechanicalState,
  BaseMechanicalState,
  BaseMeshTopology,
  Node,
  sofaComponent,
  type GridDescription,
  type MatrixAccumulator,
  type SparseMatrixLike,
  type StateType,
} from '@sofa-ts/core';
import type { MappingComponent } from './mapping-component.js';

/** Deterministic uniform [0, 1) generator (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A mechanical state holding plain arrays (core's ArrayMechanicalState). */
export class StubState extends ArrayMechanicalState {
  constructor(type: StateType, x: ArrayLike<number>, name = 'state') {
    super(type, x, { name });
  }
}

/** A topology with given element arrays (a MeshTopology-like container). */
@sofaComponent({ name: 'StubMeshTopology', category: 'Topology', description: 'test topology' })
export class StubTopology extends BaseMeshTopology {
  edges: Uint32Array = new Uint32Array(0);
  triangles: Uint32Array = new Uint32Array(0);
  quads: Uint32Array = new Uint32Array(0);
  tetrahedra: Uint32Array = new Uint32Array(0);
  hexahedra: Uint32Array = new Uint32Array(0);
  positions: Float64Array | undefined;
  grid: GridDescription | undefined;
  constructor(init: Partial<Pick<StubTopology, 'edges' | 'triangles' | 'quads' | 'tetrahedra' | 'hexahedra' | 'positions' | 'grid'>> = {}) {
    super();
    Object.assign(this, init);
  }
  getNbPoints(): number {
    return (this.positions?.length ?? 0) / 3;
  }
  getPositions(): Float64Array | undefined {
    return this.positions;
  }
  getEdges(): Uint32Array {
    return this.edges;
  }
  getTriangles(): Uint32Array {
    return this.triangles;
  }
  getQuads(): Uint32Array {
    return this.quads;
  }
  getTetrahedra(): Uint32Array {
    return this.tetrahedra;
  }
  getHexahedra(): Uint32Array {
    return this.hexahedra;
  }
  override getGrid(): GridDescription | undefined {
    return this.grid;
  }
}

/** A dynamic set container, as SOFA's TetrahedronSetTopologyContainer (the class name selects the mapper). */
@sofaComponent({ name: 'TetrahedronSetTopologyContainer', category: 'Topology', description: 'test set container' })
export class StubSetContainer extends StubTopology {}

/**
 * Scene of a mapping: root node holding the input state (and its topology), a child node holding
 * the output and the mapping, links set explicitly; the mapping is initialised.
 */
export function mount<M extends MappingComponent>(
  mapping: M,
  from: StubState,
  to: BaseMechanicalState | import('@sofa-ts/core').BaseObject,
  topology?: BaseMeshTopology,
): M {
  const root = new Node('root');
  root.addObject(from);
  if (topology) root.addObject(topology);
  const child = root.createChild('mapped');
  child.addObject(to);
  child.addObject(mapping);
  mapping.input.set(from);
  mapping.output.set(to as never);
  mapping.init();
  return mapping;
}

/** Dense copy of a CSR matrix. */
export function dense(J: SparseMatrixLike): number[][] {
  const A = Array.from({ length: J.rows }, () => new Array<number>(J.cols).fill(0));
  for (let r = 0; r < J.rows; r++) for (let p = J.rowPtr[r]; p < J.rowPtr[r + 1]; p++) A[r][J.colInd[p]] += J.values[p];
  return A;
}

/** The CSR invariants the engine relies on: sizes, monotone row pointers, sorted distinct columns in range. */
export function expectValidCsr(J: SparseMatrixLike, rows: number, cols: number): void {
  expect(J.rows).to.equal(rows);
  expect(J.cols).to.equal(cols);
  expect(J.rowPtr.length).to.equal(rows + 1);
  for (let r = 0; r < rows; r++) {
    expect(J.rowPtr[r + 1]).to.be.at.least(J.rowPtr[r]);
    for (let p = J.rowPtr[r]; p < J.rowPtr[r + 1]; p++) {
      expect(J.colInd[p]).to.be.within(0, cols - 1);
      if (p > J.rowPtr[r]) expect(J.colInd[p]).to.be.above(J.colInd[p - 1]);
    }
  }
}

/** q ← exp(θ·e_axis / 2) ⊗ q: a world-frame rotation of angle θ about one axis of the frame at xin[off..]. */
export function rotateFrame(x: Float64Array, off: number, axis: number, theta: number): void {
  const s = Math.sin(theta / 2),
    c = Math.cos(theta / 2);
  const ax = axis === 0 ? s : 0,
    ay = axis === 1 ? s : 0,
    az = axis === 2 ? s : 0;
  const bx = x[off],
    by = x[off + 1],
    bz = x[off + 2],
    bw = x[off + 3];
  x[off] = c * bx + ax * bw + ay * bz - az * by;
  x[off + 1] = c * by - ax * bz + ay * bw + az * bx;
  x[off + 2] = c * bz + ax * by - ay * bx + az * bw;
  x[off + 3] = c * bw - ax * bx - ay * by - az * bz;
}

/** x ⊕ h·e_j in derivative coordinates j (rigid rotations as world-frame rotations). */
export function perturb(type: StateType, x: Float64Array, j: number, h: number): void {
  const d = type.derivSize;
  const p = Math.floor(j / d);
  const a = j % d;
  if (type.name === 'Rigid3d') {
    if (a < 3) x[7 * p + a] += h;
    else rotateFrame(x, 7 * p + 3, a - 3, h);
  } else {
    x[p * type.coordSize + a] += h;
  }
}

/** Output positions of a mechanical or visual output. */
function outPositions(to: BaseMechanicalState | import('@sofa-ts/core').BaseObject): Float64Array {
  return 'x' in to ? (to as BaseMechanicalState).x : (to.findData('position')!.value as Float64Array);
}

/**
 * J (from getJ after apply) against central differences of apply, column by column, and applyJ
 * against J·u for a random u. `outDeriv` maps output coordinates to derivative coordinates (identity
 * for Vec outputs).
 */
export function checkJacobian(
  mapping: MappingComponent,
  from: StubState,
  to: BaseMechanicalState | import('@sofa-ts/core').BaseObject,
  seed: number,
  h = 1e-6,
  tol = 1e-7,
): void {
  const type = from.stateType;
  const x = from.x;
  const base = Float64Array.from(x);
  mapping.apply();
  const J = dense(mapping.getJ(0));
  const nOutD = J.length;
  const nInD = from.size * type.derivSize;
  expect(J[0]?.length ?? nInD).to.equal(nInD);
  for (let j = 0; j < nInD; j++) {
    x.set(base);
    perturb(type, x, j, h);
    mapping.apply();
    const plus = Float64Array.from(outPositions(to));
    x.set(base);
    perturb(type, x, j, -h);
    mapping.apply();
    const minus = outPositions(to);
    for (let r = 0; r < nOutD; r++) {
      const fd = (plus[r] - minus[r]) / (2 * h);
      expect(Math.abs(fd - J[r][j]), `J[${r}][${j}] = ${J[r][j]} vs finite difference ${fd}`).to.be.below(tol * Math.max(1, Math.abs(fd)));
    }
  }
  x.set(base);
  mapping.apply();
  // applyJ(u) = J·u
  const r = rng(seed);
  const u = Float64Array.from({ length: nInD }, () => 2 * r() - 1);
  const out = new Float64Array(nOutD);
  mapping.applyJ(out, [u]);
  for (let i = 0; i < nOutD; i++) {
    const ju = J[i].reduce((s, v, k) => s + v * u[k], 0);
    expect(out[i]).to.be.closeTo(ju, 1e-12 * Math.max(1, Math.abs(ju)));
  }
}

/** ⟨J·u, w⟩ = ⟨u, Jᵀ·w⟩ for random u, w (applyJT accumulates into a non-zero start as well). */
export function checkTranspose(mapping: MappingComponent, nInD: number, nOutD: number, seed: number): void {
  const r = rng(seed);
  const u = Float64Array.from({ length: nInD }, () => 2 * r() - 1);
  const w = Float64Array.from({ length: nOutD }, () => 2 * r() - 1);
  const start = Float64Array.from({ length: nInD }, () => 2 * r() - 1);
  const ju = new Float64Array(nOutD);
  mapping.applyJ(ju, [u]);
  const jtw = Float64Array.from(start);
  mapping.applyJT([jtw], w);
  let lhs = 0;
  for (let i = 0; i < nOutD; i++) lhs += ju[i] * w[i];
  let rhs = 0;
  for (let i = 0; i < nInD; i++) rhs += u[i] * (jtw[i] - start[i]);
  expect(lhs).to.be.closeTo(rhs, 1e-10 * Math.max(1, Math.abs(lhs)));
}

/** Collects emitted entries as a dense matrix. */
export class DenseAccumulator implements MatrixAccumulator {
  readonly A: number[][];
  readonly order: Array<[number, number]> = [];
  constructor(n: number) {
    this.A = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  }
  add(row: number, col: number, value: number): void {
    this.A[row][col] += value;
    this.order.push([row, col]);
  }
}
