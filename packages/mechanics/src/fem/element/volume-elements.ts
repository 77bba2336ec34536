import type { BaseMeshTopology } from '@sofa-ts/core';
import { strainDisplacement, tetrahedronStiffness } from '../tetrahedron/tetrahedron-element.js';
import { HEXA_CORNERS, HEXA_GAUSS_POINT, hexahedronJacobianDeterminant, hexahedronStiffness } from '../hexahedron-kernels.js';
import { prismStiffness } from './prism-element.js';
import { EDGE_SHAPE, QUAD_SHAPE, TRIANGLE_SHAPE, embeddedElementStiffness, type EmbeddedElementShape } from './embedded-elements.js';

/**
 * The element types of SOFA's element force fields and FEMMass (the second part of their template,
 * `Vec3,Tetrahedron`): how many nodes, where the topology keeps them, and the element stiffness
 * K_e = ∫ Bᵀ·D·B dV of linear elasticity at rest positions X (3n numbers, world frame). Besides the
 * volumes, the force fields take edges, triangles and quads in 3D (embedded-elements.ts), whose
 * measure is a length or an area.
 */
export interface VolumeElement {
  readonly name: VolumeElementName;
  /** The plural, for messages ('tetrahedra'). */
  readonly plural: string;
  /** Nodes per element. */
  readonly nodes: number;
  /** Topological dimension: 3 for volumes, 2 for triangles and quads, 1 for edges. */
  readonly dimension: 1 | 2 | 3;
  /** The rotation a corotational force field uses by default (SOFA's RotationMethods). */
  readonly defaultRotation: 'triangle' | 'hexahedron' | 'stable_polar';
  /** The elements of the topology, (count × nodes) indices. */
  elementsOf(topology: BaseMeshTopology): Uint32Array;
  /**
   * out (3n × 3n, row-major, node-major rows) = K_e for Hooke's matrix (D00, D01, D33) = (λ+2μ, λ, μ),
   * positions X relative to the first node. Returns the signed volume (≤ 0: degenerate or inverted;
   * for edges, triangles and quads their length or area, 0 when degenerate).
   */
  stiffness(out: Float64Array, X: Float64Array, d00: number, d01: number, d33: number): number;
}

export type VolumeElementName = 'Tetrahedron' | 'Hexahedron' | 'Pyramid' | 'Prism' | 'Edge' | 'Triangle' | 'Quad';

/** Linear tetrahedron: K_e = V·Bᵀ·D·B (one quadrature point, exact). */
const tetrahedron: VolumeElement = {
  name: 'Tetrahedron',
  plural: 'tetrahedra',
  nodes: 4,
  dimension: 3,
  defaultRotation: 'triangle',
  elementsOf: (t) => t.getTetrahedra(),
  stiffness(out, X, d00, d01, d33) {
    const ux = X[3] - X[0],
      uy = X[4] - X[1],
      uz = X[5] - X[2];
    const vx = X[6] - X[0],
      vy = X[7] - X[1],
      vz = X[8] - X[2];
    const wx = X[9] - X[0],
      wy = X[10] - X[1],
      wz = X[11] - X[2];
    // 6V = (u × v)·w
    const vol = ((uy * vz - uz * vy) * wx + (uz * vx - ux * vz) * wy + (ux * vy - uy * vx) * wz) / 6;
    if (vol === 0) return 0;
    strainDisplacement(gradScratch, 0, X);
    const s = 1 / (36 * Math.abs(vol));
    tetrahedronStiffness(out, gradScratch, 0, d00 * s, d01 * s, d33 * s);
    return vol;
  },
};

/** Trilinear hexahedron: K_e by the 2×2×2 Gauss rule with |det J| (exact for parallelepipeds). */
const hexahedron: VolumeElement = {
  name: 'Hexahedron',
  plural: 'hexahedra',
  nodes: 8,
  dimension: 3,
  defaultRotation: 'hexahedron',
  elementsOf: (t) => t.getHexahedra(),
  stiffness(out, X, d00, d01, d33) {
    // the element's volume sign: det J at the centre
    const det = hexahedronJacobianDeterminant(X, 0, 0, 0);
    if (det === 0) return 0;
    hexahedronStiffness(out, d00, d01, d33, X);
    // hexahedronStiffness weighs by det J; SOFA's element force fields by |det J|
    if (det < 0) for (let k = 0; k < out.length; k++) out[k] = -out[k];
    return 8 * det;
  },
};

/**
 * Pyramid (base 0-1-2-3, apex 4), SOFA's FiniteElement<Pyramid>: the reference cube [−1, 1]³ with
 * its top face collapsed onto the apex, N_i = (1 ± ξ)(1 ± η)(1 − ζ)/8 on the base and
 * N_4 = (1 + ζ)/2, integrated by the cube's 2×2×2 Gauss rule (weights 1). This is the trilinear
 * hexahedron whose nodes 4..7 all sit at the apex (N_4 is the sum of their shape functions), so
 * K_pyr = Pᵀ·K_hex·P with P copying the apex onto nodes 4..7; the volume is Σ_q det J(q).
 */
