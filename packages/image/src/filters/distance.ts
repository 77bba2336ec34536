import { SofaImage } from '../image.js';

/**
 * Chamfer distance map to the voxels of value `value` (CImg's distance(value, metric) with SOFA's
 * metric of voxel steps): the shortest path through the 26 neighbours, a step (i, j, k) ∈ {−1, 0,
 * 1}³ costing √((i·sx)² + (j·sy)² + (k·sz)²), computed by a forward then a backward raster scan.
 * Voxels of a frame with no such value get +∞ replaced by the largest finite distance possible
 * (the diagonal of the image), as no path exists. One channel per input channel, doubles.
 */
export function chamferDistance(src: SofaImage, value: number, size: readonly number[]): SofaImage {
  const { width: w, height: h, depth: d } = src;
  const out = SofaImage.create('D', w, h, d, src.spectrum, src.frames);
  const vox = src.voxelCount;
  const offs: Array<[number, number, number, number]> = [];
  for (let k = -1; k <= 1; k++)
    for (let j = -1; j <= 1; j++)
      for (let i = -1; i <= 1; i++) {
        if (i === 0 && j === 0 && k === 0) continue;
        offs.push([i, j, k, Math.hypot(i * size[0], j * size[1], k * size[2])]);
      }
  // forward pass: neighbours before the voxel in raster order; backward: after
  const before = offs.filter(([i, j, k]) => k < 0 || (k === 0 && (j < 0 || (j === 0 && i < 0))));
  const after = offs.filter((o) => !before.includes(o));
  const far = Math.hypot(w * size[0], h * size[1], d * size[2]);
  for (let p = 0; p < src.spectrum * src.frames; p++) {
    const base = p * vox;
    const D = out.data;
    let any = false;
    for (let o = 0; o < vox; o++) {
      const at = src.data[base + o] === value;
      D[base + o] = at ? 0 : Infinity;
      any ||= at;
    }
    const relax = (x: number, y: number, z: number, nb: typeof offs): void => {
      const o = base + x + w * (y + h * z);
      let best = D[o];
      for (const [i, j, k, c] of nb) {
        const xx = x + i,
          yy = y + j,
          zz = z + k;
        if (xx < 0 || yy < 0 || zz < 0 || xx >= w || yy >= h || zz >= d) continue;
        const v = D[base + xx + w * (yy + h * zz)] + c;
        if (v < best) best = v;
      }
      D[o] = best;
    };
    for (let z = 0; z < d; z++) for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) relax(x, y, z, before);
    for (let z = d - 1; z >= 0; z--) for (let y = h - 1; y >= 0; y--) for (let x = w - 1; x >= 0; x--) relax(x, y, z, after);
    if (!any) for (let o = 0; o < vox; o++) D[base + o] = far;
  }
  return out;
}
