import { Bool, Real, sofaComponent } from '@sofa-ts/core';
import { vecTemplates } from '../state-link.js';
import { DiagonalForceField, complianceOfStiffness } from './diagonal-force-field.js';

/**
 * The Compliant plugin's UniformStiffness: the same stiffness k on every dof, f = −k·x, K = −k·I,
 * B = −d·I. It is a stiffness by default; with isCompliance="1" on a mapped state it gives the
 * compliance C = (1/k)·I instead (1e100 for k = 0), as UniformCompliance does.
 */
@sofaComponent({
  name: 'UniformStiffness',
  category: 'ForceField',
  module: 'Compliant',
  description: 'Stiffness uniformly applied to all the dofs.',
  templates: vecTemplates,
  defaultTemplate: 'Vec1d',
})
export class UniformStiffness extends DiagonalForceField {
  static override readonly isComplianceByDefault = false;
  readonly stiffness = this.initData({ name: 'stiffness', type: Real, default: 0, help: 'stiffness value applied to every dof' });
  readonly damping = this.initData({ name: 'damping', type: Real, default: 0, help: 'uniform viscous damping of the dofs' });
  readonly resizable = this.initData({
    name: 'resizable',
    type: Bool,
    default: false,
    help: 'the dofs may be resized (the matrices follow the size of the state)',
  });

  protected fill(): void {
    const k = this.stiffness.value;
    this.k.fill(k);
    this.c.fill(complianceOfStiffness(k));
    this.d.fill(Math.max(0, this.damping.value));
  }
}
