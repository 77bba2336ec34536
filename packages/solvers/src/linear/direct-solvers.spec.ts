import { expect } from 'chai';
import type { CsrMatrix } from '@sofa-ts/linalg';
import { SparseLDLSolver } from '../SparseLDLSolver.js';
import { AMDOrderingMethod } from './AMDOrderingMethod.js';
import { EigenSimplicialLDLT } from './EigenSimplicialLDLT.js';
import { EigenSimplicialLLT } from './EigenSimplicialLLT.js';
import { EigenSparseLU } from './EigenSparseLU.js';
import { EigenSparseQR } from './EigenSparseQR.js';
import type { DirectSparseSolver } from './matrix-linear-solver.js';
import { MetisOrderingMethod } from './MetisOrderingMethod.js';
import { NaturalOrderingMethod } from './NaturalOrderingMethod.js';
import type { BaseOrderingMethod } from './ordering-method.js';
import { SparseCholeskySolver } from './SparseCholeskySolver.js';
import { SparseLUSolver } from './SparseLUSolver.js';
import { SparseTAUCSLLtSolver } from './SparseTAUCSLLtSolver.js';
import { SparseTAUCSSolver } from './SparseTAUCSSolver.js';
import {
  anyFactors,
  denseSolve,
  denseToCsr,
  expectClose,
  fixedSystem,
  randomSpd,
  randomUnsymmetric,
  randomVector,
  rng,
} from './test-support.js';

const symmetricSolvers = {
  EigenSimplicialLDLT,
  EigenSimplicialLLT,
  SparseCholeskySolver,
  SparseTAUCSLLtSolver,
  SparseLDLSolver,
  EigenSparseLU,
  SparseLUSolver,
  EigenSparseQR,
};
const unsymmetricSolvers = { EigenSparseLU, SparseLUSolver, EigenSparseQR };
const orderings = { none: undefined, Natural: NaturalOrderingMethod, AMD: AMDOrderingMethod, Metis: MetisOrderingMethod };

function make(cls: new () => DirectSparseSolver, ordering: (new () => BaseOrderingMethod) | undefined): DirectSparseSolver {
  const s = new cls();
  s.template = 'CompressedRowSparseMatrixd';
  if (ordering) s.orderingMethod.set(new ordering());
  s.init();
  return s;
}

/**
 * An SPD matrix (diagonally dominant) on the points of an nx × ny × nz grid of hexahedra, three
 * unknowns a point, every pair of unknowns of a cell coupled: an assembled stiffness's pattern.
 */
function hexahedralGridMatrix(nx: number, ny: number, nz: number): CsrMatrix {
  const rowPtr = [0];
  const colInd: number[] = [];
  const values: number[] = [];
  for (let z = 0; z < nz; z++)
    for (let y = 0; y < ny; y++)
      for (let x = 0; x < nx; x++)
        for (let d = 0; d < 3; d++) {
          const i = 3 * (x + nx * (y + ny * z)) + d;
          for (let c = Math.max(0, z - 1); c <= Math.min(nz - 1, z + 1); c++)
            for (let b = Math.max(0, y - 1); b <= Math.min(ny - 1, y + 1); b++)
              for (let a = Math.max(0, x - 1); a <= Math.min(nx - 1, x + 1); a++)
                for (let e = 0; e < 3; e++) {
                  const j = 3 * (a + nx * (b + ny * c)) + e;
                  colInd.push(j);
                  values.push(i === j ? 100 : -1 / (1 + ((i + j) % 3)));
                }
          rowPtr.push(colInd.length);
        }
  const n = 3 * nx * ny * nz;
  return { rows: n, cols: n, rowPtr: Int32Array.from(rowPtr), colInd: Int32Array.from(colInd), values: Float64Array.from(values) };
}

