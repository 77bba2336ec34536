import { BaseObject, Bool, Real, isMechanicalState, sofaComponent, type BaseMechanicalState, type SofaEvent } from '@sofa-ts/core';
import { isArticulatedHierarchyContainer, type ArticulatedHierarchyContainer } from './ArticulatedHierarchyContainer.js';
import { isArticulationCenter, type ArticulationCenter } from './ArticulationCenter.js';

/**
 * SOFA's ArticulatedHierarchyBVHController (ArticulatedSystemPlugin): plays the motion of the BVH
 * file of the ArticulatedHierarchyContainer of its node (or below) on the articulations, at the
 * beginning of each step: the value of articulation a is
 *   m_a(f) + α·(m_a(f+1) − m_a(f))   (translations as given, rotations m/180·3.14 rad, SOFA's factor)
 * written to the position and free position of the first Vec1d state of its node or below.
 * Frame f and α: with useExternalTime, f = ⌊T/Δ⌋ (at most F − 2), α = T/Δ − f (T = externalTime,
 * Δ the BVH's frame time, F its frame count); otherwise, SOFA's counter: with d = 1/Δ, α = n/d,
 * then n counts up to d − 1 and back to 0, f advancing by 1 (by ⌊Δ⌋ when d < 1) each time n
 * returns to 0, while f + the increment ≤ F − 2 (so a BVH of frame time 1 plays one frame a step).
 */
@sofaComponent({
  name: 'ArticulatedHierarchyBVHController',
  category: 'Controller',
  module: 'ArticulatedSystemPlugin',
  description:
    'Implements a handler that controls the values of the articulations of an articulated hierarchy container using a .bvh file.',
})
export class ArticulatedHierarchyBVHController extends BaseObject {
  readonly useExternalTime = this.initData({ name: 'useExternalTime', type: Bool, default: false, help: 'use the external time line' });
  readonly externalTime = this.initData({ name: 'externalTime', type: Real, default: 0, help: ' value of the External Time' });
  readonly checkpointFields = ['frame', 'n'] as const;

  private centers: ArticulationCenter[] = [];
  private ahc: ArticulatedHierarchyContainer | undefined;
  private state: BaseMechanicalState | undefined;
  frame = 0;
  n = 0;

  override init(): void {
    this.centers = this.context.getObjects(isArticulationCenter, 'down');
    this.ahc = this.context.getObject(isArticulatedHierarchyContainer, 'down');
    if (!this.ahc) throw this.error('no ArticulatedHierarchyContainer in this node or below');
    if (this.ahc.numOfFrames < 2)
      throw this.error(
        `${this.ahc.describe()} has ${this.ahc.numOfFrames} BVH frames: the controller interpolates between two`,
        "give the container a BVH file of at least two frames in 'filename'",
      );
    if (!(this.ahc.dtbvh > 0)) throw this.error(`the BVH frame time ${this.ahc.dtbvh} is not positive`);
    this.state = this.context.getObjects(isMechanicalState, 'down').find((s) => s.stateType.name === 'Vec1d');
    if (!this.state) throw this.error('no Vec1d state (the articulations) in this node or below');
    for (const c of this.centers)
      for (const a of c.getArticulations())
        if (a.articulationIndex.value >= this.state.size || a.motion.length < this.ahc.numOfFrames)
          throw a.error(`articulation ${a.articulationIndex.value} has no BVH motion on ${this.state.describe()}`);
    this.frame = 0;
    this.n = 0;
  }

  override reset(): void {
    this.frame = 0;
    this.n = 0;
  }

  override handleEvent(event: SofaEvent): void {
    if (event.type === 'AnimateBeginEvent') this.applyController();
  }

  /** SOFA's applyController: the articulations at (frame, α), then the counter's advance. */
  applyController(): void {
    const ahc = this.ahc!,
      s = this.state!;
    const frames = ahc.numOfFrames,
      dt = ahc.dtbvh;
    let ndiv = 0,
      frameInc = 0,
      alpha: number;
    if (this.useExternalTime.value) {
      const t = this.externalTime.value / dt;
      this.frame = Math.floor(t);
      alpha = t - this.frame;
      if (this.frame > frames - 2) this.frame = frames - 2;
    } else {
      ndiv = 1 / dt;
      alpha = this.n / ndiv;
      frameInc = 1;
      if (ndiv < 1) frameInc = Math.trunc(frames / (frames / dt));
    }
    const f = this.frame;
    const x = s.x,
      xf = s.xFree.length === x.length ? s.xFree : undefined;
    for (const c of this.centers)
      for (const a of c.getArticulations()) {
        // SOFA converts degrees with 3.14, not π, in this order: (m/180)·3.14
        const m0 = a.translation.value ? a.motion[f] : (a.motion[f] / 180) * 3.14,
          m1 = a.translation.value ? a.motion[f + 1] : (a.motion[f + 1] / 180) * 3.14;
        const v = m0 + alpha * (m1 - m0);
        x[a.articulationIndex.value] = v;
        if (xf) xf[a.articulationIndex.value] = v;
      }
    if (!this.useExternalTime.value && this.frame < frames - 2) {
      if (this.n < ndiv - 1) this.n++;
      else {
        if (this.frame + frameInc <= frames - 2) this.frame += frameInc;
        this.n = 0;
      }
    }
  }
}
