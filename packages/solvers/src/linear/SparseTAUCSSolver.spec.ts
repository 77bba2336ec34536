import { expect } from 'chai';
import { SparseTAUCSSolver } from './SparseTAUCSSolver.js';
import { denseSolve, denseToCsr, expectClose, randomSpd, randomVector, rng } from './test-support.js';

function solver(options: string[]): SparseTAUCSSolver {
  const s = new SparseTAUCSSolver();
  s.template = 'CompressedRowSparseMatrixd';
  s.options.value = options;
  s.init();
  return s;
}

describe('SparseTAUCSSolver (TAUCS LLᵀ by the sparse Cholesky): the solution vs a dense mathjs solve', () => {
  it('solves random SPD systems with the default options (LLᵀ, metis) and each ordering the options name', () => {
    const r = rng(25);
    const cases: Array<[string[], string]> = [
      [[], 'Metis'],
      [['taucs.factor.LLT=true', 'taucs.factor.ordering=metis'], 'Metis'],
      [['taucs.factor.LLT=true', 'taucs.factor.ordering=amd'], 'AMD'],
      [['taucs.factor.LLT=true', 'taucs.factor.mf=true', 'taucs.factor.ordering=genmmd'], 'AMD'],
      [['taucs.factor.LLT=true', 'taucs.factor.ordering=identity'], 'Natural'],
    ];
    for (const [options, ordering] of cases) {
      for (const n of [7, 60, 150]) {
        const D = randomSpd(r, n, 5);
        const s = solver(options);
        expect(s.orderingName, options.join(' ')).to.equal(ordering);
        s.setMatrix(denseToCsr(D));
        const b = randomVector(r, n);
        const x = new Float64Array(n);
        s.solveMatrix(x, b);
        expectClose(x, denseSolve(D, b), 1e-10, `${options.join(' ')} n=${n}`);
      }
    }
  });
});
