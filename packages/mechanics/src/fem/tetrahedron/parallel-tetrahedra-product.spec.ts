import { expect } from 'chai';
import { ThreadPool } from '@sofa-ts/linalg';
import { ParallelTetrahedraProduct } from './parallel-tetrahedra-product.js';
import { TetrahedronDForceWasm } from '../tetrahedron-dforce-kernel.js';

/** Random element data (the kernel's arithmetic does not need real tetrahedra). */
function randomData(nElem: number, nPoints: number, seed: number) {
  let s = seed;
  const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  const elems = new Uint32Array(4 * nElem);
  for (let e = 0; e < nElem; e++) {
    const q = new Set<number>();
    while (q.size < 4) q.add(Math.floor(rnd() * nPoints));
    elems.set([...q], 4 * e);
  }
  const rot = new Float64Array(9 * nElem).map(() => rnd() - 0.5);
  const grad = new Float64Array(12 * nElem).map(() => rnd() - 0.5);
  const mat = new Float64Array(3 * nElem).map(() => rnd());
  return { elems, rot, grad, mat };
}

describe('ParallelTetrahedraProduct', () => {
  it('is bit for bit the one-thread WebAssembly product, shared nodes everywhere (random, odd element count)', () => {
    for (const threads of [2, 3]) {
      const pool = ThreadPool.get(threads)!;
      const nElem = 2001,
        nPoints = 300;
      const { elems, rot, grad, mat } = randomData(nElem, nPoints, threads);
      const one = TetrahedronDForceWasm.create(elems, nPoints)!;
      const par = ParallelTetrahedraProduct.create(pool, elems, nPoints)!;
      for (const w of [one, par.wasm]) {
        w.setRotations(rot);
        w.setMaterials(grad, mat);
      }
      const dx = new Float64Array(3 * nPoints).map((_, i) => Math.cos(i));
      const base = new Float64Array(3 * nPoints).map((_, i) => (i % 7) - 3);
      const want = Float64Array.from(base),
        got = Float64Array.from(base);
      one.apply(want, dx, -0.37);
      par.apply(got, dx, -0.37);
      expect(want.some((v, i) => v !== base[i])).to.equal(true);
      expect(got.every((v, i) => Object.is(v, want[i]))).to.equal(true);
    }
  });
});
