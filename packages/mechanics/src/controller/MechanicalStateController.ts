import {
  BaseObject,
  Bool,
  MouseEvent,
  UInt,
  VecN,
  contextMechanicalState,
  isBaseMapping,
  isProjectiveConstraint,
  propagateMechanicalMappings,
  sofaComponent,
  type BaseMechanicalState,
  type Node,
  type SofaEvent,
} from '@sofa-ts/core';
import { quatMultiplyAt } from '@sofa-ts/linalg';
import { quatRotateAt } from '@sofa-ts/linalg';

type MouseMode = 'None' | 'BtLeft' | 'BtRight' | 'BtMiddle';

/**
 * SOFA's MechanicalStateController: the mouse drives the context state (a viewer sends the
 * MouseEvents; batch runs send none, and the controller then only re-projects the state at each
 * step). At each AnimateBeginEvent (and, with handleEventTriggersUpdate, at each mouse move) with
 * the pointer moved by (dx, dy) pixels since the last update:
 * Rigid3d, frame `index` of orientation q:
 *  - left button: q ← q·rot(y, 0.001·dx)·rot(z, 0.001·dy);
 *  - right button: centre += q·(0.05·dy·mainDirection), q ← q·rot(x, 0.001·dx);
 *  - onlyTranslation: centre += (dx, 0, 0) (left), (0, dy, 0) (right), (0, 0, dy) (middle);
 *  then the projective constraints of the node's subtree project positions and velocities and the
 *  mappings propagate them (SOFA's visitors). The free positions follow as SOFA writes them
 *  (with the right button SOFA turns the free frame twice by rot(x, 0.001·dx); kept).
 * Vec1d (a gripper's opening): rest positions x⁰₀ = x⁰₁ = −0.4 while the middle button is held,
 * 0 otherwise (SOFA's code first moves x⁰₀ by buttonDeviceState, then overwrites it so).
 * mainDirection is used as given (SOFA normalises only its default).
 */
@sofaComponent({
  name: 'MechanicalStateController',
  category: 'Controller',
  module: 'Sofa.Component.Controller',
  description:
    'Mouse control of a mechanical state (Rigid3d frame or Vec1d gripper): reacts to the MouseEvents a viewer sends; in batch runs it re-projects the state each step.',
  templates: ['Rigid3d', 'Vec1d'],
  defaultTemplate: 'Rigid3d',
})
export class MechanicalStateController extends BaseObject {
  readonly index = this.initData({ name: 'index', type: UInt, default: 0, help: 'index of the controlled dof' });
  readonly onlyTranslation = this.initData({
    name: 'onlyTranslation',
    type: Bool,
    default: false,
    help: 'control the dof in translation only',
  });
  readonly buttonDeviceState = this.initData({ name: 'buttonDeviceState', type: Bool, default: false, help: 'state of the device button' });
  readonly mainDirection = this.initData({
    name: 'mainDirection',
    type: VecN(3, 'Vec3d'),
    default: Float64Array.of(0, 0, -1),
    help: 'main direction and orientation of the controlled dof (right-button translations)',
  });
  readonly handleEventTriggersUpdate = this.initData({
    name: 'handleEventTriggersUpdate',
    type: Bool,
    default: false,
    help: 'mouse events update the state at once (not only at the next step)',
  });

  /** Checkpoint: the mouse state. */
  readonly checkpointFields = ['mode', 'eventX', 'eventY', 'savedX', 'savedY'] as const;
  private state: BaseMechanicalState | undefined;
  private mode: MouseMode = 'None';
  private eventX = 0;
  private eventY = 0;
  private savedX = 0;
  private savedY = 0;
  private readonly q = new Float64Array(4);
  private readonly t = new Float64Array(3);

  override init(): void {
    const s = contextMechanicalState(this.context);
    if (!s) throw this.error('no mechanical state in the context to control');
    const name = s.stateType.name;
    if (name !== 'Rigid3d' && name !== 'Vec1d')
      throw this.error(`SOFA has MechanicalStateController for Rigid3d and Vec1d states, not ${name}`);
    if (!this.template) this.template = name;
    if (this.index.value >= s.size) throw this.error(`index ${this.index.value} is out of range: ${s.describe()} has ${s.size} points`);
    if (name === 'Vec1d' && s.size < 2)
      throw this.error(`the Vec1d variant drives the rest positions of dofs 0 and 1: ${s.describe()} has ${s.size}`);
    this.state = s;
  }

