import { SofaImage, castValue } from '../image.js';

/**
 * CImg's resize of an image to (w, h, d) voxels, separable along x, y, z, each channel and frame:
 * interpolation 1 nearest neighbour (source voxel ⌊i·n/m⌋), 2 moving average (each target voxel
 * the mean of the source over its extent, by overlap), 3 linear (target voxel i at source
 * coordinate i·(n−1)/(m−1)). 0 keeps the voxels at their index and fills the rest with 0.
 */
export function resize(src: SofaImage, dims: readonly number[], interpolation: number, outType: SofaImage['pixelType']): SofaImage {
  let cur = { data: Float64Array.from(src.data), dims: [src.width, src.height, src.depth] };
  const planes = src.spectrum * src.frames;
  for (let axis = 0; axis < 3; axis++) {
    const n = cur.dims[axis],
      m = dims[axis];
    if (n === m) continue;
    const nd = cur.dims.slice();
    nd[axis] = m;
    const out = new Float64Array(nd[0] * nd[1] * nd[2] * planes);
    const strideIn = axis === 0 ? 1 : axis === 1 ? cur.dims[0] : cur.dims[0] * cur.dims[1];
    const strideOut = axis === 0 ? 1 : axis === 1 ? nd[0] : nd[0] * nd[1];
    const voxIn = cur.dims[0] * cur.dims[1] * cur.dims[2],
      voxOut = nd[0] * nd[1] * nd[2];
    // the lines along `axis`: every (other two indices) pair
    const others = [0, 1, 2].filter((a) => a !== axis);
    const [oa, ob] = others;
    const cInA = oa === 0 ? 1 : oa === 1 ? cur.dims[0] : cur.dims[0] * cur.dims[1];
    const cInB = ob === 0 ? 1 : ob === 1 ? cur.dims[0] : cur.dims[0] * cur.dims[1];
    const cOutA = oa === 0 ? 1 : oa === 1 ? nd[0] : nd[0] * nd[1];
    const cOutB = ob === 0 ? 1 : ob === 1 ? nd[0] : nd[0] * nd[1];
    for (let pl = 0; pl < planes; pl++)
      for (let b = 0; b < cur.dims[ob]; b++)
        for (let a = 0; a < cur.dims[oa]; a++) {
          const bi = pl * voxIn + a * cInA + b * cInB,
            bo = pl * voxOut + a * cOutA + b * cOutB;
          const at = (i: number): number => cur.data[bi + i * strideIn];
          for (let i = 0; i < m; i++) {
            let v: number;
            if (interpolation === 0) v = i < n ? at(i) : 0;
            else if (interpolation === 1) v = at(Math.min(n - 1, Math.floor((i * n) / m)));
            else if (interpolation === 2) {
              // mean over the source interval [i·n/m, (i+1)·n/m)
              const x0 = (i * n) / m,
                x1 = ((i + 1) * n) / m;
              let s = 0;
              for (let k = Math.floor(x0); k < Math.min(n, Math.ceil(x1)); k++) s += at(k) * (Math.min(x1, k + 1) - Math.max(x0, k));
              v = s / (x1 - x0);
            } else {
              const x = m > 1 ? (i * (n - 1)) / (m - 1) : 0;
              const k = Math.min(n - 2, Math.floor(x));
              v = n === 1 ? at(0) : at(k) + (x - k) * (at(k + 1) - at(k));
            }
            out[bo + i * strideOut] = v;
          }
        }
    cur = { data: out, dims: nd };
  }
  const img = SofaImage.create(outType, dims[0], dims[1], dims[2], src.spectrum, src.frames);
  const integer = outType !== 'F' && outType !== 'D';
  for (let i = 0; i < cur.data.length; i++)
    img.data[i] = castValue(outType, integer && interpolation >= 2 ? Math.trunc(cur.data[i]) : cur.data[i]);
  return img;
}
