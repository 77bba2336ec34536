import { isMechanicalState, type BaseMechanicalState, type LinkSpec } from '@sofa-ts/core';

/** The `mstate` link of a component acting on one state: by default the state of its node. */
export function mstateLink(help = 'the mechanical state this component acts on (default: the one of its node)'): LinkSpec<BaseMechanicalState> {
  return { name: 'mstate', help, accepts: isMechanicalState, expected: 'a MechanicalObject', search: 'local', required: true };
}

/** The templates of the Compliant components acting on scalar dofs. */
export const vecTemplates = ['Vec1d', 'Vec2d', 'Vec3d', 'Vec6d'] as const;
