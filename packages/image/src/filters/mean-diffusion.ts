import { castValue, type SofaImage } from '../image.js';
import { floodOutside } from '../rasterize.js';

/**
 * SOFA's mean diffusion filter: the voxels to compute (zero voxels when fixedBoundaries, less the
 * outside reached from voxel (0,0,0) when excludeOutside; every voxel otherwise) take the mean of
 * their 3×3×3 neighbourhood (inside the image), by Jacobi sweeps, until no value changes by more
 * than `threshold` or maxIterations sweeps (0: no limit). Returns the sweeps done.
 */
export function meanDiffusion(
  img: SofaImage,
  maxIterations: number,
  fixedBoundaries: boolean,
  excludeOutside: boolean,
  threshold: number,
): number {
  const { width: w, height: h, depth: d } = img;
  const vox = img.voxelCount;
  const mask = new Uint8Array(vox);
  const type = img.pixelType;
  let sweeps = 0;
  const tmp = new Float64Array(vox);
  const list = new Int32Array(vox);
  for (let p = 0; p < img.spectrum * img.frames; p++) {
    const base = p * vox;
    const cur = img.data.subarray(base, base + vox);
    mask.fill(0);
    if (fixedBoundaries) {
      for (let o = 0; o < vox; o++) mask[o] = cur[o] !== 0 ? 1 : 0;
      if (excludeOutside) floodOutside(mask, w, h, d);
    }
    let n = 0;
    for (let o = 0; o < vox; o++) if (mask[o] === 0) list[n++] = o;
    let change = true;
    let i = 0;
    for (; change && (maxIterations === 0 || i < maxIterations); i++) {
      change = false;
      for (let q = 0; q < n; q++) {
        const o = list[q];
        const x = o % w,
          y = ((o - x) / w) % h,
          z = (o - x - w * y) / (w * h);
        let s = 0,
          c = 0;
        for (let zz = Math.max(0, z - 1); zz <= Math.min(d - 1, z + 1); zz++)
          for (let yy = Math.max(0, y - 1); yy <= Math.min(h - 1, y + 1); yy++)
            for (let xx = Math.max(0, x - 1); xx <= Math.min(w - 1, x + 1); xx++) {
              s += cur[xx + w * (yy + h * zz)];
              c++;
            }
        const mean = castValue(type, type === 'F' || type === 'D' ? s / c : Math.trunc(s / c));
        tmp[q] = mean;
        if (Math.abs(mean - cur[o]) > threshold) change = true;
      }
      if (change) for (let q = 0; q < n; q++) cur[list[q]] = tmp[q];
    }
    sweeps = Math.max(sweeps, i);
  }
  return sweeps;
}
