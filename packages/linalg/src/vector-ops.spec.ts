import { expect } from 'chai';
import { add as mAdd, dot as mDot, multiply, norm as mNorm, subtract } from 'mathjs';
import { add, axpby, axpy, aypx, copy, dot, fill, norm, normInf, scale, sub } from './vector-ops.js';
import { expectClose, randomVector, rng } from './test-support.js';

describe('vector-ops', () => {
  const r = rng(42);
  const n = 37;
  const x = randomVector(r, n);
  const y = randomVector(r, n);
  const X = Array.from(x);
  const Y = Array.from(y);

  it('dot, norm, normInf', () => {
    expect(dot(x, y)).to.be.closeTo(mDot(X, Y), 1e-14);
    expect(norm(x)).to.be.closeTo(mNorm(X) as number, 1e-14);
    expect(normInf(x)).to.equal(Math.max(...X.map(Math.abs)));
    expect(dot(x, y, 5)).to.be.closeTo(mDot(X.slice(0, 5), Y.slice(0, 5)), 1e-15);
    expect(norm(new Float64Array([3, 4]))).to.equal(5);
    expect(normInf(new Float64Array(0))).to.equal(0);
  });

  it('axpy, aypx, axpby', () => {
    expectClose(axpy(y.slice(), 0.7, x), mAdd(Y, multiply(X, 0.7)) as number[], 1e-15, 'axpy');
    expectClose(aypx(y.slice(), -1.3, x), mAdd(X, multiply(Y, -1.3)) as number[], 1e-15, 'aypx');
    expectClose(axpby(new Float64Array(n), 2, x, -3, y), mAdd(multiply(X, 2), multiply(Y, -3)) as number[], 1e-15, 'axpby');
    const alias = x.slice();
    axpby(alias, 2, alias, 1, y);
    expectClose(alias, mAdd(multiply(X, 2), Y) as number[], 1e-15, 'axpby aliased');
  });

  it('scale, add, sub, copy, fill; explicit length stops early', () => {
    expectClose(scale(new Float64Array(n), x, 4), multiply(X, 4) as number[], 0, 'scale');
    expectClose(add(new Float64Array(n), x, y), mAdd(X, Y) as number[], 0, 'add');
    expectClose(sub(new Float64Array(n), x, y), subtract(X, Y) as number[], 0, 'sub');
    expect(Array.from(copy(new Float64Array(n), x))).to.deep.equal(X);
    const partial = fill(new Float64Array(4), 9, 2);
    expect(Array.from(partial)).to.deep.equal([9, 9, 0, 0]);
    const c = copy(new Float64Array(4), new Float64Array([1, 2, 3, 4, 5]), 3);
    expect(Array.from(c)).to.deep.equal([1, 2, 3, 0]);
    const a = axpy(new Float64Array(3), 1, new Float64Array([1, 1, 1]), 2);
    expect(Array.from(a)).to.deep.equal([1, 1, 0]);
  });
});
