import {
  BaseForceField,
  Real,
  addBlock3,
  contextMeshTopology,
  isTopology,
  type BaseMechanicalState,
  type BaseMeshTopology,
  type MatrixAccumulator,
} from '@sofa-ts/core';
import { mstateLink } from '../../state-link.js';

/**
 * What SOFA's tensor-mass force fields share (TriangularTensorMassForceField,
 * TetrahedralTensorMassForceField): linear elasticity in small displacements stored as one 3×3
 * tensor M per edge (v0, v1) of the topology, summed over the elements around the edge:
 *   f_v1 += M·(u1 − u0),  f_v0 −= Mᵀ·(u1 − u0),  u = x − X (X the rest positions at init),
 * so K has the blocks (v1, v1) = M, (v1, v0) = −M, (v0, v0) = Mᵀ, (v0, v1) = −Mᵀ; the energy is
 * −½·Σ f·u. Subclasses fill the edge tensors at init from their elements (addEdgeTensor).
 */
export abstract class EdgeTensorForceField extends BaseForceField {
  readonly mstate = this.initLink(mstateLink());
  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'the topology giving the elements and their edges (default: the one of this node or an ancestor)',
    accepts: isTopology,
    expected: 'a topology',
  });
  readonly poissonRatio = this.initData({ name: 'poissonRatio', type: Real, default: 0.3, help: "Poisson's ratio in Hooke's law" });
  readonly youngModulus = this.initData({
    name: 'youngModulus',
    type: Real,
    default: 1000,
    unit: 'Pa',
    help: "Young's modulus in Hooke's law",
  });

  private states: BaseMechanicalState[] = [];
  /** Edges (nE × 2) and their tensors (nE × 9, row-major), N/m. */
  protected edges = new Uint32Array(0);
  protected tensors = new Float64Array(0);
  /** Rest positions at init (n × 3), m. */
  protected rest = new Float64Array(0);
  private edgeIndex = new Map<number, number>();
  private readonly blk = new Float64Array(9);

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  /** Fills the edge tensors from the elements of the topology and the rest positions. */
  protected abstract buildTensors(topo: BaseMeshTopology, X: Float64Array): void;

  override init(): void {
    const s = this.mstate.require();
    if (s.stateType.isRigid || s.stateType.derivSize !== 3) throw this.error(`needs a Vec3d state (got ${s.stateType.name})`);
    this.states = [s];
    if (!this.template) this.template = s.stateType.name;
    const topo = this.topology.get() ?? contextMeshTopology(this.context);
    if (!topo) throw this.error('no topology: put a topology in the node (or set topology="@path")');
    this.topology.set(topo);
    this.edges = Uint32Array.from(topo.getEdges());
    for (const v of this.edges)
      if (v >= s.size) throw this.error(`the topology names point ${v}, but ${s.describe()} has ${s.size} points`);
    this.tensors = new Float64Array((9 * this.edges.length) / 2);
    this.edgeIndex.clear();
    const n = s.size;
    for (let e = 0; e < this.edges.length / 2; e++) {
      const a = this.edges[2 * e],
        b = this.edges[2 * e + 1];
      this.edgeIndex.set(Math.min(a, b) * n + Math.max(a, b), e);
    }
    this.rest = Float64Array.from(s.x0);
    this.buildTensors(topo, this.rest);
  }

  /**
   * Adds the tensor T (9, row-major) of the element edge from point p to point q, T being the
   * coupling such that f_q += T·(u_q − u_p): stored as is when the topology's edge is (p, q), as
   * Tᵀ when it is (q, p).
   */
  protected addEdgeTensor(p: number, q: number, T: ArrayLike<number>): void {
    const n = this.states[0].size;
    const e = this.edgeIndex.get(Math.min(p, q) * n + Math.max(p, q));
    if (e === undefined) throw this.error(`the topology has no edge (${p}, ${q}) of its elements`);
    const o = 9 * e,
      t = this.tensors;
    if (this.edges[2 * e] === p) for (let k = 0; k < 9; k++) t[o + k] += T[k];
    else for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) t[o + 3 * r + c] += T[3 * c + r];
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], _v: readonly Float64Array[]): void {
    this.accumulate(f[0], x[0], this.rest, 1);
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const k = this.kFactorWithRayleigh(kFactor, bFactor);
    if (k !== 0) this.accumulate(df[0], dx[0], undefined, k);
  }

  /** out += factor·(the edge forces of u = x − x0, or of x itself when x0 is undefined). */
  private accumulate(out: Float64Array, x: Float64Array, x0: Float64Array | undefined, factor: number): void {
    const E = this.edges,
      T = this.tensors;
    for (let e = 0; e < E.length / 2; e++) {
      const a = 3 * E[2 * e],
        b = 3 * E[2 * e + 1],
        o = 9 * e;
      const d0 = (x[b] - x[a] - (x0 ? x0[b] - x0[a] : 0)) * factor;
      const d1 = (x[b + 1] - x[a + 1] - (x0 ? x0[b + 1] - x0[a + 1] : 0)) * factor;
      const d2 = (x[b + 2] - x[a + 2] - (x0 ? x0[b + 2] - x0[a + 2] : 0)) * factor;
      for (let r = 0; r < 3; r++) {
        out[b + r] += T[o + 3 * r] * d0 + T[o + 3 * r + 1] * d1 + T[o + 3 * r + 2] * d2;
        out[a + r] -= T[o + r] * d0 + T[o + 3 + r] * d1 + T[o + 6 + r] * d2;
      }
    }
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    const E = this.edges,
      T = this.tensors,
      blk = this.blk;
    for (let e = 0; e < E.length / 2; e++) {
      const a = 3 * E[2 * e],
        b = 3 * E[2 * e + 1],
        o = 9 * e;
      for (let k = 0; k < 9; k++) blk[k] = T[o + 3 * (k % 3) + Math.floor(k / 3)]; // Mᵀ
      addBlock3(acc, a, a, blk, 0, kFactor);
      addBlock3(acc, a, b, blk, 0, -kFactor);
      addBlock3(acc, b, a, T, o, -kFactor);
      addBlock3(acc, b, b, T, o, kFactor);
    }
  }

  /** −½·Σ f·u at positions x (the elastic energy ½·uᵀKu of the linear model). */
  override getPotentialEnergy(x: readonly Float64Array[]): number {
    const p = x[0],
      u = Float64Array.from(p, (v, i) => v - this.rest[i]),
      f = new Float64Array(p.length);
    this.accumulate(f, p, this.rest, 1);
    let e = 0;
    for (let i = 0; i < p.length; i++) e -= f[i] * u[i];
    return e / 2;
  }
}
