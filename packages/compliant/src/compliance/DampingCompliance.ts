import { Real, sofaComponent } from '@sofa-ts/core';
import { vecTemplates } from '../state-link.js';
import { DiagonalForceField } from './diagonal-force-field.js';

/**
 * The Compliant plugin's DampingCompliance: viscous damping written as a compliance, the force
 * −d·ẋ on its (mapped) dofs given by constraint rows with C = (h/d)·I, h the time step. With a
 * zero right-hand side (a VelocityConstraintValue of zeros) and α = β = 1 the rows give the
 * impulse λ = −h·d·J·v of the end of the step. It has no stiffness: with damping 0 it does nothing.
 */
@sofaComponent({
  name: 'DampingCompliance',
  category: 'ForceField',
  module: 'Compliant',
  description: 'Viscous damping as a compliance: C = dt/damping.',
  templates: vecTemplates,
  defaultTemplate: 'Vec1d',
})
export class DampingCompliance extends DiagonalForceField {
  readonly damping = this.initData({ name: 'damping', type: Real, default: 0, help: 'damping value' });

  override get actsAsCompliance(): boolean {
    return this.damping.value !== 0 && super.actsAsCompliance;
  }

  protected fill(): void {
    this.k.fill(0);
    this.d.fill(0);
    const dmp = this.damping.value;
    this.c.fill(dmp !== 0 ? this.context.getDt() / dmp : 0);
  }

  override addComplianceToMatrix(acc: import('@sofa-ts/core').MatrixAccumulator, cFactor: number): void {
    this.fill();
    super.addComplianceToMatrix(acc, cFactor);
  }
}
