import { Int, Real, UInt, isMechanicalState, sofaComponent, type SparseMatrixLike } from '@sofa-ts/core';
import { createCsr, type CsrMatrix } from '@sofa-ts/linalg';
import { MappingComponent } from './mapping-component.js';

/**
 * SOFA's TubularMapping: a circle of N points around each Rigid3 frame, in the frame's local
 * (y, z) plane, the tube skin whose quads Edge2QuadTopologicalMapping builds. For frame i of
 * centre c and rotation R, point j (θ_j = 2πj/N) is
 *   r = ρ_i·(cos θ_j·R·e_y + sin θ_j·R·e_z),   x = c + r,
 *   v = v_c + ω × r,   J = [ I  −[r]× ],   Jᵀ·f = (f, r × f)   (ω in the world frame),
 * with ρ_i = radius, except near an end when `peak` asks for a pointed tip: peak = p > 0 scales
 * the first p frames by i/p, peak = p < 0 the last |p| frames by (n − 1 − i)/|p|.
 * Output point of frame i, angle j: i·N + j. No geometric stiffness (nor has SOFA's).
 * SOFA's force transposition adds each frame's sum to the next frames' (its accumulators are not
 * reset per frame); this one is the transpose of J.
 */
@sofaComponent({
  name: 'TubularMapping',
  category: 'Mapping',
  module: 'Sofa.Component.Mapping.Linear',
  description: 'A circle of points around each Rigid3 frame, in its local (y, z) plane: the skin of a tube along a beam.',
  templates: ['Rigid3d,Vec3d'],
})
export class TubularMapping extends MappingComponent {
  readonly nbPointsOnEachCircle = this.initData({
    name: 'nbPointsOnEachCircle',
    type: UInt,
    default: 0,
    help: 'Discretization of created circles',
  });
  readonly radius = this.initData({ name: 'radius', type: Real, default: 0, unit: 'length', help: 'Radius of created circles' });
  readonly peak = this.initData({
    name: 'peak',
    type: Int,
    default: 0,
    help: '=0 no peak, =1 peak on the first segment =2 peak on the two first segment, =-1 peak on the last segment',
  });

  /** r = x − c per output point at the last apply (nOut × 3). */
  private rotated = new Float64Array(0);
  /** (3·nOut × 6·nIn) Jacobian, 3 entries per row. */
  private J: CsrMatrix = createCsr(0, 0, new Int32Array(1), new Int32Array(0));

  get isLinear(): boolean {
    return false;
  }

  override init(): void {
    this.resolveEnds();
    this.checkTemplates(['Rigid3d,Vec3d']);
    if (!this.radius.isSet) throw this.error('no radius defined', 'set radius="…" (the radius of the circles)');
    const N = this.nbPointsOnEachCircle.value;
    if (N < 1) throw this.error('nbPointsOnEachCircle is 0: the circles need at least one point');
    const nIn = this.from.size,
      n = nIn * N;
    this.rotated = new Float64Array(3 * n);
    // row x: (v_x, ω_y, ω_z); row y: (v_y, ω_x, ω_z); row z: (v_z, ω_x, ω_y): sorted columns
    const rowPtr = new Int32Array(3 * n + 1),
      cols = new Int32Array(9 * n);
    for (let p = 0; p < n; p++) {
      const f = 6 * Math.floor(p / N);
      cols.set([f, f + 4, f + 5, f + 1, f + 3, f + 5, f + 2, f + 3, f + 4], 9 * p);
      for (let a = 0; a < 3; a++) rowPtr[3 * p + a + 1] = 9 * p + 3 * a + 3;
    }
    this.J = createCsr(3 * n, 6 * nIn, rowPtr, cols);
    this.resizeOutput(n);
    this.apply();
    if (isMechanicalState(this.to)) this.applyJ(this.to.v, [this.from.v]);
  }

