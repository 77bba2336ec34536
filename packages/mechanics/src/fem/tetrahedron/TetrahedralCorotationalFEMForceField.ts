import { Bool, Enum, RealArray, Str, sofaComponent } from '@sofa-ts/core';
import { CorotationalTetrahedra, type TetrahedronMethod } from './corotational-tetrahedra.js';

/**
 * SOFA's TetrahedralCorotationalFEMForceField: the same linear corotational tetrahedra as
 * TetrahedronFEMForceField (see CorotationalTetrahedra: f = Rᵀ·J·K·Jᵀ·(R₀·X − R·x),
 * K_e = −Rᵀ·J·K·Jᵀ·R), with the methods 'small', 'large' and 'polar', on the tetrahedra of a
 * tetrahedral topology.
 */
@sofaComponent({
  name: 'TetrahedralCorotationalFEMForceField',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.FEM.Elastic',
  description: 'Corotational linear elastic tetrahedra (small, large or polar) on a tetrahedral topology.',
  templates: ['Vec3d'],
})
export class TetrahedralCorotationalFEMForceField extends CorotationalTetrahedra {
  readonly method = this.initData({
    name: 'method',
    type: Enum(['large', 'small', 'polar'] as const),
    default: 'large',
    help: "'small' displacements, 'large' (frame of the edges) or 'polar' corotational",
  });
  readonly drawing = this.initData({ name: 'drawing', type: Bool, default: true, help: 'draw the force field', group: 'Visualization' });
  readonly displayWholeVolume = this.initData({
    name: 'displayWholeVolume',
    type: Bool,
    default: false,
    help: 'display the whole volume',
    group: 'Visualization',
  });
  readonly drawColor1 = this.initData({
    name: 'drawColor1',
    type: Str,
    default: '0 0 1 1',
    help: 'color of the first faces',
    group: 'Visualization',
  });
  readonly drawColor2 = this.initData({
    name: 'drawColor2',
    type: Str,
    default: '0 0.5 1 1',
    help: 'color of the second faces',
    group: 'Visualization',
  });
  readonly drawColor3 = this.initData({
    name: 'drawColor3',
    type: Str,
    default: '0 1 1 1',
    help: 'color of the third faces',
    group: 'Visualization',
  });
  readonly drawColor4 = this.initData({
    name: 'drawColor4',
    type: Str,
    default: '0.5 1 1 1',
    help: 'color of the fourth faces',
    group: 'Visualization',
  });
  readonly computeVonMisesStress = this.initData({
    name: 'computeVonMisesStress',
    type: Bool,
    default: false,
    help: 'compute the von Mises stress (accepted; not computed by this version)',
  });
  readonly vonMisesPerElement = this.initData({
    name: 'vonMisesPerElement',
    type: RealArray(1),
    default: new Float64Array(0),
    help: 'von Mises stress per element (output)',
  });
  readonly vonMisesPerNode = this.initData({
    name: 'vonMisesPerNode',
    type: RealArray(1),
    default: new Float64Array(0),
    help: 'von Mises stress per node (output)',
  });

  protected methodName(): TetrahedronMethod {
    return this.method.value as TetrahedronMethod;
  }
}
