import type { ComponentClass } from '@sofa-ts/core';
import { AdaptiveBeamForceFieldAndMass } from './AdaptiveBeamForceFieldAndMass.js';
import { BeamInterpolation } from './BeamInterpolation.js';

/** The components of SOFA's BeamAdapter plugin that sofa-ts provides (RequiredPlugin "BeamAdapter"). */
export const beamAdapterComponents: readonly ComponentClass[] = [BeamInterpolation, AdaptiveBeamForceFieldAndMass];
