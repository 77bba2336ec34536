/**
 * Kernels of the trilinear hexahedron (8 nodes in SOFA's vertex order: 0-1-2-3 the face ζ = −1
 * counter-clockwise, 4-7 the face ζ = +1 above them), shared by HexahedronFEMForceField and SOFA's
 * element force fields (LinearSmallStrainFEMForceField, CorotationalFEMForceField, FEMMass):
 * reference corners, shape functions, the 2×2×2 Gauss rule, the element stiffness and the frame of
 * the mean edges. Positions are 24 numbers (node-major x y z).
 */

/** Corner signs (ξ, η, ζ) of the reference hexahedron [−1, 1]³, node by node. */
export const HEXA_CORNERS = [
  [-1, -1, -1],
  [1, -1, -1],
  [1, 1, -1],
  [-1, 1, -1],
  [-1, -1, 1],
  [1, -1, 1],
  [1, 1, 1],
  [-1, 1, 1],
] as const;

/** The 2×2×2 Gauss-Legendre rule on [−1, 1]³: points (±1/√3)³, weights 1 (exact for degree 3 per axis). */
export const HEXA_GAUSS_POINT = 1 / Math.sqrt(3);

/** Trilinear shape functions at (ξ, η, ζ): N_i = (1 + ξᵢξ)(1 + ηᵢη)(1 + ζᵢζ)/8, into out[0..8). */
export function hexahedronShapeFunctions(out: Float64Array, xi: number, eta: number, zeta: number): Float64Array {
  for (let i = 0; i < 8; i++) {
    const c = HEXA_CORNERS[i];
    out[i] = ((1 + c[0] * xi) * (1 + c[1] * eta) * (1 + c[2] * zeta)) / 8;
  }
  return out;
}

/**
 * det J of the map from [−1, 1]³ to the element at (ξ, η, ζ), J[c][a] = Σ_i X_ic·∂N_i/∂ξ_a for the
 * 24 positions `nodes`.
 */
export function hexahedronJacobianDeterminant(nodes: ArrayLike<number>, xi: number, eta: number, zeta: number): number {
  let j00 = 0,
    j01 = 0,
    j02 = 0,
    j10 = 0,
    j11 = 0,
    j12 = 0,
    j20 = 0,
    j21 = 0,
    j22 = 0;
  for (let i = 0; i < 8; i++) {
    const c = HEXA_CORNERS[i];
    const d0 = (c[0] * (1 + c[1] * eta) * (1 + c[2] * zeta)) / 8;
    const d1 = ((1 + c[0] * xi) * c[1] * (1 + c[2] * zeta)) / 8;
    const d2 = ((1 + c[0] * xi) * (1 + c[1] * eta) * c[2]) / 8;
    const x = nodes[3 * i],
      y = nodes[3 * i + 1],
      z = nodes[3 * i + 2];
    j00 += x * d0;
    j01 += x * d1;
    j02 += x * d2;
    j10 += y * d0;
    j11 += y * d1;
    j12 += y * d2;
    j20 += z * d0;
    j21 += z * d1;
    j22 += z * d2;
  }
  return j00 * (j11 * j22 - j12 * j21) - j01 * (j10 * j22 - j12 * j20) + j02 * (j10 * j21 - j11 * j20);
}

/**
 * Mean edges of a hexahedron into A (row-major 3×3): row 0 the mean of the 4 edges along ξ
 * (1−0, 2−3, 5−4, 6−7), row 1 along η (3−0, 2−1, 7−4, 6−5), row 2 along ζ (4−0, 5−1, 7−3, 6−2).
 */
export function hexahedronMeanEdges(A: Float64Array, nodes: ArrayLike<number>): Float64Array {
  for (let c = 0; c < 3; c++) {
    A[c] = (nodes[3 + c] - nodes[c] + nodes[6 + c] - nodes[9 + c] + nodes[15 + c] - nodes[12 + c] + nodes[18 + c] - nodes[21 + c]) * 0.25;
    A[3 + c] =
      (nodes[9 + c] - nodes[c] + nodes[6 + c] - nodes[3 + c] + nodes[21 + c] - nodes[12 + c] + nodes[18 + c] - nodes[15 + c]) * 0.25;
    A[6 + c] =
      (nodes[12 + c] - nodes[c] + nodes[15 + c] - nodes[3 + c] + nodes[21 + c] - nodes[9 + c] + nodes[18 + c] - nodes[6 + c]) * 0.25;
  }
  return A;
}

