import type { BaseMeshTopology } from '@sofa-ts/core';
import { tetrahedraFromHexahedra } from '../volume-elasticity.js';

// The mathematics of one linear tetrahedron, shared by the tetrahedron force fields (and the
// element stacks that reuse them): the corotational frame of its edges, its cofactor gradients
// (strain-displacement), its 12×12 stiffness, rotated or not, and the element lists of a topology.

/** Equal element arrays (same length and indices). */
export function sameElements(a: Uint32Array, b: Uint32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Hexahedra split in tetrahedra as SOFA's TetrahedronFEMForceField does without tetrahedra. */
export function tetrahedraOfTopology(topo: BaseMeshTopology): Uint32Array {
  const tets = topo.getTetrahedra();
  if (tets.length > 0) return tets;
  const hexa = topo.getHexahedra();
  if (hexa.length === 0) return tets;
  const grid = topo.getGrid();
  const cubesX = grid ? grid.n[0] - 1 : 2;
  const cubesY = grid ? grid.n[1] - 1 : 1;
  return tetrahedraFromHexahedra(hexa, cubesX, cubesY);
}

/**
 * Rows of R: x̂ ∥ (b − a), ẑ ∥ x̂ × (c − a), ŷ = ẑ × x̂ (SOFA computeRotationLarge), positions p
 * as a flat (n × 3) array.
 */
export function frameOfEdges(R: Float64Array, p: ArrayLike<number>, a: number, b: number, c: number): Float64Array {
  let ex = p[3 * b] - p[3 * a],
    ey = p[3 * b + 1] - p[3 * a + 1],
    ez = p[3 * b + 2] - p[3 * a + 2];
  const inv = 1 / Math.sqrt(ex * ex + ey * ey + ez * ez);
  ex *= inv;
  ey *= inv;
  ez *= inv;
  const yx = p[3 * c] - p[3 * a],
    yy = p[3 * c + 1] - p[3 * a + 1],
    yz = p[3 * c + 2] - p[3 * a + 2];
  let zx = ey * yz - ez * yy,
    zy = ez * yx - ex * yz,
    zz = ex * yy - ey * yx;
  const iz = 1 / Math.sqrt(zx * zx + zy * zy + zz * zz);
  zx *= iz;
  zy *= iz;
  zz *= iz;
  R[0] = ex;
  R[1] = ey;
  R[2] = ez;
  R[3] = zy * ez - zz * ey;
  R[4] = zz * ex - zx * ez;
  R[5] = zx * ey - zy * ex;
  R[6] = zx;
  R[7] = zy;
  R[8] = zz;
  return R;
}

/**
 * The 12×12 element stiffness J·K·Jᵀ = V·Bᵀ·D·B of a linear tetrahedron (row-major, node-major
 * rows), from its cofactor gradients (αᵢ, βᵢ, γᵢ) = 6V·∇Nᵢ at grad[go .. go+12) and Hooke's matrix
 * divided by 36V as (A, B, C) = (D00, D01, D33)/(36V): block (i, j) = Bᵢᵀ·D·Bⱼ, the 3×3 coupling of
 * nodes i and j, in SOFA's Voigt order.
 */
export function tetrahedronStiffness(
  out: Float64Array,
  grad: ArrayLike<number>,
  go: number,
  A: number,
  B: number,
  C: number,
): Float64Array {
  for (let i = 0; i < 4; i++) {
    const ai = grad[go + 3 * i],
      bi = grad[go + 3 * i + 1],
      ci = grad[go + 3 * i + 2];
    for (let j = i; j < 4; j++) {
      const aj = grad[go + 3 * j],
        bj = grad[go + 3 * j + 1],
        cj = grad[go + 3 * j + 2];
      const k00 = ai * A * aj + bi * C * bj + ci * C * cj;
      const k01 = ai * B * bj + bi * C * aj;
      const k02 = ai * B * cj + ci * C * aj;
      const k10 = bi * B * aj + ai * C * bj;
      const k11 = bi * A * bj + ai * C * aj + ci * C * cj;
      const k12 = bi * B * cj + ci * C * bj;
      const k20 = ci * B * aj + ai * C * cj;
      const k21 = ci * B * bj + bi * C * cj;
      const k22 = ci * A * cj + bi * C * bj + ai * C * aj;
      const b = 36 * i + 3 * j;
      out[b] = k00;
      out[b + 1] = k01;
      out[b + 2] = k02;
      out[b + 12] = k10;
      out[b + 13] = k11;
      out[b + 14] = k12;
      out[b + 24] = k20;
      out[b + 25] = k21;
      out[b + 26] = k22;
      if (j !== i) {
        // block (j, i) = block (i, j)ᵀ
        const t = 36 * j + 3 * i;
        out[t] = k00;
        out[t + 1] = k10;
        out[t + 2] = k20;
        out[t + 12] = k01;
        out[t + 13] = k11;
        out[t + 14] = k21;
        out[t + 24] = k02;
        out[t + 25] = k12;
        out[t + 26] = k22;
      }
    }
  }
  return out;
}

/**
 * The 10 upper blocks (i ≤ j, layout of MatrixAccumulator.addSymmetricElements3, from U[uo]) of a tetrahedron's
 * stiffness −Rᵀ·(J·K·Jᵀ)·R, from its cofactor gradients at grad[go ..] and (A, B, C) at mat[mo ..]
 * as in tetrahedronStiffness, and the rotation at R[ro ..] (R undefined: −J·K·Jᵀ, 'small'). The
 * same operations as tetrahedronStiffness followed by rotatedElementStiffness, fused so that the
 * 12×12 matrices are never written: bit for bit their blocks j ≥ i.
 */
export function rotatedTetrahedronStiffnessUpper(
  U: Float64Array,
  uo: number,
  grad: Float64Array,
  go: number,
  mat: Float64Array,
  mo: number,
  R: Float64Array | undefined,
  ro: number,
): Float64Array {
  const A = mat[mo],
    B = mat[mo + 1],
    C = mat[mo + 2];
  let r0 = 1,
    r1 = 0,
    r2 = 0,
    r3 = 0,
    r4 = 1,
    r5 = 0,
    r6 = 0,
    r7 = 0,
    r8 = 1;
  if (R) {
    r0 = R[ro];
    r1 = R[ro + 1];
    r2 = R[ro + 2];
    r3 = R[ro + 3];
    r4 = R[ro + 4];
    r5 = R[ro + 5];
    r6 = R[ro + 6];
    r7 = R[ro + 7];
    r8 = R[ro + 8];
  }
  let u = uo;
  for (let i = 0; i < 4; i++) {
    const ai = grad[go + 3 * i],
      bi = grad[go + 3 * i + 1],
      ci = grad[go + 3 * i + 2];
    for (let j = i; j < 4; j++, u += 9) {
      const aj = grad[go + 3 * j],
        bj = grad[go + 3 * j + 1],
        cj = grad[go + 3 * j + 2];
      // block (i, j) of J·K·Jᵀ (tetrahedronStiffness)
      const k00 = ai * A * aj + bi * C * bj + ci * C * cj;
      const k01 = ai * B * bj + bi * C * aj;
      const k02 = ai * B * cj + ci * C * aj;
      const k10 = bi * B * aj + ai * C * bj;
      const k11 = bi * A * bj + ai * C * aj + ci * C * cj;
      const k12 = bi * B * cj + ci * C * bj;
      const k20 = ci * B * aj + ai * C * cj;
      const k21 = ci * B * bj + bi * C * cj;
      const k22 = ci * A * cj + bi * C * bj + ai * C * aj;
      if (!R) {
        U[u] = -k00;
        U[u + 1] = -k01;
        U[u + 2] = -k02;
        U[u + 3] = -k10;
        U[u + 4] = -k11;
        U[u + 5] = -k12;
        U[u + 6] = -k20;
        U[u + 7] = -k21;
        U[u + 8] = -k22;
        continue;
      }
      // T = K_ij·R, U_ij = −Rᵀ·T (rotatedElementStiffness)
      const t00 = k00 * r0 + k01 * r3 + k02 * r6,
        t01 = k00 * r1 + k01 * r4 + k02 * r7,
        t02 = k00 * r2 + k01 * r5 + k02 * r8;
      const t10 = k10 * r0 + k11 * r3 + k12 * r6,
        t11 = k10 * r1 + k11 * r4 + k12 * r7,
        t12 = k10 * r2 + k11 * r5 + k12 * r8;
      const t20 = k20 * r0 + k21 * r3 + k22 * r6,
        t21 = k20 * r1 + k21 * r4 + k22 * r7,
        t22 = k20 * r2 + k21 * r5 + k22 * r8;
      U[u] = -(r0 * t00 + r3 * t10 + r6 * t20);
      U[u + 1] = -(r0 * t01 + r3 * t11 + r6 * t21);
      U[u + 2] = -(r0 * t02 + r3 * t12 + r6 * t22);
      U[u + 3] = -(r1 * t00 + r4 * t10 + r7 * t20);
      U[u + 4] = -(r1 * t01 + r4 * t11 + r7 * t21);
      U[u + 5] = -(r1 * t02 + r4 * t12 + r7 * t22);
      U[u + 6] = -(r2 * t00 + r5 * t10 + r8 * t20);
      U[u + 7] = -(r2 * t01 + r5 * t11 + r8 * t21);
      U[u + 8] = -(r2 * t02 + r5 * t12 + r8 * t22);
    }
  }
  return U;
}

/** SOFA's 2×3 "pseudo determinant" of rows (m00 m01 m02; m10 m11 m12). */
function pd(m00: number, m01: number, m02: number, m10: number, m11: number, m12: number): number {
  return m01 * m12 - m11 * m02 - m00 * m12 + m10 * m02 + m00 * m11 - m10 * m01;
}

/**
 * Cofactor gradients (αᵢ, βᵢ, γᵢ) = 6V·∇Nᵢ of the tetrahedron whose 4 positions are X (12 numbers),
 * written to out[o .. o+12), as SOFA's computeStrainDisplacement (signs alternate with the node).
 */
export function strainDisplacement(out: Float64Array, o: number, X: ArrayLike<number>): void {
  for (let i = 0; i < 4; i++) {
    // the three other nodes in cyclic order
    const p = 3 * ((i + 1) % 4),
      q = 3 * ((i + 2) % 4),
      r = 3 * ((i + 3) % 4);
    const sign = i % 2 === 0 ? -1 : 1;
    out[o + 3 * i] = sign * pd(X[p + 1], X[q + 1], X[r + 1], X[p + 2], X[q + 2], X[r + 2]);
    out[o + 3 * i + 1] = -sign * pd(X[p], X[q], X[r], X[p + 2], X[q + 2], X[r + 2]);
    out[o + 3 * i + 2] = sign * pd(X[p], X[q], X[r], X[p + 1], X[q + 1], X[r + 1]);
  }
}
