import { isMechanicalState, type BaseMechanicalState, type LinkSpec } from '@sofa-ts/core';

/** The `mstate` link of components acting on one state: by default the state of their node. */
export function mstateLink(help = 'the mechanical state this component acts on (default: the one of its node)'): LinkSpec<BaseMechanicalState> {
  return { name: 'mstate', help, accepts: isMechanicalState, expected: 'a MechanicalObject', search: 'local', required: true };
}
