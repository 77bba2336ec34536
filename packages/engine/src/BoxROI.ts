import { RealArray, sofaComponent } from '@sofa-ts/core';
import { isGiven } from './engine-support.js';
import { BaseROI, ROI_TEMPLATES } from './select/BaseROI.js';

/** An oriented box prepared for point tests (SOFA's BoxROI::OrientedBox). */
interface OrientedBox {
  p0: number[];
  p2: number[];
  normal: number[];
  plane0: number[];
  plane1: number[];
  plane2: number[];
  plane3: number[];
  width: number;
  length: number;
  depth: number;
}

/**
 * SOFA's BoxROI: selects the points, and the edges, triangles, quads, tetrahedra and hexahedra,
 * lying in a set of boxes (the selection rules, inputs and outputs are BaseROI's).
 *
 * A point p is in an axis-aligned box (xmin ymin zmin xmax ymax zmax) when min_k ≤ p_k ≤ max_k
 * on each of its spatial axes (the boundary is inside). An oriented box (p0, p1, p2, depth) is the
 * parallelogram p0, p1, p2, p3 = p0 + (p2 − p1) extruded by depth/2 on each side along its normal
 * (p1 − p0) × (p2 − p0). A point is in the ROI when it is in any box; with no box at all the
 * selection is empty. Without `box` and `orientedBox` the box is 0 0 0 1 1 1.
 */
@sofaComponent({
  name: 'BoxROI',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Select',
  description: 'Find the primitives (vertex/edge/triangle/quad/tetrahedron/hexahedron) inside given boxes.',
  templates: ROI_TEMPLATES,
})
export class BoxROI extends BaseROI {
  readonly box = this.initData({
    name: 'box',
    type: RealArray(6, 'vector<Vec6d>'),
    default: new Float64Array(0),
    help: 'list of boxes, each defined by two 3D points: xmin ymin zmin xmax ymax zmax',
  });
  readonly orientedBox = this.initData({
    name: 'orientedBox',
    type: RealArray(10, 'vector<Vec10d>'),
    default: new Float64Array(0),
    help: 'list of boxes defined by 3 points p0 p1 p2 and a depth: the parallelogram (p0, p1, p2, p0 + p2 − p1) extruded by depth/2 on both sides along its normal',
  });

  private aligned: Float64Array = new Float64Array(0);
  private oriented: OrientedBox[] = [];

  constructor() {
    super();
    this.addInput(this.box, this.orientedBox);
  }

  protected override roiInit(): void {
    if (!isGiven(this.box) && !isGiven(this.orientedBox)) this.box.value = Float64Array.of(0, 0, 0, 1, 1, 1);
  }

  protected override roiDoUpdate(): boolean {
    this.aligned = normalisedBoxes(this.box.value);
    this.oriented = Math.min(3, this.stateType!.spatialDimensions) === 3 ? orientedBoxes(this.orientedBox.value) : [];
    return this.aligned.length > 0 || this.oriented.length > 0;
  }

  /** p is in an aligned box (on its spatial axes), or in an oriented box (3D). */
  protected isPointInROI(p: Float64Array): boolean {
    const dims = Math.min(3, this.stateType!.spatialDimensions);
    const aligned = this.aligned;
    for (let b = 0; b < aligned.length; b += 6) {
      let ok = true;
      for (let k = 0; k < dims && ok; k++) ok = p[k] >= aligned[b + k] && p[k] <= aligned[b + 3 + k];
      if (ok) return true;
    }
    if (this.oriented.length > 0) {
      const q = [p[0], p[1], p[2]];
      for (const ob of this.oriented) if (isPointInOrientedBox(q, ob)) return true;
    }
    return false;
  }
}

/** Boxes with min and max swapped where the scene wrote them the other way round. */
function normalisedBoxes(b: Float64Array): Float64Array {
  const out = Float64Array.from(b);
  for (let i = 0; i + 6 <= out.length; i += 6) {
    for (let k = 0; k < 3; k++) {
      if (out[i + k] > out[i + 3 + k]) {
        const t = out[i + k];
        out[i + k] = out[i + 3 + k];
        out[i + 3 + k] = t;
      }
    }
  }
  return out;
}

const sub = (a: number[], b: number[]): number[] => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a: number[], b: number[]): number[] => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scaled = (a: number[], s: number): number[] => [a[0] * s, a[1] * s, a[2] * s];
const dot = (a: number[], b: number[]): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: number[], b: number[]): number[] => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
function unit(a: number[]): number[] {
  const r = Math.sqrt(dot(a, a));
  return r > Number.EPSILON ? scaled(a, 1 / r) : a;
}

/**
 * The planes of each oriented box (p0, p1, p2, depth): normal n = unit((p1−p0)×(p2−p0)),
 * p3 = p0 + (p2 − p1); side planes through p0 and p2, width and length of the parallelogram.
 */
function orientedBoxes(v: Float64Array): OrientedBox[] {
  const out: OrientedBox[] = [];
  for (let i = 0; i + 10 <= v.length; i += 10) {
    const p0 = [v[i], v[i + 1], v[i + 2]];
    const p1 = [v[i + 3], v[i + 4], v[i + 5]];
    const p2 = [v[i + 6], v[i + 7], v[i + 8]];
    const depth = v[i + 9];
    const normal = unit(cross(sub(p1, p0), sub(p2, p0)));
    const p3 = add(p0, sub(p2, p1));
    const p6 = add(p2, scaled(normal, depth));
    const plane0 = unit(cross(sub(p1, p0), normal));
    const plane1 = unit(cross(sub(p2, p3), sub(p6, p3)));
    const plane2 = unit(cross(sub(p3, p0), normal));
    const plane3 = unit(cross(sub(p2, p1), sub(p6, p2)));
    out.push({
      p0,
      p2,
      normal,
      plane0,
      plane1,
      plane2,
      plane3,
      width: Math.abs(dot(sub(p2, p0), plane0)),
      length: Math.abs(dot(sub(p2, p0), plane2)),
      depth,
    });
  }
  return out;
}

/** Within width of both long sides, length of both short sides, and depth/2 of the mid-plane. */
function isPointInOrientedBox(p: number[], b: OrientedBox): boolean {
  const pv0 = sub(p, b.p0);
  const pv1 = sub(p, b.p2);
  if (Math.abs(dot(pv0, b.plane0)) > b.width || Math.abs(dot(pv1, b.plane1)) > b.width) return false;
  if (Math.abs(dot(pv0, b.plane2)) > b.length || Math.abs(dot(pv1, b.plane3)) > b.length) return false;
  return Math.abs(dot(pv0, b.normal)) <= Math.abs(b.depth / 2);
}
