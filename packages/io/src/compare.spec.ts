import { expect } from 'chai';
import { compareStates, type StateSeries } from './compare.js';
import { formatComparison } from './compare-report.js';

const vec3 = (frames: StateSeries['frames'], name?: string): StateSeries => ({ scalarsPerPoint: 3, frames, ...(name ? { name } : {}) });

describe('compareStates', () => {
  it('averages |ref - cur| over the scalars and divides by the number of points', () => {
    const ref = vec3([
      { time: 0, X: [0, 0, 0, 1, 0, 0] },
      { time: 2.99, X: [0, 0, 0, 0.1531, 0, -1.09682] },
    ]);
    const cur = vec3([
      { time: 0, X: [0, 0, 0, 1, 0, 0] },
      { time: 2.99, X: [0, 0, 0, 0.1532, 0, -1.09692] },
    ]);
    const r = compareStates([ref], [cur], 1e-4, 0.01);
    // Frame 0 is exact; frame 1: (0.0001 + 0.0001) / 6 scalars / 2 points.
    const expected = (0.0001 + 0.0001) / 6 / 2;
    expect(r.errorByDof).to.be.closeTo(expected, 1e-15);
    expect(r.states[0].frames.map((f) => f.error)).to.have.length(2);
    expect(r.states[0].frames[0].error).to.equal(0);
    expect(r.passed).to.equal(true);
    expect(r.failures).to.deep.equal([]);
  });

  it('rounds the current values to 6 significant digits before comparing', () => {
    const ref = vec3([{ time: 0, X: [0.1531, 0, -1.09682] }]);
    // 0.15310049 prints as 0.1531 and -1.096824 as -1.09682: no error at all.
    const exactAfterRounding = compareStates([ref], [vec3([{ time: 0, X: [0.15310049, 0, -1.096824] }])], 0, 0.01);
    expect(exactAfterRounding.errorByDof).to.equal(0);
    expect(exactAfterRounding.passed).to.equal(true);
    // 0.15312 stays 0.15312 but -1.0968249 still prints -1.09682: only the first scalar counts.
    const r = compareStates([ref], [vec3([{ time: 0, X: [0.15312, 0, -1.0968249] }])], 0, 0.01);
    expect(r.errorByDof).to.be.closeTo(0.00002 / 3 / 1, 1e-15);
    expect(r.passed).to.equal(false);
    // Without the rounding the error would have included 4.9e-7 from the third scalar.
    expect(r.maxErrorAt!.scalar).to.equal(0);
    expect(r.maxErrorAt!.cur).to.equal(0.15312);
  });

  it('adds the V error where the reference has V', () => {
    const ref = vec3([
      { time: 0, X: [1, 2, 3, 4, 5, 6], V: [0, 0, 0, 0, 0, 0] },
      { time: 0.5, X: [1, 2, 3, 4, 5, 6] },
    ]);
    const cur = vec3([
      { time: 0, X: [1, 2, 3, 4, 5, 6.3], V: [0.6, 0, 0, 0, 0, 0] },
      { time: 0.5, X: [1, 2, 3, 4, 5, 6.6], V: [99, 99, 99, 99, 99, 99] },
    ]);
    const r = compareStates([ref], [cur], 1, 0.5);
    // Frame 0: X mean 0.3/6, V mean 0.6/6, over 2 points. Frame 1: X only (ref has no V there).
    const frame0 = (0.3 / 6 + 0.6 / 6) / 2;
    const frame1 = 0.6 / 6 / 2;
    expect(r.states[0].frames[0].meanAbsV).to.be.closeTo(0.1, 1e-15);
    expect(r.states[0].frames[1].meanAbsV).to.equal(undefined);
    expect(r.errorByDof).to.be.closeTo(frame0 + frame1, 1e-12);
    expect(r.maxAbsError).to.be.closeTo(0.6, 1e-12);
    expect(r.maxErrorAt).to.include({ vector: 'V', scalar: 0, point: 0, component: 0, refFrame: 0 });
  });

  it('counts Rigid3 points as 7 X scalars and 6 V scalars', () => {
    const ref: StateSeries = {
      name: 'rigid',
      scalarsPerPoint: 7,
      frames: [{ time: 0, X: [1, 2, 3, 0, 0, 0, 1, 4, 5, 6, 0, 0, 0.6, 0.8], V: [0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0] }],
    };
    const cur: StateSeries = {
      name: 'rigid',
      scalarsPerPoint: 7,
      frames: [{ time: 0, X: [1.001, 2, 3, 0, 0, 0, 1, 4, 5, 6.002, 0, 0, 0.6, 0.8], V: [0, 0, 0, 0, 0, 0.01, 1, 1, 1, 0, 0, 0] }],
    };
    const r = compareStates([ref], [cur], 1e-3, 0.01);
    // 2 points: X mean (0.001 + 0.002) / 14, V mean 0.01 / 12, both divided by 2 points.
    const expected = 0.003 / 14 / 2 + 0.01 / 12 / 2;
    expect(r.errorByDof).to.be.closeTo(expected, 1e-15);
    expect(r.states[0].frames[0].points).to.equal(2);
    expect(r.passed).to.equal(true);
    expect(r.maxAbsError).to.be.closeTo(0.01, 1e-15);
    expect(r.maxErrorAt).to.include({ stateName: 'rigid', vector: 'V', scalar: 5, point: 0, component: 5 });
    expect(r.maxAbsRef).to.equal(6);
    expect(r.relativeError).to.be.closeTo(0.01 / 6, 1e-15);
  });

  it('reports a layout that does not divide the X scalars', () => {
    const x = [1, 2, 3, 0, 0, 0, 1];
    const r = compareStates(
      [{ scalarsPerPoint: 3, frames: [{ time: 0, X: x }] }],
      [{ scalarsPerPoint: 3, frames: [{ time: 0, X: x }] }],
      1,
      0.01,
    );
    expect(r.passed).to.equal(false);
    expect(r.failures[0]).to.contain('not a multiple of 3');
  });

  it('divides the sum over states by the number of states', () => {
    const a = vec3([{ time: 0, X: [0, 0, 0] }]);
    const b = vec3([{ time: 0, X: [1, 1, 1, 2, 2, 2] }]);
    const curA = vec3([{ time: 0, X: [0.003, 0, 0] }]);
    const curB = vec3([{ time: 0, X: [1, 1, 1, 2, 2, 2.012] }]);
    const r = compareStates([a, b], [curA, curB], 1, 0.01);
    const eA = 0.003 / 3 / 1;
    const eB = 0.012 / 6 / 2;
    expect(r.states.map((s) => s.error)[0]).to.be.closeTo(eA, 1e-15);
    expect(r.states.map((s) => s.error)[1]).to.be.closeTo(eB, 1e-15);
    expect(r.errorByDof).to.be.closeTo((eA + eB) / 2, 1e-15);
    expect(r.stateCount).to.equal(2);
  });

  it('fails only when ERRORBYDOF is above epsilon', () => {
    const ref = vec3([{ time: 0, X: [0, 0, 0] }]);
    const cur = vec3([{ time: 0, X: [0.375, 0, 0] }]);
    // ERRORBYDOF = 0.375 / 3 / 1 = 0.125 exactly.
    expect(compareStates([ref], [cur], 0.125, 0.01).passed).to.equal(true);
    expect(compareStates([ref], [cur], 0.124, 0.01).passed).to.equal(false);
  });

  describe('frame matching by time', () => {
    const ref = vec3([
      { time: 0, X: [0, 0, 0] },
      { time: 0.03, X: [3, 3, 3] },
    ]);

    it('takes the first current frame at or after T - 0.001 dt', () => {
      // Accumulated time lands just under 0.03: still inside the 0.001·dt tolerance.
      const cur = vec3([
        { time: 0, X: [0, 0, 0] },
        { time: 0.01, X: [1, 1, 1] },
        { time: 0.02, X: [2, 2, 2] },
        { time: 0.029999999, X: [3, 3, 3] },
        { time: 0.04, X: [4, 4, 4] },
      ]);
      const r = compareStates([ref], [cur], 0, 0.01);
      expect(r.states[0].frames.map((f) => f.curFrame)).to.deep.equal([0, 3]);
      expect(r.errorByDof).to.equal(0);
    });

    it('skips a frame that is earlier than the tolerance allows', () => {
      const cur = vec3([
        { time: 0, X: [0, 0, 0] },
        { time: 0.0299, X: [3, 3, 3] },
        { time: 0.0399, X: [3.3, 3, 3] },
      ]);
      const r = compareStates([ref], [cur], 1, 0.01);
      expect(r.states[0].frames[1].curTime).to.equal(0.0399);
      expect(r.errorByDof).to.be.closeTo(0.3 / 3, 1e-12);
    });

    it('does not depend on the order of the current frames', () => {
      const cur = vec3([
        { time: 0.03, X: [3, 3, 3] },
        { time: 0, X: [0, 0, 0] },
      ]);
      const r = compareStates([ref], [cur], 0, 0.01);
      expect(r.states[0].frames.map((f) => f.curFrame)).to.deep.equal([1, 0]);
      expect(r.passed).to.equal(true);
    });

    it('fails with a reason when no current frame reaches T', () => {
      const cur = vec3([
        { time: 0, X: [0, 0, 0] },
        { time: 0.02, X: [2, 2, 2] },
      ]);
      const r = compareStates([ref], [cur], 1, 0.01);
      expect(r.passed).to.equal(false);
      expect(r.failures).to.have.length(1);
      expect(r.failures[0]).to.contain('T=0.03').and.to.contain('no current frame').and.to.contain('t=0.02');
    });
  });

  describe('failures', () => {
    const ref = vec3([{ time: 0, X: [0, 0, 0, 1, 1, 1], V: [0, 0, 0, 0, 0, 0] }], 'dofs');

    it('reports a size mismatch', () => {
      const r = compareStates([ref], [vec3([{ time: 0, X: [0, 0, 0], V: [0, 0, 0] }], 'dofs')], 1, 0.01);
      expect(r.passed).to.equal(false);
      expect(r.failures[0]).to.contain("state 0 'dofs'").and.to.contain('X size mismatch').and.to.contain('2 point(s)');
    });

    it('reports a missing V', () => {
      const r = compareStates([ref], [vec3([{ time: 0, X: [0, 0, 0, 1, 1, 1] }], 'dofs')], 1, 0.01);
      expect(r.failures[0]).to.contain('reference has V but the current frame has none');
    });

    it('reports a different number of states, and no state at all', () => {
      expect(compareStates([ref], [], 1, 0.01).failures[0]).to.contain('1 reference state(s) but 0 current state(s)');
      const none = compareStates([], [], 1, 0.01);
      expect(none.passed).to.equal(false);
      expect(none.failures[0]).to.contain('no reference state');
    });

    it('reports a state paired with another name', () => {
      const r = compareStates([ref], [vec3(ref.frames, 'other')], 1, 0.01);
      expect(r.failures[0]).to.contain("named 'other'");
    });

    it('never passes NaN values', () => {
      const r = compareStates([ref], [vec3([{ time: 0, X: [0, 0, 0, 1, NaN, 1], V: [0, 0, 0, 0, 0, 0] }], 'dofs')], 1, 0.01);
      expect(r.passed).to.equal(false);
      expect(r.failures[0]).to.contain('ERRORBYDOF is NaN');
      expect(r.maxAbsError).to.equal(Infinity);
      expect(r.maxErrorAt).to.include({ scalar: 4, point: 1, component: 1 });
    });

    it('rejects a negative epsilon or dt', () => {
      expect(() => compareStates([ref], [ref], -1, 0.01)).to.throw(/epsilon/);
      expect(() => compareStates([ref], [ref], 1, NaN)).to.throw(/dt/);
    });
  });
});

describe('formatComparison', () => {
  it('states the verdict, the error, where the largest error is and why a comparison failed', () => {
    const ref = vec3([{ time: 2.99, X: [0, 0, 0, 0.1531, 0, -1.09682] }], 'Particles');
    const cur = vec3([{ time: 2.99, X: [0, 0, 0, 0.1541, 0, -1.09682] }], 'Particles');
    const text = formatComparison(compareStates([ref, ref], [cur], 1e-4, 0.01));
    expect(text.split('\n')).to.deep.equal([
      'FAIL: ERRORBYDOF = 4.16667e-05 (epsilon 0.0001, 2 state(s))',
      "  max abs error 0.001 at state 0 'Particles', T=2.99, X[3] (point 1, component 0): ref 0.1531, cur 0.1541",
      '  relative error 0.000911727 (max |ref| 1.09682)',
      '  2 reference state(s) but 1 current state(s)',
    ]);
  });
});
