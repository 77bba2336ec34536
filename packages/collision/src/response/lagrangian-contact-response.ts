import {
  isAnimationLoop,
  type BaseLagrangianConstraint,
  type BaseMechanicalState,
  type BaseObject,
  type CheckpointReader,
  type CheckpointRecord,
  type Node,
} from '@sofa-ts/core';
import type { DetectionOutputs } from '../detection/detection-outputs.js';
import type { CollisionModel } from '../model/CollisionModel.js';
import type { Contact } from './contact.js';

/** Animation loops that solve Lagrangian constraints. */
const LOOPS_SOLVING_CONSTRAINTS = ['FreeMotionAnimationLoop', 'ConstraintAnimationLoop'];

/**
 * What the responses that answer a contact with one Lagrangian constraint share
 * (FrictionContactConstraint, StickContactConstraint): the constraint is made at the first outputs
 * by a factory the constraint package registers in core (collision does not depend on it), only
 * under an animation loop that solves Lagrangian constraints (SOFA ignores them otherwise: here it
 * is a located error), named `model1-model2`, and moved into the node the contact manager chooses.
 */
export abstract class LagrangianContactResponse<C extends BaseLagrangianConstraint> implements Contact {
  protected constraint: C | undefined;

  constructor(
    readonly model1: CollisionModel,
    readonly model2: CollisionModel,
    protected readonly owner: BaseObject,
  ) {}

  abstract setDetectionOutputs(outputs: DetectionOutputs): void;

  /** SOFA's name of the response, for the messages. */
  protected abstract get responseName(): string;

  /** The registered maker of the constraint, undefined when the constraint package is not loaded. */
  protected abstract factory(): ((state1: BaseMechanicalState, state2: BaseMechanicalState) => C) | undefined;

  /** The constraint of this contact (created at the first outputs). */
  getConstraint(): C | undefined {
    return this.constraint;
  }

  protected ensureConstraint(): C {
    if (this.constraint) return this.constraint;
    const where = `contact between ${this.model1.describe()} and ${this.model2.describe()}`;
    const hint = 'use FreeMotionAnimationLoop with a constraint solver, or response="PenalityContactForceField"';
    const make = this.factory();
    if (!make)
      throw this.owner.error(
        `${where}: response '${this.responseName}' needs the Lagrangian constraint solvers (the constraint package), which are not loaded`,
        hint,
      );
    const loop = this.owner.context.root.objects.find(isAnimationLoop);
    if (loop && !LOOPS_SOLVING_CONSTRAINTS.includes(loop.className)) {
      throw this.owner.error(
        `${where}: response '${this.responseName}' creates Lagrangian constraints, which ${loop.className} does not solve`,
        hint,
      );
    }
    const [s1, s2] = this.constraintStates();
    const c = make(s1, s2);
    c.name.value = `${this.model1.getName()}-${this.model2.getName()}`;
    c.loc = this.owner.loc;
    this.constraint = c;
    return c;
  }

  /** The states the constraint's two sides act on: the models' states (a contact point is a combination of their points). */
  protected constraintStates(): [BaseMechanicalState, BaseMechanicalState] {
    return [this.model1.getMechanicalState(), this.model2.getMechanicalState()];
  }

  createResponse(node: Node): void {
    const c = this.constraint;
    if (!c) return;
    if (c.hasContext && c.context === node) return;
    if (c.hasContext) c.context.removeObject(c);
    node.addObject(c);
  }

  removeResponse(): void {
    const c = this.constraint;
    if (c?.hasContext) c.context.removeObject(c);
  }

  responseObject(): BaseObject | undefined {
    return this.constraint;
  }

  /** Checkpoint: whether the constraint was made (its contacts are saved with it). */
  checkpointState(): CheckpointRecord {
    return { hasConstraint: this.constraint !== undefined };
  }

  restoreState(saved: CheckpointReader): void {
    if (saved.bool('hasConstraint')) this.ensureConstraint();
  }
}
