import {
  contextMeshTopology,
  BaseForceField,
  Bool,
  Real,
  isTopology,
  sofaComponent,
  type BaseMechanicalState,
  type BaseMeshTopology,
  type MatrixAccumulator,
} from '@sofa-ts/core';
import { mstateLink } from '../state-link.js';

/**
 * SOFA's TriangularBendingSprings: against bending of a triangle surface, a spring joins the two
 * vertices opposite an edge shared by exactly two triangles (edges on the border or shared by more
 * triangles get none). The rest length is the distance of the two vertices at rest. With
 * a = the vertex of the later triangle, b = the vertex of the earlier one, u = x_b − x_a, d = |u|,
 * û = u/d:
 *   f = ks·(d − L) + kd·û·(v_b − v_a),   F_a += f·û,  F_b −= f·û
 *   ∂F_a/∂x_b = (ks − f/d)·û·ûᵀ + (f/d)·I  =: m,   K = [−m  m; m  −m]
 * A spring shorter than 1e-4 exerts nothing. Damping enters the force only (as in SOFA). Springs
 * are kept in the order of the topology's edges.
 */
@sofaComponent({
  name: 'TriangularBendingSprings',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.Spring',
  description: 'Springs between the opposite vertices of adjacent triangles, against bending.',
  templates: ['Vec3d'],
})
export class TriangularBendingSprings extends BaseForceField {
  readonly stiffness = this.initData({ name: 'stiffness', type: Real, default: 100000, unit: 'N/m', help: 'uniform stiffness of all the springs' });
  readonly damping = this.initData({ name: 'damping', type: Real, default: 1, unit: 'N·s/m', help: 'uniform damping of all the springs' });
  readonly showSprings = this.initData({ name: 'showSprings', type: Bool, default: true, help: 'draw the springs', group: 'Visualization' });

  readonly mstate = this.initLink(mstateLink());
  readonly topology = this.initLink<BaseMeshTopology>({ name: 'topology', help: 'the triangle topology (default: the one of this node or an ancestor)', accepts: isTopology, expected: 'a topology' });

  // Springs, struct of arrays: (nSprings)
  private a = new Uint32Array(0);
  private b = new Uint32Array(0);
  private rest = new Float64Array(0);
  private ks = new Float64Array(0);
  private kd = new Float64Array(0);
  /** ∂F_a/∂x_b per spring at the last addForce: (nSprings × N × N), row-major. */
  private dfdx = new Float64Array(0);
  /** Spatial dimension N of the points. */
  private N = 3;
  private topoRevision = -1;
  /** Scratch: the unit vector of one spring. */
  private readonly u = new Float64Array(3);
  private states: BaseMechanicalState[] = [];

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  get springCount(): number {
    return this.a.length;
  }

  /** The spring endpoints (a, b) and rest length of spring i. */
  spring(i: number): { a: number; b: number; restLength: number } {
    return { a: this.a[i]!, b: this.b[i]!, restLength: this.rest[i]! };
  }

  override init(): void {
    const s = this.mstate.require();
    this.states = [s];
    if (!this.template) this.template = s.stateType.name;
    if (s.stateType.isRigid) throw this.error('rigid templates are not supported by TriangularBendingSprings');
    this.N = s.stateType.derivSize;
    const topo = this.topology.get() ?? contextMeshTopology(this.context);
    if (!topo) throw this.error('no topology: TriangularBendingSprings needs a triangle topology in its node (or set topology="@path")');
    this.topology.set(topo);
    if (topo.getTriangles().length === 0) throw this.error(`the topology ${topo.describe()} has no triangles: TriangularBendingSprings needs a triangle topology`);
    this.build();
  }

