import { expect } from 'chai';
import { CompareStateRun } from './compare-state-run.js';
import type { StateSeries } from './compare.js';

const series = (frames: { time: number; X: number[]; V?: number[] }[], name = 'dofs'): StateSeries => ({
  name,
  scalarsPerPoint: 3,
  frames,
});
const layout = [{ name: 'dofs', scalarsPerPoint: 3 }];
const dt = 0.01;

/** Runs steps at t = k·dt (k = 0 … n − 1) with a point at x = (x(k), 0, 0). */
function run(ref: StateSeries, n: number, x: (k: number) => number) {
  const c = new CompareStateRun([ref], layout, 1, dt);
  for (let k = 0; k < n; k++) c.atStepBegin(k, k * dt, [{ X: [x(k), 0, 0] }]);
  return c.result();
}

describe("CompareStateRun: SOFA's CompareState at the beginning of every step", () => {
  it("compares every reference frame the run reaches and sums SOFA's error over them", () => {
    const ref = series([0, 1, 2, 3].map((k) => ({ time: k * dt, X: [k, 0, 0] })));
    // the run is off by 0.003·k in x: frame k's error is (0.003·k / 3 scalars) / 1 point
    const r = run(ref, 4, (k) => k + 0.003 * k);
    expect(r.states[0].frames.map((f) => f.refFrame)).to.deep.equal([0, 1, 2, 3]);
    expect(r.errorByDof).to.be.closeTo((0.003 * (0 + 1 + 2 + 3)) / 3, 1e-15);
    expect([r.notReached, r.passedOver, r.comparedSteps]).to.deep.equal([0, 0, 4]);
  });

  it('compares a frame between two steps at the first step that reaches it (T ≤ t + 0.001·dt)', () => {
    const ref = series([
      { time: 0, X: [0, 0, 0] },
      { time: 0.015, X: [2, 0, 0] },
      { time: 0.03 - 1e-7, X: [3, 0, 0] },
    ]);
    const r = run(ref, 4, (k) => k);
    expect(r.states[0].frames.map((f) => [f.refFrame, f.curFrame])).to.deep.equal([
      [0, 0],
      [1, 2],
      [2, 3],
    ]);
    expect(r.errorByDof).to.equal(0);
  });

  it('of two frames in one step compares the later (ReadState keeps the last frame read), and counts the other', () => {
    const ref = series([
      { time: 0, X: [0, 0, 0] },
      { time: 0.004, X: [99, 0, 0] },
      { time: 0.01, X: [1, 0, 0] },
    ]);
    const r = run(ref, 2, (k) => k);
    expect(r.states[0].frames.map((f) => f.refFrame)).to.deep.equal([0, 2]);
    expect(r.passedOver).to.equal(1);
    expect(r.passed).to.equal(true);
  });

  it('frames after the last step are not reached: not compared, counted (SOFA does not compare them)', () => {
    const ref = series([0, 1, 2, 3, 4].map((k) => ({ time: k * dt, X: [k, 0, 0] })));
    const r = run(ref, 3, (k) => k);
    expect(r.states[0].frames).to.have.length(3);
    expect(r.notReached).to.equal(2);
    expect(r.passed).to.equal(true);
  });

  it('adds the V error where the frame has V, divides by the points and by the states', () => {
    const a = series([{ time: 0, X: [0, 0, 0, 1, 1, 1], V: [0, 0, 0, 0, 0, 0.6] }], 'a');
    const b = series([{ time: 0, X: [5, 5, 5] }], 'b');
    const c = new CompareStateRun(
      [a, b],
      [
        { name: 'a', scalarsPerPoint: 3 },
        { name: 'b', scalarsPerPoint: 3 },
      ],
      1,
      dt,
    );
    c.atStepBegin(0, 0, [{ X: [0, 0, 0, 1, 1, 1.3], V: [0, 0, 0, 0, 0, 0] }, { X: [5, 5, 5.03] }]);
    const r = c.result();
    const eA = (0.3 / 6 + 0.6 / 6) / 2,
      eB = 0.03 / 3 / 1;
    expect(r.errorByDof).to.be.closeTo((eA + eB) / 2, 1e-15);
  });

  it('reports what it cannot compare: sizes, a missing V, names, NaN', () => {
    const ref = series([{ time: 0, X: [0, 0, 0], V: [0, 0, 0] }]);
    const size = new CompareStateRun([ref], layout, 1, dt);
    size.atStepBegin(0, 0, [{ X: [0, 0, 0, 1, 1, 1], V: [0, 0, 0, 0, 0, 0] }]);
    expect(size.result().failures[0]).to.contain('X size mismatch');
    const noV = new CompareStateRun([ref], layout, 1, dt);
    noV.atStepBegin(0, 0, [{ X: [0, 0, 0] }]);
    expect(noV.result().failures[0]).to.contain('reference has V but the current frame has none');
    expect(new CompareStateRun([ref], [{ name: 'other', scalarsPerPoint: 3 }], 1, dt).result().failures[0]).to.contain("named 'other'");
    const nan = new CompareStateRun([ref], layout, 1, dt);
    nan.atStepBegin(0, 0, [{ X: [0, NaN, 0], V: [0, 0, 0] }]);
    expect(nan.result().passed).to.equal(false);
  });
});
