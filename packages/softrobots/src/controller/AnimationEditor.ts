import {
  AnimateBeginEvent,
  BaseObject,
  Bool,
  Real,
  Str,
  UInt,
  contextStateLink,
  findDataFile,
  host,
  outputFilePath,
  propagateMechanicalMappings,
  sofaComponent,
  type BaseMechanicalState,
  type SofaEvent,
} from '@sofa-ts/core';
import { AnimationFileError, formatAnimation, parseAnimation } from './animation-file.js';

/**
 * SoftRobots' AnimationEditor, as a player of its animation files (animation-file.ts): at init
 * (`load`) it reads the frames of `filename`; at the beginning of a step (AnimateBeginEvent) it
 * writes the frame under `cursor` into the positions of its state when the frame changed, then
 * lets the mappings follow. The cursor moves:
 *
 * - in play mode, one frame every `frameTime` of simulated time, up to `maxKeyFrame` where play
 *   stops, or back to 0 after the last key frame with `loop`. SOFA starts and pauses play with
 *   Ctrl+M in its GUI; sofa-ts, which has no key events, has the Data `play` for it;
 * - with `dx` set, by distance instead of time: forward (dx > 0) or backward over the frames whose
 *   points moved at most dx plus the distance carried from the last steps (moveCursorWithDx);
 * - when `cursor` is set (from the API or a link): that frame is written at the next step.
 *
 * `saveAnimation()` writes the animation in the same format (SOFA: Ctrl+W). The editing keys of
 * SOFA's GUI (add, delete, copy, paste key frames and the interpolation between them) and the
 * timeline drawing (drawTimeline, drawSize, drawTrajectory) are not provided: those Data are read
 * and not used. No file (the default name animation.txt absent) is told: the animation is then
 * the initial positions alone.
 */
@sofaComponent({
  name: 'AnimationEditor',
  category: 'SoftRobots',
  module: 'SoftRobots',
  description: "Plays an animation (frames of positions, SoftRobots' animation file) into the mechanical state of its context.",
  templates: ['Vec3d', 'Rigid3d'],
})
export class AnimationEditor extends BaseObject {
  readonly maxKeyFrame = this.initData({
    name: 'maxKeyFrame',
    type: UInt,
    default: 150,
    help: 'last frame of the timeline (≥ 1); raised to 1.5 × the frames of a longer file',
  });
  readonly filename = this.initData({
    name: 'filename',
    type: Str,
    default: 'animation.txt',
    help: 'animation file (read at init with load, written by saveAnimation)',
  });
  readonly loop = this.initData({
    name: 'loop',
    type: Bool,
    default: false,
    help: 'in play mode, start again at frame 0 after the last key frame',
  });
  readonly load = this.initData({ name: 'load', type: Bool, default: true, help: 'read the animation file at init' });
  readonly dx = this.initData({
    name: 'dx',
    type: Real,
    default: 0,
    help: 'when set: move along the animation by displacement instead of time (dx > 0 forward, dx < 0 backward)',
  });
  readonly frameTime = this.initData({
    name: 'frameTime',
    type: Real,
    default: 0.01,
    unit: 's',
    help: 'simulated time per frame in play mode',
  });
  readonly drawTimeline = this.initData({
    name: 'drawTimeline',
    type: Bool,
    default: true,
    help: 'SOFA draws the timeline (not drawn by sofa-ts)',
    group: 'Visualization',
  });
  readonly drawSize = this.initData({
    name: 'drawSize',
    type: Real,
    default: 0.1,
    help: 'size of the timeline drawing (not drawn by sofa-ts)',
    group: 'Visualization',
  });
  readonly drawTrajectory = this.initData({
    name: 'drawTrajectory',
    type: Bool,
    default: false,
    help: 'SOFA draws the trajectory (not drawn by sofa-ts)',
    group: 'Visualization',
  });
  readonly cursor = this.initData({ name: 'cursor', type: UInt, default: 0, help: 'current frame of the cursor along the timeline' });
  readonly play = this.initData({
    name: 'play',
    type: Bool,
    default: false,
    help: 'sofa-ts: play mode on (SOFA toggles it with Ctrl+M in its GUI)',
  });

  readonly mstate = this.initLink<BaseMechanicalState>(
    contextStateLink(
      'the state animated (default: the one of its node, else of the nearest ancestor that has one)',
      'a MechanicalObject (Vec3d or Rigid3d)',
    ),
  );

  private state: BaseMechanicalState | undefined;
  private frames: Float64Array[] = [];
  private keyFrames: number[] = [0];
  private maxKeyFrameID = 0;
  private frameDirty = false;
  /** The cursor value last written into the state (a change from outside makes the frame dirty). */
  private appliedCursor = -1;
  private time = 0;
  private carriedDx = 0;
  readonly checkpointFields = ['frameDirty', 'appliedCursor', 'time', 'carriedDx'] as const;

  constructor() {
    super();
    // SoftRobots' AnimationEditor listens by default
    this.listening.value = true;
    this.listening.isSet = false;
  }

  override init(): void {
    const s = this.mstate.require();
    const type = s.stateType.name;
    if (type !== 'Vec3d' && type !== 'Rigid3d')
      throw this.error(`the state ${s.describe()} is ${type}`, 'animate a Vec3d or Rigid3d MechanicalObject');
    if (this.template && this.template !== type) throw this.error(`template ${this.template} but the state ${s.describe()} is ${type}`);
    this.template = type;
    this.state = s;
    if (this.maxKeyFrame.value < 1) {
      this.warnAbout(this.maxKeyFrame, 'maxKeyFrame 0: 1 is used');
      this.maxKeyFrame.value = 1;
    }
    this.frames = [Float64Array.from(s.x)];
    this.keyFrames = [0];
    this.maxKeyFrameID = 0;
    if (this.load.value) this.loadAnimation();
    this.appliedCursor = this.cursor.value;
  }

