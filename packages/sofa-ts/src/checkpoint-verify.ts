import { decodeCheckpoint, encodeCheckpoint, type SofaError } from '@sofa-ts/core';
import type { SofaScene } from './scene.js';
import { allStates } from './states.js';

/** The first place where a resumed run left the uninterrupted one, or undefined when bitwise equal. */
export interface CheckpointMismatch {
  /** Step (counted from init) after which they differ. */
  readonly step: number;
  /** Path of the state's node and the state's name. */
  readonly state: string;
  readonly vector: 'x' | 'v';
  readonly index: number;
  readonly uninterrupted: number;
  readonly resumed: number;
}

export interface CheckpointVerification {
  readonly mismatch: CheckpointMismatch | undefined;
  /** Size of the checkpoint file, bytes. */
  readonly bytes: number;
  /** Warnings of the capture (state not saved). */
  readonly warnings: readonly SofaError[];
}

function snapshot(scene: SofaScene): { name: string; x: Float64Array; v: Float64Array }[] {
  return allStates(scene.root).map(({ state, node }) => ({
    name: `${node.path}/${state.getName()}`,
    x: state.x.slice(),
    v: state.v.slice(),
  }));
}

function sameBits(a: number, b: number): boolean {
  return Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b));
}

/**
 * Checks that checkpoint and resume are exact on a scene: one load runs `steps` steps; another runs
 * `at` steps, is checkpointed (through the file format's bytes) and a third load, restored from it,
 * runs the remaining steps. Every position and velocity of every state is compared bit for bit
 * after each step from `at + 1` to `steps`. `load` gives a freshly loaded scene each call.
 */
export async function verifyCheckpoint(load: () => Promise<SofaScene>, steps: number, at: number): Promise<CheckpointVerification> {
  const reference: ReturnType<typeof snapshot>[] = [];
  const a = await load();
  for (let i = 1; i <= steps; i++) {
    a.step();
    if (i > at) reference.push(snapshot(a));
  }
  const b = await load();
  b.step(at);
  const { checkpoint, warnings } = b.checkpoint();
  const bytes = encodeCheckpoint(checkpoint);
  const c = await load();
  c.restore(decodeCheckpoint(bytes));
  let mismatch: CheckpointMismatch | undefined;
  for (let i = at + 1; i <= steps && !mismatch; i++) {
    c.step();
    const got = snapshot(c);
    const ref = reference[i - at - 1];
    for (let s = 0; s < ref.length && !mismatch; s++) {
      const r = ref[s],
        g = got[s];
      for (const vector of ['x', 'v'] as const) {
        const ra = r[vector],
          ga = g?.[vector];
        if (!ga || ga.length !== ra.length) {
          mismatch = { step: i, state: r.name, vector, index: -1, uninterrupted: ra.length, resumed: ga?.length ?? 0 };
          break;
        }
        for (let k = 0; k < ra.length; k++) {
          if (!sameBits(ra[k], ga[k])) {
            mismatch = { step: i, state: r.name, vector, index: k, uninterrupted: ra[k], resumed: ga[k] };
            break;
          }
        }
        if (mismatch) break;
      }
    }
  }
  return { mismatch, bytes: bytes.length, warnings };
}
