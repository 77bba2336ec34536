import { RealArray, sofaComponent } from '@sofa-ts/core';
import { vecTemplates } from '../state-link.js';
import { fillRepeated } from './DiagonalCompliance.js';
import { DiagonalForceField, complianceOfStiffness } from './diagonal-force-field.js';

/**
 * The Compliant plugin's DiagonalStiffness: one stiffness per dof, f_i = −k_i·x_i, K = −diag(k_i),
 * B = −diag(d_i) (`damping`: one value per dof or fewer, the last one repeats). A stiffness by
 * default; as a compliance C = diag(1/k_i).
 */
@sofaComponent({
  name: 'DiagonalStiffness',
  category: 'ForceField',
  module: 'Compliant',
  description: 'Stiffness diagonally applied to the dofs: one value per dof.',
  templates: vecTemplates,
  defaultTemplate: 'Vec1d',
})
export class DiagonalStiffness extends DiagonalForceField {
  static override readonly isComplianceByDefault = false;
  readonly stiffness = this.initData({
    name: 'stiffness',
    type: RealArray(0, 'VecDeriv'),
    default: new Float64Array(0),
    help: 'stiffness value of each dof (point by point)',
  });
  readonly damping = this.initData({
    name: 'damping',
    type: RealArray(1),
    default: new Float64Array([0]),
    help: 'viscous damping of each dof (fewer values: the last one repeats)',
  });

  protected fill(): void {
    const values = this.stiffness.value;
    const n = this.k.length;
    if (values.length !== n) throw this.error(`stiffness has ${values.length} values, the state has ${n} dofs`);
    for (let i = 0; i < n; i++) {
      this.k[i] = values[i];
      this.c[i] = complianceOfStiffness(values[i]);
    }
    fillRepeated(this.d, this.damping.value);
  }
}
