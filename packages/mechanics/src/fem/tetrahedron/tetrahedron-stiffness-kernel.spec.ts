import { expect } from 'chai';
import { ELEMENT_BATCH } from '@sofa-ts/linalg';
import { TetrahedronDForceWasm } from '../tetrahedron-dforce-kernel.js';
import { rotatedTetrahedronStiffnessUpper } from './tetrahedron-element.js';

/**
 * The assembled path's element blocks in WebAssembly (tetK2, TetrahedronDForceWasm.upperStiffness):
 * bit for bit rotatedTetrahedronStiffnessUpper on the same rotations, gradients and materials, two
 * elements per vector, an odd last element alone, every batch of ELEMENT_BATCH elements.
 */
describe('TetrahedronDForceWasm.upperStiffness (the stiffness blocks of the assembled path)', () => {
  it('is bit for bit rotatedTetrahedronStiffnessUpper, batch by batch, with an odd element count', () => {
    let s = 7;
    const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
    const nElem = 2 * ELEMENT_BATCH + 37,
      nPoints = 400;
    const elems = new Uint32Array(4 * nElem).map(() => Math.floor(rnd() * nPoints));
    // signed values of several magnitudes, zeros and negative zeros among them
    const value = () => {
      const r = rnd();
      return r < 0.05 ? 0 : r < 0.1 ? -0 : (rnd() - 0.5) * 10 ** Math.floor(rnd() * 6 - 3);
    };
    const rot = new Float64Array(9 * nElem).map(value);
    const grad = new Float64Array(12 * nElem).map(value);
    const mat = new Float64Array(3 * nElem).map(() => rnd() * 1e4);
    const w = TetrahedronDForceWasm.create(elems, nPoints)!;
    expect(w, 'WebAssembly SIMD kernel').to.not.equal(undefined);
    w.setRotations(rot);
    w.setMaterials(grad, mat);
    const want = new Float64Array(90);
    let compared = 0;
    for (let e0 = 0; e0 < nElem; e0 += ELEMENT_BATCH) {
      const count = Math.min(ELEMENT_BATCH, nElem - e0);
      const got = w.upperStiffness(e0, count);
      expect(got.length).to.be.at.least(90 * count);
      for (let k = 0; k < count; k++) {
        const e = e0 + k;
        rotatedTetrahedronStiffnessUpper(want, 0, grad, 12 * e, mat, 3 * e, rot, 9 * e);
        for (let i = 0; i < 90; i++) {
          if (!Object.is(got[90 * k + i], want[i])) expect.fail(`element ${e}, entry ${i}: ${got[90 * k + i]} against ${want[i]}`);
          compared++;
        }
      }
    }
    expect(compared).to.equal(90 * nElem);
  });

  it('refuses an odd first element or a batch larger than its area', () => {
    const elems = new Uint32Array([0, 1, 2, 3, 1, 2, 3, 4, 0, 2, 3, 4]);
    const w = TetrahedronDForceWasm.create(elems, 5)!;
    expect(() => w.upperStiffness(1, 1)).to.throw(RangeError, 'e0 must be even');
    expect(() => w.upperStiffness(0, 5)).to.throw(RangeError, 'count at most');
  });
});
