import { DataEngine, IndexArray, IndexLists, Real, RealArray, sofaComponent, Vec3 } from '@sofa-ts/core';
import { Vec3s } from '../engine-support.js';

/**
 * SOFA's GenerateRigidMass: the rigid-body mass of the solid bounded by a closed, outward-oriented
 * surface (triangles, quads split along (0, 2), polygons fanned from their first vertex), by the
 * divergence theorem over the faces (the volume integrals of 1, x, y, z, x², y², z², xy, yz, zx;
 * D. Eberly, "Polyhedral Mass Properties"):
 *   volume V = ∫1,  centre c = ∫x / V,
 *   inertia per unit mass about c: J = (1/V)·[∫(y²+z²) −∫xy −∫zx; … ] − [c·c I − c cᵀ],
 *   mass m = ρ·V.
 * rigidMass is "m V J" (11 numbers: what UniformMass's vertexMass reads for Rigid3), inertiaMatrix
 * J, massCenter c and centerToOrigin −c. A zero volume leaves the outputs unchanged, with a warning;
 * a negative one (inward faces) is used as is, with a warning, as SOFA does.
 */
@sofaComponent({
  name: 'GenerateRigidMass',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Generate',
  description: 'An engine computing the RigidMass of a mesh: mass, inertia matrix and center of gravity.',
  templates: ['Rigid3d'],
  defaultTemplate: 'Rigid3d',
})
export class GenerateRigidMass extends DataEngine {
  readonly density = this.initData({ name: 'density', type: Real, default: 1000, unit: 'kg/m³', help: 'density of the object' });
  readonly position = this.initData({ name: 'position', type: Vec3s, default: new Float64Array(0), help: 'positions of the vertices' });
  readonly triangles = this.initData({
    name: 'triangles',
    type: IndexArray(3, 'vector<Triangle>'),
    default: new Uint32Array(0),
    help: 'triangles of the mesh',
  });
  readonly quads = this.initData({
    name: 'quads',
    type: IndexArray(4, 'vector<Quad>'),
    default: new Uint32Array(0),
    help: 'quads of the mesh',
  });
  readonly polygons = this.initData({
    name: 'polygons',
    type: IndexLists('vector<vector<unsigned int>>'),
    default: [],
    help: 'polygons of the mesh',
  });
  readonly rigidMass = this.initData({
    name: 'rigidMass',
    type: RealArray(0, 'Rigid3Mass'),
    default: Float64Array.of(1, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1),
    help: 'rigid mass computed: mass, volume, inertia matrix per unit mass (row-major)',
    output: true,
  });
  readonly mass = this.initData({ name: 'mass', type: Real, default: 0, unit: 'kg', help: 'mass of the mesh', output: true });
  readonly volume = this.initData({ name: 'volume', type: Real, default: 0, help: 'volume of the mesh', output: true });
  readonly inertiaMatrix = this.initData({
    name: 'inertiaMatrix',
    type: RealArray(9, 'Mat3x3d'),
    default: new Float64Array(9),
    help: 'inertia matrix per unit mass, about the centre of mass',
    output: true,
  });
  readonly massCenter = this.initData({
    name: 'massCenter',
    type: Vec3,
    default: new Float64Array(3),
    help: 'centre of mass of the mesh',
    output: true,
  });
  readonly centerToOrigin = this.initData({
    name: 'centerToOrigin',
    type: Vec3,
    default: new Float64Array(3),
    help: 'vector from the centre of mass to the origin',
    output: true,
  });

  constructor() {
    super();
    this.addInput(this.density, this.position, this.triangles, this.quads, this.polygons);
    this.addOutput(this.rigidMass, this.mass, this.volume, this.inertiaMatrix, this.massCenter, this.centerToOrigin);
  }

