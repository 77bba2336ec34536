import { FunctionBuilder, WasmType, type Local } from '@sofa-ts/linalg';
import { addFirstElement, addSecondElement, readNode } from './tetrahedron-kernel-nodes.js';

/** Bytes of one element pair in the kernel's element array (24 f64x2 fields; see tetrahedron-dforce-kernel.ts). */
const PAIR_BYTES = 24 * 16;
/** Bytes of one element pair of rest shapes: D's 6 non-zero rest components of both elements. */
export const REST_PAIR_BYTES = 6 * 16;
/** The components of the 12 rest coordinates (measured from node a in the element frame) that are not 0 for 'large'. */
export const LARGE_REST_COMPONENTS: readonly number[] = [3, 6, 7, 9, 10, 11];

/**
 * The force of large corotational tetrahedra (CorotationalTetrahedra.addForceLarge) as a WebAssembly
 * kernel, in the memory of the product kernel (TetrahedronDForceWasm):
 *   - `tetF2(inIdx, elem, rest, rotOut, delta, p0, p1, scratch)`: element pairs p0 … p1−1 with f64x2,
 *     the two lanes being elements 2p and 2p+1, with a scratch area of 96 bytes;
 *   - `tetF1(…, e0, e1)`: single elements, scalar.
 * Per element: the frame of the edges R (x̂ ∥ b − a, ẑ ∥ x̂ × (c − a), ŷ = ẑ × x̂) written into the
 * element array (fields 0–8, what the product reads) and, row-major, at rotOut + 72·e; D = R₀X − R·x
 * from node a; the strain Jᵀ·D, the stress K·strain, F = J·stress and f += Rᵀ·F. Every operation of
 * the JavaScript loop in its order, the terms of D's structural zeros included (x·0 and 0 + x decide
 * the sign of a zero): the same forces and rotations bit for bit (lane-wise IEEE operations, no fused
 * multiply-add, sqrt and division correctly rounded). Positions are read at inIdx's addresses (the
 * product's dx array holds x then), forces added at those addresses + delta (its df array holds f);
 * the first element of a pair adds to its 4 nodes before the second.
 */
