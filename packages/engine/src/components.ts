import type { ComponentClass } from '@sofa-ts/core';
import { analyzeComponents } from './analyze/components.js';
import { BoxROI } from './BoxROI.js';
import { generateComponents } from './generate/components.js';
import { selectComponents } from './select/components.js';
import { transformComponents } from './transform/components.js';

/** Every component of @sofa-ts/engine (SOFA's Sofa.Component.Engine.* modules), registered by module.ts. */
export const engineComponents: readonly ComponentClass[] = [
  BoxROI,
  ...selectComponents,
  ...transformComponents,
  ...generateComponents,
  ...analyzeComponents,
];
