import { expect } from 'chai';
import { SofaImage } from './image.js';
import { ImageLPTransform } from './image-transform.js';
import { isosurface } from './isosurface.js';
import { el, find, initScene } from './image-test-support.js';
import type { MarchingCubesEngine } from './MarchingCubesEngine.js';
import type { ImageContainer } from './ImageContainer.js';

/** Σ a·(b×c)/6: the volume a closed, consistently oriented triangle mesh encloses (signed). */
function enclosedVolume(x: ArrayLike<number>, t: ArrayLike<number>): number {
  let v = 0;
  for (let i = 0; i < t.length; i += 3) {
    const a = 3 * t[i],
      b = 3 * t[i + 1],
      c = 3 * t[i + 2];
    v +=
      (x[a] * (x[b + 1] * x[c + 2] - x[b + 2] * x[c + 1]) +
        x[a + 1] * (x[b + 2] * x[c] - x[b] * x[c + 2]) +
        x[a + 2] * (x[b] * x[c + 1] - x[b + 1] * x[c])) /
      6;
  }
  return v;
}

/** Every edge of a closed surface is in exactly two triangles, once in each direction. */
function isClosedAndOriented(t: ArrayLike<number>): boolean {
  const e = new Map<string, number>();
  for (let i = 0; i < t.length; i += 3)
    for (let k = 0; k < 3; k++) {
      const a = t[i + k],
        b = t[i + ((k + 1) % 3)];
      e.set(`${a},${b}`, (e.get(`${a},${b}`) ?? 0) + 1);
    }
  for (const [k, n] of e) {
    const [a, b] = k.split(',');
    if (n !== 1 || e.get(`${b},${a}`) !== 1) return false;
  }
  return true;
}

/** The field R − |x − c| sampled at voxel centres of a grid of spacing h covering [−L, L]³. */
function sphereDistance(R: number, h: number, L: number): { image: SofaImage; transform: ImageLPTransform } {
  const n = Math.round((2 * L) / h) + 1;
  const image = SofaImage.create('D', n, n, n);
  const transform = new ImageLPTransform([-L, -L, -L, 0, 0, 0, h, h, h]);
  const p = [0, 0, 0];
  for (let k = 0; k < n; k++)
    for (let j = 0; j < n; j++)
      for (let i = 0; i < n; i++) {
        transform.fromImage(i, j, k, p);
        image.data[i + n * (j + n * k)] = R - Math.hypot(p[0], p[1], p[2]);
      }
  return { image, transform };
}

describe('MarchingCubesEngine (isosurface of an image)', () => {
  it("the zero level of a sampled sphere's distance encloses the sphere's volume within the discretisation error", () => {
    const R = 1;
    for (const h of [0.2, 0.1, 0.05]) {
      const { image } = sphereDistance(R, h, 1.3);
      const s = isosurface(image.data, image.width, image.height, image.depth, 0);
      expect(isClosedAndOriented(s.triangles)).to.equal(true);
      const V = enclosedVolume(s.points, s.triangles) * h * h * h;
      // the linear interpolation of a concave (inside) field cuts inside the sphere, by O(h²)
      const exact = (4 / 3) * Math.PI * R ** 3;
      expect(Math.abs(V - exact) / exact, `h = ${h}`).to.be.below(0.6 * h * h + 1e-3);
    }
  });

  it('through a scene: image transform applied, triangles facing the values above isoValue by default', () => {
    const R = 0.8,
      h = 0.1;
    const { image, transform } = sphereDistance(R, h, 1.2);
    const root = initScene([
      el('ImageContainer', {
        name: 'image',
        template: 'ImageD',
        image: image.dimensions.join(' '),
        transform: Array.from(transform.params).join(' '),
      }),
      el('MarchingCubesEngine', { name: 'mc', template: 'ImageD', image: '@image.image', transform: '@image.transform', isoValue: '0' }),
    ]);
    // the container holds a zero image of the given dimensions: fill it with the field
    const c = find<ImageContainer>(root, 'image');
    c.image.value = image;
    const mc = find<MarchingCubesEngine>(root, 'mc');
    const x = mc.position.value,
      t = mc.triangles.value;
    // positions in space: on the sphere to the interpolation error
    for (let i = 0; i < x.length; i += 3) expect(Math.abs(Math.hypot(x[i], x[i + 1], x[i + 2]) - R)).to.be.below(h * h);
    // invertNormals (default): facing the inside, so the signed volume is negative
    const exact = (4 / 3) * Math.PI * R ** 3;
    expect(-enclosedVolume(x, t)).to.be.closeTo(exact, 0.02 * exact);
  });
});