export function largeForceKernel(simd: boolean): FunctionBuilder {
  const I = WasmType.i32;
  const fb = new FunctionBuilder(simd ? 'tetF2' : 'tetF1', simd ? [I, I, I, I, I, I, I, I] : [I, I, I, I, I, I, I]);
  const inIdx = fb.param(0), elem = fb.param(1), restArr = fb.param(2), rotOut = fb.param(3), delta = fb.param(4), from = fb.param(5), to = fb.param(6);
  const scratch = simd ? fb.param(7) : undefined;
  const T = simd ? WasmType.v128 : WasmType.f64;
  const it = fb.local(I), base = fb.local(I), rb = fb.local(I), ro = fb.local(I), ii = fb.local(I), addr = fb.local(I);
  const mul = () => (simd ? fb.f64x2Mul() : fb.f64Mul());
  const add = () => (simd ? fb.f64x2Add() : fb.f64Add());
  const sub = () => (simd ? fb.f64x2Sub() : fb.f64Sub());
  const newLocal = (): Local => fb.local(T);
  // a − b into a new local
  const diff = (a: Local, b: Local): Local => {
    const l = newLocal();
    fb.get(a).get(b);
    sub();
    fb.set(l);
    return l;
  };
  // Σ aᵢ·bᵢ summed left to right, optionally continuing a running sum `acc` (acc + (Σ …)), into `into`
  const dot = (terms: readonly (readonly [Local, Local])[], into?: Local, acc?: Local): Local => {
    const out = into ?? newLocal();
    if (acc) fb.get(acc);
    terms.forEach(([a, b], i) => {
      fb.get(a).get(b);
      mul();
      if (i > 0) add();
    });
    if (acc) add();
    fb.set(out);
    return out;
  };
  const load = (addrLocal: Local, f: number): Local => {
    const l = newLocal();
    fb.get(addrLocal);
    if (simd) fb.v128Load(16 * f);
    else fb.f64Load(16 * f);
    fb.set(l);
    return l;
  };
  const zero = newLocal(), one = newLocal();
  fb.f64Const(0);
  if (simd) fb.f64x2Splat();
  fb.set(zero);
  fb.f64Const(1);
  if (simd) fb.f64x2Splat();
  fb.set(one);

  fb.get(from).set(it);
  fb.block().loop();
  fb.get(it).get(to).i32GeU().brIf(1);
  if (simd) {
    fb.get(elem).get(it).i32Const(PAIR_BYTES).i32Mul().i32Add().set(base);
    fb.get(restArr).get(it).i32Const(REST_PAIR_BYTES).i32Mul().i32Add().set(rb);
    fb.get(rotOut).get(it).i32Const(144).i32Mul().i32Add().set(ro);
    fb.get(inIdx).get(it).i32Const(5).i32Shl().i32Add().set(ii);
  } else {
    // lane (it & 1) of pair it >> 1
    fb.get(elem).get(it).i32Const(1).i32And().i32Const(3).i32Shl().i32Add();
    fb.get(it).i32Const(-2).i32And().i32Const(PAIR_BYTES / 2).i32Mul().i32Add().set(base);
    fb.get(restArr).get(it).i32Const(1).i32And().i32Const(3).i32Shl().i32Add();
    fb.get(it).i32Const(-2).i32And().i32Const(REST_PAIR_BYTES / 2).i32Mul().i32Add().set(rb);
    fb.get(rotOut).get(it).i32Const(72).i32Mul().i32Add().set(ro);
    fb.get(inIdx).get(it).i32Const(4).i32Shl().i32Add().set(ii);
  }
  // positions of the 4 nodes (per coordinate, both elements' in the lanes)
  const reads = { addr, addr1: fb.local(I), xy0: simd ? newLocal() : undefined, xy1: simd ? newLocal() : undefined };
  const P: Local[][] = [];
  for (let k = 0; k < 4; k++) {
    const c = [newLocal(), newLocal(), newLocal()];
    readNode(fb, simd, ii, k, reads, c);
    P.push(c);
  }
  const [pa, pb, pc, pd] = P as [Local[], Local[], Local[], Local[]];
  // x̂ = (b − a)/|b − a|
  const ex = diff(pb[0]!, pa[0]!), ey = diff(pb[1]!, pa[1]!), ez = diff(pb[2]!, pa[2]!);
  const normalize = (v: readonly Local[]): void => {
    const inv = newLocal();
    fb.get(one);
    fb.get(v[0]!).get(v[0]!);
    mul();
    fb.get(v[1]!).get(v[1]!);
    mul();
    add();
    fb.get(v[2]!).get(v[2]!);
    mul();
    add();
    if (simd) fb.f64x2Sqrt().f64x2Div();
    else fb.f64Sqrt().f64Div();
    fb.set(inv);
    for (const l of v) {
      fb.get(l).get(inv);
      mul();
      fb.set(l);
    }
  };
  normalize([ex, ey, ez]);
  const yx = diff(pc[0]!, pa[0]!), yy = diff(pc[1]!, pa[1]!), yz = diff(pc[2]!, pa[2]!);
  // ẑ = x̂ × (c − a), normalized
  const cross = (a: Local, b: Local, c: Local, d: Local): Local => {
    const l = newLocal();
    fb.get(a).get(b);
    mul();
    fb.get(c).get(d);
    mul();
    sub();
    fb.set(l);
    return l;
  };
  const zx = cross(ey, yz, ez, yy), zy = cross(ez, yx, ex, yz), zz = cross(ex, yy, ey, yx);
  normalize([zx, zy, zz]);
  const R = [ex, ey, ez, cross(zy, ez, zz, ey), cross(zz, ex, zx, ez), cross(zx, ey, zy, ex), zx, zy, zz];
  // R into the element array (the product's) and row-major at rotOut
  R.forEach((r, j) => {
    fb.get(base).get(r);
    if (simd) fb.v128Store(16 * j);
    else fb.f64Store(16 * j);
    if (simd) {
      fb.get(ro).get(r).f64x2ExtractLane(0).f64Store(8 * j);
      fb.get(ro).get(r).f64x2ExtractLane(1).f64Store(72 + 8 * j);
    } else fb.get(ro).get(r).f64Store(8 * j);
  });
  // R·x per node (the components D needs), then D = R₀X − R·x from node a
  const row = (r: number, p: readonly Local[]): Local => dot([[R[3 * r]!, p[0]!], [R[3 * r + 1]!, p[1]!], [R[3 * r + 2]!, p[2]!]]);
  const F0 = row(0, pa), F1 = row(1, pa), F2 = row(2, pa);
  const F3 = row(0, pb);
  const F6 = row(0, pc), F7 = row(1, pc);
  const F9 = row(0, pd), F10 = row(1, pd), F11 = row(2, pd);
  const restMinus = (f: number, Fk: Local, Fa: Local): Local => {
    const l = newLocal();
    fb.get(rb);
    if (simd) fb.v128Load(16 * f);
    else fb.f64Load(16 * f);
    fb.get(Fk).get(Fa);
    sub();
    sub();
    fb.set(l);
    return l;
  };
  const D3 = restMinus(0, F3, F0), D6 = restMinus(1, F6, F0), D7 = restMinus(2, F7, F1);
  const D9 = restMinus(3, F9, F0), D10 = restMinus(4, F10, F1), D11 = restMinus(5, F11, F2);
  const z = zero;
  const D: Local[] = [z, z, z, D3, z, z, D6, D7, z, D9, D10, D11];
  // strain = Jᵀ·D: elementForce's sums from 0, node by node (the gradients read per node, and the
  // sums stored to the scratch area after each: see tetrahedron-dforce-kernel.ts on V8's loads)
  const al = newLocal(), be = newLocal(), ga = newLocal();
  const grads = (k: number) => {
    for (const [l, f] of [[al, 9], [be, 10], [ga, 11]] as const) {
      fb.get(base);
      if (simd) fb.v128Load(16 * (f + 3 * k));
      else fb.f64Load(16 * (f + 3 * k));
      fb.set(l);
    }
  };
  const s = Array.from({ length: 6 }, () => newLocal());
  for (const l of s) fb.get(zero).set(l);
  for (let k = 0; k < 4; k++) {
    const dx = D[3 * k]!, dy = D[3 * k + 1]!, dz = D[3 * k + 2]!;
    grads(k);
    dot([[al, dx]], s[0], s[0]);
    dot([[be, dy]], s[1], s[1]);
    dot([[ga, dz]], s[2], s[2]);
    dot([[be, dx], [al, dy]], s[3], s[3]);
    dot([[ga, dy], [be, dz]], s[4], s[4]);
    dot([[ga, dx], [al, dz]], s[5], s[5]);
    if (scratch) for (let j = 0; j < 6; j++) fb.get(scratch).get(s[j]!).v128Store(16 * j);
  }
  // stress = K·strain
  const A = load(base, 21), B = load(base, 22), C = load(base, 23);
  const k0 = dot([[A, s[0]!], [B, s[1]!], [B, s[2]!]]);
  const k1 = dot([[B, s[0]!], [A, s[1]!], [B, s[2]!]]);
  const k2 = dot([[B, s[0]!], [B, s[1]!], [A, s[2]!]]);
  const k3 = dot([[C, s[3]!]]), k4 = dot([[C, s[4]!]]), k5 = dot([[C, s[5]!]]);
  // F = J·stress per node, then Rᵀ·F (R read back from the element array) and f[node] += …, all
  // nodes of the first element before the second (the second's kept in the scratch area)
  const Rm = Array.from({ length: 9 }, () => newLocal());
  const out = [newLocal(), newLocal(), newLocal()];
  for (let k = 0; k < 4; k++) {
    grads(k);
    const fx = dot([[al, k0], [be, k3], [ga, k5]]);
    const fy = dot([[be, k1], [al, k3], [ga, k4]]);
    const fz = dot([[ga, k2], [be, k4], [al, k5]]);
    Rm.forEach((l, j) => {
      fb.get(base);
      if (simd) fb.v128Load(16 * j);
      else fb.f64Load(16 * j);
      fb.set(l);
    });
    for (let c = 0; c < 3; c++) dot([[Rm[c]!, fx], [Rm[3 + c]!, fy], [Rm[6 + c]!, fz]], out[c]);
    // f at the positions' address + delta
    addFirstElement(fb, simd, k, out, addr, () => fb.get(ii).i32Load(4 * k).get(delta).i32Add(), scratch);
  }
  if (scratch) addSecondElement(fb, addr, (k) => fb.get(ii).i32Load(16 + 4 * k).get(delta).i32Add(), scratch);
  fb.get(it).i32Const(1).i32Add().set(it);
  fb.br(0).end().end();
  return fb;
}
