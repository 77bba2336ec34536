import { Bool, Str, sofaComponent } from '@sofa-ts/core';
import { CorotationalTetrahedra, type TetrahedronMethod } from './corotational-tetrahedra.js';

/** SOFA's method names → the rotation of CorotationalTetrahedra. */
const METHODS: Record<string, TetrahedronMethod> = {
  qr: 'large',
  large: 'large',
  polar: 'polarF',
  polar2: 'polar',
  none: 'small',
  linear: 'small',
  small: 'small',
};

/**
 * SOFA's FastTetrahedralCorotationalForceField: corotational linear tetrahedra stored by edge in
 * SOFA; mathematically f = Qᵀ·K·(X − Q·x) per element, K the linear-elastic stiffness of the rest
 * shape (Lamé λ, μ from youngModulus, poissonRatio) and Q the rotation taking the current element to
 * its rest orientation, df = −Qᵀ·K·Q·dx. The rotation (`method`):
 *   "qr" (or "large"): the frame of the edges (x ∥ p1 − p0, z ∥ x × (p2 − p0)), composed with the
 *     rest one — the same element as TetrahedronFEMForceField's "large";
 *   "polar": the orthogonal factor of the deformation gradient F;
 *   "polar2": the orthogonal factor of the edge matrix, composed with the rest one (TetrahedronFEM's "polar");
 *   "none" ("linear", "small"): no rotation.
 * It shares CorotationalTetrahedra with TetrahedronFEMForceField (one kernel for this mathematics).
 */
@sofaComponent({
  name: 'FastTetrahedralCorotationalForceField',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.FEM.Elastic',
  description: 'Corotational linear tetrahedra (rotation by QR, polar decomposition of F or of the edges, or none).',
  templates: ['Vec3d'],
})
export class FastTetrahedralCorotationalForceField extends CorotationalTetrahedra {
  readonly method = this.initData({
    name: 'method',
    type: Str,
    default: 'qr',
    help: 'rotation: "qr" (or "large"), "polar" (of F), "polar2" (of the edges), "none" ("linear", "small")',
  });
  readonly drawing = this.initData({ name: 'drawing', type: Bool, default: true, help: 'draw the force field', group: 'Visualization' });
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

  override init(): void {
    if (!(this.method.value in METHODS)) throw this.error(`unknown method '${this.method.value}'`, 'use "qr", "polar", "polar2" or "none"');
    if (!this.poissonRatio.isSet) this.warn("poissonRatio not set: SOFA's default changed in v23.06 from 0.3 to 0.45 (0.45 is used)");
    if (!this.youngModulus.isSet) this.warn("youngModulus not set: SOFA's default changed in v23.06 from 1000 to 5000 (5000 is used)");
    super.init();
    if (this.elementCount === 0) throw this.error(`the topology ${this.topo!.describe()} has no tetrahedra`);
  }

  protected methodName(): TetrahedronMethod {
    return METHODS[this.method.value];
  }
}