const pyramid: VolumeElement = {
  name: 'Pyramid',
  plural: 'pyramids',
  nodes: 5,
  dimension: 3,
  defaultRotation: 'stable_polar',
  elementsOf: (t) => t.getPyramids(),
  stiffness(out, X, d00, d01, d33) {
    collapsedHexahedron(hexNodes, X);
    const vol = collapsedHexahedronVolume(hexNodes);
    if (vol === 0) return 0;
    hexahedronStiffness(hexK, d00, d01, d33, hexNodes);
    // hexahedronStiffness weighs by det J; SOFA's element force fields by |det J|
    foldCollapsedHexahedron(out, hexK, 3, vol < 0 ? -1 : 1);
    return vol;
  },
};

const gradScratch = new Float64Array(12);
const hexNodes = new Float64Array(24);
const hexK = new Float64Array(24 * 24);

/** out (24) = the 8 hexahedron nodes of a pyramid X (15): base 0..3, the apex copied on 4..7. */
export function collapsedHexahedron(out: Float64Array, X: ArrayLike<number>): Float64Array {
  for (let k = 0; k < 12; k++) out[k] = X[k];
  for (let j = 4; j < 8; j++) for (let c = 0; c < 3; c++) out[3 * j + c] = X[12 + c];
  return out;
}

/** Σ over the 2×2×2 Gauss points of det J (signed volume; exact: det J is of degree ≤ 2 per axis). */
export function collapsedHexahedronVolume(hex: Float64Array): number {
  const g = HEXA_GAUSS_POINT;
  let v = 0;
  for (const c of HEXA_CORNERS) v += hexahedronJacobianDeterminant(hex, c[0] * g, c[1] * g, c[2] * g);
  return v;
}

/**
 * out (5b × 5b) = s·Pᵀ·A·P for a hexahedron matrix A (8b × 8b, node-major, b values per node):
 * rows and columns of nodes 4..7 summed into the apex (node 4).
 */
export function foldCollapsedHexahedron(out: Float64Array, A: Float64Array, b: number, s: number): Float64Array {
  const n = 5 * b,
    m = 8 * b;
  out.fill(0, 0, n * n);
  for (let i = 0; i < m; i++) {
    const fi = i < 4 * b ? i : 4 * b + (i % b);
    for (let j = 0; j < m; j++) {
      const fj = j < 4 * b ? j : 4 * b + (j % b);
      out[fi * n + fj] += s * A[i * m + j];
    }
  }
  return out;
}

/** Triangular prism (a, b, c below d, e, f), SOFA's FiniteElement<Prism> and its 2-point rule (prism-element.ts). */
const prism: VolumeElement = {
  name: 'Prism',
  plural: 'prisms',
  nodes: 6,
  dimension: 3,
  defaultRotation: 'stable_polar',
  elementsOf: (t) => t.getPrisms(),
  stiffness: (out, X, d00, d01, d33) => prismStiffness(out, X, d00, d01, d33),
};

/** An edge, triangle or quad of 3D space (embedded-elements.ts). */
function embedded(
  name: 'Edge' | 'Triangle' | 'Quad',
  plural: string,
  shape: EmbeddedElementShape,
  defaultRotation: VolumeElement['defaultRotation'],
  elementsOf: (t: BaseMeshTopology) => Uint32Array,
): VolumeElement {
  return {
    name,
    plural,
    nodes: shape.nodes,
    dimension: shape.dimension,
    defaultRotation,
    elementsOf,
    stiffness: (out, X, d00, d01, d33) => embeddedElementStiffness(out, X, shape, d00, d01, d33),
  };
}

const byName: Readonly<Record<VolumeElementName, VolumeElement>> = {
  Tetrahedron: tetrahedron,
  Hexahedron: hexahedron,
  Pyramid: pyramid,
  Prism: prism,
  // SOFA's defaults: the triangle method on triangles, its first item (stable_polar) otherwise
  Triangle: embedded('Triangle', 'triangles', TRIANGLE_SHAPE, 'triangle', (t) => t.getTriangles()),
  Quad: embedded('Quad', 'quads', QUAD_SHAPE, 'stable_polar', (t) => t.getQuads()),
  Edge: embedded('Edge', 'edges', EDGE_SHAPE, 'stable_polar', (t) => t.getEdges()),
};

/** The element types these components know, as their templates name them. */
export const volumeElementNames: readonly VolumeElementName[] = [
  'Tetrahedron',
  'Hexahedron',
  'Pyramid',
  'Prism',
  'Triangle',
  'Quad',
  'Edge',
];

/** The element type named by a template `Vec3d,Tetrahedron` (its second part), if known. */
export function volumeElementOfTemplate(template: string): VolumeElement | undefined {
  const part = template.split(',')[1]?.trim();
  return part ? byName[part as VolumeElementName] : undefined;
}
