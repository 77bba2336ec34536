import { castValue, type SofaImage } from '../image.js';

/**
 * CImg's Deriche recursive filter of order 0 (the smoothing of blur(σ), a recursive approximation
 * of a Gaussian of standard deviation σ voxels) along one axis, in place, with Neumann boundaries:
 * α = 1.695/σ, causal pass y⁺_m = a0·x_m + a1·x_{m−1} − b1·y⁺_{m−1} − b2·y⁺_{m−2}, anti-causal pass
 * y⁻_n = a2·x_{n+1} + a3·x_{n+2} − b1·y⁻_{n+1} − b2·y⁻_{n+2}, result y⁺ + y⁻. As in CImg, the values
 * kept between passes (the boundary values and the result) are of the image's pixel type.
 */
export function derichePass(img: SofaImage, sigma: number, axis: 0 | 1 | 2, line: Float64Array): void {
  const dims = [img.width, img.height, img.depth];
  const N = dims[axis];
  if (N <= 1) return;
  const s = Math.max(0.1, sigma);
  const alpha = 1.695 / s,
    ema = Math.exp(-alpha),
    ema2 = Math.exp(-2 * alpha),
    b1 = -2 * ema,
    b2 = ema2;
  const k = ((1 - ema) * (1 - ema)) / (1 + 2 * alpha * ema - ema2);
  const a0 = k,
    a1 = k * (alpha - 1) * ema,
    a2 = k * (alpha + 1) * ema,
    a3 = -k * ema2;
  const coefp = (a0 + a1) / (1 + b1 + b2),
    coefn = (a2 + a3) / (1 + b1 + b2);
  const t = img.pixelType;
  const c = (v: number): number => castValue(t, trunc(t, v));
  const d = img.data;
  const stride = axis === 0 ? 1 : axis === 1 ? img.width : img.width * img.height;
  const [n1, n2] = axis === 0 ? [img.height, img.depth] : axis === 1 ? [img.width, img.depth] : [img.width, img.height];
  const s1 = axis === 0 ? img.width : 1;
  const s2 = axis === 2 ? img.width : img.width * img.height;
  const planes = img.spectrum * img.frames;
  const vox = img.voxelCount;
  for (let pl = 0; pl < planes; pl++)
    for (let j2 = 0; j2 < n2; j2++)
      for (let j1 = 0; j1 < n1; j1++) {
        const base = pl * vox + j1 * s1 + j2 * s2;
        let xp = d[base];
        let yp = c(coefp * xp),
          yb = yp;
        for (let m = 0; m < N; m++) {
          const xc = d[base + m * stride];
          const yc = a0 * xc + a1 * xp - b1 * yp - b2 * yb;
          line[m] = yc;
          xp = xc;
          yb = yp;
          yp = yc;
        }
        let xn = d[base + (N - 1) * stride],
          xa = xn;
        let yn = coefn * xn,
          ya = yn;
        if (t !== 'F' && t !== 'D') yn = ya = castValue(t, trunc(t, coefn) * xn);
        for (let n = N - 1; n >= 0; n--) {
          const o = base + n * stride;
          const xc = d[o];
          const yc = a2 * xn + a3 * xa - b1 * yn - b2 * ya;
          xa = xn;
          xn = xc;
          ya = yn;
          yn = yc;
          d[o] = c(line[n] + yc);
        }
      }
}

/** C++'s conversion of a double to an integer pixel type truncates toward zero. */
function trunc(t: SofaImage['pixelType'], v: number): number {
  return t === 'F' || t === 'D' ? v : Math.trunc(v);
}

/** blur(σ): the Deriche smoothing along x, y, then z (axes of one voxel skipped). */
export function blur(img: SofaImage, sigma: number): void {
  const line = new Float64Array(Math.max(img.width, img.height, img.depth));
  const s = sigma >= 0 ? sigma : (-sigma * Math.max(img.width, img.height, img.depth)) / 100;
  derichePass(img, s, 0, line);
  derichePass(img, s, 1, line);
  derichePass(img, s, 2, line);
}
