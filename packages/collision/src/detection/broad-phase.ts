import { BaseObject, RealArray } from '@sofa-ts/core';
import type { CollisionModel } from '../model/CollisionModel.js';
import type { IntersectionMethod } from './intersection-method.js';

/** A pair of collision models to examine in the narrow phase. */
export interface ModelPair {
  readonly a: CollisionModel;
  readonly b: CollisionModel;
}

/**
 * A broad phase (SOFA BroadPhaseDetection): from the active models (bounding trees computed), the
 * pairs whose root boxes overlap (within the intersection method's alarm distance) and that may
 * collide (simulated, groups, self collision). Pairs come as SOFA's BruteForceBroadPhase orders
 * them: each model against the models before it in the pipeline's list, (later, earlier), a model
 * that collides with itself paired with itself first.
 *
 * `box`, when set, restricts detection to the models whose root box overlaps it.
 */
export abstract class BroadPhase extends BaseObject {
  readonly isBroadPhase = true;
  readonly box = this.initData({
    name: 'box',
    type: RealArray(3, 'fixed_array<Vec3d,2>'),
    default: new Float64Array(0),
    help: 'if not empty (min then max corner), objects that do not intersect this bounding box are ignored',
  });

  /** Whether the narrow phase needs this broad phase's deep bounding trees (false: the narrow phase decides). */
  get needsDeepBoundingTree(): boolean {
    return false;
  }

  override init(): void {
    const b = this.box.value;
    if (b.length !== 0 && b.length !== 6) throw this.error(`box needs 6 numbers (min then max corner), got ${b.length}`);
  }

  /** Appends the pairs of `models` (in pipeline order) to `pairs`. */
  abstract computePairs(models: readonly CollisionModel[], method: IntersectionMethod, pairs: ModelPair[]): void;

  /** The models left after the `box` filter (all of them without box); skips empty models. */
  protected candidates(models: readonly CollisionModel[], method: IntersectionMethod): CollisionModel[] {
    const b = this.box.value;
    const useBox = b.length === 6 && b[0] < b[3];
    return models.filter(
      (m) => m.size > 0 && (!useBox || method.boxesOverlap(m.rootBox(), 0, b, 0, method.getAlarmDistance() + m.getProximity())),
    );
  }

  /** SOFA's rules for a pair (a, b): one of them simulated, both accept the other, root boxes overlap. */
  protected keepPair(a: CollisionModel, b: CollisionModel, method: IntersectionMethod): boolean {
    return mayCollide(a, b) && method.boxesOverlap(a.rootBox(), 0, b.rootBox(), 0, method.boxMargin(a, b));
  }

  /**
   * Whether computePairs could give any pair of these models whatever their boxes: a model paired
   * with itself (selfPair) or two models that keepPair's rules other than the boxes accept.
   */
  mayPair(models: readonly CollisionModel[], method: IntersectionMethod): boolean {
    for (let k = 0; k < models.length; k++) {
      const m = models[k];
      if (this.selfPair(m, method)) return true;
      for (let p = 0; p < k; p++) if (mayCollide(m, models[p])) return true;
    }
    return false;
  }

  /** SOFA's doesSelfCollide: a simulated model that accepts itself (and the method can test it). */
  protected selfPair(m: CollisionModel, method: IntersectionMethod): boolean {
    if (!m.isSimulated || !m.canCollideWith(m)) return false;
    return method.findIntersector(m.kind, m.kind) !== undefined;
  }
}

/** keepPair's rules other than the boxes: one of the two simulated, each accepting the other. */
function mayCollide(a: CollisionModel, b: CollisionModel): boolean {
  return (a.isSimulated || b.isSimulated) && a.canCollideWith(b) && b.canCollideWith(a);
}

export function isBroadPhase(o: unknown): o is BroadPhase {
  return typeof o === 'object' && o !== null && (o as { isBroadPhase?: unknown }).isBroadPhase === true;
}