  override handleEvent(event: SofaEvent): void {
    if (!this.listening.value) return;
    if (event.type === 'AnimateBeginEvent') this.applyController();
    else if (event instanceof MouseEvent) this.onMouseEvent(event);
  }

  private onMouseEvent(e: MouseEvent): void {
    this.eventX = e.posX;
    this.eventY = e.posY;
    const rigid = this.state!.stateType.name === 'Rigid3d';
    const press = (m: MouseMode): void => {
      this.mode = m;
      // SOFA saves the position on every press for Rigid3d, on the right press only for Vec1d
      if (rigid || m === 'BtRight') {
        this.savedX = this.eventX;
        this.savedY = this.eventY;
      }
    };
    switch (e.state) {
      case 'LeftPressed':
        press('BtLeft');
        break;
      case 'RightPressed':
        press('BtRight');
        break;
      case 'MiddlePressed':
        press('BtMiddle');
        break;
      case 'LeftReleased':
      case 'RightReleased':
      case 'MiddleReleased':
        this.mode = 'None';
        break;
      default:
        break;
    }
    if (this.handleEventTriggersUpdate.value && (!rigid || e.state === 'Move')) this.applyController();
  }

  /** SOFA's applyController. */
  applyController(): void {
    const s = this.state!;
    if (s.stateType.name === 'Vec1d') {
      const x0 = s.x0;
      const v = this.mode === 'BtMiddle' ? -0.4 : 0;
      x0[0] = v;
      x0[1] = v;
      s.touch();
      return;
    }
    const i = this.index.value,
      o = 7 * i;
    const x = s.x,
      xf = s.xFree;
    const hasFree = xf.length === x.length;
    const dx = this.eventX - this.savedX,
      dy = this.eventY - this.savedY;
    if (!this.onlyTranslation.value && (this.mode === 'BtLeft' || this.mode === 'BtRight')) {
      this.savedX = this.eventX;
      this.savedY = this.eventY;
      if (this.mode === 'BtLeft') {
        turn(x, o, 1, dx * 0.001, this.q);
        turn(x, o, 2, dy * 0.001, this.q);
        if (hasFree) xf.set(x.subarray(o + 3, o + 7), o + 3);
      } else {
        const d = this.mainDirection.value,
          t = this.t;
        t[0] = dy * d[0] * 0.05;
        t[1] = dy * d[1] * 0.05;
        t[2] = dy * d[2] * 0.05;
        quatRotateAt(t, 0, x, o + 3, t, 0);
        for (let k = 0; k < 3; k++) x[o + k] += t[k];
        turn(x, o, 0, dx * 0.001, this.q);
        if (hasFree) {
          for (let k = 0; k < 3; k++) xf[o + k] += t[k];
          xf.set(x.subarray(o + 3, o + 7), o + 3);
          turn(xf, o, 0, dx * 0.001, this.q);
        }
      }
    } else if (this.onlyTranslation.value && this.mode !== 'None') {
      this.savedX = this.eventX;
      this.savedY = this.eventY;
      if (this.mode === 'BtLeft') x[o] += dx;
      else if (this.mode === 'BtRight') x[o + 1] += dy;
      else x[o + 2] += dy;
    }
    s.touch();
    projectAndPropagate(this.context);
  }
}

/** x[o+3..o+7) ← q·rot(e_axis, angle) (SOFA's Quat(axis, angle), right-multiplied). */
function turn(x: Float64Array, o: number, axis: number, angle: number, scratch: Float64Array): void {
  scratch.fill(0);
  scratch[axis] = Math.sin(angle / 2);
  scratch[3] = Math.cos(angle / 2);
  quatMultiplyAt(x, o + 3, x, o + 3, scratch, 0);
}

/**
 * SOFA's MechanicalProjectPositionAndVelocityVisitor then MechanicalPropagateOnlyPositionAndVelocity
 * on the subtree: projective constraints project x and v (not below mechanical mappings), then the
 * mappings carry them down.
 */
function projectAndPropagate(root: Node): void {
  root.visit((n) => {
    if (!n.activated.value) return false;
    if (n.objects.some((o) => isBaseMapping(o) && o.getTo() !== undefined)) return false;
    for (const o of n.objects) {
      if (!isProjectiveConstraint(o)) continue;
      const st = o.getMechanicalState();
      o.projectPosition(st.x);
      o.projectVelocity(st.v);
      st.touch();
    }
    return true;
  });
  propagateMechanicalMappings(root);
}