  override init(): void {
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const x = this.position.value;
    const n = x.length / 3;
    // I = [∫1, ∫x, ∫y, ∫z, ∫x², ∫y², ∫z², ∫xy, ∫yz, ∫zx]
    const I = new Float64Array(10);
    const face = (a: number, b: number, c: number): void => {
      if (a >= n || b >= n || c >= n) throw this.error(`a face names point ${Math.max(a, b, c)}, but there are ${n} positions`);
      addFaceIntegrals(I, x, a, b, c);
    };
    const t = this.triangles.value,
      q = this.quads.value;
    for (let i = 0; i + 3 <= t.length; i += 3) face(t[i], t[i + 1], t[i + 2]);
    for (let i = 0; i + 4 <= q.length; i += 4) {
      face(q[i], q[i + 1], q[i + 2]);
      face(q[i], q[i + 2], q[i + 3]);
    }
    for (const p of this.polygons.value) for (let j = 2; j < p.length; j++) face(p[0], p[j - 1], p[j]);
    const div = [6, 24, 24, 24, 60, 60, 60, 120, 120, 120];
    for (let k = 0; k < 10; k++) I[k] /= div[k];
    const V = I[0];
    if (V === 0) {
      this.warn('the mesh volume is zero: no rigid mass computed');
      return;
    }
    if (V < 0) this.warn(`the mesh volume is negative (${V}): are the faces oriented inwards?`);
    const c = [I[1] / V, I[2] / V, I[3] / V];
    // Inertia about the origin, then about c (parallel axis), per unit mass.
    const J = [
      I[5] + I[6] - V * (c[1] ** 2 + c[2] ** 2),
      -I[7] + V * c[0] * c[1],
      -I[9] + V * c[2] * c[0],
      0,
      I[4] + I[6] - V * (c[2] ** 2 + c[0] ** 2),
      -I[8] + V * c[1] * c[2],
      0,
      0,
      I[4] + I[5] - V * (c[0] ** 2 + c[1] ** 2),
    ];
    J[3] = J[1];
    J[6] = J[2];
    J[7] = J[5];
    for (let k = 0; k < 9; k++) J[k] /= V;
    const m = V * this.density.value;
    this.rigidMass.value = Float64Array.of(m, V, ...J);
    this.mass.value = m;
    this.volume.value = V;
    this.inertiaMatrix.value = Float64Array.from(J);
    this.massCenter.value = Float64Array.from(c);
    this.centerToOrigin.value = Float64Array.from(c, (v) => -v);
  }
}

/**
 * Adds the (unscaled) contributions of face (a, b, c) to the ten volume integrals: with
 * n = (b − a) × (c − a) and the symmetric sums f1 = Σv, f2 = Σv², f3 = Σv³ of each coordinate,
 *   ∫1 += n_x f1x, ∫x += n_x f2x, ∫y += n_y f2y, ∫z += n_z f2z, ∫x² += n_x f3x, …,
 *   ∫xy += n_x (y_a g_ax + y_b g_bx + y_c g_cx), … (g_i = f2 + v_i (f1 + v_i));
 * divided afterwards by 6, 24, 24, 24, 60, 60, 60, 120, 120, 120.
 */
function addFaceIntegrals(I: Float64Array, x: Float64Array, a: number, b: number, c: number): void {
  const v0 = [x[3 * a], x[3 * a + 1], x[3 * a + 2]],
    v1 = [x[3 * b], x[3 * b + 1], x[3 * b + 2]],
    v2 = [x[3 * c], x[3 * c + 1], x[3 * c + 2]];
  const e1 = [v1[0] - v0[0], v1[1] - v0[1], v1[2] - v0[2]],
    e2 = [v2[0] - v0[0], v2[1] - v0[1], v2[2] - v0[2]];
  const n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
  const sums = (k: number): { f1: number; f2: number; f3: number; g: [number, number, number] } => {
    const p = v0[k],
      q = v1[k],
      r = v2[k];
    const t0 = p + q,
      f1 = t0 + r,
      t1 = p * p,
      t2 = t1 + q * t0,
      f2 = t2 + r * f1;
    const f3 = p * t1 + q * t2 + r * f2;
    return { f1, f2, f3, g: [f2 + p * (f1 + p), f2 + q * (f1 + q), f2 + r * (f1 + r)] };
  };
  const X = sums(0),
    Y = sums(1),
    Z = sums(2);
  I[0] += n[0] * X.f1;
  I[1] += n[0] * X.f2;
  I[2] += n[1] * Y.f2;
  I[3] += n[2] * Z.f2;
  I[4] += n[0] * X.f3;
  I[5] += n[1] * Y.f3;
  I[6] += n[2] * Z.f3;
  I[7] += n[0] * (v0[1] * X.g[0] + v1[1] * X.g[1] + v2[1] * X.g[2]);
  I[8] += n[1] * (v0[2] * Y.g[0] + v1[2] * Y.g[1] + v2[2] * Y.g[2]);
  I[9] += n[2] * (v0[0] * Z.g[0] + v1[0] * Z.g[1] + v2[0] * Z.g[2]);
}
