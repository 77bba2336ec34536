import type { ComponentClass } from '@sofa-ts/core';
import { BoxROI } from './BoxROI.js';

/** The engine components of @sofa-ts/topology. */
export const engineComponents: readonly ComponentClass[] = [BoxROI];
