import {
  AnimateBeginEvent,
  BaseObject,
  Int,
  KeypressedEvent,
  Real,
  RealArray,
  StringArray,
  UInt,
  contextMeshTopology,
  isTopology,
  resolvePath,
  sofaComponent,
  type BaseMechanicalState,
  type BaseMeshTopology,
  type SofaEvent,
} from '@sofa-ts/core';
import { FixedProjectiveConstraint } from '../projective/FixedProjectiveConstraint.js';
import { mstateLink } from '../state-link.js';
import { SplineScratch, interpolateFrame, normalizeQuat } from './beam-frames.js';
import { NodeTable, samplingAbscissae, instrumentsAt, slideUnsharedNodes } from './instrument-sampling.js';
import { WireBeamInterpolation } from './WireBeamInterpolation.js';
import type { WireRestShape } from './WireRestShape.js';

/** What the controller does on a key or a BeamAdapterActionController action (BeamAdapter's BeamAdapterAction). */
export enum BeamAdapterAction {
  NO_ACTION = 0,
  MOVE_FORWARD = 1,
  MOVE_BACKWARD = 2,
  SPIN_RIGHT = 3,
  SPIN_LEFT = 4,
  SWITCH_NEXT_TOOL = 5,
  SWITCH_PREVIOUS_TOOL = 6,
  DROP_TOOL = 7,
  USE_TOOL_0 = 8,
  USE_TOOL_1 = 9,
  USE_TOOL_2 = 10,
}

/** The action a key stands for (SOFA's keys: arrows 18–21, 0 1 2, D), NO_ACTION for any other. */
export function keyAction(key: string): BeamAdapterAction {
  const code = key.length === 1 ? key.charCodeAt(0) : -1;
  if (key === '0') return BeamAdapterAction.USE_TOOL_0;
  if (key === '1') return BeamAdapterAction.USE_TOOL_1;
  if (key === '2') return BeamAdapterAction.USE_TOOL_2;
  if (key === 'D') return BeamAdapterAction.DROP_TOOL;
  if (code === 20) return BeamAdapterAction.SPIN_RIGHT;
  if (code === 18) return BeamAdapterAction.SPIN_LEFT;
  if (code === 19) return BeamAdapterAction.MOVE_FORWARD;
  if (code === 21) return BeamAdapterAction.MOVE_BACKWARD;
  return BeamAdapterAction.NO_ACTION;
}

/**
 * SOFA's InterventionalRadiologyController (BeamAdapter plugin): deploys instruments (the
 * WireBeamInterpolations of `instruments`, nested: a guidewire inside a catheter) from startingPos
 * onto the frames of one Rigid3d state, at each AnimateBeginEvent:
 *   1. x_tip of the controlled instrument += speed·dt (forward, or backward down to 0 after '/'),
 *      each x_tip ≤ its instrument's length; instrument i covers [x_tip,i − ℓ_i, x_tip,i];
 *   2. the deployed abscissae: 0, every section key point of every instrument, and nbBeams nodes
 *      per section length spaced back from each key point (instrument-sampling.ts), sorted, merged
 *      below `threshold`;
 *   3. the n deployed nodes are the last n frames of the state: each takes the frame of the previous
 *      node at its abscissa (the nodes carried by one instrument slide by the change of length, so
 *      pushing moves the wire through the base), or the frame the previous beam's spline
 *      interpolates there (a new node), or startingPos before the first beam;
 *   4. beam b between nodes b, b + 1 is the edge E − n + 1 + b of the topology (E edges), and a beam of
 *      every instrument covering both its ends, with the instrument's abscissae and rotation;
 *   5. the frames before the first deployed one are reset to startingPos (position, rest position,
 *      velocity 0) and fixed by the FixedProjectiveConstraint; indexFirstNode = the last of them.
 * Keys (SOFA's): up/down (19/21) move the controlled instrument by `step`, left/right (18/20) turn it
 * by angularStep, '0' '1' '2' choose it, '*' and '/' start/stop the continuous push and pull.
 */