  /** Springs across the edges shared by exactly two triangles, from the rest positions. */
  private build(): void {
    const topo = this.topology.require();
    const s = this.mstate.require();
    this.topoRevision = topo.revision;
    const N = this.N;
    const n = s.size;
    const x0 = s.x0;
    const edges = topo.getEdges();
    const tris = topo.getTriangles();
    const nE = edges.length / 2;
    const edgeOf = new Map<number, number>();
    for (let e = 0; e < nE; e++) {
      const p = edges[2 * e]!, q = edges[2 * e + 1]!;
      edgeOf.set(p < q ? p * n + q : q * n + p, e);
    }
    // Per edge: the number of triangles around it, and the vertices opposite it in the first two.
    const count = new Uint32Array(nE);
    const first = new Int32Array(nE).fill(-1);
    const second = new Int32Array(nE).fill(-1);
    for (let t = 0; t + 3 <= tris.length; t += 3) {
      for (let j = 0; j < 3; j++) {
        const p = tris[t + ((j + 1) % 3)]!, q = tris[t + ((j + 2) % 3)]!;
        const e = edgeOf.get(p < q ? p * n + q : q * n + p);
        if (e === undefined) continue;
        if (count[e] === 0) first[e] = tris[t + j]!;
        else if (count[e] === 1) second[e] = tris[t + j]!;
        count[e]!++;
      }
    }
    let m = 0;
    for (let e = 0; e < nE; e++) if (count[e] === 2) m++;
    this.a = new Uint32Array(m);
    this.b = new Uint32Array(m);
    this.rest = new Float64Array(m);
    this.ks = new Float64Array(m).fill(this.stiffness.value);
    this.kd = new Float64Array(m).fill(this.damping.value);
    this.dfdx = new Float64Array(m * N * N);
    let i = 0;
    for (let e = 0; e < nE; e++) {
      if (count[e] !== 2) continue;
      const pa = second[e]!, pb = first[e]!;
      if (pa >= n || pb >= n) throw this.error(`the topology names point ${Math.max(pa, pb)}, but ${s.describe()} has ${n} points`);
      this.a[i] = pa;
      this.b[i] = pb;
      let l2 = 0;
      for (let c = 0; c < N; c++) {
        const u = x0[pa * N + c]! - x0[pb * N + c]!;
        l2 += u * u;
      }
      this.rest[i] = Math.sqrt(l2);
      i++;
    }
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], v: readonly Float64Array[]): void {
    if (this.topology.require().revision !== this.topoRevision) this.build();
    const f0 = f[0]!, x0 = x[0]!, v0 = v[0]!;
    const N = this.N;
    const NN = N * N;
    const u = this.u;
    for (let s = 0; s < this.a.length; s++) {
      const pa = this.a[s]! * N;
      const pb = this.b[s]! * N;
      const m0 = s * NN;
      let d2 = 0;
      for (let k = 0; k < N; k++) {
        u[k] = x0[pb + k]! - x0[pa + k]!;
        d2 += u[k]! * u[k]!;
      }
      const d = Math.sqrt(d2);
      if (!(d > 1e-4)) {
        this.dfdx.fill(0, m0, m0 + NN);
        continue;
      }
      const inv = 1 / d;
      let elongVel = 0;
      for (let k = 0; k < N; k++) {
        u[k]! *= inv;
        elongVel += u[k]! * (v0[pb + k]! - v0[pa + k]!);
      }
      // f = ks·(d − L) + kd·(û·Δv)
      const fi = this.ks[s]! * (d - this.rest[s]!) + this.kd[s]! * elongVel;
      for (let k = 0; k < N; k++) {
        f0[pa + k] += u[k]! * fi;
        f0[pb + k] -= u[k]! * fi;
      }
      // m = (ks − f/d)·û·ûᵀ + (f/d)·I
      const tgt = fi * inv;
      for (let j = 0; j < N; j++) {
        for (let k = 0; k < N; k++) this.dfdx[m0 + j * N + k] = (this.ks[s]! - tgt) * u[j]! * u[k]!;
        this.dfdx[m0 + j * N + j] += tgt;
      }
    }
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const df0 = df[0]!, dx0 = dx[0]!;
    const k = this.kFactorWithRayleigh(kFactor, bFactor);
    const N = this.N;
    const NN = N * N;
    for (let s = 0; s < this.a.length; s++) {
      const pa = this.a[s]! * N;
      const pb = this.b[s]! * N;
      const m0 = s * NN;
      // dF_a = m·(dx_b − dx_a)·k,  dF_b = −dF_a
      for (let j = 0; j < N; j++) {
        let acc = 0;
        for (let c = 0; c < N; c++) acc += this.dfdx[m0 + j * N + c]! * (dx0[pb + c]! - dx0[pa + c]!);
        df0[pa + j] += acc * k;
        df0[pb + j] -= acc * k;
      }
    }
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    const k = kFactor;
    const N = this.N;
    const NN = N * N;
    for (let s = 0; s < this.a.length; s++) {
      const p1 = this.a[s]! * N;
      const p2 = this.b[s]! * N;
      const m0 = s * NN;
      for (let i = 0; i < N; i++) {
        for (let j = 0; j < N; j++) {
          const val = k * this.dfdx[m0 + i * N + j]!;
          acc.add(p1 + i, p1 + j, -val);
          acc.add(p1 + i, p2 + j, val);
          acc.add(p2 + i, p1 + j, val);
          acc.add(p2 + i, p2 + j, -val);
        }
      }
    }
  }

  /** ½·ks·(d − L)² summed over the springs (SOFA does not implement it for this component). */
  override getPotentialEnergy(x: readonly Float64Array[]): number {
    const x0 = x[0]!;
    const N = this.N;
    let e = 0;
    for (let s = 0; s < this.a.length; s++) {
      let d2 = 0;
      for (let k = 0; k < N; k++) {
        const u = x0[this.b[s]! * N + k]! - x0[this.a[s]! * N + k]!;
        d2 += u * u;
      }
      const el = Math.sqrt(d2) - this.rest[s]!;
      e += 0.5 * this.ks[s]! * el * el;
    }
    return e;
  }
}
