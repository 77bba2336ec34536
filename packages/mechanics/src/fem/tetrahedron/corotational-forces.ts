// The two loops of corotational tetrahedra that run at every step, on the element arrays of
// CorotationalTetrahedra (nodes, rotations, rest shapes, cofactor gradients, materials).
//
// The force of 'large' is written three times, the same operations in the same order each time:
// CorotationalTetrahedra's element loop (every method and option: plasticity, stiffness updates),
// addLargeForces below (the common case written out on locals: no scratch arrays, no call per
// element), and the WebAssembly kernel's forceLarge (kernels/tetrahedra.wat). They are kept
// apart for speed only; large-forces.spec.ts checks that the three give the same forces and
// rotations bit for bit.

/**
 * addForce of 'large' without plasticity nor stiffness updates (the common case), its operations
 * written out on locals instead of the D and F scratch arrays and the elementForce call: the same
 * operations in the same order, zero terms included (x·0 and 0 + x are kept: they decide the sign
 * of a zero), so the same forces and rotations bit for bit.
 */
export function addLargeForces(
  ff: Float64Array,
  p: Float64Array,
  elems: Uint32Array,
  rot: Float64Array,
  rest: Float64Array,
  g: Float64Array,
  m: Float64Array,
): void {
  const n = elems.length / 4;
  const z = 0; // D's structural zeros (components the frame makes 0, and node a)
  for (let e = 0; e < n; e++) {
    const a = 3 * elems[4 * e],
      b = 3 * elems[4 * e + 1],
      c = 3 * elems[4 * e + 2],
      d = 3 * elems[4 * e + 3];
    const o = 12 * e,
      r = 9 * e;
    // frame of the edges, rows x̂ ŷ ẑ
    const pax = p[a],
      pay = p[a + 1],
      paz = p[a + 2];
    let ex = p[b] - pax,
      ey = p[b + 1] - pay,
      ez = p[b + 2] - paz;
    const inv = 1 / Math.sqrt(ex * ex + ey * ey + ez * ez);
    ex *= inv;
    ey *= inv;
    ez *= inv;
    const yx = p[c] - pax,
      yy = p[c + 1] - pay,
      yz = p[c + 2] - paz;
    let zx = ey * yz - ez * yy,
      zy = ez * yx - ex * yz,
      zz = ex * yy - ey * yx;
    const iz = 1 / Math.sqrt(zx * zx + zy * zy + zz * zz);
    zx *= iz;
    zy *= iz;
    zz *= iz;
    const r0 = ex,
      r1 = ey,
      r2 = ez;
    const r3 = zy * ez - zz * ey,
      r4 = zz * ex - zx * ez,
      r5 = zx * ey - zy * ex;
    const r6 = zx,
      r7 = zy,
      r8 = zz;
    rot[r] = r0;
    rot[r + 1] = r1;
    rot[r + 2] = r2;
    rot[r + 3] = r3;
    rot[r + 4] = r4;
    rot[r + 5] = r5;
    rot[r + 6] = r6;
    rot[r + 7] = r7;
    rot[r + 8] = r8;
    // R·x per node, then D = R₀X − R·x measured from node a
    let px = pax,
      py = pay,
      pz = paz;
    const F0 = r0 * px + r1 * py + r2 * pz,
      F1 = r3 * px + r4 * py + r5 * pz,
      F2 = r6 * px + r7 * py + r8 * pz;
    px = p[b];
    py = p[b + 1];
    pz = p[b + 2];
    const F3 = r0 * px + r1 * py + r2 * pz;
    px = p[c];
    py = p[c + 1];
    pz = p[c + 2];
    const F6 = r0 * px + r1 * py + r2 * pz,
      F7 = r3 * px + r4 * py + r5 * pz;
    px = p[d];
    py = p[d + 1];
    pz = p[d + 2];
    const F9 = r0 * px + r1 * py + r2 * pz,
      F10 = r3 * px + r4 * py + r5 * pz,
      F11 = r6 * px + r7 * py + r8 * pz;
    const D3 = rest[o + 3] - (F3 - F0);
    const D6 = rest[o + 6] - (F6 - F0),
      D7 = rest[o + 7] - (F7 - F1);
    const D9 = rest[o + 9] - (F9 - F0),
      D10 = rest[o + 10] - (F10 - F1),
      D11 = rest[o + 11] - (F11 - F2);
    // strain = Jᵀ·D (elementForce's sums from 0, node by node)
    const al0 = g[o],
      be0 = g[o + 1],
      ga0 = g[o + 2];
    const al1 = g[o + 3],
      be1 = g[o + 4],
      ga1 = g[o + 5];
    const al2 = g[o + 6],
      be2 = g[o + 7],
      ga2 = g[o + 8];
    const al3 = g[o + 9],
      be3 = g[o + 10],
      ga3 = g[o + 11];
    let s0 = 0 + al0 * z,
      s1 = 0 + be0 * z,
      s2 = 0 + ga0 * z;
    let s3 = 0 + (be0 * z + al0 * z),
      s4 = 0 + (ga0 * z + be0 * z),
      s5 = 0 + (ga0 * z + al0 * z);
    s0 += al1 * D3;
    s1 += be1 * z;
    s2 += ga1 * z;
    s3 += be1 * D3 + al1 * z;
    s4 += ga1 * z + be1 * z;
    s5 += ga1 * D3 + al1 * z;
    s0 += al2 * D6;
    s1 += be2 * D7;
    s2 += ga2 * z;
    s3 += be2 * D6 + al2 * D7;
    s4 += ga2 * D7 + be2 * z;
    s5 += ga2 * D6 + al2 * z;
    s0 += al3 * D9;
    s1 += be3 * D10;
    s2 += ga3 * D11;
    s3 += be3 * D9 + al3 * D10;
    s4 += ga3 * D10 + be3 * D11;
    s5 += ga3 * D9 + al3 * D11;
    // stress = K·strain
    const mo = 3 * e;
    const A = m[mo],
      B = m[mo + 1],
      C = m[mo + 2];
    const k0 = A * s0 + B * s1 + B * s2;
    const k1 = B * s0 + A * s1 + B * s2;
    const k2 = B * s0 + B * s1 + A * s2;
    const k3 = C * s3,
      k4 = C * s4,
      k5 = C * s5;
    // node forces in the element frame F = J·stress, then f += Rᵀ·F
    let fx = al0 * k0 + be0 * k3 + ga0 * k5,
      fy = be0 * k1 + al0 * k3 + ga0 * k4,
      fz = ga0 * k2 + be0 * k4 + al0 * k5;
    ff[a] += r0 * fx + r3 * fy + r6 * fz;
    ff[a + 1] += r1 * fx + r4 * fy + r7 * fz;
    ff[a + 2] += r2 * fx + r5 * fy + r8 * fz;
    fx = al1 * k0 + be1 * k3 + ga1 * k5;
    fy = be1 * k1 + al1 * k3 + ga1 * k4;
    fz = ga1 * k2 + be1 * k4 + al1 * k5;
    ff[b] += r0 * fx + r3 * fy + r6 * fz;
    ff[b + 1] += r1 * fx + r4 * fy + r7 * fz;
    ff[b + 2] += r2 * fx + r5 * fy + r8 * fz;
    fx = al2 * k0 + be2 * k3 + ga2 * k5;
    fy = be2 * k1 + al2 * k3 + ga2 * k4;
    fz = ga2 * k2 + be2 * k4 + al2 * k5;
    ff[c] += r0 * fx + r3 * fy + r6 * fz;
    ff[c + 1] += r1 * fx + r4 * fy + r7 * fz;
    ff[c + 2] += r2 * fx + r5 * fy + r8 * fz;
    fx = al3 * k0 + be3 * k3 + ga3 * k5;
    fy = be3 * k1 + al3 * k3 + ga3 * k4;
    fz = ga3 * k2 + be3 * k4 + al3 * k5;
    ff[d] += r0 * fx + r3 * fy + r6 * fz;
    ff[d + 1] += r1 * fx + r4 * fy + r7 * fz;
    ff[d + 2] += r2 * fx + r5 * fy + r8 * fz;
  }
}

