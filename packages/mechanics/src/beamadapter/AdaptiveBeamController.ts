import {
  AnimateBeginEvent,
  BaseObject,
  Int,
  KeypressedEvent,
  Real,
  RealArray,
  StringArray,
  resolvePath,
  sofaComponent,
  type BaseMechanicalState,
  type SofaEvent,
} from '@sofa-ts/core';
import { mstateLink } from '../state-link.js';
import { SplineScratch, controlPoints, interpolateFrame } from './beam-frames.js';
import { BeamInterpolation } from './BeamInterpolation.js';

/**
 * SOFA's AdaptiveBeamController (BeamAdapter plugin): at each AnimateBeginEvent, redistributes the
 * frames of a chain of beams (beam b between frames b and b + 1, a BeamInterpolation) along it by a
 * measure of how bent each beam is, l_b = |P1 − P0| + |P2 − P1| + |P3 − P2| + 30·|that − L_b| (its
 * Bézier control polygon, penalised by its change of length): with cumulative measures m_k and
 * rest abscissae c_k, the interior frame i moves to the rest abscissa where the measure reaches
 * i·(Σ l)/n, on the spline of the beam it falls in (its frame, and the velocity interpolated
 * linearly between that beam's frames), and the beams take the new spacings as rest lengths. The
 * frames are processed in order, in place, as BeamAdapter does. Keys change xtip and
 * rotationInstrument ('+' '-' 'A' 'E' '0'), which BeamAdapter reads nowhere else.
 */
@sofaComponent({
  name: 'AdaptiveBeamController',
  category: 'Controller',
  module: 'BeamAdapter',
  description: 'Redistributes the frames of a BeamInterpolation chain along its bending at each step (adaptive beams).',
  templates: ['Rigid3d'],
})
export class AdaptiveBeamController extends BaseObject {
  readonly mstate = this.initLink(mstateLink('the Rigid3d state of the beam frames'));
  readonly interpolation = this.initData({
    name: 'interpolation',
    type: StringArray,
    default: [],
    help: 'path to the BeamInterpolation (default: the one of this node)',
  });
  readonly controlledInstrument = this.initData({
    name: 'controlledInstrument',
    type: Int,
    default: 0,
    help: 'index of the instrument the keys move',
  });
  readonly xtip = this.initData({
    name: 'xtip',
    type: RealArray(1),
    default: new Float64Array(0),
    unit: 'm',
    help: "tip abscissa of each instrument (moved by '+' and '-'; not read by the redistribution, as in BeamAdapter)",
  });
  readonly rotationInstrument = this.initData({
    name: 'rotationInstrument',
    type: RealArray(1),
    default: new Float64Array(0),
    unit: 'rad',
    help: "rotation of each instrument (changed by 'A' and 'E'; not read by the redistribution, as in BeamAdapter)",
  });
  readonly step = this.initData({ name: 'step', type: Real, default: 0.1, unit: 'm', help: 'length of a key step' });
  readonly angularStep = this.initData({ name: 'angularStep', type: Real, default: 3.1416 / 20, unit: 'rad', help: 'angle of a key step' });
  readonly speed = this.initData({
    name: 'speed',
    type: Real,
    default: 0,
    unit: 'm/s',
    help: 'continuous speed (not read by the redistribution, as in BeamAdapter)',
  });

  private interp: BeamInterpolation | undefined;
  private state: BaseMechanicalState | undefined;
  private readonly w = new SplineScratch();
  private readonly E = new Float64Array(14);
  private oldAbs = new Float64Array(0);
  private splineAbs = new Float64Array(0);
  private newAbs = new Float64Array(0);

  override init(): void {
    this.listening.value = true;
    const path = this.interpolation.value[0];
    const target = path ? resolvePath(this, path.replace(/^@/, '')) : undefined;
    const found = path
      ? target?.kind === 'object'
        ? target.object
        : undefined
      : this.context.getObjects((o): o is BeamInterpolation => o instanceof BeamInterpolation)[0];
    if (!(found instanceof BeamInterpolation))
      throw this.error(path ? `'${path}' is not a BeamInterpolation` : 'no BeamInterpolation in this node');
    found.prepare();
    if (found.dofToNode)
      throw this.error(
        `the beams of ${found.describe()} have DOF-to-node transformations (dofsAndBeamsAligned="false"): resampling them is not implemented in sofa-ts`,
      );
    this.interp = found;
    this.state = this.mstate.require();
    if (found.getState() !== this.state)
      throw this.error(`the BeamInterpolation is on ${found.getState().describe()}, not on ${this.state.describe()}`);
    const n = found.beamCount;
    for (let b = 0; b < n; b++)
      if (found.nodes[2 * b] !== b || found.nodes[2 * b + 1] !== b + 1)
        throw this.error(
          `beam ${b} joins frames ${found.nodes[2 * b]} ${found.nodes[2 * b + 1]}: the controller needs the chain 0 1, 1 2, … (beam b on frames b, b + 1)`,
        );
    if (n < 1) throw this.error('the BeamInterpolation has no beam');
    this.oldAbs = new Float64Array(n + 1);
    this.splineAbs = new Float64Array(n + 1);
    this.newAbs = new Float64Array(n + 1);
  }