@sofaComponent({
  name: 'InterventionalRadiologyController',
  category: 'Controller',
  module: 'BeamAdapter',
  description:
    'Deploys interventional radiology instruments (WireBeamInterpolation) along a Rigid3d state: insertion, rotation, nested instruments sharing nodes, keys.',
  templates: ['Rigid3d'],
})
export class InterventionalRadiologyController extends BaseObject {
  readonly mstate = this.initLink(mstateLink('the Rigid3d state whose frames the instruments occupy'));
  readonly instruments = this.initData({
    name: 'instruments',
    type: StringArray,
    default: [],
    help: 'paths to the WireBeamInterpolation of each instrument (default: those of this node), outermost first',
  });
  readonly controlledInstrument = this.initData({
    name: 'controlledInstrument',
    type: Int,
    default: 0,
    help: 'index of the instrument under control (keys 0, 1, 2 change it)',
  });
  readonly xtip = this.initData({
    name: 'xtip',
    type: RealArray(1),
    default: new Float64Array(0),
    unit: 'm',
    help: 'curvilinear abscissa of the tip of each instrument (deployed length)',
  });
  readonly rotationInstrument = this.initData({
    name: 'rotationInstrument',
    type: RealArray(1),
    default: new Float64Array(0),
    unit: 'rad',
    help: 'rotation of each instrument about its axis',
  });
  readonly step = this.initData({ name: 'step', type: Real, default: 0.1, unit: 'm', help: 'length of a key step' });
  readonly angularStep = this.initData({
    name: 'angularStep',
    type: Real,
    default: 3.1416 / 20,
    unit: 'rad',
    help: 'angle of a key step',
  });
  readonly speed = this.initData({
    name: 'speed',
    type: Real,
    default: 0,
    unit: 'm/s',
    help: 'continuous push speed of the controlled instrument (> 0 pushes from the start)',
  });
  readonly startingPos = this.initData({
    name: 'startingPos',
    type: RealArray(7),
    default: new Float64Array([0, 0, 0, 0, 0, 0, 1]),
    help: 'frame (position, quaternion) at which the instruments enter',
  });
  readonly threshold = this.initData({
    name: 'threshold',
    type: Real,
    default: 0.01,
    unit: 'm',
    help: 'abscissae closer than this are one node',
  });
  readonly rigidCurvAbs = this.initData({
    name: 'rigidCurvAbs',
    type: RealArray(1),
    default: new Float64Array(0),
    unit: 'm',
    help: 'pairs of abscissae of rigidified parts: not implemented (an error when set)',
  });
  readonly indexFirstNode = this.initData({
    name: 'indexFirstNode',
    type: UInt,
    default: 0,
    output: true,
    help: 'the first deployed node (to hold with a RestShapeSpringsForceField)',
  });
  readonly fixedConstraint = this.initLink<FixedProjectiveConstraint>({
    name: 'fixedConstraint',
    help: "the FixedProjectiveConstraint holding the frames not deployed (default: the node's)",
    accepts: (o): o is FixedProjectiveConstraint => o instanceof FixedProjectiveConstraint,
    expected: 'a FixedProjectiveConstraint',
    search: 'local',
  });
  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: "the edge topology of the instruments' beams (default: the node's)",
    accepts: isTopology,
    expected: 'an edge topology',
    search: 'none',
  });

  private list: WireBeamInterpolation[] = [];
  private shapes: WireRestShape[] = [];
  private state: BaseMechanicalState | undefined;
  private fixed: FixedProjectiveConstraint | undefined;
  private topo: BaseMeshTopology | undefined;
  private forward = false;
  private backward = false;
  /** Abscissae of the deployed nodes and the instruments on each, of the last step. */
  /** Deployed nodes of the last step and of this one (swapped at each step). */
  private nodes = new NodeTable();
  private next = new NodeTable();
  private moved = new Float64Array(0);
  private begins = new Float64Array(0);
  private ends = new Float64Array(0);
  private collCount = new Int32Array(0);
  private xbuf = new Float64Array(0);
  private readonly w = new SplineScratch();
  private readonly fr = new Float64Array(14);

  /** The instruments, in order. */
  get instrumentList(): readonly WireBeamInterpolation[] {
    return this.list;
  }

  /** Abscissae of the deployed nodes (from the base), of the last step. */
  get nodeAbscissae(): Float64Array {
    return this.nodes.abscissae;
  }

  override init(): void {
    if (this.rigidCurvAbs.value.length > 0)
      throw this.dataError(this.rigidCurvAbs, 'rigidified parts of instruments (rigidCurvAbs) are not implemented in sofa-ts');
    const s = this.mstate.require();
    if (s.stateType.name !== 'Rigid3d') throw this.error(`needs a Rigid3d state; ${s.describe()} is ${s.stateType.name}`);
    this.state = s;
    if (!this.template) this.template = 'Rigid3d';
    const topo = this.topology.get() ?? contextMeshTopology(this.context);
    if (!topo) throw this.error('no topology: put the edge topology of the instruments in the node, or set topology="@…"');
    this.topo = topo;
    this.list = this.findInstruments();
    const n = this.list.length;
    for (const d of [this.xtip, this.rotationInstrument])
      if (d.isSet && d.value.length !== n)
        this.warnAbout(
          d,
          `${d.value.length} values for ${n} instruments: ${d.value.length > n ? 'the extra values are ignored' : 'the missing ones are 0'}`,
        );
    this.xtip.value = resized(this.xtip.value, n);
    this.rotationInstrument.value = resized(this.rotationInstrument.value, n);
    for (const i of this.list) {
      i.prepare();
      i.controlled = true;
    }
    this.shapes = this.list.map((i) => i.restShape);
    const fixed = this.fixedConstraint.get();
    if (!fixed) throw this.error('no FixedProjectiveConstraint in this node: the controller fixes the frames not deployed with it');
    this.fixed = fixed;
    // listens to the keys unless the scene says otherwise (as BeamAdapter)
    if (!this.listening.isSet) this.listening.value = true;
    this.forward = this.speed.value > 0;
    this.backward = false;
    // the abscissae before the first step: 0 and the given tips, with every instrument on them
    const tips = this.xtip.value,
      t = this.nodes;
    t.reserve(n + 1);
    t.abs[0] = 0;
    t.n = 1;
    for (let i = n; i > 0; i--) if (tips[i - 1] > 0) t.abs[t.n++] = tips[i - 1];
    for (let k = 0; k < t.n; k++) {
      t.count[k] = 0;
      t.first[k] = -1;
      for (let id = 0; id < n; id++)
        if (tips[id] >= t.abs[k]) {
          if (t.count[k]++ === 0) t.first[k] = id;
        }
    }
    this.begins = new Float64Array(n);
    this.ends = new Float64Array(n);
    this.collCount = new Int32Array(n);
    const start = this.startingPos.value;
    normalizeQuat(start, 3);
    let needed = 1;
    for (const i of this.list) needed += i.restShape.totalBeams;
    if (needed > s.size)
      this.warn(
        `${s.describe()} has ${s.size} frames; the instruments need up to ${needed} (fewer beams are simulated when fully deployed)`,
      );
    for (const v of [s.x, s.x0]) for (let p = 0; p < s.size; p++) v.set(start, 7 * p);
    this.xbuf = new Float64Array(s.x.length);
  }

  /** The first deployment once every component is initialised (the FixedProjectiveConstraint may come after this controller). */
  override bwdInit(): void {
    this.apply();
  }

  private findInstruments(): WireBeamInterpolation[] {
    const names = this.instruments.value;
    if (names.length === 0) {
      const found = this.context.getObjects((o): o is WireBeamInterpolation => o instanceof WireBeamInterpolation);
      if (found.length === 0) throw this.error('no WireBeamInterpolation in this node: list the instruments in instruments="…"');
      return found;
    }
    return names.map((name) => {
      const r = name.includes('/') ? resolvePath(this, name.replace(/^@/, '')) : undefined;
      const t = name.includes('/') ? (r?.kind === 'object' ? r.object : undefined) : this.context.getObjectByName(name.replace(/^@/, ''));
      if (!(t instanceof WireBeamInterpolation))
        throw this.dataError(this.instruments, `instrument '${name}' is not a WireBeamInterpolation of this node (or a path to one)`);
      return t;
    });
  }

  /**
   * Set by a BeamAdapterActionController: the actions come from it, which also redeploys at each
   * step; this controller's own keys and push are off (as BeamAdapter's useBeamAction).
   */
  useBeamActions = false;

  override handleEvent(event: SofaEvent): void {
    if (this.useBeamActions) return;
    if (!this.listening.value && !(event instanceof AnimateBeginEvent)) return;
    if (event instanceof KeypressedEvent) this.onKey(event.key);
    else if (event instanceof AnimateBeginEvent) this.onBeginAnimationStep(event.dt);
  }

  private onKey(key: string): void {
    const action = keyAction(key);
    if (action !== BeamAdapterAction.NO_ACTION) this.applyAction(action);
    else if (key === '*') {
      if (this.backward) this.backward = false;
      else this.forward = true;
    } else if (key === '/') {
      if (this.forward) this.forward = false;
      else this.backward = true;
    }
  }

  /** One action on the controlled instrument (keys, BeamAdapterActionController). */
  applyAction(action: BeamAdapterAction): void {
    const id = this.controlledInstrument.value,
      n = this.list.length;
    if (id < 0 || id >= n) {
      this.warnAbout(this.controlledInstrument, `controlled instrument ${id} does not exist (${n} instruments)`);
      return;
    }
    const tips = this.xtip.value,
      rot = this.rotationInstrument.value;
    switch (action) {
      case BeamAdapterAction.NO_ACTION:
        break;
      case BeamAdapterAction.MOVE_FORWARD:
        tips[id] += this.step.value;
        this.xtip.touch();
        break;
      case BeamAdapterAction.MOVE_BACKWARD:
        tips[id] -= this.step.value;
        this.xtip.touch();
        break;
      case BeamAdapterAction.SPIN_RIGHT:
        rot[id] += this.angularStep.value;
        this.rotationInstrument.touch();
        break;
      case BeamAdapterAction.SPIN_LEFT:
        rot[id] -= this.angularStep.value;
        this.rotationInstrument.touch();
        break;
      case BeamAdapterAction.SWITCH_NEXT_TOOL:
        if (id + 1 >= n) this.warn('no next instrument to switch to');
        else this.controlledInstrument.value = id + 1;
        break;
      case BeamAdapterAction.SWITCH_PREVIOUS_TOOL:
        if (id === 0) this.warn('no previous instrument to switch to');
        else this.controlledInstrument.value = id - 1;
        break;
      case BeamAdapterAction.USE_TOOL_0:
      case BeamAdapterAction.USE_TOOL_1:
      case BeamAdapterAction.USE_TOOL_2: {
        const t = action - BeamAdapterAction.USE_TOOL_0;
        if (t >= n) this.warn(`instrument ${t} does not exist (${n} instruments): the controlled instrument stays ${id}`);
        else this.controlledInstrument.value = t;
        break;
      }
      case BeamAdapterAction.DROP_TOOL:
        this.warn('releasing an instrument (DROP_TOOL) is not supported (BeamAdapter removed it after v23.06)');
        break;
    }
  }

  private onBeginAnimationStep(dt: number): void {
    const tips = this.xtip.value;
    if (this.forward || this.backward) {
      let id = this.controlledInstrument.value;
      if (id < 0 || id >= tips.length) {
        this.warnAbout(
          this.controlledInstrument,
          `controlled instrument ${id} does not exist (${tips.length} instruments): instrument 0 moves`,
        );
        id = 0;
      }
      if (this.forward) tips[id] += this.speed.value * dt;
      if (this.backward) {
        tips[id] -= this.speed.value * dt;
        if (tips[id] < 0) {
          tips[id] = 0;
          this.backward = false;
        }
      }
    }
    for (let i = 0; i < this.list.length; i++) if (tips[i] > this.list[i].restTotalLength) tips[i] = this.list[i].restTotalLength;
    this.xtip.touch();
    this.apply();
  }

  /**
   * The collision points of the instruments (BeamAdapter's interventionalRadiologyCollisionControls):
   * from the tip back to the base, point i (last first) is on the outermost instrument of the node
   * it is behind, at that instrument's abscissa, the next one the instrument's collision sampling
   * (its section length / nbEdgesCollis) closer to the base; at the start of a node carried by
   * another outermost instrument, the walk restarts from that node; once at the base, the remaining
   * points stay there. Writes each point's instrument and abscissa on it.
   */
  collisionPoints(abscissae: Float64Array, instrument: Int32Array): void {
    const t = this.nodes,
      curv = t.abs,
      tips = this.xtip.value;
    let node = t.n - 1,
      xAbs = curv[node],
      first = Math.max(0, t.first[node]);
    for (let i = abscissae.length - 1; i >= 0; i--) {
      const ins = this.list[first],
        xBegin = tips[first] - ins.restTotalLength;
      abscissae[i] = xAbs - xBegin;
      instrument[i] = first;
      xAbs -= ins.restShape.collisionSampling(abscissae[i]);
      if (xAbs < 0) {
        xAbs = 0;
        continue;
      }
      while (node > 0 && xAbs < curv[node - 1]) {
        node--;
        if (t.first[node] >= 0 && t.first[node] !== first) {
          first = t.first[node];
          xAbs = curv[node];
          break;
        }
      }
    }
  }

  /** BeamAdapter's applyInterventionalRadiologyController: nodes, beams and fixed frames of the current tips. */
  apply(): void {
    const s = this.state!,
      list = this.list,
      thr = this.threshold.value,
      tips = this.xtip.value;
    let total = 0;
    for (const t of tips) total = Math.max(total, t);
    if (total < FLOAT_EPS) {
      tips[0] = FLOAT_EPS;
      total = FLOAT_EPS;
    }
    const begins = this.begins,
      ends = this.ends;
    for (let i = 0; i < list.length; i++) {
      begins[i] = tips[i] - list[i].restTotalLength;
      ends[i] = tips[i];
    }
    const cur = this.next;
    samplingAbscissae(this.shapes, begins, thr, cur);
    instrumentsAt(cur, begins, ends, thr);
    if (this.moved.length < cur.n) this.moved = new Float64Array(cur.abs.length);
    const moved = this.moved,
      curv = cur.abs;
    slideUnsharedNodes(cur, this.nodes, thr, moved);
    // 3. the deployed nodes, from the previous ones
    const x = s.x,
      xb = this.xbuf,
      nNodes = s.size;
    xb.set(x);
    let nSim = cur.n;
    if (nSim > nNodes) {
      this.warn(`${cur.n} deployed nodes but ${nNodes} frames: only ${nNodes} are simulated`);
      nSim = nNodes;
    }
    const prev = this.nodes.abs,
      prevN = this.nodes.n,
      offset = nNodes - nSim,
      prevOffset = nNodes - prevN,
      start = this.startingPos.value,
      fr = this.fr;
    for (let k = 0; k < nSim; k++) {
      const g = offset + k,
        c = moved[k];
      let pk = 0;
      while (pk < prevN - 1 && !(prev[pk] + thr > c)) pk++;
      const pg = prevOffset + pk,
        pc = prev[pk];
      if (Math.abs(pc - c) < thr) {
        for (let j = 0; j < 7; j++) x[7 * g + j] = xb[7 * pg + j];
      } else if (pk === 0) {
        x.set(start, 7 * g);
      } else {
        const L = pc - prev[pk - 1];
        let bary = 1;
        if (L < FLOAT_EPS) this.warn('two consecutive deployed nodes at the same abscissa: the new node takes the second one');
        else bary = (c - prev[pk - 1]) / L;
        for (let j = 0; j < 7; j++) {
          fr[j] = xb[7 * (pg - 1) + j];
          fr[7 + j] = xb[7 * pg + j];
        }
        interpolateFrame(x, 7 * g, x, 7 * g + 3, fr, 0, 7, L, bary, this.w);
      }
    }
    // 4. the beams
    const nEdges = this.topo!.getEdges().length / 2;
    let nBeams = cur.n - 1;
    if (nBeams > nNodes - 1) nBeams = nNodes - 1;
    if (nBeams > nEdges) {
      this.error(`${nBeams} beams but the topology has ${nEdges} edges: only ${nEdges} are simulated`);
      nBeams = nEdges;
    }
    const rot = this.rotationInstrument.value;
    for (const ins of list) ins.clearBeams();
    for (let b = 0; b < nBeams; b++) {
      const x0 = curv[b],
        x1 = curv[b + 1];
      for (let i = 0; i < list.length; i++) {
        const lo = begins[i] - thr,
          hi = ends[i] + thr;
        if (x0 > lo && x0 < hi && x1 > lo && x1 < hi) list[i].addBeam(nEdges - nBeams + b, x0 - begins[i], x1 - begins[i], rot[i]);
      }
    }
    // collisions: each beam on the outermost instrument of its end node
    const cc = this.collCount;
    cc.fill(0);
    for (let p = 0; p + 1 < cur.n && p < nBeams; p++) {
      const owner = cur.first[p + 1];
      if (owner >= 0) list[owner].collisionBeams[cc[owner]++] = p;
    }
    for (let i = 0; i < list.length; i++) {
      list[i].setCollisionCount(cc[i]);
      list[i].commitBeams();
    }
    // 5. the frames not deployed
    const first = nNodes - nBeams;
    const fixedList: number[] = [];
    const v = s.v,
      x0 = s.x0;
    for (let i = 0; i + 1 < first; i++) {
      x.set(start, 7 * i);
      x0.set(start, 7 * i);
      v.fill(0, 6 * i, 6 * i + 6);
      fixedList.push(i);
    }
    this.fixed!.setFixedIndices(Uint32Array.from(fixedList));
    this.indexFirstNode.value = Math.max(0, first - 1);
    s.touch();
    this.next = this.nodes;
    this.nodes = cur;
  }
}

/** SOFA's std::numeric_limits<float>::epsilon(). */
const FLOAT_EPS = 1.1920928955078125e-7;

function resized(a: Float64Array, n: number): Float64Array {
  const out = new Float64Array(n);
  out.set(a.subarray(0, Math.min(n, a.length)));
  return out;
}
