import { BaseObject } from '@sofa-ts/core';
import type { CollisionModel } from '../model/CollisionModel.js';
import type { ModelPair } from './broad-phase.js';
import { DetectionOutputs } from './detection-outputs.js';
import type { IntersectionMethod } from './intersection-method.js';

/** The outputs of one pair of models, in the order of the intersection test (model a first). */
export interface PairOutputs {
  readonly a: CollisionModel;
  readonly b: CollisionModel;
  readonly outputs: DetectionOutputs;
}

/**
 * A narrow phase (SOFA NarrowPhaseDetection): for each broad-phase pair, the element tests of the
 * intersection method, its outputs collected per pair of models. The models of a pair are put in
 * the order the method's test expects (SOFA swaps them likewise), which decides which is "model 1"
 * of the contact. Output storage is kept from step to step.
 */
export abstract class NarrowPhase extends BaseObject {
  readonly isNarrowPhase = true;
  private readonly store = new Map<CollisionModel, Map<CollisionModel, PairOutputs>>();
  /** Pairs that received outputs this step, in the order they were first touched. */
  private readonly touched: PairOutputs[] = [];

  /** Whether the bounding trees must be built to the pipeline's depth (else only their root). */
  get needsDeepBoundingTree(): boolean {
    return true;
  }

  beginNarrowPhase(): void {
    for (const p of this.touched) p.outputs.clear();
    this.touched.length = 0;
  }

  /** Runs the tests of every pair. */
  addCollisionPairs(pairs: readonly ModelPair[], method: IntersectionMethod): void {
    for (const p of pairs) this.addCollisionPair(p.a, p.b, method);
  }

  protected abstract addCollisionPair(a: CollisionModel, b: CollisionModel, method: IntersectionMethod): void;

  /** The (reused) output vector of the pair (a, b), registered as touched this step. */
  protected outputsFor(a: CollisionModel, b: CollisionModel): DetectionOutputs {
    let inner = this.store.get(a);
    if (!inner) this.store.set(a, (inner = new Map()));
    let p = inner.get(b);
    if (!p) inner.set(b, (p = { a, b, outputs: new DetectionOutputs() }));
    if (!this.touched.includes(p)) this.touched.push(p);
    return p.outputs;
  }

  /** Pairs of models with at least one output this step (SOFA's detection output map). */
  getDetectionOutputs(): PairOutputs[] {
    return this.touched.filter((p) => p.outputs.count > 0);
  }
}

export function isNarrowPhase(o: unknown): o is NarrowPhase {
  return typeof o === 'object' && o !== null && (o as { isNarrowPhase?: unknown }).isNarrowPhase === true;
}
