import type { ComponentClass } from '@sofa-ts/core';
import { GridTopology } from './GridTopology.js';
import { RegularGridTopology } from './RegularGridTopology.js';
import { SparseGridTopology } from './SparseGridTopology.js';

/** The grid components of @sofa-ts/topology. */
export const gridComponents: readonly ComponentClass[] = [GridTopology, RegularGridTopology, SparseGridTopology];
