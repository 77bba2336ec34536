import { Bool, DataEngine, IndexArray, Indices, Real, sofaComponent } from '@sofa-ts/core';
import { Vec3s } from '../engine-support.js';

/**
 * SOFA's ExtrudeSurface: extrudes a patch of a triangle surface (the triangles listed in
 * surfaceTriangles) along its normals into a closed shell.
 * Each patch point p gets two output points, 2k = p and 2k + 1 = p + heightFactor·n̂_p (n̂_p: the
 * normalised sum of the unit normals (b − a) × (c − a) of the patch triangles at p), numbered in order
 * of first use. Each patch triangle gives the bottom triangle (flipped: a c b over the even points)
 * and the top one (a b c over the odd points); each border edge (a, b) of the patch (used by one patch
 * triangle), taken in increasing (a, b) order, gives the two side triangles (a, b, a+1) and
 * (b+1, a+1, b).
 */
@sofaComponent({
  name: 'ExtrudeSurface',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Generate',
  description: 'This class extrudes a surface.',
  templates: ['Vec3d'],
  defaultTemplate: 'Vec3d',
})
export class ExtrudeSurface extends DataEngine {
  readonly isVisible = this.initData({
    name: 'isVisible',
    type: Bool,
    default: true,
    help: 'is visible (drawing only)',
    group: 'Visualization',
  });
  readonly heightFactor = this.initData({
    name: 'heightFactor',
    type: Real,
    default: 1,
    help: 'height of the extrusion along the normals',
  });
  readonly triangles = this.initData({
    name: 'triangles',
    type: IndexArray(3, 'vector<Triangle>'),
    default: new Uint32Array(0),
    help: 'list of triangle indices',
  });
  readonly extrusionVertices = this.initData({
    name: 'extrusionVertices',
    type: Vec3s,
    default: new Float64Array(0),
    help: 'position coordinates of the extrusion',
    output: true,
  });
  readonly surfaceVertices = this.initData({
    name: 'surfaceVertices',
    type: Vec3s,
    default: new Float64Array(0),
    help: 'position coordinates of the surface',
  });
  readonly extrusionTriangles = this.initData({
    name: 'extrusionTriangles',
    type: IndexArray(3, 'vector<Triangle>'),
    default: new Uint32Array(0),
    help: 'triangles of the extrusion',
    output: true,
  });
  readonly surfaceTriangles = this.initData({
    name: 'surfaceTriangles',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the triangles of the surface to extrude',
  });

  constructor() {
    super();
    this.addInput(this.surfaceTriangles, this.surfaceVertices, this.triangles, this.heightFactor);
    this.addOutput(this.extrusionVertices, this.extrusionTriangles);
  }

  override init(): void {
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const sel = this.surfaceTriangles.value,
      x = this.surfaceVertices.value,
      tri = this.triangles.value;
    if (x.length / 3 <= 1 && sel.length <= 1) return;
    const n = x.length / 3;
    const corner = (t: number, j: number): number => {
      if (3 * t + 3 > tri.length) throw this.error(`surfaceTriangles names triangle ${t}, but there are ${tri.length / 3}`);
      const v = tri[3 * t + j];
      if (v >= n) throw this.error(`triangle ${t} names point ${v}, but surfaceVertices has ${n}`);
      return v;
    };
    // Point normals: normalised sums of the unit face normals.
    const normals = new Map<number, number[]>();
    for (const t of sel) {
      const [a, b, c] = [corner(t, 0), corner(t, 1), corner(t, 2)];
      const u = [x[3 * b] - x[3 * a], x[3 * b + 1] - x[3 * a + 1], x[3 * b + 2] - x[3 * a + 2]];
      const v = [x[3 * c] - x[3 * a], x[3 * c + 1] - x[3 * a + 1], x[3 * c + 2] - x[3 * a + 2]];
      const f = unit([u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]);
      for (const p of [a, b, c]) {
        const s = normals.get(p) ?? [0, 0, 0];
        normals.set(p, [s[0] + f[0], s[1] + f[1], s[2] + f[2]]);
      }
    }
    for (const [p, s] of normals) normals.set(p, unit(s));
    const h = this.heightFactor.value;
    const verts: number[] = [],
      outTri: number[] = [];
    const matching = new Map<number, number>();
    // border[key(a, b)]: an oriented edge of the even points and whether it is (still) on the border.
    const border = new Map<string, { a: number; b: number; on: boolean }>();
    for (const t of sel) {
      const t1: number[] = [],
        t2: number[] = [];
      for (let j = 0; j < 3; j++) {
        const p = corner(t, j);
        let k = matching.get(p);
        if (k === undefined) {
          k = verts.length / 3;
          const nn = normals.get(p)!;
          verts.push(x[3 * p], x[3 * p + 1], x[3 * p + 2], x[3 * p] + nn[0] * h, x[3 * p + 1] + nn[1] * h, x[3 * p + 2] + nn[2] * h);
          matching.set(p, k);
        }
        t1.push(k);
        t2.push(k + 1);
      }
      for (const [a, b] of [
        [t1[0], t1[1]],
        [t1[0], t1[2]],
        [t1[1], t1[2]],
      ] as const) {
        const e = border.get(`${a},${b}`),
          ei = border.get(`${b},${a}`);
        if (e) e.on = false;
        else if (ei) ei.on = false;
        else border.set(`${a},${b}`, { a, b, on: true });
      }
      outTri.push(t1[0], t1[2], t1[1], ...t2);
    }
    const edges = [...border.values()].filter((e) => e.on).sort((p, q) => p.a - q.a || p.b - q.b);
    for (const { a, b } of edges) outTri.push(a, b, a + 1, b + 1, a + 1, b);
    this.extrusionVertices.value = Float64Array.from(verts);
    this.extrusionTriangles.value = Uint32Array.from(outTri);
  }
}

function unit(a: number[]): number[] {
  const r = Math.hypot(a[0], a[1], a[2]);
  return r > Number.EPSILON ? [a[0] / r, a[1] / r, a[2] / r] : a;
}
