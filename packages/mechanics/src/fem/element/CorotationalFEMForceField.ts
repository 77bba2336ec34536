import { Enum, sofaComponent } from '@sofa-ts/core';
import { frameOfEdges } from '../tetrahedron/tetrahedron-element.js';
import { hexahedronFrame } from '../hexahedron-kernels.js';
import { polarDecomposition, polarDecompositionStable } from '../polar-decomposition.js';
import { BaseElementLinearFEMForceField, elementFemTemplates } from './BaseElementLinearFEMForceField.js';

/** SOFA's rotation methods of the corotational element force field (RotationMethods items). */
export const rotationMethods = ['stable_polar', 'polar', 'identity', 'triangle', 'hexahedron'] as const;
export type RotationMethod = (typeof rotationMethods)[number];

/**
 * SOFA's CorotationalFEMForceField (v26 element FEM): linear elasticity in a frame that follows
 * each element, on tetrahedra, hexahedra, pyramids, prisms, and triangles, quads or edges in 3D
 * (template `Vec3,Tetrahedron`, `Vec3,Hexahedron`, …, `Vec3,Edge`; the default method is SOFA's:
 * triangle on tetrahedra and triangles, hexahedron on hexahedra, stable_polar, its first item, else).
 * See BaseElementLinearFEMForceField for the force; R of an element, by `rotationMethod`:
 *   triangle (tetrahedra' and triangles' default):   R = Cᵀ·C₀, C the frame of the first three nodes (rows
 *     x̂ ∥ x₁ − x₀, ẑ ∥ x̂ × (x₂ − x₀), ŷ = ẑ × x̂), C₀ the same at rest;
 *   hexahedron (hexahedra' default):  R = Cᵀ·C₀, C the frame of the mean edges (x̂ ∥ mean ξ-edge,
 *     ẑ ∥ x̂ × mean η-edge, ŷ = ẑ × x̂);
 *   polar / stable_polar: R = rotation of the polar decomposition of H = Σ_j (x_j − c)(X_j − c₀)ᵀ
 *     (stable_polar keeps det R = +1 for flat or inverted elements);
 *   identity: R = I (the small-strain force field).
 */
@sofaComponent({
  name: 'CorotationalFEMForceField',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.FEM.Elastic',
  description: 'Corotational linear elasticity (element rotations) on volumes, triangles, quads or edges.',
  templates: elementFemTemplates,
})
export class CorotationalFEMForceField extends BaseElementLinearFEMForceField {
  readonly rotationMethod = this.initData({
    name: 'rotationMethod',
    type: Enum(rotationMethods),
    default: 'triangle',
    help: "how element rotations are computed: 'triangle' (frame of the first 3 nodes, default on tetrahedra), 'hexahedron' (frame of the mean edges, default on hexahedra), 'polar', 'stable_polar' or 'identity'",
  });

  protected rotating = true;
  private method: RotationMethod = 'triangle';
  /** Rest frames C₀ (nElem × 9, rows = frame axes) of the triangle and hexahedron methods. */
  private restFrames = new Float64Array(0);
  private readonly C = new Float64Array(9);
  private readonly A = new Float64Array(9);

  protected override initRotations(): void {
    const el = this.element;
    // the element's default unless the scene chose
    if (!this.rotationMethod.isSet) this.rotationMethod.value = el.defaultRotation;
    const m = this.rotationMethod.value as RotationMethod;
    if ((m === 'triangle' && el.name !== 'Tetrahedron' && el.name !== 'Triangle') || (m === 'hexahedron' && el.name !== 'Hexahedron')) {
      throw this.error(
        `rotationMethod '${m}' is not defined for ${el.plural} (use ${el.defaultRotation}, polar, stable_polar or identity)`,
      );
    }
    this.method = m;
    this.rotating = m !== 'identity';
    const count = this.elementCount;
    this.restFrames = new Float64Array(m === 'triangle' || m === 'hexahedron' ? 9 * count : 0);
    if (this.restFrames.length === 0) return;
    for (let e = 0; e < count; e++) {
      this.gather(this.X, this.restPoints, e);
      this.frameOf(this.restFrames, 9 * e, this.X);
    }
  }

  /** C (rows = frame axes) of the triangle or hexahedron method for positions X. */
  private frameOf(out: Float64Array, o: number, X: Float64Array): void {
    if (this.method === 'triangle') {
      frameOfEdges(this.C, X, 0, 1, 2);
      for (let k = 0; k < 9; k++) out[o + k] = this.C[k];
    } else {
      hexahedronFrame(out, o, X, this.A);
    }
  }

  protected computeRotation(e: number, X: Float64Array, c: ArrayLike<number>): void {
    const rot = this.rot,
      r = 9 * e,
      C = this.C;
    if (this.method === 'triangle' || this.method === 'hexahedron') {
      // Q = Rᵀ = C₀ᵀ·C
      this.frameOf(C, 0, X);
      const C0 = this.restFrames;
      for (let i = 0; i < 3; i++)
        for (let j = 0; j < 3; j++) rot[r + 3 * i + j] = C0[r + i] * C[j] + C0[r + 3 + i] * C[3 + j] + C0[r + 6 + i] * C[6 + j];
      return;
    }
    // H = Σ_j (x_j − c)(X_j − c₀)ᵀ, R = its rotation, Q = Rᵀ
    const H = this.A,
      rest = this.restRel,
      o = 3 * this.nodes * e;
    H.fill(0);
    for (let j = 0; j < this.nodes; j++) {
      const px = X[3 * j] - c[0],
        py = X[3 * j + 1] - c[1],
        pz = X[3 * j + 2] - c[2];
      const qx = rest[o + 3 * j],
        qy = rest[o + 3 * j + 1],
        qz = rest[o + 3 * j + 2];
      H[0] += px * qx;
      H[1] += px * qy;
      H[2] += px * qz;
      H[3] += py * qx;
      H[4] += py * qy;
      H[5] += py * qz;
      H[6] += pz * qx;
      H[7] += pz * qy;
      H[8] += pz * qz;
    }
    if (this.method === 'stable_polar') polarDecompositionStable(C, H);
    else polarDecomposition(C, H);
    rot[r] = C[0];
    rot[r + 1] = C[3];
    rot[r + 2] = C[6];
    rot[r + 3] = C[1];
    rot[r + 4] = C[4];
    rot[r + 5] = C[7];
    rot[r + 6] = C[2];
    rot[r + 7] = C[5];
    rot[r + 8] = C[8];
  }
}
