import type { Node } from '@sofa-ts/core';
import type { BroadPhase, ModelPair } from '../detection/broad-phase.js';
import type { IntersectionMethod } from '../detection/intersection-method.js';
import type { NarrowPhase } from '../detection/narrow-phase.js';
import type { CollisionModel } from '../model/CollisionModel.js';
import type { CollisionResponse } from '../response/CollisionResponse.js';

/** The parts one detection-and-response chain is made of (SOFA's SubCollisionPipeline links). */
export interface CollisionParts {
  readonly models: readonly CollisionModel[];
  readonly intersection: IntersectionMethod;
  readonly broadPhase: BroadPhase;
  readonly narrowPhase: NarrowPhase;
  readonly contactManager: CollisionResponse;
  /** Depth of the bounding trees (when a phase needs deep trees). */
  readonly depth: number;
  /** Where responses between two simulated models go (the pipeline's node). */
  readonly node: Node;
}

/**
 * One step of a collision chain, as SOFA's SubCollisionPipeline runs it:
 *   detection: bounding trees of the active models (depth when a phase needs deep trees, else the
 *              root only; swept over the step's motion when the intersection method is continuous),
 *              broad phase on their roots, narrow phase on the pairs (when no two models, nor one
 *              with itself, may pair, trees once built are not refitted and no pair is sought);
 *   response:  contacts from the outputs (contact manager), then each response placed in a node.
 * SOFA removes every response at reset and puts them back after the detection, in the order of its
 * contact map; sofa-ts leaves a response in place when it stays in the same node and in that order,
 * and only removes the responses of pairs that stopped touching, which gives the same graph without
 * rebuilding the solvers' systems every step.
 */
export class CollisionStage {
  private readonly active: CollisionModel[] = [];
  private readonly pairs: ModelPair[] = [];
  /** Creation order of the models (their place in the pipeline's list), which orders the contacts. */
  private readonly rank: ReadonlyMap<CollisionModel, number>;

  constructor(readonly parts: CollisionParts) {
    this.rank = new Map(parts.models.map((m, i) => [m, i]));
  }

  detect(): void {
    const p = this.parts;
    const deep = p.broadPhase.needsDeepBoundingTree || p.narrowPhase.needsDeepBoundingTree;
    const depth = deep ? p.depth : 0;
    const active = this.active;
    active.length = 0;
    // continuous detection: boxes swept over the step's motion (SOFA's computeContinuousBoundingTree)
    const continuous = p.intersection.useContinuous();
    const type = p.intersection.continuousIntersectionType();
    const dt = p.node.getDt();
    for (const m of p.models) if (m.isActive) active.push(m);
    // Models that no rule lets pair (one object without self collision, as the liver's spheres)
    // need no boxes: their trees are built at the first detection (SOFA's order of the leaves,
    // should a pair become possible later) and not refitted while no pair is possible.
    const anyPair = p.broadPhase.mayPair(active, p.intersection);
    for (const m of active) {
      if (!anyPair && m.hasBoundingTree) continue;
      if (continuous) m.computeContinuousBoundingTree(depth, type, dt);
      else m.computeBoundingTree(depth);
    }
    this.pairs.length = 0;
    if (anyPair) p.broadPhase.computePairs(active, p.intersection, this.pairs);
    p.narrowPhase.beginNarrowPhase();
    p.narrowPhase.addCollisionPairs(this.pairs, p.intersection);
  }

  respond(): void {
    const p = this.parts;
    p.contactManager.createContacts(p.narrowPhase.getDetectionOutputs(), p.intersection);
    p.contactManager.placeResponses(p.node, this.rank);
  }

  /** The pairs the broad phase gave at the last detection. */
  get lastPairs(): readonly ModelPair[] {
    return this.pairs;
  }
}