describe('direct linear solvers (solution vs a dense mathjs solve)', () => {
  for (const [name, cls] of Object.entries(symmetricSolvers)) {
    for (const [oname, ordering] of Object.entries(orderings)) {
      it(`${name}, ordering ${oname}: random sparse SPD systems, new values on the same pattern`, () => {
        const r = rng(name.length * 31 + oname.length);
        for (const n of [1, 7, 60, 150]) {
          const D = randomSpd(r, n, 5);
          const sys = fixedSystem(D);
          const solver = make(cls as never, ordering as never);
          const b = randomVector(r, n);
          const x = new Float64Array(n);
          solver.solveSystem(sys, anyFactors, b, x);
          expectClose(x, denseSolve(D, b), 1e-10, `${name} n=${n}`);
          // Same pattern, new values (the analysis is kept).
          const D2 = D.map((row, i) => row.map((v, j) => (v === 0 ? 0 : v * (i === j ? 1.5 : 0.7))));
          const A2 = denseToCsr(D2);
          solver.setMatrix(A2);
          solver.solveMatrix(x, b);
          expectClose(x, denseSolve(D2, b), 1e-10, `${name} n=${n} refactorised`);
        }
      });
    }
  }

  for (const [name, cls] of Object.entries(unsymmetricSolvers)) {
    it(`${name}: random unsymmetric systems needing pivoting`, () => {
      const r = rng(name.length);
      for (const n of [3, 40, 120]) {
        const D = randomUnsymmetric(r, n, 3);
        const solver = make(cls as never, undefined);
        const b = randomVector(r, n);
        const x = new Float64Array(n);
        solver.solveSystem(fixedSystem(D), anyFactors, b, x);
        expectClose(x, denseSolve(D, b), 1e-9, `${name} n=${n}`);
      }
    });
  }

  it('the ordering in use: the linked component, else the deprecated ordering attribute, else AMD before any analysis', () => {
    const s = new EigenSimplicialLDLT();
    expect(s.orderingName).to.equal('AMD');
    s.ordering.read('Natural');
    expect(s.orderingName).to.equal('Natural');
    s.orderingMethod.set(new MetisOrderingMethod());
    expect(s.orderingName).to.equal('Metis');
    const lu = new SparseLUSolver();
    lu.permutation_.read('METIS');
    expect(lu.orderingName).to.equal('Metis');
  });

  it('with no ordering named: AMD on a compact mesh, the band of its own numbering on a slender one; ordering="AMD" keeps AMD', () => {
    const r = rng(7);
    for (const [dims, chosen] of [
      [[8, 8, 8], 'AMD'],
      [[5, 5, 31], 'Natural'], // the trunk robot's grid
      [[4, 4, 11], 'AMD'], // slender, but the band saves too little to leave SOFA's ordering
    ] as const) {
      const A = hexahedralGridMatrix(dims[0], dims[1], dims[2]);
      const n = A.rows;
      const b = randomVector(r, n);
      const solve = (ordering?: string) => {
        const s = make(SparseLDLSolver as never, undefined) as SparseLDLSolver;
        if (ordering) s.ordering.read(ordering);
        s.setMatrix(A);
        const x = new Float64Array(n);
        s.solveMatrix(x, b);
        return { s, x };
      };
      const own = solve();
      const amd = solve('AMD');
      expect(own.s.orderingName, dims.join('x')).to.equal(chosen);
      expect(amd.s.orderingName).to.equal('AMD');
      // Both solve A x = b to round-off: the residual, and the two solutions against each other.
      let residual = 0;
      for (let i = 0; i < n; i++) {
        let sum = -b[i];
        for (let k = A.rowPtr[i]; k < A.rowPtr[i + 1]; k++) sum += A.values[k] * own.x[A.colInd[k]];
        residual = Math.max(residual, Math.abs(sum));
      }
      expect(residual, dims.join('x')).to.be.below(1e-13);
      expectClose(own.x, amd.x, 1e-15, dims.join('x'));
      if (chosen === 'AMD') expect(own.s.nnzL.value).to.equal(amd.s.nnzL.value);
      else expect(own.s.nnzL.value).to.be.below(amd.s.nnzL.value);
    }
  });

  it("a legacy ordering attribute or TAUCS's options choose the permutation itself, not only its name", () => {
    // The trunk robot's grid, where the default would take the band: METIS named by SparseLUSolver's
    // permutation attribute factors as with ordering="Metis", and TAUCS's default (metis) solves as
    // SparseCholeskySolver with ordering="Metis", to the bit, and not as the default.
    const A = hexahedralGridMatrix(5, 5, 31);
    const n = A.rows;
    const b = randomVector(rng(3), n);
    const run = <S extends DirectSparseSolver>(s: S) => {
      s.template = 'CompressedRowSparseMatrixd';
      s.init();
      s.setMatrix(A);
      const x = new Float64Array(n);
      s.solveMatrix(x, b);
      return { s, x };
    };
    const lu = (set: (s: SparseLUSolver) => void) => {
      const s = new SparseLUSolver();
      set(s);
      return run(s).s.nnzL.value;
    };
    const legacy = lu((s) => s.permutation_.read('METIS'));
    expect(legacy).to.equal(lu((s) => s.ordering.read('Metis')));
    expect(legacy).to.not.equal(lu(() => {}));
    const taucs = run(new SparseTAUCSSolver());
    expect(taucs.s.orderingName).to.equal('Metis');
    const cholesky = (ordering?: string) => {
      const s = new SparseCholeskySolver();
      if (ordering) s.ordering.read(ordering);
      return run(s).x;
    };
    const bits = (x: Float64Array, y: Float64Array) => x.every((v, i) => Object.is(v, y[i]));
    expect(bits(taucs.x, cholesky('Metis'))).to.equal(true);
    expect(bits(taucs.x, cholesky())).to.equal(false);
  });

  it('L_nnz of SparseLDLSolver: natural ordering of a banded matrix fills the band only, AMD no worse', () => {
    // Tridiagonal: no fill with the natural order, n − 1 entries in L.
    const n = 30;
    const D = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 4 : Math.abs(i - j) === 1 ? -1 : 0)));
    for (const ordering of [NaturalOrderingMethod, AMDOrderingMethod, MetisOrderingMethod]) {
      const s = make(SparseLDLSolver as never, ordering) as SparseLDLSolver;
      s.solveSystem(fixedSystem(D), anyFactors, new Float64Array(n).fill(1), new Float64Array(n));
      expect(s.nnzL.value, ordering.name).to.equal(n - 1);
    }
  });

  it('LLᵀ solvers refuse an indefinite matrix, LDLᵀ solves it', () => {
    const D = [
      [2, 1, 0],
      [1, -3, 1],
      [0, 1, 2],
    ];
    const b = Float64Array.from([1, 2, 3]);
    for (const cls of [EigenSimplicialLLT, SparseCholeskySolver]) {
      const s = make(cls as never, undefined);
      expect(() => s.solveSystem(fixedSystem(D), anyFactors, b, new Float64Array(3))).to.throw(/not positive definite/);
    }
    const x = new Float64Array(3);
    make(EigenSimplicialLDLT as never, undefined).solveSystem(fixedSystem(D), anyFactors, b, x);
    expectClose(x, denseSolve(D, b), 1e-12, 'LDLT indefinite');
  });
});
