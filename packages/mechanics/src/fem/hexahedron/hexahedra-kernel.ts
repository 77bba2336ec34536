import { ELEMENT_BATCH, compileKernel, wasmApi } from '@sofa-ts/linalg';
import { hexahedraWasm } from '../kernels/hexahedra.wasm.js';

/** Bytes of one 24×24 element matrix. */
const MATRIX_BYTES = 576 * 8;
/** Values of one element's upper blocks (36 blocks i ≤ j of 9). */
export const HEXAHEDRON_UPPER_VALUES = 324;

let cached: object | undefined;

/** The compiled kernel module (once per process), or undefined without WebAssembly SIMD. */
function hexahedraModule(): object | undefined {
  cached ??= compileKernel(hexahedraWasm);
  return cached;
}

/**
 * The WebAssembly kernels of corotational hexahedra (kernels/hexahedra.wat, each its JavaScript
 * twin's operations in its order, bit for bit) over one memory that holds:
 *   - the element matrices, copied in by row pairs (`setMatrices`: entries K[2p][k] and K[2p+1][k]
 *     side by side, one vector per column of two rows);
 *   - which matrix each element uses (kOf) and the element rotations (`rot`, 9 per element, the
 *     force field's own array: a view of this memory, written in place by its addForce);
 *   - a 24-value input `x` and output `out` (views, the force field's scratch of one element), for
 *     `matVec` (out = scale·K·x: matVec24);
 *   - the upper blocks of a batch of ELEMENT_BATCH elements (`upper`: rotatedElementStiffnessUpper).
 * The matrices are a second copy of the force field's row-major pool, so HexahedronFEMForceField
 * makes a kernel only when few matrices are shared by its elements (a grid's).
 */
export class HexahedraKernel {
  readonly rot: Float64Array;
  readonly x: Float64Array;
  readonly out: Float64Array;
  private readonly kp: number;
  private readonly kOfAt: number;
  private readonly rotAt: number;
  private readonly xAt: number;
  private readonly outAt: number;
  private readonly upperAt: number;
  private readonly matrices: number;
  private readonly elements: number;
  private readonly memory: { buffer: ArrayBufferLike };
  private readonly mv: (kp: number, x: number, out: number, scale: number) => void;
  private readonly up: (pool: number, kOf: number, rot: number, e0: number, e1: number, U: number) => void;
  private readonly upperView: Float64Array;

  private constructor(module: object, elements: number, matrices: number) {
    const api = wasmApi()!;
    const align = (b: number) => Math.ceil(b / 16) * 16;
    this.elements = elements;
    this.matrices = matrices;
    this.kp = 16;
    this.kOfAt = align(this.kp + matrices * MATRIX_BYTES);
    this.rotAt = align(this.kOfAt + 4 * elements);
    this.xAt = align(this.rotAt + 72 * elements);
    this.outAt = this.xAt + 192;
    this.upperAt = this.outAt + 192;
    const bytes = this.upperAt + 8 * HEXAHEDRON_UPPER_VALUES * ELEMENT_BATCH;
    const pages = Math.ceil(bytes / 65536) + 1;
    this.memory = new api.Memory({ initial: pages, maximum: pages, shared: true });
    const inst = new api.Instance(module, { env: { memory: this.memory } });
    this.mv = inst.exports.hexMatVec as typeof this.mv;
    this.up = inst.exports.hexUpper as typeof this.up;
    const buf = this.memory.buffer;
    this.rot = new Float64Array(buf, this.rotAt, 9 * elements);
    this.x = new Float64Array(buf, this.xAt, 24);
    this.out = new Float64Array(buf, this.outAt, 24);
    this.upperView = new Float64Array(buf, this.upperAt, HEXAHEDRON_UPPER_VALUES * ELEMENT_BATCH);
  }

  /**
   * A kernel for `elements` hexahedra using `matrices` element matrices, or undefined where
   * WebAssembly SIMD or shared memory is missing.
   */
  static create(elements: number, matrices: number): HexahedraKernel | undefined {
    const module = hexahedraModule();
    if (!module) return undefined;
    try {
      return new HexahedraKernel(module, elements, matrices);
    } catch {
      return undefined; // no shared WebAssembly memory here (a browser without cross-origin isolation)
    }
  }

  /** Copies in the row-major 24×24 matrices of `pool` (576 each) and each element's matrix index. */
  setMatrices(pool: Float64Array, kOf: ArrayLike<number>): void {
    if (pool.length !== 576 * this.matrices || kOf.length !== this.elements)
      throw new RangeError(
        `setMatrices: ${pool.length / 576} matrices and ${kOf.length} elements, expected ${this.matrices} and ${this.elements}`,
      );
    const buf = this.memory.buffer;
    const kp = new Float64Array(buf, this.kp, 576 * this.matrices);
    for (let m = 0; m < this.matrices; m++)
      for (let p = 0; p < 12; p++)
        for (let k = 0; k < 24; k++) {
          kp[576 * m + 48 * p + 2 * k] = pool[576 * m + 48 * p + k];
          kp[576 * m + 48 * p + 2 * k + 1] = pool[576 * m + 48 * p + 24 + k];
        }
    new Int32Array(buf, this.kOfAt, this.elements).set(kOf);
  }

  /** out = scale·K_m·x for matrix m (x and out: the views of this kernel). */
  matVec(m: number, scale: number): void {
    this.mv(this.kp + m * MATRIX_BYTES, this.xAt, this.outAt, scale);
  }

  /**
   * The upper blocks of elements e0 … e0+count−1 (count ≤ ELEMENT_BATCH, 324 values each, the layout
   * of rotatedElementStiffnessUpper), from `rot` as it is: a view of this memory, overwritten by
   * the next call.
   */
  upper(e0: number, count: number): Float64Array {
    if (count > ELEMENT_BATCH || e0 < 0 || e0 + count > this.elements)
      throw new RangeError(`upper(${e0}, ${count}): at most ${ELEMENT_BATCH} of the ${this.elements} elements`);
    this.up(this.kp, this.kOfAt, this.rotAt, e0, e0 + count, this.upperAt);
    return count === ELEMENT_BATCH ? this.upperView : this.upperView.subarray(0, HEXAHEDRON_UPPER_VALUES * count);
  }
}
