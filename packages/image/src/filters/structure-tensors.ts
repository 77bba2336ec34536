import { SofaImage, castValue } from '../image.js';

/**
 * CImg's structure tensors with the forward-backward scheme (scheme 1): per voxel, with forward
 * and backward differences ixf = I(x+1) − I(x), ixb = I(x) − I(x−1) (Neumann boundaries), the
 * tensor (Ixx, Ixy, Ixz, Iyy, Iyz, Izz) = (½(ixf² + ixb²), ¼(ixf + ixb)(iyf + iyb), …) summed over
 * the channels; a 2-D image gives (Ixx, Ixy, Iyy). Scheme 0 uses centred differences ½(I(x+1) − I(x−1)).
 */
export function structureTensors(src: SofaImage, scheme: number, outType: SofaImage['pixelType']): SofaImage {
  const { width: w, height: h, depth: d } = src;
  const is3d = d > 1;
  const nc = is3d ? 6 : 3;
  const out = SofaImage.create(outType, w, h, d, nc, src.frames);
  const vox = src.voxelCount;
  const acc = new Float64Array(nc * vox);
  for (let t = 0; t < src.frames; t++) {
    acc.fill(0);
    for (let c = 0; c < src.spectrum; c++) {
      const base = (t * src.spectrum + c) * vox;
      const I = (x: number, y: number, z: number): number =>
        src.data[base + Math.min(w - 1, Math.max(0, x)) + w * (Math.min(h - 1, Math.max(0, y)) + h * Math.min(d - 1, Math.max(0, z)))];
      for (let z = 0; z < d; z++)
        for (let y = 0; y < h; y++)
          for (let x = 0; x < w; x++) {
            const o = x + w * (y + h * z);
            const i0 = I(x, y, z);
            const xf = I(x + 1, y, z) - i0,
              xb = i0 - I(x - 1, y, z);
            const yf = I(x, y + 1, z) - i0,
              yb = i0 - I(x, y - 1, z);
            const zf = is3d ? I(x, y, z + 1) - i0 : 0,
              zb = is3d ? i0 - I(x, y, z - 1) : 0;
            if (scheme === 0) {
              const ix = 0.5 * (xf + xb),
                iy = 0.5 * (yf + yb),
                iz = 0.5 * (zf + zb);
              if (is3d) {
                acc[o] += ix * ix;
                acc[o + vox] += ix * iy;
                acc[o + 2 * vox] += ix * iz;
                acc[o + 3 * vox] += iy * iy;
                acc[o + 4 * vox] += iy * iz;
                acc[o + 5 * vox] += iz * iz;
              } else {
                acc[o] += ix * ix;
                acc[o + vox] += ix * iy;
                acc[o + 2 * vox] += iy * iy;
              }
            } else if (is3d) {
              acc[o] += 0.5 * (xf * xf + xb * xb);
              acc[o + vox] += 0.25 * (xf * yf + xf * yb + xb * yf + xb * yb);
              acc[o + 2 * vox] += 0.25 * (xf * zf + xf * zb + xb * zf + xb * zb);
              acc[o + 3 * vox] += 0.5 * (yf * yf + yb * yb);
              acc[o + 4 * vox] += 0.25 * (yf * zf + yf * zb + yb * zf + yb * zb);
              acc[o + 5 * vox] += 0.5 * (zf * zf + zb * zb);
            } else {
              acc[o] += 0.5 * (xf * xf + xb * xb);
              acc[o + vox] += 0.25 * (xf * yf + xf * yb + xb * yf + xb * yb);
              acc[o + 2 * vox] += 0.5 * (yf * yf + yb * yb);
            }
          }
    }
    const integer = outType !== 'F' && outType !== 'D';
    const ob = t * nc * vox;
    for (let i = 0; i < acc.length; i++) out.data[ob + i] = castValue(outType, integer ? Math.trunc(acc[i]) : acc[i]);
  }
  return out;
}
