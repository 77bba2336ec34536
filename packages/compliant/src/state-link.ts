import { contextStateLink, type BaseMechanicalState, type LinkSpec } from '@sofa-ts/core';

/** The `mstate` link of a component acting on one state: by default the state of its context (core's contextStateLink). */
export function mstateLink(help?: string): LinkSpec<BaseMechanicalState> {
  return contextStateLink(help);
}

/** The templates of the Compliant components acting on scalar dofs. */
export const vecTemplates = ['Vec1d', 'Vec2d', 'Vec3d', 'Vec6d'] as const;
