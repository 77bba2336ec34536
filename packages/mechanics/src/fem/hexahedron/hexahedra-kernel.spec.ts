import { expect } from 'chai';
import { ELEMENT_BATCH } from '@sofa-ts/linalg';
import { matVec24, rotatedElementStiffnessUpper } from '../element-matrix.js';
import { HEXAHEDRON_UPPER_VALUES, HexahedraKernel } from './hexahedra-kernel.js';

/**
 * The hexahedra's WebAssembly kernels (kernels/hexahedra.wat) against their JavaScript twins, bit
 * for bit: the element product matVec24 and the stiffness blocks rotatedElementStiffnessUpper, on
 * random matrices and rotations with zeros, negative zeros and several magnitudes among them.
 */
describe('HexahedraKernel (the products and stiffness blocks of hexahedra in WebAssembly)', () => {
  let s = 11;
  const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  const value = () => {
    const r = rnd();
    return r < 0.05 ? 0 : r < 0.1 ? -0 : (rnd() - 0.5) * 10 ** Math.floor(rnd() * 6 - 3);
  };
  const same = (got: ArrayLike<number>, want: ArrayLike<number>, what: string) => {
    for (let i = 0; i < want.length; i++) if (!Object.is(got[i], want[i])) expect.fail(`${what}, entry ${i}: ${got[i]} against ${want[i]}`);
  };

  it('matVec is matVec24 bit for bit, for each matrix and scale', () => {
    const matrices = 3;
    const pool = new Float64Array(576 * matrices).map(value);
    const k = HexahedraKernel.create(24, matrices)!;
    expect(k, 'WebAssembly SIMD kernel').to.not.equal(undefined);
    k.setMatrices(
      pool,
      Array.from({ length: 24 }, (_, e) => e % matrices),
    );
    const want = new Float64Array(24);
    for (let trial = 0; trial < 60; trial++) {
      const m = trial % matrices;
      const scale = trial % 4 === 0 ? 1 : value();
      for (let i = 0; i < 24; i++) k.x[i] = value();
      matVec24(want, pool, 576 * m, Float64Array.from(k.x), scale);
      k.matVec(m, scale);
      same(k.out, want, `trial ${trial}`);
    }
  });

  it('upper is rotatedElementStiffnessUpper bit for bit, batch by batch, with an odd element count and mixed matrices', () => {
    const n = 2 * ELEMENT_BATCH + 37,
      matrices = 5;
    const pool = new Float64Array(576 * matrices).map(value);
    const kOf = Array.from({ length: n }, () => Math.floor(rnd() * matrices));
    const k = HexahedraKernel.create(n, matrices)!;
    k.setMatrices(pool, kOf);
    for (let i = 0; i < k.rot.length; i++) k.rot[i] = value();
    const want = new Float64Array(HEXAHEDRON_UPPER_VALUES);
    let compared = 0;
    for (let e0 = 0; e0 < n; e0 += ELEMENT_BATCH) {
      const count = Math.min(ELEMENT_BATCH, n - e0);
      const got = k.upper(e0, count);
      expect(got.length).to.equal(HEXAHEDRON_UPPER_VALUES * count);
      for (let c = 0; c < count; c++) {
        rotatedElementStiffnessUpper(want, pool, 576 * kOf[e0 + c], 8, k.rot, 9 * (e0 + c));
        same(got.subarray(HEXAHEDRON_UPPER_VALUES * c, HEXAHEDRON_UPPER_VALUES * (c + 1)), want, `element ${e0 + c}`);
        compared++;
      }
    }
    // a batch starting at an odd element
    const got = k.upper(1, 3);
    rotatedElementStiffnessUpper(want, pool, 576 * kOf[2], 8, k.rot, 18);
    same(got.subarray(HEXAHEDRON_UPPER_VALUES, 2 * HEXAHEDRON_UPPER_VALUES), want, 'element 2 of a batch from 1');
    expect(compared).to.equal(n);
  });

  it('refuses matrices of the wrong count and a batch beyond its elements or area', () => {
    const k = HexahedraKernel.create(4, 1)!;
    expect(() => k.setMatrices(new Float64Array(576 * 2), [0, 0, 0, 0])).to.throw(RangeError, 'expected 1 and 4');
    expect(() => k.upper(2, 3)).to.throw(RangeError, 'at most');
    expect(() => HexahedraKernel.create(ELEMENT_BATCH + 1, 1)!.upper(0, ELEMENT_BATCH + 1)).to.throw(RangeError, 'at most');
  });
});
