import type { ComponentClass } from '@sofa-ts/core';
import { TopologicalChangeProcessor } from './TopologicalChangeProcessor.js';
import { TopologyBoundingTrasher } from './TopologyBoundingTrasher.js';

/** The components of SOFA's Sofa.Component.Topology.Utility module. */
export const utilityComponents: readonly ComponentClass[] = [TopologicalChangeProcessor, TopologyBoundingTrasher];
