import type { BaseObject, CheckpointReader, CheckpointRecord, Node } from '@sofa-ts/core';
import type { DetectionOutputs } from '../detection/detection-outputs.js';
import type { CollisionModel } from '../model/CollisionModel.js';

/**
 * A contact between two collision models (SOFA core::collision::Contact): it turns the detection
 * outputs of the pair into a response (force field or constraints) placed in a node of the graph,
 * and keeps it from step to step while the models touch.
 */
export interface Contact {
  readonly model1: CollisionModel;
  readonly model2: CollisionModel;
  /** Updates the response from this step's outputs of the pair (model1 first). */
  setDetectionOutputs(outputs: DetectionOutputs): void;
  /** Puts the response in `node` (moving it if it was elsewhere). */
  createResponse(node: Node): void;
  /** Takes the response out of the graph (the models stopped touching). */
  removeResponse(): void;
  /** The object the response puts in the graph (force field or constraint), once it exists. */
  responseObject?(): BaseObject | undefined;
  /**
   * SOFA's Contact::keepAlive: true keeps the contact, with its last contacts, through steps in
   * which its models have no detection output (StickContactConstraint's keepAlive). Absent: false.
   */
  keepAlive?(): boolean;
  /**
   * Checkpoint: what the contact itself keeps from step to step (its response object is saved as a
   * component of its own). restoreState runs on a contact just created for the same pair; it must
   * create the response object (not place it).
   */
  checkpointState?(): CheckpointRecord;
  restoreState?(saved: CheckpointReader): void;
}
