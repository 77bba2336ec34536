import {
  BaseForceField,
  contextMeshTopology,
  isTopology,
  Real,
  sofaComponent,
  type BaseMechanicalState,
  type BaseMeshTopology,
  type MatrixAccumulator,
} from '@sofa-ts/core';
import { LinearSprings } from '../linear-springs.js';
import { mstateLink } from '../state-link.js';

/**
 * SOFA's QuadularBendingSprings: against the bending of a quad surface, two springs per edge shared
 * by exactly two quads. With the edge (a, b) at position i1 of quad t1 = (…, a, b, …) and at
 * position i2 of quad t2 (SOFA's EdgesInQuad: edge k joins vertices k and k + 1; t2 is the quad of
 * lower index), the springs join t1[i1]–t2[i2 − 1] and t1[i1 − 1]–t2[i2] (indices mod 4), with
 * rest lengths from the rest positions and the uniform `stiffness`, `damping`. The law is the
 * linear spring's (linear-springs.ts): f = ks·(d − L) + kd·û·(v_b − v_a), K exact, damping in f
 * only. Springs are kept in the order of the topology's edges.
 */
@sofaComponent({
  name: 'QuadularBendingSprings',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.Spring',
  description: 'Springs across the edges shared by two quads, against bending.',
  templates: ['Vec3d'],
})
export class QuadularBendingSprings extends BaseForceField {
  readonly stiffness = this.initData({ name: 'stiffness', type: Real, default: 100000, unit: 'N/m', help: 'uniform stiffness for all the springs' });
  readonly damping = this.initData({ name: 'damping', type: Real, default: 1, unit: 'N·s/m', help: 'uniform damping for all the springs' });

  readonly mstate = this.initLink(mstateLink());
  readonly topology = this.initLink<BaseMeshTopology>({ name: 'topology', help: 'the quad topology (default: the one of this node or an ancestor)', accepts: isTopology, expected: 'a topology' });

  private readonly springs = new LinearSprings(3, 0);
  private states: BaseMechanicalState[] = [];

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  get springCount(): number {
    return this.springs.count;
  }

  spring(i: number): { a: number; b: number; restLength: number } {
    return { a: this.springs.a[i]!, b: this.springs.b[i]!, restLength: this.springs.rest[i]! };
  }

  override init(): void {
    const s = this.mstate.require();
    this.states = [s];
    if (!this.template) this.template = s.stateType.name;
    if (s.stateType.name !== 'Vec3d') throw this.error(`QuadularBendingSprings needs a Vec3d state, ${s.describe()} is ${s.stateType.name}`);
    const topo = this.topology.get() ?? contextMeshTopology(this.context);
    if (!topo) throw this.error('no topology: QuadularBendingSprings needs a quad topology in its node (or set topology="@path")');
    this.topology.set(topo);
    const quads = topo.getQuads(), edges = topo.getEdges(), n = s.size, x0 = s.x0;
    if (quads.length === 0) this.warn(`the topology ${topo.describe()} has no quads: no bending spring`);
    const nE = edges.length / 2;
    const edgeOf = new Map<number, number>();
    for (let e = 0; e < nE; e++) {
      const p = edges[2 * e]!, q = edges[2 * e + 1]!;
      edgeOf.set(p < q ? p * n + q : q * n + p, e);
    }
    // the quads around each edge (in quad order) and the edge's position in each
    const around: Array<Array<[number, number]>> = Array.from({ length: nE }, () => []);
    for (let q = 0; q < quads.length / 4; q++) {
      for (let k = 0; k < 4; k++) {
        const p = quads[4 * q + k]!, r = quads[4 * q + ((k + 1) % 4)]!;
        if (p >= n || r >= n) throw this.error(`quad ${q} names point ${Math.max(p, r)}, but ${s.describe()} has ${n} points`);
        const e = edgeOf.get(p < r ? p * n + r : r * n + p);
        if (e === undefined) throw this.error(`edge (${p}, ${r}) of quad ${q} is not an edge of ${topo.describe()}`);
        around[e]!.push([q, k]);
      }
    }
    const pairs: number[] = [];
    for (let e = 0; e < nE; e++) {
      if (around[e]!.length !== 2) continue;
      const [[q2, i2], [q1, i1]] = around[e]! as [[number, number], [number, number]];
      const t1 = (k: number): number => quads[4 * q1 + ((k + 4) % 4)]!;
      const t2 = (k: number): number => quads[4 * q2 + ((k + 4) % 4)]!;
      pairs.push(t1(i1), t2(i2 + 3), t1(i1 + 3), t2(i2));
    }
    const sp = this.springs, m = pairs.length / 2;
    sp.allocate(m);
    sp.ks.fill(this.stiffness.value);
    sp.kd.fill(this.damping.value);
    for (let i = 0; i < m; i++) {
      const a = pairs[2 * i]!, b = pairs[2 * i + 1]!;
      sp.a[i] = a;
      sp.b[i] = b;
      sp.rest[i] = Math.hypot(x0[3 * a]! - x0[3 * b]!, x0[3 * a + 1]! - x0[3 * b + 1]!, x0[3 * a + 2]! - x0[3 * b + 2]!);
    }
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], v: readonly Float64Array[]): void {
    this.springs.addForce(f[0]!, f[0]!, x[0]!, x[0]!, v[0]!, v[0]!);
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    this.springs.addDForce(df[0]!, df[0]!, dx[0]!, dx[0]!, this.kFactorWithRayleigh(kFactor, bFactor));
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    this.springs.addKToMatrix(acc, kFactor, 0);
  }

  override getPotentialEnergy(x: readonly Float64Array[]): number {
    return this.springs.potentialEnergy(x[0]!, x[0]!);
  }
}
