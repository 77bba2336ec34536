import type { CheckpointReader, CheckpointRecord } from '@sofa-ts/core';
/**
 * The bounding-volume hierarchy of a collision model, as SOFA's CubeCollisionModel builds it (the
 * order of the cubes decides the order of the detection outputs, which SOFA's results depend on).
 *
 * One leaf cube per element, then `depth + 1` levels above them, level 0 being the root (a single
 * cube over every leaf). Building goes down level by level: a cube over more than 4 leaves is split
 * at its median leaf along the longest side of its box, the leaves of its range being stably sorted
 * by their centres along that axis; its two halves become cubes of the next level. A cube that is
 * not split (4 leaves or fewer, or on the last level) keeps its range of leaves as children. The
 * hierarchy is built once; later steps only refit the boxes, bottom-up, so the order of the leaves
 * is the one of the first build (as in SOFA).
 *
 * Boxes are (min x, min y, min z, max x, max y, max z) per cube.
 */
/** Deepest hierarchy ever built (see build). */
const MAX_USEFUL_DEPTH = 64;

export class CubeTree {
  /** Number of leaf cubes (= elements). */
  nLeaves = 0;
  /** (nLeaves) element of each leaf cube. */
  leafElement = new Int32Array(0);
  /** (nElements) leaf cube of each element. */
  leafOf = new Int32Array(0);
  /** (nLeaves × 6) boxes of the leaf cubes. */
  leafBox = new Float64Array(0);
  /** Levels above the leaves, root first. */
  readonly levels: CubeLevel[] = [];
  built = false;

  /** Checkpoint: the hierarchy as built at the first detection (later ones only refit it). */
  checkpointState(): CheckpointRecord {
    return {
      built: this.built,
      nLeaves: this.nLeaves,
      leafElement: this.leafElement,
      leafOf: this.leafOf,
      leafBox: this.leafBox,
      levels: this.levels.map((l) => ({ n: l.n, box: l.box, subLevel: l.subLevel, subBegin: l.subBegin, subEnd: l.subEnd })),
    };
  }

  restoreState(saved: CheckpointReader): void {
    this.built = saved.bool('built');
    this.nLeaves = saved.number('nLeaves');
    this.leafElement = saved.array('leafElement', Int32Array).slice();
    this.leafOf = saved.array('leafOf', Int32Array).slice();
    this.leafBox = saved.array('leafBox', Float64Array).slice();
    this.levels.length = 0;
    for (const r of saved.records('levels')) {
      const l = new CubeLevel();
      l.n = r.number('n');
      l.box = r.array('box', Float64Array).slice();
      l.subLevel = r.array('subLevel', Int32Array).slice();
      l.subBegin = r.array('subBegin', Int32Array).slice();
      l.subEnd = r.array('subEnd', Int32Array).slice();
      this.levels.push(l);
    }
  }

  /** Level index that stands for the leaf cubes in ranges (one past the last level). */
  get leafLevel(): number {
    return this.levels.length;
  }

