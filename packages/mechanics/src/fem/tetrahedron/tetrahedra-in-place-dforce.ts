import type { InPlaceDForce } from '@sofa-ts/core';
import type { TetrahedronDForceWasm } from '../tetrahedron-dforce-kernel.js';

/** The InPlaceDForce of corotational tetrahedra: the WebAssembly kernel's vin (dx) and vout (df). */
export class TetrahedraInPlaceDForce implements InPlaceDForce {
  readonly memory: { buffer: ArrayBufferLike };
  readonly dx: number;
  readonly df: number;
  readonly area: number;
  readonly areaBytes: number;
  constructor(
    readonly kernel: TetrahedronDForceWasm,
    readonly add: (kFactor: number, bFactor: number) => void,
    readonly wasmAdd: InPlaceDForce['wasmAdd'],
  ) {
    this.memory = kernel.memory;
    this.dx = kernel.vin;
    this.df = kernel.vout;
    this.area = kernel.area;
    this.areaBytes = kernel.areaBytes;
  }
}
