import { contextMeshTopology, isTopology, sofaComponent, type BaseMeshTopology } from '@sofa-ts/core';
import { StiffSpringForceField } from './SpringForceField.js';

/**
 * SOFA's TriangleBendingSprings: StiffSpringForceField springs against the bending of a triangle
 * surface (quads count as the triangles (q0, q1, q2) and (q0, q2, q3)). Each edge remembers the
 * vertex opposite it in the first triangle that has it; every later triangle with that edge adds a
 * spring between its own opposite vertex and the remembered one (SOFA's rule: an edge of three
 * triangles gets two springs). Rest lengths are the distances at init (positions, as in SOFA),
 * stiffness and damping the uniform `stiffness` and `damping`. The spring law is SpringForceField's.
 */
@sofaComponent({
  name: 'TriangleBendingSprings',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.Spring',
  description: 'Springs added to a triangle (or quad) mesh to prevent bending.',
  templates: ['Vec3d', 'Vec2d'],
})
export class TriangleBendingSprings extends StiffSpringForceField {
  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'the triangle topology (default: the one of this node or an ancestor)',
    accepts: isTopology,
    expected: 'a topology',
  });

  protected override buildSprings(): void {
    const s = this.object1.get()!;
    const topo = this.topology.get() ?? contextMeshTopology(this.context);
    if (!topo) throw this.error('no topology: TriangleBendingSprings needs a triangle topology in its node (or set topology="@path")');
    this.topology.set(topo);
    const n = s.size,
      N = this.N,
      cs = s.stateType.coordSize,
      x = s.x;
    const ks = this.stiffness.value[0] ?? 100,
      kd = this.damping.value[0] ?? 5;
    const m1: number[] = [],
      m2: number[] = [];
    const opposite = new Map<number, number>();
    const edge = (a: number, b: number, c: number): void => {
      const key = a < b ? a * n + b : b * n + a;
      const o = opposite.get(key);
      if (o === undefined) opposite.set(key, c);
      else {
        m1.push(c);
        m2.push(o);
      }
    };
    const triangle = (a: number, b: number, c: number): void => {
      for (const v of [a, b, c]) if (v >= n) throw this.error(`the topology names point ${v}, but ${s.describe()} has ${n} points`);
      edge(a, b, c);
      edge(b, c, a);
      edge(c, a, b);
    };
    const tris = topo.getTriangles(),
      quads = topo.getQuads();
    for (let t = 0; t + 3 <= tris.length; t += 3) triangle(tris[t], tris[t + 1], tris[t + 2]);
    for (let q = 0; q + 4 <= quads.length; q += 4) {
      triangle(quads[q], quads[q + 1], quads[q + 2]);
      triangle(quads[q], quads[q + 2], quads[q + 3]);
    }
    if (tris.length + quads.length === 0) this.warn(`the topology ${topo.describe()} has no triangles nor quads: no bending spring`);
    this.allocate(m1.length);
    for (let i = 0; i < m1.length; i++) {
      const a = m1[i],
        b = m2[i];
      let l2 = 0;
      for (let c = 0; c < N; c++) l2 += (x[a * cs + c] - x[b * cs + c]) ** 2;
      this.a[i] = a;
      this.b[i] = b;
      this.ks[i] = ks;
      this.kd[i] = kd;
      this.rest[i] = Math.sqrt(l2);
    }
    this.elongOnly.fill(0);
    this.active.fill(1);
  }
}
