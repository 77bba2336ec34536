import type { ComponentClass } from '@sofa-ts/core';
import { AdaptiveBeamForceFieldAndMass } from './AdaptiveBeamForceFieldAndMass.js';
import { AdaptiveBeamController } from './AdaptiveBeamController.js';
import { AdaptiveBeamMapping } from './AdaptiveBeamMapping.js';
import { BeamAdapterActionController } from './BeamAdapterActionController.js';
import { BeamInterpolation } from './BeamInterpolation.js';
import { InterventionalRadiologyController } from './InterventionalRadiologyController.js';
import { MultiAdaptiveBeamMapping } from './MultiAdaptiveBeamMapping.js';
import { RodMeshSection } from './RodMeshSection.js';
import { RodSpireSection, RodStraightSection } from './rod-sections.js';
import { WireBeamInterpolation } from './WireBeamInterpolation.js';
import { WireRestShape } from './WireRestShape.js';

/** The components of SOFA's BeamAdapter plugin that sofa-ts provides (RequiredPlugin "BeamAdapter"). */
export const beamAdapterComponents: readonly ComponentClass[] = [
  BeamInterpolation,
  AdaptiveBeamForceFieldAndMass,
  RodStraightSection,
  RodSpireSection,
  RodMeshSection,
  WireRestShape,
  WireBeamInterpolation,
  InterventionalRadiologyController,
  BeamAdapterActionController,
  AdaptiveBeamMapping,
  AdaptiveBeamController,
  MultiAdaptiveBeamMapping,
];
