import type { ComponentClass } from '@sofa-ts/core';
import { ConstantSparsityPatternSystem } from './ConstantSparsityPatternSystem.js';
import { MatrixLinearSystem } from './MatrixLinearSystem.js';

/** SOFA's linear systems (Sofa.Component.LinearSystem), registered by the package's module.ts. */
export const linearSystemComponents: readonly ComponentClass[] = [MatrixLinearSystem, ConstantSparsityPatternSystem];
