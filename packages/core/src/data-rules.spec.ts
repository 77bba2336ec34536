import { expect } from 'chai';
import { Data } from './data.js';
import { checkDataRanges, describeRange, inHalfOpen, nonNegative, orInfinite, orReset, positive } from './data-rules.js';
import { Int, Real, RealArray } from './data-types.js';
import { SofaError } from './errors.js';
import { Node } from './node.js';
import { addSceneWarning, onSceneWarning, sceneWarnings } from './scene-warnings.js';

const owner = { className: 'Test', getName: () => 't' };
const loc = { file: 'a.scn', line: 3, column: 7 };

function data<T>(spec: ConstructorParameters<typeof Data<T>>[0], text?: string): Data<T> {
  const d = new Data<T>(spec, owner);
  if (text !== undefined) {
    d.read(text);
    d.loc = loc;
  }
  return d;
}

describe('core: Data ranges (data-rules)', () => {
  it('a number set by the scene must be finite, whatever its range; defaults are not checked', () => {
    for (const text of ['nan', 'inf', '-inf']) {
      const r = checkDataRanges([data({ name: 'x', type: Real, default: 0, help: '' }, text)], "Test 't'", undefined);
      expect(r.errors.map((e) => e.message)).to.deep.equal([`a.scn:3:7: Test 't': 'x' must be finite, got ${text}`]);
    }
    const unset = data({ name: 'x', type: Real, default: NaN, help: '' });
    expect(checkDataRanges([unset], 'o', undefined).errors).to.have.length(0);
  });

  it('a declared range refuses out-of-range values and says what it accepts', () => {
    const d = data({ name: 'dt', type: Real, default: 0.01, range: positive, help: '' }, '-1');
    const r = checkDataRanges([d], "Node 'root'", undefined);
    expect(r.errors[0].message).to.equal("a.scn:3:7: Node 'root': 'dt' must be finite and > 0, got -1");
    const ints = data({ name: 'n', type: Int, default: 1, range: nonNegative, help: '' }, '-2');
    expect(checkDataRanges([ints], 'o', undefined).errors[0].detail).to.equal("'n' must be finite and >= 0, got -2");
  });

  it("orReset: SOFA's warn-and-reset, on a scalar and on each entry of a list", () => {
    const s = data({ name: 'nu', type: Real, default: 0.45, range: orReset(inHalfOpen(0, 0.5), 0.45), help: '' }, '0.7');
    const r = checkDataRanges([s], 'o', undefined);
    expect(r.errors).to.have.length(0);
    expect(r.warnings[0].detail).to.equal("'nu' must be in [0, 0.5), got 0.7: it is set to 0.45, as SOFA does");
    expect(s.value).to.equal(0.45);
    const list = data(
      { name: 'nu', type: RealArray(1), default: new Float64Array(0), range: orReset(inHalfOpen(0, 0.5), 0.45), help: '' },
      '0.3 0.6 -1',
    );
    const w = checkDataRanges([list], 'o', undefined).warnings;
    expect(w[0].detail).to.equal("'nu' must hold numbers in [0, 0.5), got 2 values (the first 0.6 at index 1): set to 0.45, as SOFA does");
    expect(Array.from(list.value)).to.deep.equal([0.3, 0.45, 0.45]);
    // NaN is never reset: it is refused
    const nan = data(
      { name: 'nu', type: RealArray(1), default: new Float64Array(0), range: orReset(inHalfOpen(0, 0.5), 0.45), help: '' },
      '0.3 nan',
    );
    expect(checkDataRanges([nan], 'o', undefined).errors[0].detail).to.equal(
      "'nu' must hold numbers finite and in [0, 0.5), got nan at index 1",
    );
  });

  it('orInfinite lets ±inf through (an unbounded limit), never NaN; the reference text of a range', () => {
    const d = data({ name: 'max', type: Real, default: 1, range: orInfinite(nonNegative), help: '' }, 'inf');
    expect(checkDataRanges([d], 'o', undefined).errors).to.have.length(0);
    expect(describeRange(orReset(nonNegative, 1))).to.equal('>= 0, else reset to 1 with a warning (as SOFA)');
  });

  it('linked and unlinked values are checked apart (values written in the scene first)', () => {
    const src = data({ name: 'x', type: Real, default: 0, help: '' }, 'nan');
    const follower = data({ name: 'x', type: Real, default: 0, range: positive, help: '' });
    follower.setParent(src as Data<unknown>);
    expect(checkDataRanges([follower as Data<unknown>], 'o', undefined, 'unlinked').errors).to.have.length(0);
    expect(checkDataRanges([follower as Data<unknown>], 'o', undefined, 'linked').errors).to.have.length(1);
  });

  it("a scene's warnings: each message once, passed to its listeners", () => {
    const root = new Node('root');
    const got: string[] = [];
    const stop = onSceneWarning(root, (w) => got.push(w.message));
    addSceneWarning(root, new SofaError('a'));
    addSceneWarning(root, new SofaError('a'));
    addSceneWarning(root, new SofaError('b'));
    stop();
    addSceneWarning(root, new SofaError('c'));
    expect(got).to.deep.equal(['a', 'b']);
    expect(sceneWarnings(root).map((w) => w.message)).to.deep.equal(['a', 'b', 'c']);
  });
});
