import type { MatrixAccumulator } from '@sofa-ts/core';

/**
 * Kernels of SOFA's triangle finite elements (TriangleFEMForceField, TriangularFEMForceField):
 * linear triangles in plane stress with SOFA's conventions, out-parameter first, over flat arrays.
 *
 *   J (6×3, row-major, 18 numbers): the transpose of the strain-displacement matrix B, rows
 *     (u_ax, u_ay, u_bx, u_by, u_cx, u_cy), columns (ε_xx, ε_yy, γ_xy);
 *   D (6): the displacement *rest − current* of the three vertices in the element frame, so that
 *     strain = Jᵀ·D and stress = M·strain are minus the physical ones and F = J·stress is directly
 *     the elastic force on the vertices (M, 3×3, already multiplied by the area);
 *   R (3×3, row-major): a frame rotation; rows (ex, ey, ez) map world vectors to the element frame.
 */

/** SOFA's division guard: |det| below machine epsilon is a degenerate triangle. */
const EPS = Number.EPSILON;

/**
 * R_0_2 of SOFA's computeRotationLarge, into R[o..o+9]: ex along AB, ez = normalised ex × AC,
 * ey = ez × ex (a vector of norm ≤ machine epsilon is left unnormalised, as SOFA does).
 */
export function triangleFrame(R: Float64Array, o: number, x: Float64Array, ia: number, ib: number, ic: number): void {
  const ax = x[ia],
    ay = x[ia + 1],
    az = x[ia + 2];
  let ex = x[ib] - ax,
    ey = x[ib + 1] - ay,
    ez = x[ib + 2] - az;
  let n = Math.sqrt(ex * ex + ey * ey + ez * ez);
  if (n > EPS) {
    ex /= n;
    ey /= n;
    ez /= n;
  }
  const vx = x[ic] - ax,
    vy = x[ic + 1] - ay,
    vz = x[ic + 2] - az;
  let zx = ey * vz - ez * vy,
    zy = ez * vx - ex * vz,
    zz = ex * vy - ey * vx;
  n = Math.sqrt(zx * zx + zy * zy + zz * zz);
  if (n > EPS) {
    zx /= n;
    zy /= n;
    zz /= n;
  }
  R[o] = ex;
  R[o + 1] = ey;
  R[o + 2] = ez;
  R[o + 3] = zy * ez - zz * ey;
  R[o + 4] = zz * ex - zx * ez;
  R[o + 5] = zx * ey - zy * ex;
  R[o + 6] = zx;
  R[o + 7] = zy;
  R[o + 8] = zz;
}

/** out[oo..oo+3] = R·(x_q − x_p) with R = R[o..o+9] (the edge p→q in the frame R). */
export function frameEdge(out: Float64Array, oo: number, R: Float64Array, o: number, x: Float64Array, ip: number, iq: number): void {
  const ux = x[iq] - x[ip],
    uy = x[iq + 1] - x[ip + 1],
    uz = x[iq + 2] - x[ip + 2];
  out[oo] = R[o] * ux + R[o + 1] * uy + R[o + 2] * uz;
  out[oo + 1] = R[o + 3] * ux + R[o + 4] * uy + R[o + 5] * uz;
  out[oo + 2] = R[o + 6] * ux + R[o + 7] * uy + R[o + 8] * uz;
}

/**
 * J of a triangle given in its own frame, A = 0, B = (bx, 0), C = (cx, cy) (SOFA's
 * computeStrainDisplacementLocal). Returns false for a degenerate triangle (J left unchanged).
 */
export function strainDisplacementLocal(J: Float64Array, o: number, bx: number, cx: number, cy: number): boolean {
  const det = bx * cy;
  if (Math.abs(det) < EPS) return false;
  const inv = 1 / det;
  J.fill(0, o, o + 18);
  J[o] = J[o + 5] = -cy * inv; // (0,0), (1,2)
  J[o + 2] = J[o + 4] = (cx - bx) * inv; // (0,2), (1,1)
  J[o + 6] = J[o + 11] = cy * inv; // (2,0), (3,2)
  J[o + 8] = J[o + 10] = -cx * inv; // (2,2), (3,1)
  J[o + 14] = J[o + 16] = bx * inv; // (4,2), (5,1)
  return true;
}

/**
 * J of a triangle A = 0, B, C from the x and y coordinates of B and C, the determinant being the
 * norm of B × C in 3D (SOFA's computeStrainDisplacementGlobal, used by the small-displacement
 * method). B and C are read at b[ob..ob+3], c[oc..oc+3]. Returns false for a degenerate triangle.
 */
export function strainDisplacementGlobal(J: Float64Array, o: number, b: Float64Array, ob: number, c: Float64Array, oc: number): boolean {
  const bx = b[ob],
    by = b[ob + 1],
    bz = b[ob + 2];
  const cx = c[oc],
    cy = c[oc + 1],
    cz = c[oc + 2];
  const nx = by * cz - bz * cy,
    ny = bz * cx - bx * cz,
    nz = bx * cy - by * cx;
  const det = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (Math.abs(det) < EPS) return false;
  const inv = 1 / det;
  const x13 = (0 - cx) * inv,
    x21 = (bx - 0) * inv,
    x32 = (cx - bx) * inv;
  const y12 = (0 - by) * inv,
    y23 = (by - cy) * inv,
    y31 = (cy - 0) * inv;
  J[o] = y23;
  J[o + 1] = 0;
  J[o + 2] = x32;
  J[o + 3] = 0;
  J[o + 4] = x32;
  J[o + 5] = y23;
  J[o + 6] = y31;
  J[o + 7] = 0;
  J[o + 8] = x13;
  J[o + 9] = 0;
  J[o + 10] = x13;
  J[o + 11] = y31;
  J[o + 12] = y12;
  J[o + 13] = 0;
  J[o + 14] = x21;
  J[o + 15] = 0;
  J[o + 16] = x21;
  J[o + 17] = y12;
  return true;
}

