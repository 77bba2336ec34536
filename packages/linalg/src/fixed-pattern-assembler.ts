import { type CsrMatrix, createCsr, sortByRowThenColumn } from './csr.js';

/** Options of {@link FixedPatternAssembler}. */
export interface FixedPatternAssemblerOptions {
  /** Force every diagonal entry (i, i), i < min(rows, cols), into the pattern (value 0 if never emitted). */
  withDiagonal?: boolean;
}

const enum Phase {
  Idle = 0,
  Symbolic = 1,
  Numeric = 2,
}

/**
 * Assembles a sparse matrix whose pattern is built once and whose values are refilled every step.
 *
 * Components emit entries with `add(r, c, v)` (or `addBlock`) in a deterministic order; the k-th
 * emission of a refill is expected to hit the same (r, c) as the k-th emission of the symbolic
 * pass, so each refill is `values[slot[k++]] += v` guarded by two integer compares.
 *
 * Protocol (what a caller such as a linear-system assembler does each step):
 * ```
 *   asm.beginNumeric();  emitAll(asm);
 *   if (!asm.endNumeric()) {            // first step, or the emission sequence changed
 *     asm.beginSymbolic(); emitAll(asm);
 *     A = asm.endSymbolic();            // new pattern (and values); re-analyse factorizations
 *   }
 * ```
 * - Symbolic pass: `add` records (r, c, v); `endSymbolic()` builds the CSR pattern (rows sorted,
 *   duplicates merged, diagonal forced if `withDiagonal`), the slot map, and the values of this
 *   pass, so a symbolic pass doubles as the first numeric one. It returns a *new* matrix object
 *   and increments `patternVersion`; holders of the previous matrix must drop it.
 * - Numeric pass: `beginNumeric()` zeroes the values in place; each `add` checks that its (r, c)
 *   equals the recorded k-th emission. On the first mismatch (or an emission beyond the recorded
 *   count) `valid` becomes false and nothing more is written. `endNumeric()` also requires the
 *   emission count to match and returns `valid`. After an invalid refill the values are garbage
 *   until the symbolic pass is rerun.
 * Before any symbolic pass, a numeric pass is simply invalid (no pattern yet).
 * Entries must be emitted even when their value is zero, or the sequence no longer matches.
 */
export class FixedPatternAssembler {
  readonly rows: number;
  readonly cols: number;
  readonly withDiagonal: boolean;
  /** Whether the last (or current) numeric pass matched the recorded emission sequence. */
  valid = false;
  /** The assembled matrix (null before the first symbolic pass). */
  matrix: CsrMatrix | null = null;
  /** Incremented by every `endSymbolic`; lets consumers detect pattern changes cheaply. */
  patternVersion = 0;

  private phase: Phase = Phase.Idle;
  // Symbolic-phase recording (growable): emission k is (recRow[k], recCol[k]) with value recVal[k].
  private recRow: Int32Array = new Int32Array(64);
  private recCol: Int32Array = new Int32Array(64);
  private recVal: Float64Array = new Float64Array(64);
  /** 1 where emission k starts a 3x3 block emitted by addBlock3 (its 9 entries follow in row-major order). */
  private recBlock: Uint8Array = new Uint8Array(64);
  /** Number of emissions recorded by the last symbolic pass (or being recorded). */
  private count = 0;
  /** (count) slot[k] = index into matrix.values of the k-th emission. */
  private slot: Int32Array = new Int32Array(0);
  /** Emissions consumed so far in the current numeric pass. */
  private cursor = 0;

  constructor(rows: number, cols: number, options: FixedPatternAssemblerOptions = {}) {
    if (!(rows >= 0 && cols >= 0)) throw new Error(`FixedPatternAssembler: bad shape ${rows}x${cols}`);
    this.rows = rows;
    this.cols = cols;
    this.withDiagonal = options.withDiagonal ?? false;
  }

  /** Number of emissions in the recorded sequence. */
  get emissionCount(): number {
    return this.count;
  }

  /** Starts recording a new emission sequence (forgets the previous one). */
  beginSymbolic(): void {
    this.phase = Phase.Symbolic;
    this.count = 0;
  }

