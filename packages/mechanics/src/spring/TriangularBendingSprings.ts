import {
  contextMeshTopology,
  Bool,
  Real,
  isTopology,
  sofaComponent,
  type BaseMeshTopology,
  type MatrixAccumulator,
  SingleStateForceField,
} from '@sofa-ts/core';
import { LinearSprings } from '../linear-springs.js';

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
export class TriangularBendingSprings extends SingleStateForceField {
  readonly stiffness = this.initData({
    name: 'stiffness',
    type: Real,
    default: 100000,
    unit: 'N/m',
    help: 'uniform stiffness of all the springs',
  });
  readonly damping = this.initData({ name: 'damping', type: Real, default: 1, unit: 'N·s/m', help: 'uniform damping of all the springs' });
  readonly showSprings = this.initData({
    name: 'showSprings',
    type: Bool,
    default: true,
    help: 'draw the springs',
    group: 'Visualization',
  });

  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'the triangle topology (default: the one of this node or an ancestor)',
    accepts: isTopology,
    expected: 'a topology',
  });

  /** The bending springs and their law (springs shorter than 1e-4 exert nothing, as in SOFA). */
  private readonly springs = new LinearSprings(3, 1e-4);
  private topoRevision = -1;

  get springCount(): number {
    return this.springs.count;
  }

  /** The spring endpoints (a, b) and rest length of spring i. */
  spring(i: number): { a: number; b: number; restLength: number } {
    return { a: this.springs.a[i], b: this.springs.b[i], restLength: this.springs.rest[i] };
  }

  override init(): void {
    super.init();
    const s = this.states[0];
    if (!this.template) this.template = s.stateType.name;
    if (s.stateType.isRigid) throw this.error('rigid templates are not supported by TriangularBendingSprings');
    this.springs.setLayout(s.stateType.derivSize);
    const topo = this.topology.get() ?? contextMeshTopology(this.context);
    if (!topo) throw this.error('no topology: TriangularBendingSprings needs a triangle topology in its node (or set topology="@path")');
    this.topology.set(topo);
    if (topo.getTriangles().length === 0)
      throw this.error(`the topology ${topo.describe()} has no triangles: TriangularBendingSprings needs a triangle topology`);
    this.build();
  }

  /** Springs across the edges shared by exactly two triangles, from the rest positions. */
  private build(): void {
    const topo = this.topology.require();
    const s = this.mstate.require();
    this.topoRevision = topo.revision;
    const N = this.springs.N;
    const n = s.size;
    const x0 = s.x0;
    const edges = topo.getEdges();
    const tris = topo.getTriangles();
    const nE = edges.length / 2;
    const edgeOf = new Map<number, number>();
    for (let e = 0; e < nE; e++) {
      const p = edges[2 * e],
        q = edges[2 * e + 1];
      edgeOf.set(p < q ? p * n + q : q * n + p, e);
    }
    // Per edge: the number of triangles around it, and the vertices opposite it in the first two.
    const count = new Uint32Array(nE);
    const first = new Int32Array(nE).fill(-1);
    const second = new Int32Array(nE).fill(-1);
    for (let t = 0; t + 3 <= tris.length; t += 3) {
      for (let j = 0; j < 3; j++) {
        const p = tris[t + ((j + 1) % 3)],
          q = tris[t + ((j + 2) % 3)];
        const e = edgeOf.get(p < q ? p * n + q : q * n + p);
        if (e === undefined) continue;
        if (count[e] === 0) first[e] = tris[t + j];
        else if (count[e] === 1) second[e] = tris[t + j];
        count[e]++;
      }
    }
    let m = 0;
    for (let e = 0; e < nE; e++) if (count[e] === 2) m++;
    const sp = this.springs;
    sp.allocate(m);
    sp.ks.fill(this.stiffness.value);
    sp.kd.fill(this.damping.value);
    let i = 0;
    for (let e = 0; e < nE; e++) {
      if (count[e] !== 2) continue;
      const pa = second[e],
        pb = first[e];
      if (pa >= n || pb >= n) throw this.error(`the topology names point ${Math.max(pa, pb)}, but ${s.describe()} has ${n} points`);
      sp.a[i] = pa;
      sp.b[i] = pb;
      let l2 = 0;
      for (let c = 0; c < N; c++) {
        const u = x0[pa * N + c] - x0[pb * N + c];
        l2 += u * u;
      }
      sp.rest[i] = Math.sqrt(l2);
      i++;
    }
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], v: readonly Float64Array[]): void {
    if (this.topology.require().revision !== this.topoRevision) this.build();
    this.springs.addForce(f[0], f[0], x[0], x[0], v[0], v[0]);
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    this.springs.addDForce(df[0], df[0], dx[0], dx[0], this.kFactorWithRayleigh(kFactor, bFactor));
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    this.springs.addKToMatrix(acc, kFactor, 0);
  }

  /** ½·ks·(d − L)² summed over the springs (SOFA does not implement it for this component). */
  override getPotentialEnergy(x: readonly Float64Array[]): number {
    return this.springs.potentialEnergy(x[0], x[0]);
  }
}