/**
 * strain = Jᵀ·D, stress = M·strain, F = J·stress for one element (J at J[oj], M at M[om], D and F
 * of 6 numbers); strain and stress (3 each) are written to sv[os..os+3] and sv[os+3..os+6] when sv
 * is given.
 */
export function elementForce(
  F: Float64Array,
  J: Float64Array,
  oj: number,
  M: Float64Array,
  om: number,
  D: Float64Array,
  sv?: Float64Array,
  os = 0,
): void {
  let e0 = 0,
    e1 = 0,
    e2 = 0;
  for (let i = 0; i < 6; i++) {
    const d = D[i];
    e0 += J[oj + 3 * i] * d;
    e1 += J[oj + 3 * i + 1] * d;
    e2 += J[oj + 3 * i + 2] * d;
  }
  const s0 = M[om] * e0 + M[om + 1] * e1 + M[om + 2] * e2;
  const s1 = M[om + 3] * e0 + M[om + 4] * e1 + M[om + 5] * e2;
  const s2 = M[om + 6] * e0 + M[om + 7] * e1 + M[om + 8] * e2;
  for (let i = 0; i < 6; i++) F[i] = J[oj + 3 * i] * s0 + J[oj + 3 * i + 1] * s1 + J[oj + 3 * i + 2] * s2;
  if (sv) {
    sv[os] = e0;
    sv[os + 1] = e1;
    sv[os + 2] = e2;
    sv[os + 3] = s0;
    sv[os + 4] = s1;
    sv[os + 5] = s2;
  }
}

/** M·(area factor) for plane stress: E/(1 − ν²)·[[1, ν, 0], [ν, 1, 0], [0, 0, (1 − ν)/2]]·scale. */
export function planeStressMaterial(M: Float64Array, o: number, E: number, nu: number, scale: number): void {
  const f = (E / (1 - nu * nu)) * scale;
  M[o] = f;
  M[o + 1] = nu * f;
  M[o + 2] = 0;
  M[o + 3] = nu * f;
  M[o + 4] = f;
  M[o + 5] = 0;
  M[o + 6] = 0;
  M[o + 7] = 0;
  M[o + 8] = (1 - nu) * 0.5 * f;
}

/**
 * Emits −k·Rot·Ke·Rotᵀ, the 9×9 stiffness of one element in world coordinates, block by block in
 * the fixed order (n1, n2, i, j) at rows and columns 3·v[n] + axis. Ke expands the in-plane J·M·Jᵀ
 * (6×6) to 3D (zero normal rows and columns); Rot[or..or+9] is the element-to-world rotation
 * (SOFA's `rotation`, the transpose of the frame of triangleFrame). `scratch` holds ≥ 54 numbers.
 */
export function emitElementStiffness(
  acc: MatrixAccumulator,
  va: number,
  vb: number,
  vc: number,
  J: Float64Array,
  oj: number,
  M: Float64Array,
  om: number,
  Rot: Float64Array,
  or: number,
  k: number,
  scratch: Float64Array,
): void {
  const v0 = 3 * va,
    v1 = 3 * vb,
    v2 = 3 * vc;
  // JM = J·M (6×3), then JMJt = JM·Jᵀ (6×6), stored in scratch[0..18] and scratch[18..54].
  for (let i = 0; i < 6; i++) {
    for (let c = 0; c < 3; c++) {
      scratch[3 * i + c] = J[oj + 3 * i] * M[om + c] + J[oj + 3 * i + 1] * M[om + 3 + c] + J[oj + 3 * i + 2] * M[om + 6 + c];
    }
  }
  for (let i = 0; i < 6; i++) {
    for (let j = 0; j < 6; j++) {
      scratch[18 + 6 * i + j] =
        scratch[3 * i] * J[oj + 3 * j] + scratch[3 * i + 1] * J[oj + 3 * j + 1] + scratch[3 * i + 2] * J[oj + 3 * j + 2];
    }
  }
  // Block (n1, n2) = Rot·E·Rotᵀ with E = [[K00, K01, 0], [K10, K11, 0], [0, 0, 0]] of JMJt.
  for (let n1 = 0; n1 < 3; n1++) {
    for (let n2 = 0; n2 < 3; n2++) {
      const e00 = scratch[18 + 6 * (2 * n1) + 2 * n2],
        e01 = scratch[18 + 6 * (2 * n1) + 2 * n2 + 1];
      const e10 = scratch[18 + 6 * (2 * n1 + 1) + 2 * n2],
        e11 = scratch[18 + 6 * (2 * n1 + 1) + 2 * n2 + 1];
      for (let i = 0; i < 3; i++) {
        // T row i = Rot row i · E
        const r0 = Rot[or + 3 * i],
          r1 = Rot[or + 3 * i + 1];
        const t0 = r0 * e00 + r1 * e10;
        const t1 = r0 * e01 + r1 * e11;
        for (let j = 0; j < 3; j++) {
          const val = t0 * Rot[or + 3 * j] + t1 * Rot[or + 3 * j + 1];
          acc.add((n1 === 0 ? v0 : n1 === 1 ? v1 : v2) + i, (n2 === 0 ? v0 : n2 === 1 ? v1 : v2) + j, -k * val);
        }
      }
    }
  }
}