/**
 * The frame of the mean edges (SOFA's 'large' hexahedron rotation), rows into out[o .. o+9):
 * x̂ ∥ mean ξ-edge, ẑ ∥ x̂ × mean η-edge, ŷ = ẑ × x̂. `A` is a 9-value scratch.
 */
export function hexahedronFrame(out: Float64Array, o: number, nodes: ArrayLike<number>, A: Float64Array): Float64Array {
  hexahedronMeanEdges(A, nodes);
  let ex = A[0],
    ey = A[1],
    ez = A[2];
  const inv = 1 / Math.sqrt(ex * ex + ey * ey + ez * ez);
  ex *= inv;
  ey *= inv;
  ez *= inv;
  const yx = A[3],
    yy = A[4],
    yz = A[5];
  let zx = ey * yz - ez * yy,
    zy = ez * yx - ex * yz,
    zz = ex * yy - ey * yx;
  const iz = 1 / Math.sqrt(zx * zx + zy * zy + zz * zz);
  zx *= iz;
  zy *= iz;
  zz *= iz;
  out[o] = ex;
  out[o + 1] = ey;
  out[o + 2] = ez;
  out[o + 3] = zy * ez - zz * ey;
  out[o + 4] = zz * ex - zx * ez;
  out[o + 5] = zx * ey - zy * ex;
  out[o + 6] = zx;
  out[o + 7] = zy;
  out[o + 8] = zz;
  return out;
}

/**
 * K (24×24, row-major, node-major rows) = Σ_gauss Bᵀ·D·B·det J of a trilinear hexahedron with
 * positions nodes (24 numbers, SOFA's vertex order) and Hooke's matrix (u = D00, v = D01, w = D33),
 * as SOFA's HexahedronFEMForceField::computeElementStiffness (2×2×2 Gauss points ±1/√3, J constant
 * for parallelepipeds).
 */