  override handleEvent(event: SofaEvent): void {
    if (event instanceof AnimateBeginEvent) this.applyController();
    else if (event instanceof KeypressedEvent && this.listening.value) this.onKey(event.key);
  }

  private onKey(key: string): void {
    let id = this.controlledInstrument.value;
    const tips = this.xtip.value,
      rot = this.rotationInstrument.value;
    if (key === '0') this.controlledInstrument.value = 0;
    else if (key === 'A' || key === 'E') {
      if (id < 0 || id >= rot.length)
        return void this.warnAbout(this.rotationInstrument, `instrument ${id} has no rotation (${rot.length} values)`);
      rot[id] += key === 'A' ? this.angularStep.value : -this.angularStep.value;
      this.rotationInstrument.touch();
    } else if (key === '+' || key === '-') {
      if (id < 0 || id >= tips.length) {
        this.warnAbout(this.xtip, `controlled instrument ${id} does not exist (${tips.length} tips): instrument 0 instead`);
        id = 0;
      }
      if (tips.length === 0) return;
      tips[id] += key === '+' ? this.step.value : -this.step.value;
      this.xtip.touch();
    }
  }

  /** BeamAdapter's applyController: the frames redistributed along the measure of bending. */
  applyController(): void {
    const it = this.interp!,
      s = this.state!,
      x = s.x,
      v = s.v,
      n = it.beamCount,
      E = this.E,
      P = this.w.P;
    const oldAbs = this.oldAbs,
      spl = this.splineAbs,
      nw = this.newAbs;
    oldAbs[0] = 0;
    spl[0] = 0;
    for (let b = 0; b < n; b++) {
      const L = it.lengths[b];
      oldAbs[b + 1] = oldAbs[b] + L;
      it.endFrames(E, x, b);
      controlPoints(P, E, 0, 7, L, this.w.R);
      let l = 0;
      for (let k = 0; k < 3; k++) l += Math.hypot(P[3 * k + 3] - P[3 * k], P[3 * k + 4] - P[3 * k + 1], P[3 * k + 5] - P[3 * k + 2]);
      l += 30 * Math.abs(l - L);
      spl[b + 1] = spl[b] + l;
    }
    const total = oldAbs[n],
      sampling = spl[n] / n;
    nw[0] = 0;
    let xs = 0,
      j = 0;
    for (let b = 0; b < n - 1; b++) {
      xs += sampling;
      while (j < n && xs > spl[j]) j++;
      const ratio = (xs - spl[j - 1]) / (spl[j] - spl[j - 1]);
      if (!(ratio >= 0 && ratio <= 1)) this.warn(`the redistribution ratio ${ratio} is outside [0, 1] (beam ${j - 1})`);
      nw[b + 1] = oldAbs[j - 1] + ratio * (oldAbs[j] - oldAbs[j - 1]);
    }
    nw[n] = total;
    j = 0;
    for (let i = 1; i < n; i++) {
      while (nw[i] > oldAbs[j]) {
        j++;
        if (j > n) return;
      }
      const L = it.lengths[j - 1],
        ratio = (nw[i] - oldAbs[j - 1]) / L;
      it.endFrames(E, x, j - 1);
      interpolateFrame(x, 7 * i, x, 7 * i + 3, E, 0, 7, L, ratio, this.w);
      for (let c = 0; c < 6; c++) v[6 * i + c] = v[6 * (j - 1) + c] * (1 - ratio) + v[6 * j + c] * ratio;
      it.setLength(i - 1, nw[i] - nw[i - 1]);
    }
    it.setLength(n - 1, nw[n] - nw[n - 1]);
    s.touch();
  }
}
