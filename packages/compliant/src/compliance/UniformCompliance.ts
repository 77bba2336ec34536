import { Bool, Real, sofaComponent } from '@sofa-ts/core';
import { vecTemplates } from '../state-link.js';
import { DiagonalForceField, stiffnessOfCompliance } from './diagonal-force-field.js';

/**
 * The Compliant plugin's UniformCompliance: the same compliance c on every dof of its state, whose
 * positions are constraint violations: λ = −(1/c)·x, and a viscous damping force −d·ẋ that does not
 * depend on c (B = −d·I, as the plugin's code; its paper's λ = −(1/c)·(x + d·ẋ) would damp by d/c).
 *   as a compliance (default, on a mapped state): C = c·I (c = 0: a hard constraint), B = −d·I,
 *     so the damping enters the solver's H as h·α·d·JᵀJ;
 *   as a stiffness (isCompliance="0", or on a master state): K = −(1/max(c, ε))·I, f = K·x.
 * rayleighStiffness is not used (use damping).
 */
@sofaComponent({
  name: 'UniformCompliance',
  category: 'ForceField',
  module: 'Compliant',
  description: 'Compliance (inverse stiffness) uniformly applied to all the dofs: constraint rows of the Compliant solvers.',
  templates: vecTemplates,
  defaultTemplate: 'Vec1d',
})
export class UniformCompliance extends DiagonalForceField {
  readonly compliance = this.initData({
    name: 'compliance',
    type: Real,
    default: 0,
    help: 'compliance value applied to every dof (0: hard constraint)',
  });
  readonly damping = this.initData({ name: 'damping', type: Real, default: 0, help: 'uniform viscous damping of the dofs' });
  readonly resizable = this.initData({
    name: 'resizable',
    type: Bool,
    default: false,
    help: 'the dofs may be resized (the matrices follow the size of the state)',
  });

  protected fill(): void {
    const c = this.compliance.value;
    this.c.fill(c);
    this.k.fill(stiffnessOfCompliance(c));
    this.d.fill(Math.max(0, this.damping.value));
  }
}
