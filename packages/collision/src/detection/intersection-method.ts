import { BaseObject } from '@sofa-ts/core';
import type { CollisionModel, ContinuousIntersectionType, ElementKind } from '../model/CollisionModel.js';
import type { DetectionOutputs } from './detection-outputs.js';

/**
 * The test between element i of model a and element j of model b, appending its outputs (elements,
 * id, points, normal, value) to `out`; returns how many it appended. The models come in the order
 * the test was registered for (see IntersectionMethod.findIntersector).
 */
export type ElementIntersector = (a: CollisionModel, i: number, b: CollisionModel, j: number, out: DetectionOutputs) => number;

/** A test found for a pair of models, and whether the models must be swapped to call it. */
export interface FoundIntersector {
  readonly test: ElementIntersector;
  readonly swap: boolean;
}

/**
 * An intersection method (SOFA core::collision::Intersection): the element tests it provides per
 * pair of element kinds, its alarm distance (pairs farther apart are ignored) and contact distance
 * (the distance kept between elements in contact), and the box-box test of the bounding trees.
 * A pair registered as ignored has no test (its models never produce contacts).
 */
export abstract class IntersectionMethod extends BaseObject {
  readonly isIntersectionMethod = true;
  private readonly table = new Map<string, ElementIntersector | null>();
  private registered = false;

  /** Distance under which primitives are tested (0 for exact intersection methods). */
  abstract getAlarmDistance(): number;
  /** Distance the response keeps between primitives (0 for exact intersection methods). */
  abstract getContactDistance(): number;

  /**
   * SOFA's useContinuous: whether the pipeline builds swept bounding trees (continuous detection),
   * with continuousIntersectionType saying which motion they cover. Discrete by default.
   */
  useContinuous(): boolean {
    return false;
  }

  continuousIntersectionType(): ContinuousIntersectionType {
    return 'none';
  }

  /** Registers the tests (called once, after init, when Data are final). */
  protected abstract registerIntersectors(): void;

  protected add(k1: ElementKind, k2: ElementKind, test: ElementIntersector): void {
    this.table.set(`${k1}|${k2}`, test);
  }

  protected ignore(k1: ElementKind, k2: ElementKind): void {
    this.table.set(`${k1}|${k2}`, null);
  }

  /** The test for (a, b), or for (b, a) with swap; undefined when the method has none. */
  findIntersector(a: ElementKind, b: ElementKind): FoundIntersector | undefined {
    if (!this.registered) {
      this.registerIntersectors();
      this.registered = true;
    }
    const direct = this.table.get(`${a}|${b}`);
    if (direct !== undefined) return direct ? { test: direct, swap: false } : undefined;
    const swapped = this.table.get(`${b}|${a}`);
    if (swapped) return { test: swapped, swap: true };
    return undefined;
  }

  /**
   * Box-box test of the bounding trees: boxes (min xyz, max xyz at offsets ia, ib) overlap once
   * enlarged by alarm distance + both models' contactDistance.
   */
  boxesOverlap(ba: Float64Array, ia: number, bb: Float64Array, ib: number, margin: number): boolean {
    for (let c = 0; c < 3; c++) {
      if (ba[ia + c] > bb[ib + 3 + c] + margin || bb[ib + c] > ba[ia + 3 + c] + margin) return false;
    }
    return true;
  }

  /** Margin of boxesOverlap for two models. */
  boxMargin(a: CollisionModel, b: CollisionModel): number {
    return this.getAlarmDistance() + a.getProximity() + b.getProximity();
  }
}

export function isIntersectionMethod(o: unknown): o is IntersectionMethod {
  return typeof o === 'object' && o !== null && (o as { isIntersectionMethod?: unknown }).isIntersectionMethod === true;
}

/** id of point-like contacts in SOFA: the element index of the model that has more elements. */
export function biggerModelIndex(a: CollisionModel, i: number, b: CollisionModel, j: number): number {
  return a.size > b.size ? i : j;
}

/** Sets the elements of the last n outputs and subtracts the contact distance from their values. */
export function finishOutputs(out: DetectionOutputs, n: number, i: number, j: number, contact: number): number {
  for (let k = out.count - n; k < out.count; k++) {
    out.elem1[k] = i;
    out.elem2[k] = j;
    out.value[k] -= contact;
  }
  return n;
}
