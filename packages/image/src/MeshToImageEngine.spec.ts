import { expect } from 'chai';
import type { SofaImage } from './image.js';
import type { ImageLPTransform } from './image-transform.js';
import { box, el, find, initScene, uvSphere, type Mesh } from './image-test-support.js';
import type { MeshToImageEngine } from './MeshToImageEngine.js';

function voxelise(mesh: Mesh, attrs: Record<string, string>): { image: SofaImage; transform: ImageLPTransform } {
  const root = initScene([
    el('MeshToImageEngine', {
      name: 'r',
      position: mesh.position.join(' '),
      triangles: mesh.triangles.join(' '),
      ...attrs,
    }),
  ]);
  const e = find<MeshToImageEngine>(root, 'r');
  return { image: e.image.value, transform: e.transform.value };
}

/** Volume of the voxels of non-zero value. */
function voxelVolume(image: SofaImage, t: ImageLPTransform): number {
  let n = 0;
  for (let o = 0; o < image.voxelCount; o++) if (image.data[o] !== 0) n++;
  return n * t.scale[0] * t.scale[1] * t.scale[2];
}

describe('MeshToImageEngine (voxelisation of closed meshes)', () => {
  it('a sphere: voxels further than a voxel diagonal from the surface are inside exactly when their centre is', () => {
    const R = 1,
      h = 0.05;
    const sphere = uvSphere(R, 48, 24);
    const { image, transform } = voxelise(sphere, {
      template: 'ImageUC',
      voxelSize: String(h),
      padSize: '2',
      value: '1',
      insideValue: '2',
    });
    const c = new Float64Array(3);
    let checked = 0;
    // the polyhedron lies between the inscribed radius R·cos(π/24) and R
    const rIn = R * Math.cos(Math.PI / 24) * Math.cos(Math.PI / 48);
    for (let z = 0; z < image.depth; z++)
      for (let y = 0; y < image.height; y++)
        for (let x = 0; x < image.width; x++) {
          transform.fromImage(x, y, z, c);
          const r = Math.hypot(c[0], c[1], c[2]);
          const v = image.get(x, y, z);
          if (r < rIn - h * Math.sqrt(3)) {
            expect(v, `voxel ${x} ${y} ${z} at r = ${r}`).to.equal(2);
            checked++;
          } else if (r > R + h * Math.sqrt(3)) expect(v, `voxel ${x} ${y} ${z} at r = ${r}`).to.equal(0);
        }
    expect(checked).to.be.above(20000);
  });

  it('a sphere: the voxel volume is the mesh volume within the area × one voxel', () => {
    const h = 0.04;
    const sphere = uvSphere(1, 64, 32, [0.3, -0.2, 0.1]);
    const { image, transform } = voxelise(sphere, { voxelSize: String(h), padSize: '1' });
    expect(image.pixelType).to.equal('B');
    expect(Math.abs(voxelVolume(image, transform) - sphere.volume)).to.be.below(sphere.area * h);
  });

  it('a sphere: the filled voxels without the surface layer hold less than the mesh volume, with it more', () => {
    const h = 0.04;
    const sphere = uvSphere(1, 64, 32);
    const { image } = voxelise(sphere, { template: 'ImageUC', voxelSize: String(h), padSize: '1', value: '1', insideValue: '2' });
    let inside = 0,
      all = 0;
    for (let o = 0; o < image.voxelCount; o++) {
      if (image.data[o] === 2) inside++;
      if (image.data[o] !== 0) all++;
    }
    const v = h * h * h;
    expect(inside * v).to.be.below(sphere.volume);
    expect(all * v).to.be.above(sphere.volume);
  });

  it('a box, oriented image (rotateImage): the voxel volume is the box volume within the area × one voxel', () => {
    const b = box([0, 0, 0], [2, 1, 0.5]);
    const h = 0.025;
    const { image, transform } = voxelise(b, { voxelSize: String(h), padSize: '1', rotateImage: 'true' });
    expect(Math.abs(voxelVolume(image, transform) - 1)).to.be.below(b.area * h);
    // the grid follows the box: 2 / h voxels along its longest axis, plus 2 of padding
    expect(Math.max(image.width, image.height, image.depth)).to.be.within(2 / h + 2, 2 / h + 3);
  });

  it('nbVoxels sets the grid of the bounding box', () => {
    const b = box([-1, -1, -1], [1, 1, 1]);
    const { image, transform } = voxelise(b, { nbVoxels: '10 20 40' });
    expect(image.dimensions.slice(0, 3)).to.deep.equal([10, 20, 40]);
    expect(transform.scale[0]).to.be.closeTo(0.2, 1e-9);
    expect(transform.scale[2]).to.be.closeTo(0.05, 1e-9);
  });
});
