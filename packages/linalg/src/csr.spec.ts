import { expect } from 'chai';
import { add, multiply, transpose } from 'mathjs';
import {
  createEmptyCsr,
  csrAddScaled,
  csrAxpyInto,
  csrCheck,
  csrClone,
  csrDiagonal,
  csrFindSlot,
  csrFromDense,
  csrFromTriplets,
  csrGet,
  csrNnz,
  csrScale,
  csrToDense,
  csrTranspose,
  spmv,
  spmvAdd,
  spmvTranspose,
  spmvTransposeAdd,
} from './csr.js';
import { denseToCsr, expectClose, expectMatrixClose, randInt, randomDense, randomVector, rng } from './test-support.js';

describe('csr', () => {
  const shapes: Array<[number, number, number]> = [
    [1, 1, 1],
    [3, 5, 0.5],
    [7, 4, 0.3],
    [20, 20, 0.15],
    [50, 31, 0.08],
    [6, 6, 0], // no entries at all
  ];

  describe('spmv / spmvAdd / spmvTranspose vs mathjs', () => {
    for (const [rows, cols, density] of shapes) {
      it(`${rows}x${cols} density ${density}`, () => {
        const r = rng(rows * 131 + cols);
        const D = randomDense(r, rows, cols, density);
        const A = denseToCsr(D);
        csrCheck(A);
        const x = randomVector(r, cols);
        const y = randomVector(r, rows);

        const Ax = multiply(D, Array.from(x)) as number[];
        expectClose(spmv(new Float64Array(rows), A, x), Ax, 1e-14, 'A x');

        const out = y.slice();
        spmvAdd(out, A, x, -2.5);
        expectClose(
          out,
          Ax.map((v, i) => y[i] - 2.5 * v),
          1e-14,
          'y - 2.5 A x',
        );

        const Aty = multiply(transpose(D), Array.from(y)) as number[];
        const t = new Float64Array(cols).fill(99); // spmvTranspose must overwrite
        expectClose(spmvTranspose(t, A, y), Aty, 1e-14, 'Aᵀ y');
        const t2 = x.slice();
        spmvTransposeAdd(t2, A, y, 0.5);
        expectClose(
          t2,
          Aty.map((v, i) => x[i] + 0.5 * v),
          1e-14,
          'x + 0.5 Aᵀ y',
        );
      });
    }
  });

  describe('csrTranspose', () => {
    for (const [rows, cols, density] of shapes) {
      it(`${rows}x${cols}: equals mathjs transpose, sorted, with a slot map`, () => {
        const r = rng(rows * 17 + cols * 3 + 1);
        const D = randomDense(r, rows, cols, density);
        const A = denseToCsr(D);
        const map = new Int32Array(csrNnz(A));
        const T = csrTranspose(A, map);
        csrCheck(T);
        expect([T.rows, T.cols]).to.deep.equal([cols, rows]);
        expectMatrixClose(csrToDense(T), transpose(D) as number[][], 0);
        for (let i = 0; i < rows; i++) {
          for (let k = A.rowPtr[i]; k < A.rowPtr[i + 1]; k++) {
            const q = map[k];
            expect(T.colInd[q]).to.equal(i);
            expect(T.values[q]).to.equal(A.values[k]);
          }
        }
      });
    }
  });

  describe('csrFromTriplets', () => {
    it('sums duplicates and sorts, matching a dense accumulation', () => {
      const r = rng(7);
      const rows = 13;
      const cols = 9;
      const R: number[] = [];
      const C: number[] = [];
      const V: number[] = [];
      const dense = Array.from({ length: rows }, () => new Array<number>(cols).fill(0));
      const seen = new Set<string>();
      for (let k = 0; k < 300; k++) {
        const i = randInt(r, rows);
        const j = randInt(r, cols);
        const v = Math.round(r() * 20 - 10) / 4;
        R.push(i);
        C.push(j);
        V.push(v);
        dense[i][j] += v;
        seen.add(`${i},${j}`);
      }
      const A = csrFromTriplets(rows, cols, R, C, V);
      csrCheck(A);
      expect(csrNnz(A)).to.equal(seen.size); // one structural entry per distinct (i, j)
      expectMatrixClose(csrToDense(A), dense, 1e-15);
    });

    it('keeps cancelling duplicates as structural zeros', () => {
      const A = csrFromTriplets(2, 2, [1, 1, 0], [0, 0, 1], [3, -3, 2]);
      expect(Array.from(A.rowPtr)).to.deep.equal([0, 1, 2]);
      expect(Array.from(A.colInd)).to.deep.equal([1, 0]);
      expect(Array.from(A.values)).to.deep.equal([2, 0]);
    });

    it('rejects out-of-range and non-integer indices', () => {
      expect(() => csrFromTriplets(2, 2, [2], [0], [1])).to.throw(/outside/);
      expect(() => csrFromTriplets(2, 2, [0], [-1], [1])).to.throw(/outside/);
      expect(() => csrFromTriplets(2, 2, [0.5], [0], [1])).to.throw(/outside/);
      expect(() => csrFromTriplets(2, 2, [0], [0, 1], [1])).to.throw(/lengths/);
    });

    it('csrFromDense drops zeros / small entries', () => {
      const A = csrFromDense(2, 3, [1, 0, 1e-9, 0, 5, 0]);
      expect(csrNnz(A)).to.equal(3);
      expect(csrNnz(csrFromDense(2, 3, [1, 0, 1e-9, 0, 5, 0], 1e-6))).to.equal(2);
    });
  });

  describe('csrFindSlot / csrGet / csrDiagonal', () => {
    it('finds every stored entry and reports -1 for absent ones', () => {
      const r = rng(3);
      const D = randomDense(r, 15, 12, 0.3);
      const A = denseToCsr(D);
      for (let i = 0; i < 15; i++) {
        for (let j = 0; j < 12; j++) {
          const k = csrFindSlot(A, i, j);
          if (D[i][j] === 0) expect(k).to.equal(-1);
          else {
            expect(A.colInd[k]).to.equal(j);
            expect(k >= A.rowPtr[i] && k < A.rowPtr[i + 1]).to.equal(true);
            expect(A.values[k]).to.equal(D[i][j]);
          }
          expect(csrGet(A, i, j)).to.equal(D[i][j]);
        }
      }
    });

    it('diagonal of rectangular matrices, zeros where absent', () => {
      const D = [
        [1, 2, 0, 0],
        [0, 0, 3, 0],
        [0, 0, 4, 0],
      ];
      const out = new Float64Array(3).fill(7);
      expect(Array.from(csrDiagonal(out, denseToCsr(D)))).to.deep.equal([1, 0, 4]);
    });
  });

  describe('csrAddScaled / csrAxpyInto / csrScale / csrClone', () => {
    it('alpha A + beta B on the union pattern equals mathjs', () => {
      const r = rng(11);
      const DA = randomDense(r, 17, 13, 0.2);
      const DB = randomDense(r, 17, 13, 0.2);
      const C = csrAddScaled(denseToCsr(DA), denseToCsr(DB), 2, -0.5);
      csrCheck(C);
      const expected = add(multiply(DA, 2), multiply(DB, -0.5)) as number[][];
      expectMatrixClose(csrToDense(C), expected, 1e-15);
      // Union pattern: every position stored in A or B is present.
      for (let i = 0; i < 17; i++) {
        for (let j = 0; j < 13; j++) expect(csrFindSlot(C, i, j) >= 0).to.equal(DA[i][j] !== 0 || DB[i][j] !== 0);
      }
    });

    it('axpy into a superset pattern, and throws when the pattern is missing an entry', () => {
      const r = rng(12);
      const DA = randomDense(r, 10, 10, 0.3);
      const DB = randomDense(r, 10, 10, 0.3);
      const A = denseToCsr(DA);
      const B = denseToCsr(DB);
      const S = csrAddScaled(A, B, 1, 0); // pattern A ∪ B, values A
      csrAxpyInto(S, B, 3);
      expectMatrixClose(csrToDense(S), add(DA, multiply(DB, 3)) as number[][], 1e-15);
      const target = csrClone(A);
      const hasExtra = DB.some((row, i) => row.some((v, j) => v !== 0 && DA[i][j] === 0));
      expect(hasExtra).to.equal(true);
      expect(() => csrAxpyInto(target, B, 1)).to.throw(/not in target pattern/);
    });

    it('scale and clone are independent copies', () => {
      const A = denseToCsr([
        [1, 0],
        [2, 3],
      ]);
      const B = csrClone(A);
      csrScale(A, -2);
      expect(csrToDense(A)).to.deep.equal([
        [-2, 0],
        [-4, -6],
      ]);
      expect(csrToDense(B)).to.deep.equal([
        [1, 0],
        [2, 3],
      ]);
    });
  });

  describe('csrCheck', () => {
    it('rejects unsorted, duplicated and out-of-range columns', () => {
      const mk = (cols: number[]) => ({
        rows: 1,
        cols: 3,
        rowPtr: Int32Array.from([0, cols.length]),
        colInd: Int32Array.from(cols),
        values: new Float64Array(cols.length),
      });
      expect(() => csrCheck(mk([0, 2]))).not.to.throw();
      expect(() => csrCheck(mk([2, 0]))).to.throw(/increasing/);
      expect(() => csrCheck(mk([1, 1]))).to.throw(/increasing/);
      expect(() => csrCheck(mk([3]))).to.throw(/out of range/);
      expect(() => csrCheck(createEmptyCsr(4, 2))).not.to.throw();
    });
  });
});
