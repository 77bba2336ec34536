import { type CsrMatrix, createCsr, sortByRowThenColumn } from './csr.js';

/** Options of {@link FixedPatternAssembler}. */
export interface FixedPatternAssemblerOptions {
  /** Force every diagonal entry (i, i), i < min(rows, cols), into the pattern (value 0 if never emitted). */
  withDiagonal?: boolean;
}

/** Integers per operation of a refill: row, column, and three value slots. */
const OP_STRIDE = 5;

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
 * pass, so each refill is `values[slot] += v` guarded by two integer compares.
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
 *
 * A refill does not walk the scalar recording: `endSymbolic` compiles it into a table of
 * operations, one per `add` and one per 3x3 block (`addBlock3`, `addElementBlocks3`), holding the
 * recorded (row, column) and the value slots (for a block, those of its entries (0,0), (1,0) and
 * (2,0): the three entries of a block row are consecutive, every column of the block being in the
 * pattern). A block is checked once and written through three slots: a refill reads 20 bytes per
 * block instead of 9 recorded entries. Each value still receives the same terms in the same order.
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
  /**
   * The refill's operations (built by endSymbolic), OP_STRIDE integers each: recorded row and
   * column, then the value slot of an `add`, or of entries (0,0), (1,0), (2,0) of a block;
   * a scalar operation has −1 in its second slot.
   */
  private ops: Int32Array = new Int32Array(0);
  /** Number of operations × OP_STRIDE. */
  private opsEnd = 0;
  /** Position in `ops` of the current numeric pass. */
  private cursor = 0;
  /** Entries of the current block operation already consumed by single `add`s (0 … 8). */
  private sub = 0;

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
    this.compileOps(slot, m);
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
    this.sub = 0;
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
    if (this.cursor !== this.opsEnd || this.sub !== 0) this.valid = false;
    return this.valid;
  }

  /** Emits A(r, c) += v. */
  add(r: number, c: number, v: number): void {
    if (this.phase === Phase.Numeric) {
      if (!this.valid) return;
      const q = this.cursor, ops = this.ops;
      if (q >= this.opsEnd) {
        this.valid = false;
        return;
      }
      if (ops[q + 3] < 0) {
        if (ops[q] !== r || ops[q + 1] !== c) {
          this.valid = false;
          return;
        }
        this.matrix!.values[ops[q + 2]] += v;
        this.cursor = q + OP_STRIDE;
        return;
      }
      // entry `sub` of a recorded block, emitted on its own
      const t = this.sub, i = (t / 3) | 0, j = t - 3 * i;
      if (ops[q] + i !== r || ops[q + 1] + j !== c) {
        this.valid = false;
        return;
      }
      this.matrix!.values[ops[q + 2 + i] + j] += v;
      if (t === 8) {
        this.sub = 0;
        this.cursor = q + OP_STRIDE;
      } else this.sub = t + 1;
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
      const q = this.cursor, ops = this.ops;
      if (q >= this.opsEnd || this.sub !== 0 || ops[q + 3] < 0 || ops[q] !== r0 || ops[q + 1] !== c0) {
        this.valid = false;
        return;
      }
      const v = this.matrix!.values;
      const s0 = ops[q + 2], s1 = ops[q + 3], s2 = ops[q + 4];
      v[s0] += factor * block[offset];
      v[s0 + 1] += factor * block[offset + 1];
      v[s0 + 2] += factor * block[offset + 2];
      v[s1] += factor * block[offset + 3];
      v[s1 + 1] += factor * block[offset + 4];
      v[s1 + 2] += factor * block[offset + 5];
      v[s2] += factor * block[offset + 6];
      v[s2 + 1] += factor * block[offset + 7];
      v[s2 + 2] += factor * block[offset + 8];
      this.cursor = q + OP_STRIDE;
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
      let q = this.cursor;
      if (q + OP_STRIDE * n * n > this.opsEnd || this.sub !== 0) {
        this.valid = false;
        return;
      }
      const v = this.matrix!.values, ops = this.ops;
      for (let i = 0; i < n; i++) {
        const r0 = starts[i]!;
        for (let j = 0; j < n; j++, q += OP_STRIDE) {
          const s1 = ops[q + 3];
          if (s1 < 0 || ops[q] !== r0 || ops[q + 1] !== starts[j]!) {
            this.valid = false;
            return;
          }
          const s0 = ops[q + 2], s2 = ops[q + 4];
          const o = 3 * stride * i + 3 * j;
          v[s0] += factor * K[o]!;
          v[s0 + 1] += factor * K[o + 1]!;
          v[s0 + 2] += factor * K[o + 2]!;
          v[s1] += factor * K[o + stride]!;
          v[s1 + 1] += factor * K[o + stride + 1]!;
          v[s1 + 2] += factor * K[o + stride + 2]!;
          v[s2] += factor * K[o + 2 * stride]!;
          v[s2 + 1] += factor * K[o + 2 * stride + 1]!;
          v[s2 + 2] += factor * K[o + 2 * stride + 2]!;
        }
      }
      this.cursor = q;
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

  /**
   * Emits factor·K for a symmetric element matrix given by its upper blocks U (n(n+1)/2 row-major
   * 3x3 blocks (i, j), i ≤ j, in the order (0,0), (0,1), …, (1,1), …; block (j, i) = block (i, j)ᵀ):
   * the same emission, and the same values, as `addElementBlocks3` with the full matrix.
   */
  addSymmetricElementBlocks3(starts: ArrayLike<number>, n: number, U: ArrayLike<number>, factor: number): void {
    if (this.phase === Phase.Numeric) {
      if (!this.valid) return;
      const q0 = this.cursor, ops = this.ops;
      if (q0 + OP_STRIDE * n * n > this.opsEnd || this.sub !== 0) {
        this.valid = false;
        return;
      }
      // the recorded blocks, and distinct nodes (then the order of the blocks within the element
      // does not matter: each entry receives one term of it)
      for (let i = 0, q = q0; i < n; i++) {
        const r0 = starts[i]!;
        for (let j = 0; j < n; j++, q += OP_STRIDE) {
          if (ops[q + 3] < 0 || ops[q] !== r0 || ops[q + 1] !== starts[j]!) {
            this.valid = false;
            return;
          }
          if (j > i && starts[j] === r0) return this.addSymmetricElementInOrder(starts, n, U, factor);
        }
      }
      const v = this.matrix!.values, S = OP_STRIDE;
      for (let i = 0, u = 0; i < n; i++) {
        for (let j = i; j < n; j++, u += 9) {
          const f0 = factor * U[u]!, f1 = factor * U[u + 1]!, f2 = factor * U[u + 2]!;
          const f3 = factor * U[u + 3]!, f4 = factor * U[u + 4]!, f5 = factor * U[u + 5]!;
          const f6 = factor * U[u + 6]!, f7 = factor * U[u + 7]!, f8 = factor * U[u + 8]!;
          // block (i, j)
          let q = q0 + S * (n * i + j);
          let s0 = ops[q + 2], s1 = ops[q + 3], s2 = ops[q + 4];
          v[s0] += f0; v[s0 + 1] += f1; v[s0 + 2] += f2;
          v[s1] += f3; v[s1 + 1] += f4; v[s1 + 2] += f5;
          v[s2] += f6; v[s2 + 1] += f7; v[s2 + 2] += f8;
          if (j === i) continue;
          // block (j, i) = its transpose
          q = q0 + S * (n * j + i);
          s0 = ops[q + 2]; s1 = ops[q + 3]; s2 = ops[q + 4];
          v[s0] += f0; v[s0 + 1] += f3; v[s0 + 2] += f6;
          v[s1] += f1; v[s1 + 1] += f4; v[s1 + 2] += f7;
          v[s2] += f2; v[s2 + 1] += f5; v[s2 + 2] += f8;
        }
      }
      this.cursor = q0 + OP_STRIDE * n * n;
    } else {
      this.addSymmetricElementInOrder(starts, n, U, factor);
    }
  }

  /** The n² blocks of a symmetric element one by one in row-major order (symbolic pass, or an element whose nodes repeat). */
  private addSymmetricElementInOrder(starts: ArrayLike<number>, n: number, U: ArrayLike<number>, factor: number): void {
    const b = this.blk3;
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        if (j >= i) {
          const u = 9 * (i * n - ((i * (i - 1)) >> 1) + j - i);
          for (let t = 0; t < 9; t++) b[t] = U[u + t]!;
        } else {
          const u = 9 * (j * n - ((j * (j - 1)) >> 1) + i - j);
          for (let p = 0; p < 3; p++) for (let t = 0; t < 3; t++) b[3 * p + t] = U[u + 3 * t + p]!;
        }
        this.addBlock3(starts[i]!, starts[j]!, b, 0, factor);
      }
  }

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

  /**
   * The operation table of the recorded sequence: an `add` gives (row, col, slot, −1, −1), a block
   * (row, col, slot of (0,0), slot of (1,0), slot of (2,0)).
   */
  private compileOps(slot: Int32Array, m: number): void {
    const rb = this.recBlock, rr = this.recRow, rc = this.recCol;
    let nops = 0;
    for (let k = 0; k < m; k += rb[k] === 1 ? 9 : 1) nops++;
    const ops = this.ops.length >= nops * OP_STRIDE ? this.ops : new Int32Array(nops * OP_STRIDE);
    let q = 0;
    for (let k = 0; k < m; q += OP_STRIDE) {
      ops[q] = rr[k];
      ops[q + 1] = rc[k];
      ops[q + 2] = slot[k];
      if (rb[k] === 1) {
        ops[q + 3] = slot[k + 3];
        ops[q + 4] = slot[k + 6];
        k += 9;
      } else {
        ops[q + 3] = -1;
        ops[q + 4] = -1;
        k++;
      }
    }
    this.ops = ops;
    this.opsEnd = q;
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
