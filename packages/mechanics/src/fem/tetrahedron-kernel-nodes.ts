import type { FunctionBuilder, Local } from '@sofa-ts/linalg';

/**
 * The node reads and writes shared by the WebAssembly kernels of tetrahedra (the product
 * tetrahedron-dforce-kernel.ts and the force tetrahedron-force-kernel.ts). In the pair kernels the
 * two f64x2 lanes are the two elements of a pair; a node's point (x, y, z) is 24 bytes at an
 * address the kernel reads from its index array.
 */

/** i8x16 shuffles of two f64x2 vectors a, b: (a₀, b₀) and (a₁, b₁). */
export const LO: readonly number[] = [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23];
export const HI: readonly number[] = [8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31];

/** Bytes of a pair kernel's scratch area: 6 f64x2 (its sums), reused for the second element's forces. */
export const TET_SCRATCH_BYTES = 96;

/** Locals of the node reads: two addresses and two vectors (pair kernels), or none (scalar ones). */
export interface NodeReadLocals {
  readonly addr: Local;
  readonly addr1: Local;
  readonly xy0: Local | undefined;
  readonly xy1: Local | undefined;
}

/**
 * P[0..2] = (x, y, z) of local node k, from the index array at `ii`: in pair kernels both
 * elements' (x, y) with one 16-byte load each, regrouped per coordinate, then z; in scalar kernels
 * the three coordinates of the element's node (ii holds its 4 addresses).
 */
export function readNode(fb: FunctionBuilder, simd: boolean, ii: Local, k: number, l: NodeReadLocals, P: readonly Local[]): void {
  if (simd) {
    fb.get(ii).i32Load(4 * k).tee(l.addr).v128Load(0).set(l.xy0!);
    fb.get(ii).i32Load(16 + 4 * k).tee(l.addr1).v128Load(0).set(l.xy1!);
    fb.get(l.xy0!).get(l.xy1!).i8x16Shuffle(LO).set(P[0]!);
    fb.get(l.xy0!).get(l.xy1!).i8x16Shuffle(HI).set(P[1]!);
    fb.get(l.addr).v128Load64Zero(16).set(P[2]!);
    fb.get(l.addr1).get(P[2]!).v128Load64Lane(1, 16).set(P[2]!);
  } else {
    for (let c = 0; c < 3; c++) fb.get(ii).i32Load(4 * k).f64Load(8 * c).set(P[c]!);
  }
}

/**
 * Adds the node vector out[0..2] of local node k to the point at the address `nodeAddress` pushes
 * (the first element's node; set into `addr`): the first element's (lane 0) at once — (x, y) as one 16-byte
 * read-add-write, then z — and, in pair kernels, the second element's kept in the scratch area for
 * addSecondElement, so that every node of the first element gets its sum before the second's.
 */
export function addFirstElement(fb: FunctionBuilder, simd: boolean, k: number, out: readonly Local[], addr: Local, nodeAddress: () => void, scratch: Local | undefined): void {
  nodeAddress();
  fb.set(addr);
  if (simd) {
    fb.get(addr).get(addr).v128Load(0).get(out[0]!).get(out[1]!).i8x16Shuffle(LO).f64x2Add().v128Store(0);
    fb.get(addr).get(addr).f64Load(16).get(out[2]!).f64x2ExtractLane(0).f64Add().f64Store(16);
    fb.get(scratch!).get(out[0]!).get(out[1]!).i8x16Shuffle(HI).v128Store(16 * k);
    fb.get(scratch!).get(out[2]!).f64x2ExtractLane(1).f64Store(64 + 8 * k);
  } else {
    for (let c = 0; c < 3; c++) fb.get(addr).get(addr).f64Load(8 * c).get(out[c]!).f64Add().f64Store(8 * c);
  }
}

/** The second element's node vectors, kept by addFirstElement, added to its 4 nodes (pair kernels; `nodeAddress(k)` pushes node k's address). */
export function addSecondElement(fb: FunctionBuilder, addr: Local, nodeAddress: (k: number) => void, scratch: Local): void {
  for (let k = 0; k < 4; k++) {
    nodeAddress(k);
    fb.set(addr);
    fb.get(addr).get(addr).v128Load(0).get(scratch).v128Load(16 * k).f64x2Add().v128Store(0);
    fb.get(addr).get(addr).f64Load(16).get(scratch).f64Load(64 + 8 * k).f64Add().f64Store(16);
  }
}
