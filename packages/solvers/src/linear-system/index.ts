export * from './TypedMatrixLinearSystem.js';
export * from './MatrixLinearSystem.js';
export * from './ConstantSparsityPatternSystem.js';
export * from './CompositeLinearSystem.js';
export * from './GlobalSystemMatrixImage.js';
export * from './MatrixProjectionMethod.js';
