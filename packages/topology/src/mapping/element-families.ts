/**
 * The two maps of a topological mapping that splits each input element into k output elements:
 * the children of each input element (k slots, −1 once a child is gone) and the parent of each
 * output element (−1: none), in typed arrays. Both follow SOFA's removals (indices in descending
 * order, the last element taking each removed slot), the whole list in one loop.
 */
export class ElementFamilies {
  private kids: Int32Array;
  private dads: Int32Array;
  /** Number of input (parent) and output (child) elements. */
  parentCount: number;
  childCount: number;

  /** `parents` input elements, parent h having the children k·h … k·h + k − 1. */
  constructor(
    readonly k: number,
    parents: number,
  ) {
    this.parentCount = parents;
    this.childCount = k * parents;
    this.kids = new Int32Array(Math.max(1, k * parents));
    this.dads = new Int32Array(Math.max(1, k * parents));
    for (let c = 0; c < k * parents; c++) {
      this.kids[c] = c;
      this.dads[c] = (c / k) | 0;
    }
  }

  /** The k child slots of parent h (a view; −1 for a child gone). */
  children(h: number): Int32Array {
    return this.kids.subarray(this.k * h, this.k * h + this.k);
  }

  /** The parent of child c, or −1. */
  parent(c: number): number {
    return c < this.childCount ? this.dads[c] : -1;
  }

  /** Parent h (an existing one, or the next one) gets the children first … first + k − 1. */
  setChildren(h: number, first: number): void {
    if (h >= this.parentCount) {
      this.kids = grown(this.kids, this.k * (h + 1));
      for (let i = this.k * this.parentCount; i < this.k * (h + 1); i++) this.kids[i] = -1;
      this.parentCount = h + 1;
    }
    for (let j = 0; j < this.k; j++) this.kids[this.k * h + j] = first + j;
  }

  /** Appends n children of parent p (−1: no parent). */
  appendChildren(p: number, n: number): void {
    this.dads = grown(this.dads, this.childCount + n);
    this.dads.fill(p, this.childCount, this.childCount + n);
    this.childCount += n;
  }

  /** Parents removed (descending): returns their remaining children; the moved parents' children are renamed. */
  removeParents(indices: ArrayLike<number>): number[] {
    const k = this.k,
      kids = this.kids,
      dads = this.dads;
    const out: number[] = [];
    let last = this.parentCount - 1;
    for (let r = 0; r < indices.length; r++, last--) {
      const h = indices[r];
      if (h > last) continue;
      for (let j = k * h; j < k * h + k; j++) {
        const c = kids[j];
        if (c < 0) continue;
        out.push(c);
        dads[c] = -1;
      }
      if (h === last) continue;
      for (let j = 0; j < k; j++) {
        const c = (kids[k * h + j] = kids[k * last + j]);
        if (c >= 0) dads[c] = h;
      }
    }
    this.parentCount = last + 1;
    return out;
  }

  /** Children removed (descending): their parents forget them, the moved children are renamed; returns how many had a parent. */
  removeChildren(indices: ArrayLike<number>): number {
    const k = this.k,
      kids = this.kids,
      dads = this.dads;
    let orphaned = 0;
    let last = this.childCount - 1;
    for (let r = 0; r < indices.length; r++, last--) {
      const c = indices[r];
      const gone = dads[c];
      if (gone >= 0) {
        orphaned++;
        for (let j = k * gone; j < k * gone + k; j++) if (kids[j] === c) kids[j] = -1;
      }
      if (c === last) continue;
      const moved = (dads[c] = dads[last]);
      if (moved >= 0) for (let j = k * moved; j < k * moved + k; j++) if (kids[j] === last) kids[j] = c;
    }
    this.childCount = last + 1;
    return orphaned;
  }
}

function grown(a: Int32Array, n: number): Int32Array {
  if (n <= a.length) return a;
  const b = new Int32Array(Math.max(n, 2 * a.length));
  b.set(a);
  return b;
}
