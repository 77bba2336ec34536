import type { ComponentClass } from '@sofa-ts/core';
import { ConstantForceField } from './ConstantForceField.js';
import { Gravity } from './Gravity.js';
import { PlaneForceField } from './PlaneForceField.js';
import { RestShapeSpringsForceField } from './RestShapeSpringsForceField.js';

/** Components of this folder, registered by the package's module.ts. */
export const loadComponents: readonly ComponentClass[] = [ConstantForceField, Gravity, PlaneForceField, RestShapeSpringsForceField];