  /** Builds the pattern and slot map from the recorded emissions; returns the new matrix. */
  endSymbolic(): CsrMatrix {
    if (this.phase !== Phase.Symbolic) throw new Error('FixedPatternAssembler.endSymbolic without beginSymbolic');
    const m = this.count;
    const nd = this.withDiagonal ? Math.min(this.rows, this.cols) : 0;
    const total = m + nd;
    // Emissions followed by the forced diagonal entries (indices m..m+nd-1, value 0).
    const r = new Int32Array(total);
    const c = new Int32Array(total);
    r.set(this.recRow.subarray(0, m));
    c.set(this.recCol.subarray(0, m));
    for (let i = 0; i < nd; i++) {
      r[m + i] = i;
      c[m + i] = i;
    }
    const order = sortByRowThenColumn(this.rows, this.cols, r, c, total);
    const rowPtr = new Int32Array(this.rows + 1);
    const slot = new Int32Array(m);
    const colIndTmp = new Int32Array(total);
    let q = -1;
    let prevR = -1;
    let prevC = -1;
    for (let t = 0; t < total; t++) {
      const k = order[t];
      if (r[k] !== prevR || c[k] !== prevC) {
        q++;
        prevR = r[k];
        prevC = c[k];
        colIndTmp[q] = prevC;
        rowPtr[prevR + 1]++;
      }
      if (k < m) slot[k] = q;
    }
    for (let i = 0; i < this.rows; i++) rowPtr[i + 1] += rowPtr[i];
    const nnz = q + 1;
    const values = new Float64Array(nnz);
    const rv = this.recVal;
    for (let k = 0; k < m; k++) values[slot[k]] += rv[k];
    this.slot = slot;
    this.matrix = createCsr(this.rows, this.cols, rowPtr, colIndTmp.slice(0, nnz), values);
    this.phase = Phase.Idle;
    this.valid = true;
    this.patternVersion++;
    return this.matrix;
  }

  /** Starts a refill: zeroes the values (no allocation). */
  beginNumeric(): void {
    this.phase = Phase.Numeric;
    this.cursor = 0;
    if (this.matrix) {
      this.matrix.values.fill(0);
      this.valid = true;
    } else {
      this.valid = false;
    }
  }

  /** Ends a refill; true iff every emission matched the recorded sequence and none was missing. */
  endNumeric(): boolean {
    if (this.phase !== Phase.Numeric) throw new Error('FixedPatternAssembler.endNumeric without beginNumeric');
    this.phase = Phase.Idle;
    if (this.cursor !== this.count) this.valid = false;
    return this.valid;
  }

  /** Emits A(r, c) += v. */
  add(r: number, c: number, v: number): void {
    if (this.phase === Phase.Numeric) {
      if (!this.valid) return;
      const k = this.cursor;
      if (k >= this.count || this.recRow[k] !== r || this.recCol[k] !== c) {
        this.valid = false;
        return;
      }
      this.matrix!.values[this.slot[k]] += v;
      this.cursor = k + 1;
    } else if (this.phase === Phase.Symbolic) {
      this.record(r, c, v);
    } else {
      throw new Error('FixedPatternAssembler.add outside beginSymbolic/beginNumeric');
    }
  }

