import type { ComponentClass } from '@sofa-ts/core';
import { CompositeLinearSystem } from './CompositeLinearSystem.js';
import { ConstantSparsityPatternSystem } from './ConstantSparsityPatternSystem.js';
import { GlobalSystemMatrixImage } from './GlobalSystemMatrixImage.js';
import { MatrixLinearSystem } from './MatrixLinearSystem.js';
import { MatrixProjectionMethod } from './MatrixProjectionMethod.js';

/** SOFA's linear systems (Sofa.Component.LinearSystem), registered by the package's module.ts. */
export const linearSystemComponents: readonly ComponentClass[] = [
  MatrixLinearSystem,
  ConstantSparsityPatternSystem,
  CompositeLinearSystem,
  GlobalSystemMatrixImage,
  MatrixProjectionMethod,
];
