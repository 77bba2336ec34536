import { contextStateLink } from './context-state.js';
import { BaseForceField } from './force-field.js';
import { BaseMass } from './mass.js';
import type { BaseMechanicalState } from './mechanical-state.js';
import { BaseProjectiveConstraint } from './projective-constraint.js';

// The components acting on one state, as SOFA's ForceField<DataTypes>, Mass<DataTypes> and
// ProjectiveConstraintSet<DataTypes>: an `mstate` link, by default the state of the component's
// node or of its nearest ancestor that has one (contextStateLink), and the state lists the engine
// asks for.

/** A force field on one state (SOFA's ForceField<DataTypes>): `states` is [its state] from init on. */
export abstract class SingleStateForceField extends BaseForceField {
  readonly mstate = this.initLink(contextStateLink());
  /** [the state] after init, [] before. */
  protected states: BaseMechanicalState[] = [];

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  /** Resolves the state (an error, located, when there is none); subclasses call it first. */
  override init(): void {
    this.states = [this.mstate.require()];
  }
}

/** A mass on one state (SOFA's Mass<DataTypes>). */
export abstract class SingleStateMass extends BaseMass {
  readonly mstate = this.initLink(contextStateLink());

  getMechanicalState(): BaseMechanicalState {
    return this.mstate.require();
  }
}

/** A projective constraint on one state (SOFA's ProjectiveConstraintSet<DataTypes>). */
export abstract class SingleStateProjectiveConstraint extends BaseProjectiveConstraint {
  readonly mstate = this.initLink(contextStateLink());

  getMechanicalState(): BaseMechanicalState {
    return this.mstate.require();
  }
}
