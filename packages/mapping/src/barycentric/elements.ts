import { mat3Invert } from '@sofa-ts/linalg';
import type { BarycentricMapBuilder } from './barycentric-map.js';

/**
 * Element geometry shared by the barycentric mappers, as SOFA's mappers define it.
 * Local coordinates f = (f0, f1, f2) of a point p in an element with first node p0:
 *   f = B·(p − p0),  B = E⁻¹,  E's columns = the element's frame vectors:
 *     tetrahedron (p1−p0, p2−p0, p3−p0), hexahedron (p1−p0, p3−p0, p4−p0),
 *     triangle (p1−p0, p2−p0, n), quad (p1−p0, p3−p0, n), n = the two edges' cross product
 * (exact for tetrahedra and triangles, exact for parallelepipeds and parallelograms, SOFA's affine
 * approximation otherwise). f2 of a surface element measures the distance off its plane.
 * Weights of the nodes:
 *   edge (1−f0, f0), triangle (1−f0−f1, f0, f1), tetrahedron (1−f0−f1−f2, f0, f1, f2),
 *   quad and hexahedron: the bilinear / trilinear products, e.g. node 6 of a hexahedron f0·f1·f2.
 */
export type ElementKind = 'edge' | 'triangle' | 'quad' | 'tetrahedron' | 'hexahedron';

export const nodesPerElement: Record<ElementKind, number> = { edge: 2, triangle: 3, quad: 4, tetrahedron: 4, hexahedron: 8 };

/** Which node gives each frame vector (the third of surfaces is the normal). */
const frameNodes: Record<ElementKind, readonly number[]> = {
  edge: [1],
  triangle: [1, 2],
  quad: [1, 3],
  tetrahedron: [1, 2, 3],
  hexahedron: [1, 3, 4],
};

/**
 * out (9, row-major) = B = E⁻¹ for element e (nodes at elems[e·k .. e·k + k−1]). A degenerate
 * element gets B = 0 (its points then look like they sit at its first node). Edges have no base.
 */
export function elementBase(out: Float64Array, kind: ElementKind, x: Float64Array, elems: Uint32Array, e: number, E: Float64Array): void {
  const k = nodesPerElement[kind];
  const o = 3 * elems[e * k];
  const fn = frameNodes[kind];
  out.fill(0);
  if (kind === 'edge') return;
  E.fill(0);
  for (let j = 0; j < fn.length; j++) {
    const q = 3 * elems[e * k + fn[j]];
    for (let r = 0; r < 3; r++) E[3 * r + j] = x[q + r] - x[o + r];
  }
  if (fn.length === 2) {
    // n = u × v
    E[2] = E[3] * E[7] - E[6] * E[4];
    E[5] = E[6] * E[1] - E[0] * E[7];
    E[8] = E[0] * E[4] - E[3] * E[1];
  }
  mat3Invert(out, E);
}

/** out (3) = mean of the element's nodes. */
export function elementCenter(out: Float64Array, kind: ElementKind, x: Float64Array, elems: Uint32Array, e: number): void {
  const k = nodesPerElement[kind];
  let cx = 0,
    cy = 0,
    cz = 0;
  for (let j = 0; j < k; j++) {
    const q = 3 * elems[e * k + j];
    cx += x[q];
    cy += x[q + 1];
    cz += x[q + 2];
  }
  out[0] = cx / k;
  out[1] = cy / k;
  out[2] = cz / k;
}

/**
 * The bases (9 per element: elementBase) and centres (3 per element) of elements 0 … n−1 of a
 * kind, into B and C: what locating points in them (elementScore) reads.
 */
export function elementFrames(B: Float64Array, C: Float64Array, kind: ElementKind, x: Float64Array, elems: Uint32Array, n: number): void {
  const E = new Float64Array(9);
  const tmp = new Float64Array(9);
  const c3 = new Float64Array(3);
  for (let e = 0; e < n; e++) {
    elementBase(tmp, kind, x, elems, e, E);
    B.set(tmp, 9 * e);
    elementCenter(c3, kind, x, elems, e);
    C.set(c3, 3 * e);
  }
}

/**
 * How well element e (not an edge) holds point p, as SOFA's mappers score it: its local
 * coordinates into f, and outsideMeasure (≤ 0 inside) or, outside, the squared distance to the
 * element's centre. Lower is better.
 */
