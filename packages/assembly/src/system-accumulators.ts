import { type MatrixAccumulator, type OutsideStateAccumulator, upperBlockIndex } from '@sofa-ts/core';
import type { FixedPatternAssembler } from '@sofa-ts/linalg';
import type { OutsideRecord } from './system-state.js';

// The accumulators the assembled system hands to its components: each turns a component's local
// indices into rows and columns of a global matrix.

/** Where the outside blocks go: value·J_s(d, ·) on row (or column) R of the system matrix; false past its rows. */
export interface OutsideEntryTarget {
  addOutsideEntries(s: number, d: number, R: number, value: number, asRow: boolean): boolean;
}

/** Forwards local (component) indices to the global assembler through the current index map. */
export class MappedAccumulator implements MatrixAccumulator {
  map: Int32Array = new Int32Array(0);
  constructor(private readonly target: FixedPatternAssembler) {}
  add(row: number, col: number, value: number): void {
    this.target.add(this.map[row], this.map[col], value);
  }
  /** A 3x3 block stays one block when its rows and columns are contiguous globally (a point's dofs). */
  addBlock3(row: number, col: number, block: ArrayLike<number>, offset: number, factor: number): void {
    const map = this.map;
    const r = map[row],
      c = map[col];
    if (map[row + 2] === r + 2 && map[col + 2] === c + 2 && map[row + 1] === r + 1 && map[col + 1] === c + 1) {
      this.target.addBlock3(r, c, block, offset, factor);
      return;
    }
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) this.target.add(map[row + i], map[col + j], factor * block[offset + 3 * i + j]);
    }
  }
  /** (n) global first rows of an element's nodes, for addElement3. */
  private starts = new Int32Array(8);
  /** An element's n² blocks at once when each node's 3 dofs are contiguous globally. */
  addElement3(nodes: ArrayLike<number>, e: number, n: number, K: ArrayLike<number>, factor: number): void {
    if (this.contiguousStarts(nodes, e, n)) {
      this.target.addElementBlocks3(this.starts, n, K, factor);
      return;
    }
    const stride = 3 * n,
      blk = this.blk;
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        const o = 3 * stride * i + 3 * j;
        for (let p = 0; p < 3; p++) for (let q = 0; q < 3; q++) blk[3 * p + q] = K[o + stride * p + q];
        this.addBlock3(3 * nodes[n * e + i], 3 * nodes[n * e + j], blk, 0, factor);
      }
  }
  private readonly blk = new Float64Array(9);

  /**
   * Symmetric elements by their upper blocks (MatrixAccumulator.addSymmetricElements3): the first
   * rows of every element go to the assembler's batch, which refills them in one call when each
   * node's 3 dofs are contiguous globally; otherwise element by element, block by block.
   */
  addSymmetricElements3(nodes: ArrayLike<number>, e0: number, count: number, n: number, U: Float64Array, factor: number): void {
    const nu = (9 * n * (n + 1)) / 2;
    const batch = this.target.elementStartsBuffer(count * n);
    let contiguous = true;
    for (let k = 0; k < count && contiguous; k++) {
      contiguous = this.contiguousStarts(nodes, e0 + k, n);
      for (let i = 0; i < n; i++) batch[k * n + i] = this.starts[i];
    }
    if (contiguous) {
      this.target.addSymmetricElementsBatch(batch, count, n, U, factor);
      return;
    }
    const blk = this.blk;
    for (let k = 0; k < count; k++) {
      const e = e0 + k,
        uo = k * nu;
      if (this.contiguousStarts(nodes, e, n)) {
        this.target.addSymmetricElementBlocks3(this.starts, n, U, factor, 0, uo);
        continue;
      }
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++) {
          if (j >= i) {
            const u = uo + 9 * upperBlockIndex(n, i, j);
            for (let t = 0; t < 9; t++) blk[t] = U[u + t];
          } else {
            const u = uo + 9 * upperBlockIndex(n, j, i);
            for (let p = 0; p < 3; p++) for (let t = 0; t < 3; t++) blk[3 * p + t] = U[u + 3 * t + p];
          }
          this.addBlock3(3 * nodes[n * e + i], 3 * nodes[n * e + j], blk, 0, factor);
        }
    }
  }

  symmetricElementBuffer(n: number, count: number): Float64Array | undefined {
    return this.target.symmetricElementBuffer(n, count);
  }

  /** Fills `starts` with the global first rows of element e's nodes; true when each node's 3 dofs are contiguous. */
  private contiguousStarts(nodes: ArrayLike<number>, e: number, n: number): boolean {
    const map = this.map;
    if (this.starts.length < n) this.starts = new Int32Array(n);
    const st = this.starts;
    let contiguous = true;
    for (let i = 0; i < n; i++) {
      const l = 3 * nodes[n * e + i],
        g = map[l];
      st[i] = g;
      if (map[l + 1] !== g + 1 || map[l + 2] !== g + 2) contiguous = false;
    }
    return contiguous;
  }
}

/** The accumulator handed to addOutsideStateKToMatrix: outside dofs at the tops of the inside state. */
export class OutsideAccumulator implements OutsideStateAccumulator {
  private sys: OutsideEntryTarget | undefined;
  private rec: OutsideRecord | undefined;
  dropped = 0;
  bind(sys: OutsideEntryTarget, rec: OutsideRecord): void {
    this.sys = sys;
    this.rec = rec;
    this.dropped = 0;
  }
  addOutsideRow(o: number, arg: number, d: number, value: number): void {
    const r = this.rec!;
    for (const top of r.tops[arg]) if (!this.sys!.addOutsideEntries(r.states[arg], d, top + o, value, true)) this.dropped++;
  }
  addOutsideCol(arg: number, d: number, o: number, value: number): void {
    const r = this.rec!;
    for (const top of r.tops[arg]) if (!this.sys!.addOutsideEntries(r.states[arg], d, top + o, value, false)) this.dropped++;
  }
}

/** Forwards a constraint's rows of P to the global projection, marking the rows it emits. */
export class ProjectionAccumulator implements MatrixAccumulator {
  offset = 0;
  constructor(
    private readonly target: FixedPatternAssembler,
    private readonly rowMask: Uint8Array,
  ) {}
  add(row: number, col: number, value: number): void {
    this.rowMask[this.offset + row] = 1;
    this.target.add(this.offset + row, this.offset + col, value);
  }
}
