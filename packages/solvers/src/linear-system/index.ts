export * from './MatrixLinearSystem.js';
export * from './ConstantSparsityPatternSystem.js';
