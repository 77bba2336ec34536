import { expect } from 'chai';
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

  it('the ordering in use: the linked component, else the deprecated ordering attribute, else AMD', () => {
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
