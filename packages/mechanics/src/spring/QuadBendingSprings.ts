import { contextMeshTopology, isTopology, sofaComponent, VecN, type BaseMeshTopology } from '@sofa-ts/core';
import { StiffSpringForceField } from './SpringForceField.js';

/**
 * SOFA's QuadBendingSprings: StiffSpringForceField springs against the bending of a quad surface.
 * For each edge shared by two quads, the two vertices of each quad opposite the edge's ends are
 * joined: across quads (a, b, c, d) and (b, a, e, f) sharing edge (a, b), springs (d, f) and
 * (c, e), i.e. the quads' edges parallel to the shared one end to end. Rest lengths are the
 * distances at init (positions, as in SOFA), stiffness and damping the uniform `stiffness` and
 * `damping`; a pair of points gets one spring. With localRange [first, last], a spring whose two
 * points are both before first, or both after last, is left out. The spring law is
 * SpringForceField's.
 */
@sofaComponent({
  name: 'QuadBendingSprings',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.Spring',
  description: 'Springs added to a quad mesh to prevent bending.',
  templates: ['Vec3d', 'Vec2d'],
})
export class QuadBendingSprings extends StiffSpringForceField {
  readonly localRange = this.initData({
    name: 'localRange',
    type: VecN(2, 'Vec2i'),
    default: Float64Array.of(-1, -1),
    help: 'optional range [first, last] of local point indices: springs with both points outside are left out',
  });
  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'the quad topology (default: the one of this node or an ancestor)',
    accepts: isTopology,
    expected: 'a topology',
  });

  protected override buildSprings(): void {
    const s = this.object1.get()!;
    const topo = this.topology.get() ?? contextMeshTopology(this.context);
    if (!topo) throw this.error('no topology: QuadBendingSprings needs a quad topology in its node (or set topology="@path")');
    this.topology.set(topo);
    const quads = topo.getQuads();
    if (quads.length === 0) this.warn(`the topology ${topo.describe()} has no quads: no bending spring`);
    const n = s.size,
      N = this.N,
      cs = s.stateType.coordSize,
      x = s.x;
    const [lo, hi] = [this.localRange.value[0], this.localRange.value[1]];
    const ks = this.stiffness.value[0] ?? 100,
      kd = this.damping.value[0] ?? 5;
    const m1: number[] = [],
      m2: number[] = [],
      rest: number[] = [];
    const seen = new Set<number>();
    const add = (a: number, b: number): void => {
      if (lo >= 0 && a < lo && b < lo) return;
      if (hi >= 0 && a > hi && b > hi) return;
      const key = a < b ? a * n + b : b * n + a;
      if (seen.has(key)) return;
      seen.add(key);
      let l2 = 0;
      for (let c = 0; c < N; c++) l2 += (x[a * cs + c] - x[b * cs + c]) ** 2;
      m1.push(a);
      m2.push(b);
      rest.push(Math.sqrt(l2));
    };
    // edge (a, b) of a quad with its opposite pair (c, d): the first quad stores it, the second adds the springs
    const opposite = new Map<number, [number, number]>();
    const register = (a: number, b: number, c: number, d: number): void => {
      if (a > b) [a, b, c, d] = [b, a, d, c];
      const key = a * n + b;
      const ef = opposite.get(key);
      if (!ef) opposite.set(key, [c, d]);
      else {
        add(c, ef[0]);
        add(d, ef[1]);
      }
    };
    for (let q = 0; q + 4 <= quads.length; q += 4) {
      const [f0, f1, f2, f3] = [quads[q], quads[q + 1], quads[q + 2], quads[q + 3]];
      for (const v of [f0, f1, f2, f3]) if (v >= n) throw this.error(`quad ${q / 4} names point ${v}, but ${s.describe()} has ${n} points`);
      register(f0, f1, f3, f2);
      register(f1, f2, f0, f3);
      register(f2, f3, f1, f0);
      register(f3, f0, f2, f1);
    }
    this.allocate(m1.length);
    for (let i = 0; i < m1.length; i++) {
      this.a[i] = m1[i];
      this.b[i] = m2[i];
      this.ks[i] = ks;
      this.kd[i] = kd;
      this.rest[i] = rest[i];
    }
    this.elongOnly.fill(0);
    this.active.fill(1);
  }
}
