import {
  contextMeshTopology,
  Real,
  isTopology,
  sofaComponent,
  type BaseMeshTopology,
  type MatrixAccumulator,
  SingleStateForceField,
} from '@sofa-ts/core';
import { LinearSprings } from '../linear-springs.js';

/**
 * SOFA's QuadularBendingSprings: against bending of a quad surface, two springs cross every edge
 * shared by exactly two quads. Edge j of a quad (v0 v1 v2 v3) joins v(j+1) and v(j+2); for an edge
 * at position i2 in the earlier quad Q2 and i1 in the later quad Q1, the springs join
 *   Q1[i1] — Q2[(i2+3) mod 4]   and   Q1[(i1+3) mod 4] — Q2[i2],
 * i.e. on each side of the edge the vertices next to the same end of the edge. Rest lengths are
 * measured at rest. Each spring (a, b), u = x_b − x_a, d = |u|, û = u/d:
 *   f = ks·(d − L) + kd·û·(v_b − v_a),   F_a += f·û,  F_b −= f·û
 *   ∂F_a/∂x_b = (ks − f/d)·û·ûᵀ + (f/d)·I
 * A spring shorter than 1e-4 exerts nothing; damping enters the force only (as in SOFA). Springs
 * are kept in the order of the topology's edges, two per edge; a topological change rebuilds them
 * from the remaining quads.
 */
@sofaComponent({
  name: 'QuadularBendingSprings',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.Spring',
  description: 'Springs across the edges shared by two quads, against bending.',
  templates: ['Vec3d'],
})
export class QuadularBendingSprings extends SingleStateForceField {
  readonly stiffness = this.initData({
    name: 'stiffness',
    type: Real,
    default: 100000,
    unit: 'N/m',
    help: 'uniform stiffness of all the springs',
  });
  readonly damping = this.initData({ name: 'damping', type: Real, default: 1, unit: 'N·s/m', help: 'uniform damping of all the springs' });

  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'the quad topology (default: the one of this node or an ancestor)',
    accepts: isTopology,
    expected: 'a topology',
  });

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
    if (s.stateType.isRigid || s.stateType.derivSize !== 3)
      throw this.error(`QuadularBendingSprings acts on Vec3 points (the state is ${s.stateType.name})`);
    const topo = this.topology.get() ?? contextMeshTopology(this.context);
    if (!topo) throw this.error('no topology: QuadularBendingSprings needs a quad topology in its node (or set topology="@path")');
    this.topology.set(topo);
    if (topo.getQuads().length === 0) this.warn(`the topology ${topo.describe()} has no quads: no spring`);
    this.build();
  }

  /** Two springs across each edge shared by exactly two quads, from the rest positions. */
  private build(): void {
    const topo = this.topology.require();
    const s = this.mstate.require();
    this.topoRevision = topo.revision;
    const n = s.size;
    const x0 = s.x0;
    const edges = topo.getEdges();
    const quads = topo.getQuads();
    const nE = edges.length / 2;
    const edgeOf = new Map<number, number>();
    for (let e = 0; e < nE; e++) {
      const p = edges[2 * e],
        q = edges[2 * e + 1];
      edgeOf.set(p < q ? p * n + q : q * n + p, e);
    }
    // Per edge: the quads around it (the first two, in increasing order) and its position in each.
    const count = new Uint32Array(nE);
    const quad = new Int32Array(2 * nE).fill(-1);
    const pos = new Int32Array(2 * nE);
    for (let q = 0; 4 * q + 4 <= quads.length; q++) {
      for (let j = 0; j < 4; j++) {
        const p = quads[4 * q + ((j + 1) % 4)],
          r = quads[4 * q + ((j + 2) % 4)];
        const e = edgeOf.get(p < r ? p * n + r : r * n + p);
        if (e === undefined) continue;
        if (count[e] < 2) {
          quad[2 * e + count[e]] = q;
          pos[2 * e + count[e]] = j;
        }
        count[e]++;
      }
    }
    let m = 0;
    for (let e = 0; e < nE; e++) if (count[e] === 2) m += 2;
    const sp = this.springs;
    sp.allocate(m);
    sp.ks.fill(this.stiffness.value);
    sp.kd.fill(this.damping.value);
    let i = 0;
    const v = (q: number, j: number): number => quads[4 * q + (j % 4)];
    for (let e = 0; e < nE; e++) {
      if (count[e] !== 2) continue;
      // Q2: the earlier quad, Q1: the later one (SOFA meets the edge first from Q2)
      const q2 = quad[2 * e],
        i2 = pos[2 * e],
        q1 = quad[2 * e + 1],
        i1 = pos[2 * e + 1];
      const ends: Array<[number, number]> = [
        [v(q1, i1), v(q2, i2 + 3)],
        [v(q1, i1 + 3), v(q2, i2)],
      ];
      for (const [a, b] of ends) {
        if (a >= n || b >= n) throw this.error(`the topology names point ${Math.max(a, b)}, but ${s.describe()} has ${n} points`);
        sp.a[i] = a;
        sp.b[i] = b;
        sp.rest[i] = Math.hypot(x0[3 * a] - x0[3 * b], x0[3 * a + 1] - x0[3 * b + 1], x0[3 * a + 2] - x0[3 * b + 2]);
        i++;
      }
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

  /** ½·ks·(d − L)² summed over the springs. */
  override getPotentialEnergy(x: readonly Float64Array[]): number {
    return this.springs.potentialEnergy(x[0], x[0]);
  }
}
