import {
  AnimateBeginEvent,
  BaseObject,
  Bool,
  Indices,
  KeypressedEvent,
  KeyreleasedEvent,
  RealArray,
  StringArray,
  sofaComponent,
  type SofaEvent,
} from '@sofa-ts/core';
import { BeamAdapterAction, InterventionalRadiologyController, keyAction } from './InterventionalRadiologyController.js';

/** BeamAdapter's action names (BeamActions.h). */
const ACTION_NAMES: Readonly<Record<string, BeamAdapterAction>> = {
  stop: BeamAdapterAction.NO_ACTION,
  fwd: BeamAdapterAction.MOVE_FORWARD,
  bwd: BeamAdapterAction.MOVE_BACKWARD,
  right: BeamAdapterAction.SPIN_RIGHT,
  left: BeamAdapterAction.SPIN_LEFT,
  nextT: BeamAdapterAction.SWITCH_NEXT_TOOL,
  prevT: BeamAdapterAction.SWITCH_PREVIOUS_TOOL,
  dropT: BeamAdapterAction.DROP_TOOL,
  tool0: BeamAdapterAction.USE_TOOL_0,
  tool1: BeamAdapterAction.USE_TOOL_1,
  tool2: BeamAdapterAction.USE_TOOL_2,
};

/**
 * SOFA's BeamAdapterActionController (BeamAdapter plugin): scripts an InterventionalRadiologyController.
 * It takes over the controller's keys and push; at each AnimateBeginEvent (time t):
 *   read mode (writeMode="false"): when t ≥ timeSteps[k] (k the next unread), actions[k] becomes the
 *     current action and is applied once; then the controller redeploys;
 *   write mode: the action of the key held (arrows, 0 1 2) is applied at every step and recorded in
 *     timeSteps / actions ('E' toggles printing them, as BeamAdapter dumps them).
 * Actions: 0 none, 1 forward, 2 backward, 3 spin right, 4 spin left, 5 next tool, 6 previous tool,
 * 7 drop (unsupported: a warning), 8–10 use tool 0–2; or by name in actionString.
 */
@sofaComponent({
  name: 'BeamAdapterActionController',
  category: 'Controller',
  module: 'BeamAdapter',
  description: 'Scripts an InterventionalRadiologyController with timed actions (or records the actions of the keys).',
  templates: ['Rigid3d'],
})
export class BeamAdapterActionController extends BaseObject {
  readonly writeMode = this.initData({
    name: 'writeMode',
    type: Bool,
    default: true,
    help: 'if true, records the actions of the keys (E prints them); else plays actions at timeSteps',
  });
  readonly actions = this.initData({
    name: 'actions',
    type: Indices,
    default: new Uint32Array(0),
    help: 'actions to play (0 none, 1 forward, 2 backward, 3 right, 4 left, 5 next tool, 6 previous tool, 7 drop, 8–10 tool 0–2)',
  });
  readonly actionString = this.initData({
    name: 'actionString',
    type: StringArray,
    default: [],
    help: 'actions to play by name (stop fwd bwd right left nextT prevT dropT tool0 tool1 tool2), instead of actions',
  });
  readonly timeSteps = this.initData({
    name: 'timeSteps',
    type: RealArray(1),
    default: new Float64Array(0),
    unit: 's',
    help: 'time at which each action starts',
  });
  readonly interventionController = this.initLink<InterventionalRadiologyController>({
    name: 'interventionController',
    help: 'the InterventionalRadiologyController to drive',
    accepts: (o): o is InterventionalRadiologyController => o instanceof InterventionalRadiologyController,
    expected: 'an InterventionalRadiologyController',
    search: 'local',
  });

  private ctrl: InterventionalRadiologyController | undefined;
  private script: BeamAdapterAction[] = [];
  private readStep = 0;
  private current = BeamAdapterAction.NO_ACTION;
  private printing = false;

  override init(): void {
    const ctrl = this.interventionController.get();
    if (!ctrl) throw this.error('no InterventionalRadiologyController: set interventionController="@…"');
    this.ctrl = ctrl;
    ctrl.useBeamActions = true;
    this.listening.value = true;
    if (this.writeMode.value && (this.actions.isSet || this.actionString.isSet))
      this.warn('writeMode is on: the given actions are replaced by those recorded from the keys');
    if (this.actionString.isSet && this.actionString.value.length > 0) {
      this.script = this.actionString.value.map((name) => {
        const a = ACTION_NAMES[name];
        if (a === undefined) {
          this.warnAbout(this.actionString, `unknown action '${name}': no action (${Object.keys(ACTION_NAMES).join(', ')})`);
          return BeamAdapterAction.NO_ACTION;
        }
        return a;
      });
    } else
      this.script = Array.from(this.actions.value, (a) => {
        if (a > BeamAdapterAction.USE_TOOL_2) {
          this.warnAbout(this.actions, `unknown action ${a}: no action`);
          return BeamAdapterAction.NO_ACTION;
        }
        return a as BeamAdapterAction;
      });
    if (!this.writeMode.value && this.script.length !== this.timeSteps.value.length)
      this.warnAbout(
        this.timeSteps,
        `${this.timeSteps.value.length} times for ${this.script.length} actions: the actions without a time are not played`,
      );
    this.readStep = 0;
  }

  override handleEvent(event: SofaEvent): void {
    if (event instanceof AnimateBeginEvent) this.onBeginAnimationStep();
    else if (!this.writeMode.value) return;
    else if (event instanceof KeypressedEvent) {
      if (event.key === 'E') {
        this.current = BeamAdapterAction.NO_ACTION;
        this.printing = !this.printing;
      } else this.current = keyAction(event.key);
    } else if (event instanceof KeyreleasedEvent) this.current = BeamAdapterAction.NO_ACTION;
  }

  private onBeginAnimationStep(): void {
    const ctrl = this.ctrl!,
      t = this.context.getTime();
    if (this.writeMode.value) {
      if (this.current !== BeamAdapterAction.NO_ACTION) {
        ctrl.applyAction(this.current);
        this.timeSteps.value = Float64Array.from([...this.timeSteps.value, t]);
        this.actions.value = Uint32Array.from([...this.actions.value, this.current]);
        if (this.printing) this.warn(`timeSteps='${this.timeSteps.value.join(' ')}' actions='${this.actions.value.join(' ')}'`);
      }
    } else {
      const times = this.timeSteps.value;
      if (this.readStep < times.length && this.readStep < this.script.length && t >= times[this.readStep]) {
        this.current = this.script[this.readStep];
        this.readStep++;
        ctrl.applyAction(this.current);
      }
    }
    ctrl.apply();
  }
}