  /**
   * Emits factor·block[offset .. offset+9) (row-major 3x3) at (r0, c0): the same emission as 9
   * `add` calls in row-major order, but a refill checks one recorded block start instead of 9
   * entries (the symbolic pass marks where addBlock3 emitted).
   */
  addBlock3(r0: number, c0: number, block: ArrayLike<number>, offset: number, factor: number): void {
    if (this.phase === Phase.Numeric) {
      if (!this.valid) return;
      const k = this.cursor;
      if (k + 9 > this.count || this.recBlock[k] !== 1 || this.recRow[k] !== r0 || this.recCol[k] !== c0) {
        this.valid = false;
        return;
      }
      const v = this.matrix!.values, slot = this.slot;
      for (let t = 0; t < 9; t++) v[slot[k + t]] += factor * block[offset + t];
      this.cursor = k + 9;
    } else if (this.phase === Phase.Symbolic) {
      const k0 = this.count;
      for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) this.record(r0 + i, c0 + j, factor * block[offset + 3 * i + j]);
      this.recBlock[k0] = 1;
    } else {
      throw new Error('FixedPatternAssembler.addBlock3 outside beginSymbolic/beginNumeric');
    }
  }

  /**
   * Emits factor·K, the (3n × 3n) row-major matrix of an element whose node i has its rows and
   * columns at starts[i] … starts[i]+2: the same emission as the n² addBlock3 calls of its blocks in
   * row-major block order, in one call (a refill checks each block's recorded start, reads K in place).
   */
  addElementBlocks3(starts: ArrayLike<number>, n: number, K: ArrayLike<number>, factor: number): void {
    const stride = 3 * n;
    if (this.phase === Phase.Numeric) {
      if (!this.valid) return;
      let k = this.cursor;
      if (k + 9 * n * n > this.count) {
        this.valid = false;
        return;
      }
      const v = this.matrix!.values, slot = this.slot, rb = this.recBlock, rr = this.recRow, rc = this.recCol;
      for (let i = 0; i < n; i++) {
        const r0 = starts[i]!;
        for (let j = 0; j < n; j++, k += 9) {
          if (rb[k] !== 1 || rr[k] !== r0 || rc[k] !== starts[j]!) {
            this.valid = false;
            return;
          }
          const o = 3 * stride * i + 3 * j;
          v[slot[k]] += factor * K[o]!;
          v[slot[k + 1]] += factor * K[o + 1]!;
          v[slot[k + 2]] += factor * K[o + 2]!;
          v[slot[k + 3]] += factor * K[o + stride]!;
          v[slot[k + 4]] += factor * K[o + stride + 1]!;
          v[slot[k + 5]] += factor * K[o + stride + 2]!;
          v[slot[k + 6]] += factor * K[o + 2 * stride]!;
          v[slot[k + 7]] += factor * K[o + 2 * stride + 1]!;
          v[slot[k + 8]] += factor * K[o + 2 * stride + 2]!;
        }
      }
      this.cursor = k;
    } else {
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++) {
          const o = 3 * stride * i + 3 * j;
          for (let p = 0; p < 3; p++) {
            const b = this.blk3;
            b[3 * p] = K[o + stride * p]!;
            b[3 * p + 1] = K[o + stride * p + 1]!;
            b[3 * p + 2] = K[o + stride * p + 2]!;
            if (p === 2) this.addBlock3(starts[i]!, starts[j]!, b, 0, factor);
          }
        }
    }
  }
  private readonly blk3 = new Float64Array(9);

  /** Emits a dense size x size block (row-major) at (r0, c0): entries in row-major order. */
  addBlock(r0: number, c0: number, size: number, block: ArrayLike<number>): void {
    this.addRectBlock(r0, c0, size, size, block);
  }

  /** Emits a dense nr x nc block (row-major) at (r0, c0): entries in row-major order. */
  addRectBlock(r0: number, c0: number, nr: number, nc: number, block: ArrayLike<number>): void {
    for (let i = 0; i < nr; i++) {
      for (let j = 0; j < nc; j++) this.add(r0 + i, c0 + j, block[i * nc + j]);
    }
  }

  private record(r: number, c: number, v: number): void {
    if (!(r >= 0 && r < this.rows && c >= 0 && c < this.cols) || (r | 0) !== r || (c | 0) !== c) {
      throw new Error(`FixedPatternAssembler.add: entry (${r}, ${c}) outside ${this.rows}x${this.cols}`);
    }
    const k = this.count;
    if (k === this.recRow.length) {
      const cap = 2 * k;
      const nr = new Int32Array(cap);
      nr.set(this.recRow);
      this.recRow = nr;
      const nc = new Int32Array(cap);
      nc.set(this.recCol);
      this.recCol = nc;
      const nv = new Float64Array(cap);
      nv.set(this.recVal);
      this.recVal = nv;
      const nb = new Uint8Array(cap);
      nb.set(this.recBlock);
      this.recBlock = nb;
    }
    this.recBlock[k] = 0;
    this.recRow[k] = r;
    this.recCol[k] = c;
    this.recVal[k] = v;
    this.count = k + 1;
  }
}