export function hexahedronStiffness(K: Float64Array, u: number, v: number, w: number, nodes: ArrayLike<number>): Float64Array {
  K.fill(0);
  const J = new Float64Array(9);
  const Ji = new Float64Array(9);
  let detJ = 1;
  const node = (k: number, c: number): number => nodes[3 * k + c];
  // parallelepiped: opposite edges equal within 0.1 %
  const lx = [node(1, 0) - node(0, 0), node(1, 1) - node(0, 1), node(1, 2) - node(0, 2)];
  const ly = [node(3, 0) - node(0, 0), node(3, 1) - node(0, 1), node(3, 2) - node(0, 2)];
  const lz = [node(4, 0) - node(0, 0), node(4, 1) - node(0, 1), node(4, 2) - node(0, 2)];
  const norm = (a: number[]): number => Math.hypot(a[0], a[1], a[2]);
  const off = (p: number, q: number, l: number[]): number =>
    Math.hypot(node(p, 0) + l[0] - node(q, 0), node(p, 1) + l[1] - node(q, 1), node(p, 2) + l[2] - node(q, 2));
  const nx = norm(lx),
    nz = norm(lz);
  const isParallel =
    off(3, 2, lx) < nx * 0.001 &&
    off(0, 4, lz) < nz * 0.001 &&
    off(1, 5, lz) < nz * 0.001 &&
    off(2, 6, lz) < nz * 0.001 &&
    off(3, 7, lz) < nz * 0.001;
  const invert = (): void => {
    detJ = J[0] * (J[4] * J[8] - J[5] * J[7]) - J[1] * (J[3] * J[8] - J[5] * J[6]) + J[2] * (J[3] * J[7] - J[4] * J[6]);
    const id = 1 / detJ;
    Ji[0] = (J[4] * J[8] - J[5] * J[7]) * id;
    Ji[1] = (J[2] * J[7] - J[1] * J[8]) * id;
    Ji[2] = (J[1] * J[5] - J[2] * J[4]) * id;
    Ji[3] = (J[5] * J[6] - J[3] * J[8]) * id;
    Ji[4] = (J[0] * J[8] - J[2] * J[6]) * id;
    Ji[5] = (J[2] * J[3] - J[0] * J[5]) * id;
    Ji[6] = (J[3] * J[7] - J[4] * J[6]) * id;
    Ji[7] = (J[1] * J[6] - J[0] * J[7]) * id;
    Ji[8] = (J[0] * J[4] - J[1] * J[3]) * id;
  };
  if (isParallel) {
    for (let c = 0; c < 3; c++) {
      J[3 * c] = lx[c] / 2;
      J[3 * c + 1] = ly[c] / 2;
      J[3 * c + 2] = lz[c] / 2;
    }
    invert();
  }
  const qx = new Float64Array(8),
    qy = new Float64Array(8),
    qz = new Float64Array(8);
  const g = HEXA_GAUSS_POINT;
  for (let g1 = -1; g1 <= 1; g1 += 2) {
    for (let g2 = -1; g2 <= 1; g2 += 2) {
      for (let g3 = -1; g3 <= 1; g3 += 2) {
        const x1 = g1 * g,
          x2 = g2 * g,
          x3 = g3 * g;
        if (!isParallel) {
          // J[c][·] = ∂X_c/∂(ξ, η, ζ)
          for (let c = 0; c < 3; c++) {
            J[3 * c] =
              ((node(1, c) - node(0, c)) * (1 - x2) * (1 - x3)) / 8 +
              ((node(2, c) - node(3, c)) * (1 + x2) * (1 - x3)) / 8 +
              ((node(5, c) - node(4, c)) * (1 - x2) * (1 + x3)) / 8 +
              ((node(6, c) - node(7, c)) * (1 + x2) * (1 + x3)) / 8;
            J[3 * c + 1] =
              ((node(3, c) - node(0, c)) * (1 - x1) * (1 - x3)) / 8 +
              ((node(2, c) - node(1, c)) * (1 + x1) * (1 - x3)) / 8 +
              ((node(7, c) - node(4, c)) * (1 - x1) * (1 + x3)) / 8 +
              ((node(6, c) - node(5, c)) * (1 + x1) * (1 + x3)) / 8;
            J[3 * c + 2] =
              ((node(4, c) - node(0, c)) * (1 - x1) * (1 - x2)) / 8 +
              ((node(5, c) - node(1, c)) * (1 + x1) * (1 - x2)) / 8 +
              ((node(6, c) - node(2, c)) * (1 + x1) * (1 + x2)) / 8 +
              ((node(7, c) - node(3, c)) * (1 - x1) * (1 + x2)) / 8;
          }
          invert();
        }
        // ∂N_i/∂X = J⁻ᵀ·∂N_i/∂ξ
        for (let i = 0; i < 8; i++) {
          const s = HEXA_CORNERS[i];
          const d1 = (s[0] * (1 + s[1] * x2) * (1 + s[2] * x3)) / 8;
          const d2 = ((1 + s[0] * x1) * s[1] * (1 + s[2] * x3)) / 8;
          const d3 = ((1 + s[0] * x1) * (1 + s[1] * x2) * s[2]) / 8;
          qx[i] = d1 * Ji[0] + d2 * Ji[3] + d3 * Ji[6];
          qy[i] = d1 * Ji[1] + d2 * Ji[4] + d3 * Ji[7];
          qz[i] = d1 * Ji[2] + d2 * Ji[5] + d3 * Ji[8];
        }
        for (let i = 0; i < 8; i++) {
          // D·B_i (6×3)
          const ax = qx[i],
            ay = qy[i],
            az = qz[i];
          const m00 = u * ax,
            m01 = v * ay,
            m02 = v * az;
          const m10 = v * ax,
            m11 = u * ay,
            m12 = v * az;
          const m20 = v * ax,
            m21 = v * ay,
            m22 = u * az;
          const m30 = w * ay,
            m31 = w * ax;
          const m41 = w * az,
            m42 = w * ay;
          const m50 = w * az,
            m52 = w * ax;
          for (let j = i; j < 8; j++) {
            // k = B_jᵀ·D·B_i; K[3i + m][3j + l] += k[l][m]·det J
            const bx = qx[j],
              by = qy[j],
              bz = qz[j];
            const k00 = bx * m00 + by * m30 + bz * m50;
            const k01 = bx * m01 + by * m31;
            const k02 = bx * m02 + bz * m52;
            const k10 = by * m10 + bx * m30;
            const k11 = by * m11 + bx * m31 + bz * m41;
            const k12 = by * m12 + bz * m42;
            const k20 = bz * m20 + bx * m50;
            const k21 = bz * m21 + by * m41;
            const k22 = bz * m22 + by * m42 + bx * m52;
            const base = 24 * 3 * i + 3 * j;
            K[base] += k00 * detJ;
            K[base + 1] += k10 * detJ;
            K[base + 2] += k20 * detJ;
            K[base + 24] += k01 * detJ;
            K[base + 25] += k11 * detJ;
            K[base + 26] += k21 * detJ;
            K[base + 48] += k02 * detJ;
            K[base + 49] += k12 * detJ;
            K[base + 50] += k22 * detJ;
          }
        }
      }
    }
  }
  // lower triangle from the upper one
  for (let i = 0; i < 24; i++) for (let j = i + 1; j < 24; j++) K[24 * j + i] = K[24 * i + j];
  return K;
}
