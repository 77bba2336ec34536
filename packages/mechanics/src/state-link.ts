import { contextStateLink, type BaseMechanicalState, type LinkSpec } from '@sofa-ts/core';

/** The `mstate` link of components acting on one state: by default the state of their context (core's contextStateLink). */
export function mstateLink(help?: string): LinkSpec<BaseMechanicalState> {
  return contextStateLink(help);
}