export function elementScore(
  f: Float64Array,
  kind: ElementKind,
  B: Float64Array,
  C: Float64Array,
  x: Float64Array,
  elems: Uint32Array,
  e: number,
  px: number,
  py: number,
  pz: number,
): number {
  localCoords(f, B, 9 * e, x, elems[e * nodesPerElement[kind]], px, py, pz);
  const d = outsideMeasure(kind, f[0], f[1], f[2]);
  return d > 0 ? (px - C[3 * e]) ** 2 + (py - C[3 * e + 1]) ** 2 + (pz - C[3 * e + 2]) ** 2 : d;
}

/** f = B·(p − x[node 0 of e]) into out (3). */
export function localCoords(
  out: Float64Array,
  B: Float64Array,
  bOff: number,
  x: Float64Array,
  node0: number,
  px: number,
  py: number,
  pz: number,
): void {
  const o = 3 * node0;
  const dx = px - x[o],
    dy = py - x[o + 1],
    dz = pz - x[o + 2];
  out[0] = B[bOff] * dx + B[bOff + 1] * dy + B[bOff + 2] * dz;
  out[1] = B[bOff + 3] * dx + B[bOff + 4] * dy + B[bOff + 5] * dz;
  out[2] = B[bOff + 6] * dx + B[bOff + 7] * dy + B[bOff + 8] * dz;
}

/**
 * SOFA's "distance" of local coordinates f to the element: ≤ 0 inside (minus the depth in
 * coordinate units), > 0 outside. Surfaces accept points within 0.01 (in units of the normal
 * coordinate) off their plane.
 */
export function outsideMeasure(kind: ElementKind, f0: number, f1: number, f2: number): number {
  switch (kind) {
    case 'tetrahedron':
      return Math.max(Math.max(-f0, -f1), Math.max(-f2, f0 + f1 + f2 - 1));
    case 'hexahedron':
      return Math.max(Math.max(-f0, -f1), Math.max(Math.max(-f2, f0 - 1), Math.max(f1 - 1, f2 - 1)));
    case 'triangle':
      return Math.max(Math.max(-f0, -f1), Math.max(Math.abs(f2) - 0.01, f0 + f1 - 1));
    case 'quad':
      return Math.max(Math.max(-f0, -f1), Math.max(Math.max(f1 - 1, f0 - 1), Math.max(f2 - 0.01, -f2 - 0.01)));
    case 'edge':
      return Math.max(-f0, f0 - 1);
  }
}

/**
 * Adds the weighted nodes of element e for coordinates f, in SOFA's summation order:
 * `meshOrder` (BarycentricMapperMeshTopology and the grid mappers) visits quad and hexahedron
 * nodes as 0 1 3 2 (4 5 7 6); the topology-container mappers visit nodes in order.
 */
export function addElementTerms(
  b: BarycentricMapBuilder,
  kind: ElementKind,
  elems: Uint32Array,
  e: number,
  f0: number,
  f1: number,
  f2: number,
  meshOrder: boolean,
): void {
  const k = nodesPerElement[kind];
  const n = (j: number): number => elems[e * k + j];
  switch (kind) {
    case 'edge':
      b.term(n(0), 1 - f0);
      b.term(n(1), f0);
      break;
    case 'triangle':
      b.term(n(0), 1 - f0 - f1);
      b.term(n(1), f0);
      b.term(n(2), f1);
      break;
    case 'tetrahedron':
      b.term(n(0), 1 - f0 - f1 - f2);
      b.term(n(1), f0);
      b.term(n(2), f1);
      b.term(n(3), f2);
      break;
    case 'quad': {
      const w = [(1 - f0) * (1 - f1), f0 * (1 - f1), f0 * f1, (1 - f0) * f1];
      for (const j of meshOrder ? [0, 1, 3, 2] : [0, 1, 2, 3]) b.term(n(j), w[j]);
      break;
    }
    case 'hexahedron': {
      const w = [
        (1 - f0) * (1 - f1) * (1 - f2),
        f0 * (1 - f1) * (1 - f2),
        f0 * f1 * (1 - f2),
        (1 - f0) * f1 * (1 - f2),
        (1 - f0) * (1 - f1) * f2,
        f0 * (1 - f1) * f2,
        f0 * f1 * f2,
        (1 - f0) * f1 * f2,
      ];
      for (const j of meshOrder ? [0, 1, 3, 2, 4, 5, 7, 6] : [0, 1, 2, 3, 4, 5, 6, 7]) b.term(n(j), w[j]);
      break;
    }
  }
  b.endPoint();
}
