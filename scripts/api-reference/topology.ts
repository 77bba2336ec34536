/**
 * DataEngine, the base class of engines: outputs computed lazily from inputs.
 *
 * @module @sofa-ts/topology
 */
export { DataEngine } from '@sofa-ts/topology';
