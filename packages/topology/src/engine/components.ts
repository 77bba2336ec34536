import type { ComponentClass } from '@sofa-ts/core';
import { analyzeComponents } from './analyze/components.js';
import { BoxROI } from './BoxROI.js';
import { generateComponents } from './generate/components.js';
import { selectComponents } from './select/components.js';
import { transformComponents } from './transform/components.js';

/** The engine components of @sofa-ts/topology (SOFA's Sofa.Component.Engine.* modules). */
export const engineComponents: readonly ComponentClass[] = [BoxROI, ...selectComponents, ...transformComponents, ...generateComponents, ...analyzeComponents];
