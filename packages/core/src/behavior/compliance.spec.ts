import { expect } from 'chai';
import { BaseCompliance } from './compliance.js';
import { BaseForceField } from './force-field.js';
import type { BaseMechanicalState } from './mechanical-state.js';

class Stiff extends BaseForceField {
  getMechanicalStates(): readonly BaseMechanicalState[] {
    return [];
  }
  addForce(): void {}
  addDForce(): void {}
  addKToMatrix(): void {}
}
class Soft extends BaseCompliance {
  getMechanicalStates(): readonly BaseMechanicalState[] {
    return [];
  }
  addForce(): void {}
  addDForce(): void {}
  addKToMatrix(): void {}
  addComplianceToMatrix(): void {}
}
class SoftByChoice extends Soft {
  static override readonly isComplianceByDefault = false;
}

describe('core: compliance force fields (isCompliance)', () => {
  it('defaults isCompliance from the class: false for force fields, true for compliances unless the class says otherwise', () => {
    expect(new Stiff().isCompliance.value).to.equal(false);
    expect(new Soft().isCompliance.value).to.equal(true);
    expect(new Soft().isCompliance.spec.default).to.equal(true);
    expect(new SoftByChoice().isCompliance.value).to.equal(false);
    expect(new Soft().isCompliance.isSet).to.equal(false);
  });

  it('acts as a compliance only when isCompliance is set and its state is mapped', () => {
    const c = new Soft();
    expect(c.actsAsCompliance).to.equal(true);
    c.setStateIsMapped(false);
    expect(c.actsAsCompliance).to.equal(false);
    c.setStateIsMapped(true);
    expect(c.actsAsCompliance).to.equal(true);
    c.isCompliance.value = false;
    expect(c.actsAsCompliance).to.equal(false);
  });
});
