import type { ComponentClass } from '@sofa-ts/core';
import { elementFemComponents } from './element/components.js';
import { triangleFemComponents } from './triangle-components.js';
import { volumeFemComponents } from './volume-components.js';

/** The finite-element force fields of @sofa-ts/mechanics. */
export const femComponents: readonly ComponentClass[] = [...volumeFemComponents, ...triangleFemComponents, ...elementFemComponents];