  /** Radius of the circle of frame i among n (SOFA's peak attenuation). */
  private radiusOf(i: number, n: number): number {
    const rho = this.radius.value,
      peak = this.peak.value;
    if (peak > 0 && i < peak) return (i / peak) * rho;
    if (peak < 0 && n - 1 - i < -peak) return ((n - 1 - i) / -peak) * rho;
    return rho;
  }

  apply(): void {
    const xin = this.from.x,
      nIn = this.from.size,
      N = this.nbPointsOnEachCircle.value;
    const out = this.outputPositions(),
      r = this.rotated,
      Jv = this.J.values;
    for (let i = 0; i < nIn; i++) {
      const o = 7 * i,
        rho = this.radiusOf(i, nIn);
      const qx = xin[o + 3],
        qy = xin[o + 4],
        qz = xin[o + 5],
        qw = xin[o + 6];
      // R·e_y and R·e_z: the second and third columns of the rotation matrix of q
      const yx = 2 * (qx * qy - qz * qw),
        yy = 1 - 2 * (qx * qx + qz * qz),
        yz = 2 * (qy * qz + qx * qw);
      const zx = 2 * (qx * qz + qy * qw),
        zy = 2 * (qy * qz - qx * qw),
        zz = 1 - 2 * (qx * qx + qy * qy);
      for (let j = 0; j < N; j++) {
        const th = (2 * Math.PI * j) / N,
          c = Math.cos(th) * rho,
          s = Math.sin(th) * rho;
        const p = i * N + j;
        const rx = c * yx + s * zx,
          ry = c * yy + s * zy,
          rz = c * yz + s * zz;
        r[3 * p] = rx;
        r[3 * p + 1] = ry;
        r[3 * p + 2] = rz;
        out[3 * p] = xin[o] + rx;
        out[3 * p + 1] = xin[o + 1] + ry;
        out[3 * p + 2] = xin[o + 2] + rz;
        // J rows [I −[r]×]: x: (1, r_z, −r_y); y: (1, −r_z, r_x); z: (1, r_y, −r_x)
        const b = 9 * p;
        Jv[b] = 1;
        Jv[b + 1] = rz;
        Jv[b + 2] = -ry;
        Jv[b + 3] = 1;
        Jv[b + 4] = -rz;
        Jv[b + 5] = rx;
        Jv[b + 6] = 1;
        Jv[b + 7] = ry;
        Jv[b + 8] = -rx;
      }
    }
    this.touchOutput();
  }

  applyJ(out: Float64Array, ins: readonly Float64Array[]): void {
    const vin = ins[0],
      N = this.nbPointsOnEachCircle.value,
      n = this.rotated.length / 3,
      r = this.rotated;
    for (let p = 0; p < n; p++) {
      const o = 6 * Math.floor(p / N);
      const wx = vin[o + 3],
        wy = vin[o + 4],
        wz = vin[o + 5],
        x = r[3 * p],
        y = r[3 * p + 1],
        z = r[3 * p + 2];
      // v + ω × r
      out[3 * p] = vin[o] + wy * z - wz * y;
      out[3 * p + 1] = vin[o + 1] + wz * x - wx * z;
      out[3 * p + 2] = vin[o + 2] + wx * y - wy * x;
    }
  }

  applyJT(ins: readonly Float64Array[], out: Float64Array): void {
    const fin = ins[0],
      N = this.nbPointsOnEachCircle.value,
      n = this.rotated.length / 3,
      r = this.rotated;
    for (let p = 0; p < n; p++) {
      const o = 6 * Math.floor(p / N);
      const fx = out[3 * p],
        fy = out[3 * p + 1],
        fz = out[3 * p + 2],
        x = r[3 * p],
        y = r[3 * p + 1],
        z = r[3 * p + 2];
      // (f, r × f)
      fin[o] += fx;
      fin[o + 1] += fy;
      fin[o + 2] += fz;
      fin[o + 3] += y * fz - z * fy;
      fin[o + 4] += z * fx - x * fz;
      fin[o + 5] += x * fy - y * fx;
    }
  }

  getJ(_input: number): SparseMatrixLike {
    return this.J;
  }
}
