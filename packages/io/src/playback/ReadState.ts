import {
  AnimateBeginEvent,
  BaseObject,
  Bool,
  Real,
  Str,
  Vec3,
  isProjectiveConstraint,
  propagateMechanicalMappings,
  sofaComponent,
  type BaseMechanicalState,
  type SofaEvent,
  checkpointFields,
  restoreFields,
  type CheckpointReader,
  type CheckpointRecord,
} from '@sofa-ts/core';
import { readStateFile, type StateFrame } from '../read-state.js';
import { FrameCursor } from './frame-cursor.js';
import { inputFilePath, localMechanicalState } from './playback-files.js';
import { transformPositions } from './state-transform.js';

/**
 * Replays a state file (written by WriteState or `sofa-ts run --write-state`) into the
 * MechanicalObject of its node (SOFA ReadState). At bwdInit and at the beginning of every step
 * (AnimateBeginEvent), with t = time + shift + 0.001·dt, the last frame of the file with T ≤ t not read yet
 * (see FrameCursor) sets the positions, transformed as p ← R·(scalePos·p) + translation, and the
 * velocities when the frame has them; projective constraints of the node's subtree then project
 * them and its mappings propagate them (SOFA's project / propagate / update-mapping visitors).
 * A frame whose size differs from the state's is an error (SOFA would resize the state).
 * Differs from SOFA by choice: the 0.001·dt added to t (as SOFA's CompareState does) keeps a frame
 * from being missed when the accumulated time falls just below the time printed in the file.
 */
@sofaComponent({
  name: 'ReadState',
  category: 'Playback',
  module: 'Sofa.Component.Playback',
  description: 'Read the positions and velocities of the mechanical state of its node from a state file, step by step.',
})
export class ReadState extends BaseObject {
  readonly filename = this.initData({
    name: 'filename',
    type: Str,
    default: '',
    help: 'state file read (SOFA WriteState format, plain or gzipped)',
  });
  readonly interval = this.initData({
    name: 'interval',
    type: Real,
    default: 0,
    unit: 's',
    help: 'time between inputs: accepted and not used (SOFA does not use it either)',
  });
  readonly shift = this.initData({
    name: 'shift',
    type: Real,
    default: 0,
    unit: 's',
    help: 'added to the simulation time to find the frame to read',
  });
  readonly loop = this.initData({
    name: 'loop',
    type: Bool,
    default: false,
    help: 'read the file again from its start when its end is reached',
  });
  readonly scalePos = this.initData({
    name: 'scalePos',
    type: Real,
    default: 1,
    help: 'scale applied to the positions read',
    group: 'Transformation',
  });
  readonly rotation = this.initData({
    name: 'rotation',
    type: Vec3,
    default: Float64Array.of(0, 0, 0),
    unit: 'deg',
    help: 'rotation applied to the positions read (Euler angles about x, then y, then z)',
    group: 'Transformation',
  });
  readonly translation = this.initData({
    name: 'translation',
    type: Vec3,
    default: Float64Array.of(0, 0, 0),
    help: 'translation applied to the positions read',
    group: 'Transformation',
  });

  protected state: BaseMechanicalState | undefined;
  protected frames: StateFrame[] = [];
  protected cursor = new FrameCursor([], false);

  override init(): void {
    this.state = localMechanicalState(this);
    const file = inputFilePath(this, this.filename.value);
    this.frames = readStateFile(file);
    this.cursor = new FrameCursor(this.frames, this.loop.value);
  }

  override bwdInit(): void {
    this.readAt(this.frameTime());
  }

  /** Checkpoint: the cursor in the file. */
  checkpointState(): CheckpointRecord {
    return checkpointFields(this.cursor, this.cursor.checkpointFields, this.describe());
  }

  restoreState(saved: CheckpointReader): void {
    restoreFields(this.cursor, saved, this.cursor.checkpointFields);
  }

  /** t = time + shift + 0.001·dt: the time against which the frames' T are compared. */
  protected frameTime(): number {
    return this.context.getTime() + this.shift.value + 0.001 * this.context.getDt();
  }

  override reset(): void {
    this.cursor.rewind();
  }

  override handleEvent(event: SofaEvent): void {
    if (event instanceof AnimateBeginEvent && this.componentState === 'valid') this.readAt(this.frameTime());
  }

  /** Sets the state from the frame due at time t, if a new one is. */
  protected readAt(t: number): void {
    const s = this.state;
    if (!s) return;
    const frame = this.cursor.advance(t);
    if (!frame) return;
    this.checkSize('X', frame.X.length, s.x.length, frame.time);
    s.x.set(frame.X);
    transformPositions(s.x, s.stateType, this.scalePos.value, this.rotation.value, this.translation.value);
    if (frame.V) {
      this.checkSize('V', frame.V.length, s.v.length, frame.time);
      s.v.set(frame.V);
    }
    // SOFA's MechanicalProjectPositionAndVelocityVisitor, then the mapping propagation.
    this.context.visit((n) => {
      if (!n.activated.value) return false;
      for (const o of n.objects) {
        if (!isProjectiveConstraint(o)) continue;
        const ms = o.getMechanicalState();
        o.projectPosition(ms.x);
        o.projectVelocity(ms.v);
      }
      return true;
    });
    s.touch();
    propagateMechanicalMappings(this.context);
  }

  protected checkSize(vector: string, got: number, expected: number, time: number): void {
    if (got !== expected) {
      throw this.error(
        `frame T= ${time} of '${this.filename.value}' has ${got} ${vector} scalars, the state ${this.state!.getName()} has ${expected}`,
      );
    }
  }
}
