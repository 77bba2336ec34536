import { DataParseError, printNumber, tokens, type DataType } from '@sofa-ts/core';
import { quatFromEulerAt } from '@sofa-ts/linalg';

/**
 * SOFA's ImageLPTransform (linear or perspective): the 12 parameters of an image's placement,
 * translation (3), rotation (3 Euler angles in degrees, R = Rz·Ry·Rx), scale (3, the voxel size),
 * time offset, time scale and isPerspective. Image coordinates ip (voxel indices) map to space as
 *
 *     p = R·(ip ∘ scale) + translation                       (isPerspective = 0)
 *
 * and, for a perspective image, the x (1, 2) and y (1, 3) coordinates grow with the depth:
 * sp_x += 2·ip_z·scale_x·(ip_x − camx), with (camx, camy) the image centre set by the container.
 */
export class ImageLPTransform {
  /** translation 0..2, rotation 3..5 (degrees), scale 6..8, offsetT 9, scaleT 10, isPerspective 11. */
  readonly params = new Float64Array(12);
  /** The rotation as a unit quaternion (x, y, z, w), recomputed by update(). */
  readonly q = Float64Array.of(0, 0, 0, 1);
  camx = 0;
  camy = 0;

  constructor(params?: ArrayLike<number>) {
    this.params[6] = this.params[7] = this.params[8] = this.params[10] = 1;
    if (params) for (let i = 0; i < Math.min(12, params.length); i++) this.params[i] = params[i];
    this.update();
  }

  /** Recomputes the quaternion after the parameters changed (SOFA's update()). */
  update(): void {
    const k = Math.PI / 180,
      p = this.params;
    quatFromEulerAt(this.q, 0, p[3] * k, p[4] * k, p[5] * k);
  }

  get translation(): Float64Array {
    return this.params.subarray(0, 3);
  }
  get rotation(): Float64Array {
    return this.params.subarray(3, 6);
  }
  get scale(): Float64Array {
    return this.params.subarray(6, 9);
  }
  get offsetT(): number {
    return this.params[9];
  }
  get scaleT(): number {
    return this.params[10];
  }
  get perspective(): number {
    return this.params[11];
  }

  setCamPos(cx: number, cy: number): void {
    this.camx = cx;
    this.camy = cy;
  }

  /** out[o..o+2] = space point of the image coordinates (x, y, z). */
  fromImage(x: number, y: number, z: number, out: Float64Array | number[], o = 0): void {
    const p = this.params;
    let sx = x * p[6],
      sy = y * p[7];
    const sz = z * p[8];
    const persp = p[11];
    if (persp === 1 || persp === 2) sx += 2 * z * p[6] * (x - this.camx);
    if (persp === 1 || persp === 3) sy += 2 * z * p[7] * (y - this.camy);
    rotate(this.q, sx, sy, sz, out, o);
    out[o] += p[0];
    out[o + 1] += p[1];
    out[o + 2] += p[2];
  }

  /** out[o..o+2] = image coordinates of the space point (x, y, z) (not rounded). */
  toImage(x: number, y: number, z: number, out: Float64Array | number[], o = 0): void {
    const p = this.params;
    const q = this.q;
    // R⁻¹ = rotation by the conjugate quaternion
    inverseRotate(q, x - p[0], y - p[1], z - p[2], out, o);
    const persp = p[11];
    if (persp === 0) {
      out[o] /= p[6];
      out[o + 1] /= p[7];
      out[o + 2] /= p[8];
      return;
    }
    const sp0 = out[o],
      sp1 = out[o + 1],
      sp2 = out[o + 2];
    const den = 1 + (2 * sp2) / p[8];
    out[o] = persp === 3 ? sp0 / p[6] : (sp0 / p[6] + (2 * sp2 * this.camx) / p[8]) / den;
    out[o + 1] = persp === 2 ? sp1 / p[7] : (sp1 / p[7] + (2 * sp2 * this.camy) / p[8]) / den;
    out[o + 2] = 0;
  }

  /** Time of a frame index, and back. */
  timeFromImage(i: number): number {
    return i * this.params[10] + this.params[9];
  }
  timeToImage(t: number): number {
    return (t - this.params[9]) / this.params[10];
  }

  clone(): ImageLPTransform {
    const c = new ImageLPTransform(this.params);
    c.camx = this.camx;
    c.camy = this.camy;
    return c;
  }
}

/** out = R(q)·v. */
export function rotate(q: ArrayLike<number>, vx: number, vy: number, vz: number, out: Float64Array | number[], o = 0): void {
  const x = q[0],
    y = q[1],
    z = q[2],
    w = q[3];
  const cx = y * vz - z * vy,
    cy = z * vx - x * vz,
    cz = x * vy - y * vx;
  out[o] = vx + 2 * (w * cx + y * cz - z * cy);
  out[o + 1] = vy + 2 * (w * cy + z * cx - x * cz);
  out[o + 2] = vz + 2 * (w * cz + x * cy - y * cx);
}

/** out = R(q)ᵀ·v. */
export function inverseRotate(q: ArrayLike<number>, vx: number, vy: number, vz: number, out: Float64Array | number[], o = 0): void {
  rotate([-q[0], -q[1], -q[2], q[3]], vx, vy, vz, out, o);
}

/**
 * The Data type of image transforms: up to 12 numbers (those not given keep the identity's:
 * no translation nor rotation, unit scales and time scale, orthographic), as SOFA reads a Vec<12>
 * into an identity transform.
 */
export const ImageTransformData: DataType<ImageLPTransform> = {
  name: 'ImageLPTransform',
  parse: (t) => {
    const ts = tokens(t);
    if (ts.length > 12) throw new DataParseError('at most 12 numbers (translation, rotation, scale, offsetT, scaleT, isPerspective)');
    const v = ts.map(Number);
    if (v.some((x) => !Number.isFinite(x))) throw new DataParseError('12 finite numbers', `got '${t.trim()}'`);
    return new ImageLPTransform(v);
  },
  print: (v) => Array.from(v.params, printNumber).join(' '),
  clone: (v) => v.clone(),
};
