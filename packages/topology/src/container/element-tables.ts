/**
 * SOFA's local numbering of the sub-elements of a tetrahedron and a hexahedron
 * (sofa::core::topology). Every derived edge, face and adjacency list follows these tables, so that
 * element orders and orientations are SOFA's.
 *
 * Hexahedron vertices: 0-1-2-3 the bottom face (z = 0) counter-clockwise seen from above, 4-7 the top
 * face above them: in a grid cell (x, y, z) they are (0,0,0) (1,0,0) (1,1,0) (0,1,0) (0,0,1) (1,0,1)
 * (1,1,1) (0,1,1).
 */

/** The 6 edges of a tetrahedron (6 × 2 local vertex indices). */
export const EDGES_IN_TETRAHEDRON: readonly (readonly [number, number])[] = [
  [0, 1],
  [0, 2],
  [0, 3],
  [1, 2],
  [1, 3],
  [2, 3],
];

/** The 4 faces of a tetrahedron; face j is opposite vertex j (4 × 3 local indices). */
export const TRIANGLES_IN_TETRAHEDRON: readonly (readonly [number, number, number])[] = [
  [1, 2, 3],
  [0, 3, 2],
  [1, 3, 0],
  [0, 2, 1],
];

/** The 12 edges of a hexahedron (12 × 2 local vertex indices). */
export const EDGES_IN_HEXAHEDRON: readonly (readonly [number, number])[] = [
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
];

/** The 6 faces of a hexahedron, each oriented with its normal pointing outwards (6 × 4 local indices). */
export const QUADS_IN_HEXAHEDRON: readonly (readonly [number, number, number, number])[] = [
  [0, 3, 2, 1],
  [4, 5, 6, 7],
  [0, 1, 5, 4],
  [1, 2, 6, 5],
  [2, 3, 7, 6],
  [3, 0, 4, 7],
];
