import { expect } from 'chai';
import { box, el, find, initScene } from './image-test-support.js';
import type { MergeImages } from './MergeImages.js';

/** Two voxelised boxes (values 1 and 2, overlapping on x ∈ [1, 2]) merged with `overlap`. */
function merged(overlap: string): (x: number, y: number, z: number) => number {
  const a = box([0, 0, 0], [2, 1, 1]),
    b = box([1, 0, 0], [3, 1, 1]);
  const raster = (name: string, m: typeof a, v: string) =>
    el('MeshToImageEngine', {
      name,
      template: 'ImageUC',
      position: m.position.join(' '),
      triangles: m.triangles.join(' '),
      value: v,
      insideValue: v,
      voxelSize: '0.1',
      padSize: '1',
    });
  const root = initScene([
    raster('r1', a, '1'),
    raster('r2', b, '2'),
    el('MergeImages', {
      name: 'm',
      nbImages: '2',
      overlap,
      image1: '@r1.image',
      transform1: '@r1.transform',
      image2: '@r2.image',
      transform2: '@r2.transform',
    }),
  ]);
  const m = find<MergeImages>(root, 'm');
  const im = m.image.value,
    t = m.transform.value;
  const ip = [0, 0, 0];
  return (x, y, z) => {
    t.toImage(x, y, z, ip);
    return im.get(Math.round(ip[0]), Math.round(ip[1]), Math.round(ip[2]));
  };
}

describe('MergeImages', () => {
  it('adds the overlapping values (overlap 4), keeps the others', () => {
    const at = merged('4');
    expect(at(0.5, 0.5, 0.5)).to.equal(1);
    expect(at(1.5, 0.5, 0.5)).to.equal(3);
    expect(at(2.5, 0.5, 0.5)).to.equal(2);
  });
  it('gives the first image priority (overlap 1) and averages (overlap 0)', () => {
    expect(merged('1')(1.5, 0.5, 0.5)).to.equal(1);
    // (1 + 2)/2 cast to unsigned char
    expect(merged('0')(1.5, 0.5, 0.5)).to.equal(1);
    expect(merged('0')(2.5, 0.5, 0.5)).to.equal(2);
  });
});