/**
 * df += −k·Σ Rᵀ·J·K·Jᵀ·R·dx, the JavaScript product of corotational tetrahedra (the WebAssembly
 * kernel's, tetrahedron-dforce-kernel.ts, bit for bit), with the rotations of the last addForce
 * (rot undefined: 'small', R = I).
 */
export function addRotatedDForce(
  out: Float64Array,
  v: Float64Array,
  k: number,
  elems: Uint32Array,
  rot: Float64Array | undefined,
  g: Float64Array,
  m: Float64Array,
): void {
  const n = elems.length / 4;
  const small = rot === undefined;
  for (let e = 0; e < n; e++) {
    const a = 3 * elems[4 * e],
      b = 3 * elems[4 * e + 1],
      c = 3 * elems[4 * e + 2],
      d = 3 * elems[4 * e + 3];
    const r = 9 * e,
      o = 12 * e,
      mo = 3 * e;
    let r0 = 1,
      r1 = 0,
      r2 = 0,
      r3 = 0,
      r4 = 1,
      r5 = 0,
      r6 = 0,
      r7 = 0,
      r8 = 1;
    if (!small) {
      r0 = rot![r];
      r1 = rot![r + 1];
      r2 = rot![r + 2];
      r3 = rot![r + 3];
      r4 = rot![r + 4];
      r5 = rot![r + 5];
      r6 = rot![r + 6];
      r7 = rot![r + 7];
      r8 = rot![r + 8];
    }
    // X = R·dx per node
    let px = v[a],
      py = v[a + 1],
      pz = v[a + 2];
    const ax = r0 * px + r1 * py + r2 * pz,
      ay = r3 * px + r4 * py + r5 * pz,
      az = r6 * px + r7 * py + r8 * pz;
    px = v[b];
    py = v[b + 1];
    pz = v[b + 2];
    const bx = r0 * px + r1 * py + r2 * pz,
      by = r3 * px + r4 * py + r5 * pz,
      bz = r6 * px + r7 * py + r8 * pz;
    px = v[c];
    py = v[c + 1];
    pz = v[c + 2];
    const cx = r0 * px + r1 * py + r2 * pz,
      cy = r3 * px + r4 * py + r5 * pz,
      cz = r6 * px + r7 * py + r8 * pz;
    px = v[d];
    py = v[d + 1];
    pz = v[d + 2];
    const dxx = r0 * px + r1 * py + r2 * pz,
      dxy = r3 * px + r4 * py + r5 * pz,
      dxz = r6 * px + r7 * py + r8 * pz;
    const al0 = g[o],
      be0 = g[o + 1],
      ga0 = g[o + 2];
    const al1 = g[o + 3],
      be1 = g[o + 4],
      ga1 = g[o + 5];
    const al2 = g[o + 6],
      be2 = g[o + 7],
      ga2 = g[o + 8];
    const al3 = g[o + 9],
      be3 = g[o + 10],
      ga3 = g[o + 11];
    // strain = Jᵀ·X
    const s0 = al0 * ax + al1 * bx + al2 * cx + al3 * dxx;
    const s1 = be0 * ay + be1 * by + be2 * cy + be3 * dxy;
    const s2 = ga0 * az + ga1 * bz + ga2 * cz + ga3 * dxz;
    const s3 = be0 * ax + al0 * ay + be1 * bx + al1 * by + be2 * cx + al2 * cy + be3 * dxx + al3 * dxy;
    const s4 = ga0 * ay + be0 * az + ga1 * by + be1 * bz + ga2 * cy + be2 * cz + ga3 * dxy + be3 * dxz;
    const s5 = ga0 * ax + al0 * az + ga1 * bx + al1 * bz + ga2 * cx + al2 * cz + ga3 * dxx + al3 * dxz;
    // stress = −k·K·strain (the minus of df = −k·Rᵀ·J·K·Jᵀ·R·dx)
    const A = m[mo],
      B = m[mo + 1],
      C = m[mo + 2];
    const k0 = -k * (A * s0 + B * s1 + B * s2);
    const k1 = -k * (B * s0 + A * s1 + B * s2);
    const k2 = -k * (B * s0 + B * s1 + A * s2);
    const k3 = -k * C * s3,
      k4 = -k * C * s4,
      k5 = -k * C * s5;
    // node forces in the element frame, then df += Rᵀ·F
    let fx = al0 * k0 + be0 * k3 + ga0 * k5,
      fy = be0 * k1 + al0 * k3 + ga0 * k4,
      fz = ga0 * k2 + be0 * k4 + al0 * k5;
    out[a] += r0 * fx + r3 * fy + r6 * fz;
    out[a + 1] += r1 * fx + r4 * fy + r7 * fz;
    out[a + 2] += r2 * fx + r5 * fy + r8 * fz;
    fx = al1 * k0 + be1 * k3 + ga1 * k5;
    fy = be1 * k1 + al1 * k3 + ga1 * k4;
    fz = ga1 * k2 + be1 * k4 + al1 * k5;
    out[b] += r0 * fx + r3 * fy + r6 * fz;
    out[b + 1] += r1 * fx + r4 * fy + r7 * fz;
    out[b + 2] += r2 * fx + r5 * fy + r8 * fz;
    fx = al2 * k0 + be2 * k3 + ga2 * k5;
    fy = be2 * k1 + al2 * k3 + ga2 * k4;
    fz = ga2 * k2 + be2 * k4 + al2 * k5;
    out[c] += r0 * fx + r3 * fy + r6 * fz;
    out[c + 1] += r1 * fx + r4 * fy + r7 * fz;
    out[c + 2] += r2 * fx + r5 * fy + r8 * fz;
    fx = al3 * k0 + be3 * k3 + ga3 * k5;
    fy = be3 * k1 + al3 * k3 + ga3 * k4;
    fz = ga3 * k2 + be3 * k4 + al3 * k5;
    out[d] += r0 * fx + r3 * fy + r6 * fz;
    out[d + 1] += r1 * fx + r4 * fy + r7 * fz;
    out[d + 2] += r2 * fx + r5 * fy + r8 * fz;
  }
}
