export * from './mechanical-system.js';
export * from './linear-solver.js';
export * from './constraint-rows.js';
export { mechanicalMappingOrder } from './mapping-order.js';
export { RowStack, shiftMatrix } from './shift.js';
export { MappedJacobian } from './mapped-jacobian.js';
