import { expect } from 'chai';
import { pythonCaseRefusal } from './queue-worker.js';

/** A queued case of a Python scene runs a program: a worker takes it only with --allow-python. */
describe('sweep workers and Python scenes', () => {
  it('refuse a .py scene without --allow-python, saying why', () => {
    expect(pythonCaseRefusal('scenes/finger.py', undefined)).to.match(
      /finger\.py is a Python scene: .* only when started with --allow-python/,
    );
    expect(pythonCaseRefusal('scenes/FINGER.PY', false)).to.be.a('string');
  });
  it('run it with --allow-python, and XML scenes in any case', () => {
    expect(pythonCaseRefusal('scenes/finger.py', true)).to.equal(undefined);
    expect(pythonCaseRefusal('scenes/finger.scn', false)).to.equal(undefined);
  });
});
