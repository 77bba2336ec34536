import { Bool, Real, sofaComponent } from '@sofa-ts/core';
import { ForceFieldMass } from '../force-field-mass.js';
import { HexahedronFEMForceField } from './HexahedronFEMForceField.js';

/** Per-element mass coefficients of sparse grids (fraction of the cell inside the object). */
interface MassCoefficients {
  getMassCoef(element: number): number;
}

function hasMassCoefficients(t: unknown): t is MassCoefficients {
  return typeof (t as { getMassCoef?: unknown }).getMassCoef === 'function';
}

/**
 * SOFA's HexahedronFEMForceFieldAndMass: HexahedronFEMForceField (same Data, same elastic force and
 * stiffness) and the mass of its hexahedra in one component; the mass part is the companion
 * ForceFieldMass this component adds to its node at init. As SOFA computes them, per hexahedron
 * with edge lengths a = |X1 − X0|, b = |X3 − X0|, c = |X4 − X0| of its rest shape, V = a·b·c
 * (times the sparse grid's mass coefficient):
 *   gravity: m_i += ρ·V/8 for each of its 8 points, f_i = m_i·g;
 *   mass matrix: every 3×3 block (i, j) of the element matrix is (8/27)·ρ·V·I — SOFA integrates
 *     the product of shape functions with the signs of node i for both nodes (its integrateMass),
 *     so the blocks are equal; this component reproduces that matrix rather than the consistent
 *     one (whose blocks are ρV/27·(1 + ξᵢξⱼ/3)(1 + ηᵢηⱼ/3)(1 + ζᵢζⱼ/3)·I);
 *   lumpedMass: the row sums of that matrix on the diagonal instead (64/27·ρ·V per element node).
 */
@sofaComponent({
  name: 'HexahedronFEMForceFieldAndMass',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.FEM.Elastic',
  description: 'HexahedronFEMForceField and the mass of its hexahedra in one component.',
  templates: ['Vec3d'],
})
export class HexahedronFEMForceFieldAndMass extends HexahedronFEMForceField {
  readonly density = this.initData({ name: 'density', type: Real, default: 1, unit: 'kg/m³', help: 'density (volumetric mass)' });
  readonly lumpedMass = this.initData({
    name: 'lumpedMass',
    type: Bool,
    default: false,
    help: 'use the lumped (diagonal) mass instead of the element mass matrices',
  });

  /** The mass part, added to the node at init. */
  massPart: ForceFieldMass | undefined;

  override init(): void {
    super.init();
    const state = this.mstate!;
    if (!this.massPart) {
      this.massPart = new ForceFieldMass(this, state, 8);
      this.context.addObject(this.massPart);
    }
    this.computeMasses();
  }

  /** Gravity masses, element matrices and the lumped diagonal from the rest shapes. */
  protected computeMasses(): void {
    const part = this.massPart!,
      topo = this.topo!,
      size = this.mstate!.size;
    const elems = this.elems,
      rest = this.rest,
      n = elems.length / 8;
    const rho = this.density.value;
    const coef = hasMassCoefficients(topo) ? topo : undefined;
    const gravity = new Float64Array(size);
    const matrices = new Float64Array(576 * n);
    const lumped = this.lumpedMass.value ? new Float64Array(3 * size) : undefined;
    const len = (o: number, k: number): number =>
      Math.hypot(rest[o + 3 * k] - rest[o], rest[o + 3 * k + 1] - rest[o + 1], rest[o + 3 * k + 2] - rest[o + 2]);
    for (let e = 0; e < n; e++) {
      const o = 24 * e;
      const vol = len(o, 1) * len(o, 3) * len(o, 4);
      const c = coef ? coef.getMassCoef(e) : 1;
      for (let k = 0; k < 8; k++) gravity[elems[8 * e + k]] += (vol * c * rho) / 8;
      // (8/27)·ρ·V·I in every block
      const m = ((vol * 8) / 27) * rho * c;
      for (let i = 0; i < 8; i++)
        for (let j = 0; j < 8; j++) for (let d = 0; d < 3; d++) matrices[576 * e + 24 * (3 * i + d) + 3 * j + d] = m;
      if (lumped) for (let k = 0; k < 8; k++) for (let d = 0; d < 3; d++) lumped[3 * elems[8 * e + k] + d] += 8 * m;
    }
    part.elements = elems;
    part.elementMatrices = matrices;
    part.gravityMasses = gravity;
    part.lumped = lumped;
  }
}
