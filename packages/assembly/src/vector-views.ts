import type { SystemState } from './system-state.js';

/**
 * The per-state views of the system's global vectors: a master's part of a derivative vector
 * (v, f, dx) or of a coordinate vector (x) is a subarray, made once per vector and cached; a
 * "set" lists the arrays of every state (masters' views, then the mapped states' own arrays), the
 * argument form of masses, force fields and mappings. Also the dot product in SOFA's order.
 */
export class VectorViews {
  private readonly viewCache = new Map<Float64Array, Float64Array[]>();
  private readonly coordViewCache = new Map<Float64Array, Float64Array[]>();

  constructor(
    private readonly masters: readonly SystemState[],
    private readonly mappedStates: readonly SystemState[],
    private readonly boundaryStates: readonly SystemState[],
  ) {}

  /**
   * a·b summed as SOFA sums its matrix-free (per-state) vectors: per node, the product of the node's
   * derivatives (a rigid frame's translation part, then its rotation part, added), those node
   * products accumulated in node order per state, and the states' sums added. Same value as the
   * flat sum up to the last bits; CG solvers stopped early by a threshold need SOFA's bits.
   */
  dot(a: Float64Array, b: Float64Array): number {
    let total = 0;
    for (const m of this.masters) {
      const t = m.state.stateType;
      const d = t.derivSize;
      const g = t.isRigid ? t.spatialDimensions : d; // first group: a frame's translation, or the whole Vec
      let r = 0;
      for (let o = m.offset, end = m.offset + m.derivLength; o < end; o += d) {
        let s = a[o] * b[o];
        for (let k = 1; k < g; k++) s += a[o + k] * b[o + k];
        if (g < d) {
          let w = a[o + g] * b[o + g];
          for (let k = g + 1; k < d; k++) w += a[o + k] * b[o + k];
          s += w;
        }
        r += s;
      }
      total += r;
    }
    return total;
  }

  /** Views of a global derivative vector, one per master state (cached per vector). */
  views(vec: Float64Array): Float64Array[] {
    let v = this.viewCache.get(vec);
    if (!v) {
      v = this.masters.map((m) => vec.subarray(m.offset, m.offset + m.derivLength));
      this.viewCache.set(vec, v);
    }
    return v;
  }

  /** Views of a global coordinate vector, one per master state. */
  coordViews(vec: Float64Array): Float64Array[] {
    let v = this.coordViewCache.get(vec);
    if (!v) {
      v = this.masters.map((m) => vec.subarray(m.coordOffset, m.coordOffset + m.coordLength));
      this.coordViewCache.set(vec, v);
    }
    return v;
  }

  /**
   * Fills `set` with the per-state arrays of a global vector (masters), the given mapped arrays and
   * the given arrays of the boundary states (SystemGraph.boundaryStates).
   */
  fillSet(
    set: Float64Array[],
    masterViews: Float64Array[],
    mapped: (k: number) => Float64Array,
    boundary: (k: number) => Float64Array,
  ): Float64Array[] {
    const nm = this.masters.length;
    for (let i = 0; i < nm; i++) set[i] = masterViews[i];
    const nmm = nm + this.mappedStates.length;
    for (let k = 0; k < this.mappedStates.length; k++) set[nm + k] = mapped(k);
    for (let k = 0; k < this.boundaryStates.length; k++) set[nmm + k] = boundary(k);
    return set;
  }
}