  /** Forgets the hierarchy and sizes the leaves for `n` elements (element i in leaf i). */
  reset(n: number): void {
    this.nLeaves = n;
    this.leafElement = new Int32Array(n);
    this.leafOf = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      this.leafElement[i] = i;
      this.leafOf[i] = i;
    }
    this.leafBox = new Float64Array(6 * n);
    this.levels.length = 0;
    this.built = false;
  }

  /** Sets the leaf boxes from boxes given per element ((nElements × 6)). */
  setElementBoxes(boxes: Float64Array): void {
    const lb = this.leafBox;
    for (let e = 0; e < this.nLeaves; e++) {
      const l = 6 * this.leafOf[e];
      const b = 6 * e;
      for (let k = 0; k < 6; k++) lb[l + k] = boxes[b + k];
    }
  }

  /** Builds the hierarchy (first call) or refits it (later calls), from the current leaf boxes. */
  compute(depth: number): void {
    if (!this.built) this.build(depth);
    else this.refit();
  }

  /** Box array of a level (the leaf boxes for leafLevel). */
  boxesOf(level: number): Float64Array {
    return level === this.levels.length ? this.leafBox : this.levels[level].box;
  }

  private build(depth: number): void {
    const n = this.nLeaves;
    // Cubes are halved at each level, so levels past 64 would hold nothing (2^64 elements): a
    // larger `depth` (depth="1e9") is cut there instead of allocating empty levels without end.
    depth = Math.min(depth, MAX_USEFUL_DEPTH);
    this.levels.length = 0;
    for (let l = 0; l <= depth; l++) this.levels.push(new CubeLevel());
    const leaf = this.leafLevel;
    const root = this.levels[0];
    root.add(leaf, 0, n, this.leafBox);
    for (let l = 0; l + 1 < this.levels.length; l++) {
      const level = this.levels[l];
      const next = this.levels[l + 1];
      for (let c = 0; c < level.n; c++) {
        const b = level.subBegin[c];
        const e = level.subEnd[c];
        const ncells = e - b;
        if (ncells <= 4) continue;
        const box = level.box;
        const lx = box[6 * c + 3] - box[6 * c];
        const ly = box[6 * c + 4] - box[6 * c + 1];
        const lz = box[6 * c + 5] - box[6 * c + 2];
        const axis = lx > ly ? (lx > lz ? 0 : 2) : ly > lz ? 1 : 2;
        this.sortLeaves(b, e, axis);
        const middle = b + Math.floor((ncells + 1) / 2);
        const c1 = next.add(leaf, b, middle, this.leafBox);
        next.add(leaf, middle, e, this.leafBox);
        level.subLevel[c] = l + 1;
        level.subBegin[c] = c1;
        level.subEnd[c] = c1 + 2;
      }
    }
    for (let i = 0; i < n; i++) this.leafOf[this.leafElement[i]] = i;
    this.built = true;
  }

  /** Stable sort of leaves [b, e) by min + max along `axis` (SOFA's CubeSortPredicate). */
  private sortLeaves(b: number, e: number, axis: number): void {
    const lb = this.leafBox;
    const order = Array.from({ length: e - b }, (_, i) => b + i);
    order.sort((i, j) => lb[6 * i + axis] + lb[6 * i + 3 + axis] - (lb[6 * j + axis] + lb[6 * j + 3 + axis]));
    const boxes = lb.slice(6 * b, 6 * e);
    const elems = this.leafElement.slice(b, e);
    for (let k = 0; k < order.length; k++) {
      const src = order[k] - b;
      for (let c = 0; c < 6; c++) lb[6 * (b + k) + c] = boxes[6 * src + c];
      this.leafElement[b + k] = elems[src];
    }
  }

  private refit(): void {
    for (let l = this.levels.length - 1; l >= 0; l--) {
      const level = this.levels[l];
      for (let c = 0; c < level.n; c++) level.fit(c, this.boxesOf(level.subLevel[c]));
    }
  }
}

/** The cubes of one level: box, and the range of cubes of the level below (or of leaves) they contain. */
export class CubeLevel {
  n = 0;
  box = new Float64Array(12);
  /** Level of the children (the tree's leafLevel for leaves). */
  subLevel = new Int32Array(2);
  subBegin = new Int32Array(2);
  subEnd = new Int32Array(2);

  add(subLevel: number, begin: number, end: number, subBoxes: Float64Array): number {
    if (this.n === this.subLevel.length) {
      const cap = 2 * this.n;
      const grow = (a: Int32Array): Int32Array<ArrayBuffer> => {
        const b = new Int32Array(cap);
        b.set(a);
        return b;
      };
      this.subLevel = grow(this.subLevel);
      this.subBegin = grow(this.subBegin);
      this.subEnd = grow(this.subEnd);
      const box = new Float64Array(6 * cap);
      box.set(this.box);
      this.box = box;
    }
    const c = this.n++;
    this.subLevel[c] = subLevel;
    this.subBegin[c] = begin;
    this.subEnd[c] = end;
    this.fit(c, subBoxes);
    return c;
  }

  /** Box of cube c = union of its children's boxes (children boxes in `subBoxes`). */
  fit(c: number, subBoxes: Float64Array): void {
    const b = this.subBegin[c];
    const e = this.subEnd[c];
    const o = 6 * c;
    const box = this.box;
    for (let k = 0; k < 6; k++) box[o + k] = subBoxes[6 * b + k];
    for (let s = b + 1; s < e; s++) {
      const so = 6 * s;
      for (let j = 0; j < 3; j++) {
        if (subBoxes[so + 3 + j] > box[o + 3 + j]) box[o + 3 + j] = subBoxes[so + 3 + j];
        if (subBoxes[so + j] < box[o + j]) box[o + j] = subBoxes[so + j];
      }
    }
  }
}
