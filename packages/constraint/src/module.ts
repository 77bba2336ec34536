import {
  componentModule,
  setBilateralContactConstraintFactory,
  setLagrangianContactConstraintFactory,
  setPersistentContactConstraintFactory,
} from '@sofa-ts/core';
import { constraintComponents } from './components.js';
import { UnilateralLagrangianConstraint } from './model/UnilateralLagrangianConstraint.js';
import { ContactBilateralLagrangianConstraint } from './model/ContactBilateralLagrangianConstraint.js';
import { PersistentUnilateralInteractionConstraint } from './model/PersistentUnilateralInteractionConstraint.js';

/**
 * Loading the package makes its contact constraint available to collision responses
 * (FrictionContactConstraint creates UnilateralLagrangianConstraint through core's factory).
 */
setLagrangianContactConstraintFactory((state1, state2) => {
  const c = new UnilateralLagrangianConstraint();
  c.setStates(state1, state2);
  c.template = state1.stateType.name;
  c.componentState = 'valid';
  return c;
});

/** Likewise the sticking contacts (StickContactConstraint creates a BilateralLagrangianConstraint). */
setBilateralContactConstraintFactory((state1, state2) => {
  const c = new ContactBilateralLagrangianConstraint();
  c.setStates(state1, state2);
  c.template = state1.stateType.name;
  c.componentState = 'valid';
  return c;
});

/** And the persistent ones (PersistentFrictionContact creates a PersistentUnilateralInteractionConstraint). */
setPersistentContactConstraintFactory((state1, state2) => {
  const c = new PersistentUnilateralInteractionConstraint();
  c.setStates(state1, state2);
  c.template = state1.stateType.name;
  c.componentState = 'valid';
  return c;
});

export default componentModule('@sofa-ts/constraint', constraintComponents);