  override reset(): void {
    this.cursor.value = 0;
    this.time = 0;
    this.carriedDx = 0;
    this.frameDirty = true;
  }

  /** The frames (flat coordinates of every point) and key frames of the animation. */
  get animation(): { frames: readonly Float64Array[]; keyFrames: readonly number[] } {
    return { frames: this.frames, keyFrames: this.keyFrames };
  }

  private loadAnimation(): void {
    const name = this.filename.value.trim();
    const file = name === '' ? undefined : findDataFile(this, name);
    if (!file) {
      this.warnAbout(
        this.filename,
        `animation file '${name}' not found: the animation is the initial positions alone`,
        'relative names are looked up beside the scene, then in the data paths; or set load="false"',
      );
      return;
    }
    const s = this.state!;
    let a;
    try {
      a = parseAnimation(host().readText(file), s.stateType.coordSize);
    } catch (e) {
      if (e instanceof AnimationFileError) throw this.dataError(this.filename, `${file}, ${e.message}`);
      throw e;
    }
    if (a.type !== s.stateType.name)
      throw this.dataError(this.filename, `${file} holds ${a.type} positions, the state ${s.describe()} is ${s.stateType.name}`);
    if (a.points !== s.size) {
      this.warnAbout(this.filename, `${file} animates ${a.points} points, the state ${s.describe()} has ${s.size}: the file is not loaded`);
      return;
    }
    this.frames = a.frames;
    this.keyFrames = a.keyFrames.length > 0 ? a.keyFrames : [0];
    this.maxKeyFrameID = Math.max(0, ...this.keyFrames);
    this.cursor.value = 0;
    if (this.maxKeyFrame.value < a.frames.length) this.maxKeyFrame.value = a.frames.length + Math.floor(a.frames.length / 2);
    this.frameDirty = true;
  }

  /** Writes the animation into `filename` (or `file`), in SoftRobots' format. */
  saveAnimation(file?: string): string {
    const s = this.state;
    if (!s) throw this.error('not initialised');
    const path = outputFilePath(this, file ?? this.filename.value);
    host().writeFile(path, formatAnimation({ type: s.stateType.name, points: s.size, keyFrames: this.keyFrames, frames: this.frames }));
    return path;
  }

  override handleEvent(event: SofaEvent): void {
    if (!this.listening.value || !(event instanceof AnimateBeginEvent) || !this.state) return;
    if (this.cursor.value !== this.appliedCursor) this.frameDirty = true;
    if (this.dx.isSet) {
      this.moveCursorWithDx();
    } else if (this.play.value) {
      this.time += event.dt;
      if (this.time >= this.frameTime.value) {
        this.time = 0;
        this.cursor.value = this.cursor.value + 1;
        if (this.cursor.value > this.maxKeyFrame.value) {
          this.cursor.value = this.maxKeyFrame.value;
          this.play.value = false;
        } else {
          this.frameDirty = true;
        }
        if (this.loop.value && this.cursor.value > this.maxKeyFrameID) this.cursor.value = 0;
      }
    }
    if (!this.frameDirty) return;
    this.frameDirty = false;
    const c = this.cursor.value;
    this.appliedCursor = c;
    if (c >= this.frames.length) return; // past the frames: the state keeps its positions, as in SoftRobots
    this.state.x.set(this.frames[c]);
    this.state.touch();
    propagateMechanicalMappings(this.context);
  }

  /** Distance between point i of two frames (positions only, for Rigid3d the centre). */
  private distance(a: Float64Array, b: Float64Array, i: number): number {
    const cs = this.state!.stateType.coordSize;
    return Math.hypot(a[i * cs] - b[i * cs], a[i * cs + 1] - b[i * cs + 1], a[i * cs + 2] - b[i * cs + 2]);
  }

  /**
   * SoftRobots' moveCursorWithdx: from the cursor's frame, step over the next (dx > 0) or previous
   * frames while every point moved at most |dx + carried|; at the first frame where a point moved
   * further, stop before it and carry dx more to the next step. The carried distance goes back to 0
   * when a whole frame passes (SoftRobots clears it at each point that passes, so that with several
   * points a frame whose first point passes and another does not never lets the cursor move).
   */
  private moveCursorWithDx(): void {
    const dx = this.dx.value,
      n = this.state!.size,
      start = this.cursor.value;
    const dir = dx > 0 ? 1 : -1;
    const canMove = (c: number): boolean => (dx > 0 ? c < this.maxKeyFrameID : dx < 0 && c > 0);
    if (dx !== 0 && canMove(this.cursor.value) && this.cursor.value < this.frames.length) {
      const from = this.frames[this.cursor.value];
      let c = this.cursor.value + dir;
      let cont = true;
      while (cont && canMove(c) && c < this.frames.length) {
        const to = this.frames[c];
        for (let i = 0; i < n; i++) {
          if (this.distance(from, to, i) > Math.abs(dx + this.carriedDx)) {
            this.carriedDx += dx;
            c -= dir;
            cont = false;
            break;
          }
        }
        if (cont) {
          this.carriedDx = 0;
          c += dir;
        }
      }
      this.cursor.value = Math.min(c, this.frames.length - 1);
    }
    if (this.cursor.value !== start) this.frameDirty = true;
  }
}
