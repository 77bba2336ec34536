import type { BaseObject, LagrangianContactConstraint } from '@sofa-ts/core';
import type { IntersectionMethod } from '../detection/intersection-method.js';
import type { CollisionModel } from '../model/CollisionModel.js';
import { FrictionContact, responseParameters } from './FrictionContact.js';

/**
 * SOFA's AugmentedLagrangianResponse (response AugmentedLagrangianResponseConstraint): the contacts
 * of FrictionContactConstraint (same points, normals, distances and ids), solved with the
 * augmented-Lagrangian law of AugmentedLagrangianConstraint: each Gauss-Seidel visit augments the
 * multipliers by the violations times the penalty ε (augmented-lagrangian-resolution.ts); the
 * frictionless law (mu = 0) is the unilateral one. Parameters from responseParams: mu (default 0),
 * epsilon (default 0, SOFA's), tol.
 */
export class AugmentedLagrangianResponse extends FrictionContact {
  readonly epsilon: number;

  constructor(model1: CollisionModel, model2: CollisionModel, method: IntersectionMethod, owner: BaseObject, response: string) {
    const p = responseParameters(response);
    super(model1, model2, method, owner, p.has('mu') ? response : `${response}${response.includes('?') ? '&' : '?'}mu=0`);
    this.epsilon = p.get('epsilon') ?? 0;
    if (this.epsilon < 0) throw owner.error(`the penalty epsilon must be ≥ 0 (got ${this.epsilon})`);
    if (this.mu > 0 && this.epsilon === 0)
      owner.warn(
        `${response}: with mu = ${this.mu} > 0 and epsilon = 0 the augmented-Lagrangian law never moves the multipliers: the contacts exert no force (as in SOFA)`,
        'give epsilon in responseParams, e.g. "mu=0.5&epsilon=10"',
      );
  }

  protected override get responseName(): string {
    return 'AugmentedLagrangianResponseConstraint';
  }

  protected override ensureConstraint(): LagrangianContactConstraint {
    const fresh = this.constraint === undefined;
    const c = super.ensureConstraint();
    if (fresh) c.setAugmentedLagrangian(this.epsilon);
    return c;
  }
}
