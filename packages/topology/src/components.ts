import type { ComponentClass } from '@sofa-ts/core';
import { containerComponents } from './container/components.js';
import { gridComponents } from './grid/components.js';
import { loaderComponents } from './loader/components.js';
import { mappingComponents } from './mapping/components.js';
import { utilityComponents } from './utility/components.js';

/** Every component of @sofa-ts/topology, registered by module.ts. */
export const topologyComponents: readonly ComponentClass[] = [
  ...containerComponents,
  ...gridComponents,
  ...mappingComponents,
  ...loaderComponents,
  ...utilityComponents,
];
