import type { BaseMeshTopology } from '@sofa-ts/core';
import { strainDisplacement, tetrahedronStiffness } from '../corotational-tetrahedra.js';
import { hexahedronJacobianDeterminant, hexahedronStiffness } from '../hexahedron-kernels.js';

/**
 * The element types of SOFA's element force fields and FEMMass (the second part of their template,
 * `Vec3,Tetrahedron`): how many nodes, where the topology keeps them, and the element stiffness
 * K_e = ∫ Bᵀ·D·B dV of linear elasticity at rest positions X (3n numbers, world frame).
 */
export interface VolumeElement {
  readonly name: VolumeElementName;
  /** The plural, for messages ('tetrahedra'). */
  readonly plural: string;
  /** Nodes per element. */
  readonly nodes: number;
  /** The rotation a corotational force field uses by default (SOFA's RotationMethods). */
  readonly defaultRotation: 'triangle' | 'hexahedron';
  /** The elements of the topology, (count × nodes) indices. */
  elementsOf(topology: BaseMeshTopology): Uint32Array;
  /**
   * out (3n × 3n, row-major, node-major rows) = K_e for Hooke's matrix (D00, D01, D33) = (λ+2μ, λ, μ),
   * positions X relative to the first node. Returns the signed volume (≤ 0: degenerate or inverted).
   */
  stiffness(out: Float64Array, X: Float64Array, d00: number, d01: number, d33: number): number;
}

export type VolumeElementName = 'Tetrahedron' | 'Hexahedron';

/** Linear tetrahedron: K_e = V·Bᵀ·D·B (one quadrature point, exact). */
const tetrahedron: VolumeElement = {
  name: 'Tetrahedron',
  plural: 'tetrahedra',
  nodes: 4,
  defaultRotation: 'triangle',
  elementsOf: (t) => t.getTetrahedra(),
  stiffness(out, X, d00, d01, d33) {
    const ux = X[3]! - X[0]!, uy = X[4]! - X[1]!, uz = X[5]! - X[2]!;
    const vx = X[6]! - X[0]!, vy = X[7]! - X[1]!, vz = X[8]! - X[2]!;
    const wx = X[9]! - X[0]!, wy = X[10]! - X[1]!, wz = X[11]! - X[2]!;
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
  defaultRotation: 'hexahedron',
  elementsOf: (t) => t.getHexahedra(),
  stiffness(out, X, d00, d01, d33) {
    // the element's volume sign: det J at the centre
    const det = hexahedronJacobianDeterminant(X, 0, 0, 0);
    if (det === 0) return 0;
    hexahedronStiffness(out, d00, d01, d33, X);
    // hexahedronStiffness weighs by det J; SOFA's element force fields by |det J|
    if (det < 0) for (let k = 0; k < out.length; k++) out[k] = -out[k]!;
    return 8 * det;
  },
};

const gradScratch = new Float64Array(12);

const byName: Readonly<Record<VolumeElementName, VolumeElement>> = { Tetrahedron: tetrahedron, Hexahedron: hexahedron };

/** The element types these components know, as their templates name them. */
export const volumeElementNames: readonly VolumeElementName[] = ['Tetrahedron', 'Hexahedron'];

/** The element type named by a template `Vec3d,Tetrahedron` (its second part), if known. */
export function volumeElementOfTemplate(template: string): VolumeElement | undefined {
  const part = template.split(',')[1]?.trim();
  return part ? byName[part as VolumeElementName] : undefined;
}
