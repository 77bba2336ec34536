import { RealArray, sofaComponent } from '@sofa-ts/core';
import { vecTemplates } from '../state-link.js';
import { DiagonalForceField } from './diagonal-force-field.js';

/**
 * The Compliant plugin's DiagonalCompliance: one compliance per dof (`compliance`, one value per
 * coordinate of each point), otherwise as UniformCompliance:
 *   as a compliance C = diag(c_i), as a stiffness K = −diag(1/c_i) (1/ε where c_i ≤ ε).
 * `damping` holds one value per dof or fewer (the last one repeats): B = −diag(d_i).
 */
@sofaComponent({
  name: 'DiagonalCompliance',
  category: 'ForceField',
  module: 'Compliant',
  description: 'Compliance diagonally applied to the dofs: one value per dof.',
  templates: vecTemplates,
  defaultTemplate: 'Vec1d',
})
export class DiagonalCompliance extends DiagonalForceField {
  readonly compliance = this.initData({
    name: 'compliance',
    type: RealArray(0, 'VecDeriv'),
    default: new Float64Array(0),
    help: 'compliance value of each dof (point by point)',
  });
  readonly damping = this.initData({
    name: 'damping',
    type: RealArray(1),
    default: new Float64Array([0]),
    help: 'viscous damping of each dof (fewer values: the last one repeats)',
  });

  protected fill(): void {
    const values = this.compliance.value;
    const n = this.c.length;
    if (values.length !== n) throw this.error(`compliance has ${values.length} values, the state has ${n} dofs`);
    for (let i = 0; i < n; i++) {
      const c = values[i];
      this.c[i] = c;
      this.k[i] = c > Number.EPSILON ? 1 / c : 1 / Number.EPSILON;
    }
    fillRepeated(this.d, this.damping.value);
  }
}

/** out[i] = values[min(i, len − 1)] (0 when there are none). */
export function fillRepeated(out: Float64Array, values: Float64Array): void {
  for (let i = 0; i < out.length; i++) out[i] = values.length > 0 ? values[Math.min(i, values.length - 1)] : 0;
}
