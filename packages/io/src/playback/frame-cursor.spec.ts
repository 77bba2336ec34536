import { expect } from 'chai';
import { FrameCursor } from './frame-cursor.js';
import type { StateFrame } from '../read-state.js';

const frames = (times: number[]): StateFrame[] => times.map((time, i) => ({ time, X: Float64Array.of(i) }));
const ids = (f: StateFrame | undefined) => (f ? f.X[0] : undefined);

describe('FrameCursor (ReadState::readNext)', () => {
  it('returns the last frame with T ≤ t not read yet, undefined when none is new', () => {
    const c = new FrameCursor(frames([0, 0.1, 0.2, 0.3]), false);
    expect(ids(c.advance(0))).to.equal(0);
    expect(ids(c.advance(0.05))).to.equal(undefined);
    expect(ids(c.advance(0.25))).to.equal(2); // frame 1 skipped: only the latest counts
    expect(ids(c.advance(10))).to.equal(3);
    expect(ids(c.advance(20))).to.equal(undefined);
    c.rewind();
    expect(ids(c.advance(0.1))).to.equal(1);
  });

  it('loops with each pass shifted by the last time read, and stops on a file that does not move time', () => {
    const c = new FrameCursor(frames([0, 1]), true);
    expect(ids(c.advance(0))).to.equal(0);
    expect(ids(c.advance(1))).to.equal(0); // frame 1 at 1, then pass 2 starts at 1 with frame 0
    expect(ids(c.advance(2))).to.equal(0); // frame 1 at 2, frame 0 of pass 3 at 2
    const still = new FrameCursor(frames([0, 0]), true);
    expect(ids(still.advance(5))).to.equal(1);
  });
});
