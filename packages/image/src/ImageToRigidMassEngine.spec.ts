import { expect } from 'chai';
import { box, el, find, initScene } from './image-test-support.js';
import type { ImageToRigidMassEngine } from './ImageToRigidMassEngine.js';

describe('ImageToRigidMassEngine (rigid mass of a voxelised body)', () => {
  it('a voxelised box: mass, centre and principal inertias against the closed form ρabc, centre, m(b²+c²)/12', () => {
    const [a, b, c] = [2, 1, 0.5],
      lo = [0.3, -0.4, 1.1];
    const mesh = box(lo, [lo[0] + a, lo[1] + b, lo[2] + c]);
    const h = 0.025,
      rho = 7;
    const root = initScene([
      el('MeshToImageEngine', {
        name: 'r',
        position: mesh.position.join(' '),
        triangles: mesh.triangles.join(' '),
        voxelSize: String(h),
        padSize: '1',
      }),
      el('ImageToRigidMassEngine', { name: 'm', template: 'ImageB', image: '@r.image', transform: '@r.transform', density: String(rho) }),
    ]);
    const e = find<ImageToRigidMassEngine>(root, 'm');
    const m = rho * a * b * c;
    // the voxels cover the box to within one voxel layer over its area
    const area = 2 * (a * b + b * c + c * a);
    expect(e.mass.value).to.be.closeTo(m, rho * area * h);
    const x = e.position.value;
    for (let k = 0; k < 3; k++) expect(x[k]).to.be.closeTo(lo[k] + [a, b, c][k] / 2, h);
    const I = Array.from(e.inertia.value).sort((p, q) => p - q);
    const exact = [(m * (a * a + b * b)) / 12, (m * (a * a + c * c)) / 12, (m * (b * b + c * c)) / 12].sort((p, q) => p - q);
    // relative error of the order of the surface layer: h over the smallest side, twice
    for (let k = 0; k < 3; k++) expect(Math.abs(I[k] - exact[k]) / exact[k], `I${k}`).to.be.below((4 * h) / c);
    const rm = e.rigidMass.value;
    expect(rm[0]).to.equal(e.mass.value);
    expect(rm[2] * rm[0]).to.be.closeTo(e.inertia.value[0], 1e-9 * exact[2]);
  });
});
