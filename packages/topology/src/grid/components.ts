import type { ComponentClass } from '@sofa-ts/core';
import { CylinderGridTopology } from './CylinderGridTopology.js';
import { GridTopology } from './GridTopology.js';
import { RegularGridTopology } from './RegularGridTopology.js';
import { SparseGridRamificationTopology } from './SparseGridRamificationTopology.js';
import { SparseGridMultipleTopology } from './SparseGridMultipleTopology.js';
import { SparseGridTopology } from './SparseGridTopology.js';
import { SphereGridTopology } from './SphereGridTopology.js';

/** The grid components of @sofa-ts/topology. */
export const gridComponents: readonly ComponentClass[] = [
  GridTopology,
  RegularGridTopology,
  SparseGridTopology,
  SparseGridRamificationTopology,
  SparseGridMultipleTopology,
  CylinderGridTopology,
  SphereGridTopology,
];
