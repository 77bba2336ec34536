/**
 * Measures of mesh elements as SOFA's geometry module computes them, on points stored as
 * (nPoints × 3) Float64Arrays (2D and 1D states are padded with zeros):
 *   edge length |p1 − p0|;  triangle area ½·|(p1 − p0) × (p2 − p0)|;
 *   quad area = area(0,1,2) + area(0,2,3) (consecutive vertices);
 *   tetrahedron volume |((p1 − p0) × (p2 − p0))·(p3 − p0)| / 6;
 *   hexahedron volume = sum of the absolute volumes of six inner tetrahedra
 *   (0,5,1,6) (0,1,3,6) (1,3,6,2) (6,3,0,7) (6,7,0,5) (7,5,4,0), in SOFA's vertex order
 *   (0-1-2-3 one face, 4-7 the opposite face).
 */

/** Element kinds a mesh mass is built from, highest dimension first (SOFA's choice order). */
export type MassElementType = 'hexahedron' | 'tetrahedron' | 'quad' | 'triangle' | 'edge';

export function edgeLength(p: Float64Array, a: number, b: number): number {
  const dx = p[3 * b] - p[3 * a];
  const dy = p[3 * b + 1] - p[3 * a + 1];
  const dz = p[3 * b + 2] - p[3 * a + 2];
  return Math.sqrt(dx * dx + dy * dy + dz * dz);
}

export function triangleArea(p: Float64Array, a: number, b: number, c: number): number {
  const ux = p[3 * b] - p[3 * a],
    uy = p[3 * b + 1] - p[3 * a + 1],
    uz = p[3 * b + 2] - p[3 * a + 2];
  const vx = p[3 * c] - p[3 * a],
    vy = p[3 * c + 1] - p[3 * a + 1],
    vz = p[3 * c + 2] - p[3 * a + 2];
  const cx = uy * vz - uz * vy;
  const cy = uz * vx - ux * vz;
  const cz = ux * vy - uy * vx;
  return 0.5 * Math.sqrt(cx * cx + cy * cy + cz * cz);
}

export function quadArea(p: Float64Array, a: number, b: number, c: number, d: number): number {
  return triangleArea(p, a, b, c) + triangleArea(p, a, c, d);
}

export function tetrahedronVolume(p: Float64Array, a: number, b: number, c: number, d: number): number {
  const ux = p[3 * b] - p[3 * a],
    uy = p[3 * b + 1] - p[3 * a + 1],
    uz = p[3 * b + 2] - p[3 * a + 2];
  const vx = p[3 * c] - p[3 * a],
    vy = p[3 * c + 1] - p[3 * a + 1],
    vz = p[3 * c + 2] - p[3 * a + 2];
  const wx = p[3 * d] - p[3 * a],
    wy = p[3 * d + 1] - p[3 * a + 1],
    wz = p[3 * d + 2] - p[3 * a + 2];
  // (u × v)·w / 6
  return Math.abs((uy * vz - uz * vy) * wx + (uz * vx - ux * vz) * wy + (ux * vy - uy * vx) * wz) / 6;
}

/** Inner tetrahedra of a hexahedron, as local vertex indices (SOFA's decomposition). */
const HEXA_TETRAHEDRA: readonly (readonly [number, number, number, number])[] = [
  [0, 5, 1, 6],
  [0, 1, 3, 6],
  [1, 3, 6, 2],
  [6, 3, 0, 7],
  [6, 7, 0, 5],
  [7, 5, 4, 0],
];

/** Volume of hexahedron h (8 indices starting at hexa[8·h]). */
export function hexahedronVolume(p: Float64Array, hexa: Uint32Array, h: number): number {
  let v = 0;
  const o = 8 * h;
  for (const t of HEXA_TETRAHEDRA) v += tetrahedronVolume(p, hexa[o + t[0]], hexa[o + t[1]], hexa[o + t[2]], hexa[o + t[3]]);
  return v;
}

/** Local edges of each element kind, in SOFA's order (quads and hexahedra: no diagonals). */
export const LOCAL_EDGES: Readonly<Record<MassElementType, readonly (readonly [number, number])[]>> = {
  edge: [[0, 1]],
  triangle: [
    [0, 1],
    [1, 2],
    [2, 0],
  ],
  quad: [
    [0, 1],
    [1, 2],
    [2, 3],
    [3, 0],
  ],
  tetrahedron: [
    [0, 1],
    [0, 2],
    [0, 3],
    [1, 2],
    [1, 3],
    [2, 3],
  ],
  hexahedron: [
    [0, 1],
    [0, 3],
    [0, 4],
    [1, 2],
    [1, 5],
    [2, 3],
    [2, 6],
    [3, 7],
    [4, 5],
    [4, 7],
    [5, 6],
    [6, 7],
  ],
};

/** Vertices per element of each kind. */
export const ELEMENT_SIZE: Readonly<Record<MassElementType, number>> = { edge: 2, triangle: 3, quad: 4, tetrahedron: 4, hexahedron: 8 };

/** Measure (length, area or volume) of element e of the given kind. */
export function elementMeasure(kind: MassElementType, p: Float64Array, elems: Uint32Array, e: number): number {
  switch (kind) {
    case 'edge':
      return edgeLength(p, elems[2 * e], elems[2 * e + 1]);
    case 'triangle':
      return triangleArea(p, elems[3 * e], elems[3 * e + 1], elems[3 * e + 2]);
    case 'quad':
      return quadArea(p, elems[4 * e], elems[4 * e + 1], elems[4 * e + 2], elems[4 * e + 3]);
    case 'tetrahedron':
      return tetrahedronVolume(p, elems[4 * e], elems[4 * e + 1], elems[4 * e + 2], elems[4 * e + 3]);
    case 'hexahedron':
      return hexahedronVolume(p, elems, e);
  }
}

/** Positions of a state as (n × 3), padding 1D and 2D coordinates with zeros (x itself when already so: read only). */
export function positionsAs3D(x: Float64Array, n: number, coordSize: number, dims: number): Float64Array {
  if (coordSize === 3 && dims === 3 && x.length === 3 * n) return x;
  const out = new Float64Array(3 * n);
  const m = Math.min(dims, 3);
  for (let i = 0; i < n; i++) for (let k = 0; k < m; k++) out[3 * i + k] = x[i * coordSize + k];
  return out;
}
