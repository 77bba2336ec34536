/*
 * The fixed-pattern assembler (FixedPatternAssembler, below): a symbolic pass records where each
 * emitted entry lands, numeric passes refill the values in the recorded order.
 * Long file: the symbolic recording, its compaction into the operation table and the two refills
 * (JavaScript and the WebAssembly kernel's, element-scatter-wasm.ts) share that one table layout.
 */
import { type CsrMatrix, createCsr } from './csr.js';
import { SCATTER_HEADER, SCATTER_HEADER_BYTES, SCATTER_MAX_NODES, elementScatterModule } from './wasm/element-scatter-wasm.js';
import { wasmApi } from './wasm/wasm-module.js';

/** Options of {@link FixedPatternAssembler}. */
export interface FixedPatternAssemblerOptions {
  /** Force every diagonal entry (i, i), i < min(rows, cols), into the pattern (value 0 if never emitted). */
  withDiagonal?: boolean;
  /**
   * false: the symbolic pass records the entries' positions only (8 bytes less per emission), and
   * endSymbolic's matrix has zero values; the caller refills it with a numeric pass right after
   * (the same sums in the same order, so the same values to the bit). Default true.
   */
  recordValues?: boolean;
}

const enum Phase {
  Idle = 0,
  Symbolic = 1,
  Numeric = 2,
}

/** Elements per batch of the WebAssembly refill (the staging areas). */
export const ELEMENT_BATCH = 64;
/** Below this many values the refill stays in JavaScript. */
const KERNEL_MIN_VALUES = 4096;

/**
 * The WebAssembly refill of symmetric elements (element-scatter-wasm.ts) over a memory holding the
 * matrix's values, the operation table, the row pointers and the staging areas of a batch.
 */
interface ScatterKernel {
  scatter: (count: number, n: number, factor: number) => void;
  header: Int32Array;
  /** (ELEMENT_BATCH × maxNodes) first rows, (ELEMENT_BATCH × 9·maxNodes(maxNodes+1)/2) upper blocks. */
  starts: Int32Array;
  U: Float64Array;
  maxNodes: number;
}

/** Integers of a scalar or block operation of a refill: row, column, and three value slots. */
const OP_STRIDE = 5;

/**
 * Assembles a sparse matrix whose pattern is built once and whose values are refilled every step.
 *
 * Components emit entries with `add(r, c, v)` (or `addBlock`) in a deterministic order; the k-th
 * emission of a refill is expected to hit the same (r, c) as the k-th emission of the symbolic
 * pass, so each refill is `values[slot] += v` guarded by integer compares.
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
 * operations (`ops`), each checked once and written through its value slots:
 * - an `add`: (row, col, slot, −1, −1);
 * - a 3x3 block (`addBlock3`): (row, col, s0, s1, s2), the slots of its entries (0,0), (1,0), (2,0)
 *   (the three entries of a block row are consecutive: every column of the block is in the pattern);
 * - an element of n nodes (`addElementBlocks3`, `addSymmetricElementBlocks3`) whose rows have the
 *   same columns within each node's three rows (then s1 = s0 + the length of the block's first row,
 *   and so on): (−1 − n, the n first rows, the n² slots s0), checked by its n first rows. Other
 *   elements are compiled block by block.
 * Each value still receives the same terms in the same order as the recorded pass.
 *
 * Batches of symmetric elements (`addSymmetricElementsBatch`) are refilled by a WebAssembly kernel
 * (element-scatter-wasm.ts, the same operations in the same order) where WebAssembly is available:
 * the matrix's values then live in the kernel's memory (`matrix.values` is a view of it), and the
 * caller may write the elements' blocks and rows straight into its staging areas
 * (`symmetricElementBuffer`, `elementStartsBuffer`).
 */
export class FixedPatternAssembler {
  readonly rows: number;
  readonly cols: number;
  readonly withDiagonal: boolean;
  readonly recordValues: boolean;
  /** Whether the last (or current) numeric pass matched the recorded emission sequence. */
  valid = false;
  /** The assembled matrix (null before the first symbolic pass). */
  matrix: CsrMatrix | null = null;
  /** Incremented by every `endSymbolic`; lets consumers detect pattern changes cheaply. */
  patternVersion = 0;

  private phase: Phase = Phase.Idle;
  // Symbolic-phase recording (growable), by items: item t is a scalar entry or a 3x3 block at
  // (recRow[t], recCol[t]) (recBlock[t] says which); the values, when recorded, in emission order
  // (one per scalar, nine per block, row-major).
  private recRow: Int32Array = new Int32Array(64);
  private recCol: Int32Array = new Int32Array(64);
  private recVal: Float64Array = new Float64Array(64);
  /**
   * Item t: 0 a scalar entry (`add`), 1 a 3x3 block (addBlock3), or 1 + n the first block of an
   * element of n nodes (its n² blocks are the items that follow, in row-major block order).
   */
  private recBlock: Uint8Array = new Uint8Array(64);
  /** Number of items recorded by the last symbolic pass (or being recorded). */
  private items = 0;
  /** Number of emissions (scalar entries) recorded by the last symbolic pass (or being recorded). */
  private count = 0;
  /**
   * A numeric pass without a pattern counts the items and emissions (counting, countedItems,
   * counted), so that the symbolic pass after it records into arrays of that exact size.
   */
  private counting = false;
  private counted = 0;
  private countedItems = 0;
  /** The refill's operations, built by endSymbolic (see the class comment). */
  private ops: Int32Array = new Int32Array(0);
  /** Length of `ops` in use. */
  private opsEnd = 0;
  /** Position in `ops` of the current numeric pass. */
  private cursor = 0;
  /** Entries of the current block operation already consumed by single `add`s (0 … 8). */
  private sub = 0;
  /**
   * The element being refilled (takeElement): the slot of entry (0,0) of its block b is
   * eSrc[eBase + b]; rows 1 and 2 of the block start rowLen0[i] and rowLen0[i] + rowLen1[i] further
   * (i its row node), or, for an element compiled block by block (ePerBlock), at s1[b] and s2[b].
   */
  private eSrc: Int32Array = new Int32Array(0);
  private eBase = 0;
  private ePerBlock = false;
  private rowLen0: Int32Array = new Int32Array(8);
  private rowLen1: Int32Array = new Int32Array(8);
  private s0: Int32Array = new Int32Array(64);
  private s1: Int32Array = new Int32Array(64);
  private s2: Int32Array = new Int32Array(64);
  private readonly blk3 = new Float64Array(9);
  private kernel: ScatterKernel | undefined;
  /** Scratch of element first rows when there is no kernel. */
  private startsScratch = new Int32Array(0);

  constructor(rows: number, cols: number, options: FixedPatternAssemblerOptions = {}) {
    if (!(rows >= 0 && cols >= 0)) throw new Error(`FixedPatternAssembler: bad shape ${rows}x${cols}`);
    this.rows = rows;
    this.cols = cols;
    this.withDiagonal = options.withDiagonal ?? false;
    this.recordValues = options.recordValues ?? true;
  }

  /** Number of emissions in the recorded sequence. */
  get emissionCount(): number {
    return this.count;
  }

  /** Starts recording a new emission sequence (forgets the previous one). */
  beginSymbolic(): void {
    this.phase = Phase.Symbolic;
    this.count = 0;
    this.items = 0;
    // the recording sized once: the items of the numeric pass that found no pattern
    if (this.counting && this.countedItems > this.recRow.length) this.allocateRecording(this.countedItems, this.counted);
    this.counting = false;
  }

  /** Recording arrays of `capacity` items and `values` values (their contents dropped). */
  private allocateRecording(capacity: number, values: number): void {
    this.recRow = new Int32Array(capacity);
    this.recCol = new Int32Array(capacity);
    this.recVal = new Float64Array(this.recordValues ? values : 0);
    this.recBlock = new Uint8Array(capacity);
  }

  /**
   * Builds the pattern and slot map from the recorded items; returns the new matrix. Row by row:
   * the columns of the items touching the row (a block three consecutive columns in each of its
   * three rows) and the forced diagonal, sorted and merged; then the slot of each item's first row.
   * The slots of a block's rows 1 and 2 are found in the pattern when the operations are compiled
   * (rowSlot), so that the build holds one reference and one slot per item, not three.
   */
  endSymbolic(): CsrMatrix {
    if (this.phase !== Phase.Symbolic) throw new Error('FixedPatternAssembler.endSymbolic without beginSymbolic');
    const nt = this.items;
    const rows = this.rows;
    const nd = this.withDiagonal ? Math.min(rows, this.cols) : 0;
    const rr = this.recRow,
      rc = this.recCol,
      rb = this.recBlock;
    // the items by their first row, in item order (a block touches the two rows below too), then
    // the diagonal entries (−1 − i for entry i)
    const runPtr = new Int32Array(rows + 1);
    for (let t = 0; t < nt; t++) runPtr[rr[t] + 1]++;
    for (let i = 0; i < nd; i++) runPtr[i + 1]++;
    for (let i = 0; i < rows; i++) runPtr[i + 1] += runPtr[i];
    const runRef = new Int32Array(runPtr[rows]);
    const fill = runPtr.slice(0, rows);
    for (let t = 0; t < nt; t++) runRef[fill[rr[t]]++] = t;
    for (let i = 0; i < nd; i++) runRef[fill[i]++] = -1 - i;
    // the columns of each row (stamp: the last row a column was seen in), counted, then listed
    const stamp = new Int32Array(this.cols).fill(-1);
    const colPos = new Int32Array(this.cols);
    let rowCols = new Int32Array(64);
    const rowPtr = new Int32Array(rows + 1);
    let k = 0;
    const take = (r: number, c0: number, len: number): void => {
      for (let c = c0; c < c0 + len; c++) {
        if (stamp[c] === r) continue;
        stamp[c] = r;
        if (k === rowCols.length) {
          const grown = new Int32Array(2 * k);
          grown.set(rowCols);
          rowCols = grown;
        }
        rowCols[k++] = c;
      }
    };
    const rowColumns = (r: number): number => {
      k = 0;
      for (let q = runPtr[r]; q < runPtr[r + 1]; q++) {
        const t = runRef[q];
        if (t < 0) take(r, -1 - t, 1);
        else take(r, rc[t], rb[t] !== 0 ? 3 : 1);
      }
      // the blocks whose first row is one or two rows above
      for (let above = r - 2; above < r; above++) {
        if (above < 0) continue;
        for (let q = runPtr[above]; q < runPtr[above + 1]; q++) {
          const t = runRef[q];
          if (t >= 0 && rb[t] !== 0) take(r, rc[t], 3);
        }
      }
      rowCols.subarray(0, k).sort();
      return k;
    };
    for (let r = 0; r < rows; r++) rowPtr[r + 1] = rowPtr[r] + rowColumns(r);
    stamp.fill(-1);
    const nnz = rowPtr[rows];
    const colInd = new Int32Array(nnz);
    // slot[t]: the slot of the first entry of item t's first row
    const slot = new Int32Array(nt);
    for (let r = 0; r < rows; r++) {
      const n = rowColumns(r);
      const base = rowPtr[r];
      for (let j = 0; j < n; j++) {
        colInd[base + j] = rowCols[j];
        colPos[rowCols[j]] = j;
      }
      for (let q = runPtr[r]; q < runPtr[r + 1]; q++) {
        const t = runRef[q];
        if (t >= 0) slot[t] = base + colPos[rc[t]];
      }
    }
    // the operation table, then its copy in the refill kernel's memory where there is one (compiled
    // there in place, the steps after were some 5 % slower on the bench's assembled beam)
    const plan = this.planOps(slot, nt, rowPtr, colInd);
    if (this.ops.length < plan.size) this.ops = new Int32Array(plan.size);
    this.compileOps(slot, nt, rowPtr, colInd);
    this.kernel = this.makeKernel(rowPtr, nnz, plan.size, plan.maxNodes);
    const values = this.kernel
      ? new Float64Array(this.kernel.header.buffer, this.kernel.header[SCATTER_HEADER.values], nnz)
      : new Float64Array(nnz);
    if (this.recordValues) {
      // the recorded values in emission order: a scalar at its slot, a block's rows at their slots
      const rv = this.recVal;
      for (let t = 0, v = 0; t < nt; t++) {
        if (rb[t] === 0) values[slot[t]] += rv[v++];
        else
          for (let i = 0, s = slot[t]; i < 3; i++) {
            if (i > 0) s = rowSlot(rowPtr, colInd, rr[t] + i, rc[t], s);
            values[s] += rv[v++];
            values[s + 1] += rv[v++];
            values[s + 2] += rv[v++];
          }
      }
    }
    this.matrix = createCsr(this.rows, this.cols, rowPtr, colInd, values);
    // the refill reads the operation table only: the recording is dropped
    this.allocateRecording(64, 64);
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
      this.counting = false;
    } else {
      this.valid = false;
      this.counting = true;
      this.counted = 0;
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
      if (!this.valid) {
        if (this.counting) {
          this.counted++;
          this.countedItems++;
        }
        return;
      }
      const q = this.cursor,
        ops = this.ops;
      if (q >= this.opsEnd || ops[q] < 0) {
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
      const t = this.sub,
        i = (t / 3) | 0,
        j = t - 3 * i;
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
   * `add` calls in row-major order, but a refill checks one recorded block instead of 9 entries
   * (the symbolic pass marks where addBlock3 emitted).
   */
  addBlock3(r0: number, c0: number, block: ArrayLike<number>, offset: number, factor: number): void {
    if (this.phase === Phase.Numeric) {
      if (!this.valid) {
        if (this.counting) {
          this.counted += 9;
          this.countedItems++;
        }
        return;
      }
      const q = this.cursor,
        ops = this.ops;
      if (q >= this.opsEnd || this.sub !== 0 || ops[q] !== r0 || ops[q + 1] !== c0 || ops[q + 3] < 0) {
        this.valid = false;
        return;
      }
      const v = this.matrix!.values;
      const s0 = ops[q + 2],
        s1 = ops[q + 3],
        s2 = ops[q + 4];
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
      this.recordBlock(r0, c0, block, offset, factor);
    } else {
      throw new Error('FixedPatternAssembler.addBlock3 outside beginSymbolic/beginNumeric');
    }
  }

  /**
   * Emits factor·K, the (3n × 3n) row-major matrix of an element whose node i has its rows and
   * columns at starts[i] … starts[i]+2: the same emission as the n² addBlock3 calls of its blocks in
   * row-major block order, in one call (a refill checks the element once, reads K in place).
   */
  addElementBlocks3(starts: ArrayLike<number>, n: number, K: ArrayLike<number>, factor: number): void {
    const stride = 3 * n;
    if (this.phase === Phase.Numeric) {
      if (!this.takeElement(starts, n)) return;
      const v = this.matrix!.values,
        src = this.eSrc,
        base = this.eBase,
        perBlock = this.ePerBlock;
      for (let i = 0, b = 0; i < n; i++) {
        const l0 = this.rowLen0[i],
          l1 = this.rowLen1[i];
        for (let j = 0; j < n; j++, b++) {
          const s0 = src[base + b];
          const s1 = perBlock ? this.s1[b] : s0 + l0,
            s2 = perBlock ? this.s2[b] : s0 + l0 + l1;
          const o = 3 * stride * i + 3 * j;
          v[s0] += factor * K[o];
          v[s0 + 1] += factor * K[o + 1];
          v[s0 + 2] += factor * K[o + 2];
          v[s1] += factor * K[o + stride];
          v[s1 + 1] += factor * K[o + stride + 1];
          v[s1 + 2] += factor * K[o + stride + 2];
          v[s2] += factor * K[o + 2 * stride];
          v[s2 + 1] += factor * K[o + 2 * stride + 1];
          v[s2 + 2] += factor * K[o + 2 * stride + 2];
        }
      }
    } else {
      const k0 = this.items,
        b = this.blk3;
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++) {
          const o = 3 * stride * i + 3 * j;
          for (let p = 0; p < 3; p++) for (let q = 0; q < 3; q++) b[3 * p + q] = K[o + stride * p + q];
          this.addBlock3(starts[i], starts[j], b, 0, factor);
        }
      this.markElement(k0, n);
    }
  }

  /**
   * Emits factor·K for a symmetric element matrix given by its upper blocks U (n(n+1)/2 row-major
   * 3x3 blocks (i, j), i ≤ j, in the order (0,0), (0,1), …, (1,1), …; block (j, i) = block (i, j)ᵀ):
   * the same emission, and the same values, as `addElementBlocks3` with the full matrix.
   */
  addSymmetricElementBlocks3(starts: ArrayLike<number>, n: number, U: ArrayLike<number>, factor: number, so = 0, uo = 0): void {
    if (this.phase !== Phase.Numeric) {
      const k0 = this.items;
      this.addSymmetricElementInOrder(starts, n, U, factor, so, uo);
      this.markElement(k0, n);
      return;
    }
    // distinct nodes: each entry receives one term of the element, in any order of its blocks
    for (let i = 0; i < n; i++)
      for (let j = i + 1; j < n; j++)
        if (starts[so + j] === starts[so + i]) return this.addSymmetricElementInOrder(starts, n, U, factor, so, uo);
    if (!this.takeElement(starts, n, so)) return;
    const v = this.matrix!.values,
      src = this.eSrc,
      base = this.eBase,
      perBlock = this.ePerBlock,
      L0 = this.rowLen0,
      L1 = this.rowLen1;
    for (let i = 0, u = uo; i < n; i++) {
      for (let j = i; j < n; j++, u += 9) {
        const f0 = factor * U[u],
          f1 = factor * U[u + 1],
          f2 = factor * U[u + 2];
        const f3 = factor * U[u + 3],
          f4 = factor * U[u + 4],
          f5 = factor * U[u + 5];
        const f6 = factor * U[u + 6],
          f7 = factor * U[u + 7],
          f8 = factor * U[u + 8];
        // block (i, j)
        let b = n * i + j;
        let s0 = src[base + b];
        let s1 = perBlock ? this.s1[b] : s0 + L0[i];
        let s2 = perBlock ? this.s2[b] : s1 + L1[i];
        v[s0] += f0;
        v[s0 + 1] += f1;
        v[s0 + 2] += f2;
        v[s1] += f3;
        v[s1 + 1] += f4;
        v[s1 + 2] += f5;
        v[s2] += f6;
        v[s2 + 1] += f7;
        v[s2 + 2] += f8;
        if (j === i) continue;
        // block (j, i) = its transpose
        b = n * j + i;
        s0 = src[base + b];
        s1 = perBlock ? this.s1[b] : s0 + L0[j];
        s2 = perBlock ? this.s2[b] : s1 + L1[j];
        v[s0] += f0;
        v[s0 + 1] += f3;
        v[s0 + 2] += f6;
        v[s1] += f1;
        v[s1 + 1] += f4;
        v[s1 + 2] += f7;
        v[s2] += f2;
        v[s2 + 1] += f5;
        v[s2 + 2] += f8;
      }
    }
  }

  /** The n² blocks of a symmetric element one by one in row-major order (symbolic pass, or an element whose nodes repeat). */
  private addSymmetricElementInOrder(starts: ArrayLike<number>, n: number, U: ArrayLike<number>, factor: number, so = 0, uo = 0): void {
    const b = this.blk3;
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        if (j >= i) {
          const u = uo + 9 * (i * n - ((i * (i - 1)) >> 1) + j - i);
          for (let t = 0; t < 9; t++) b[t] = U[u + t];
        } else {
          const u = uo + 9 * (j * n - ((j * (j - 1)) >> 1) + i - j);
          for (let p = 0; p < 3; p++) for (let t = 0; t < 3; t++) b[3 * p + t] = U[u + 3 * t + p];
        }
        this.addBlock3(starts[so + i], starts[so + j], b, 0, factor);
      }
  }

  /**
   * Emits `count` symmetric elements of n nodes: element k has its first rows at
   * starts[k·n … k·n+n) and its upper blocks at U[k·nu …) (nu = 9·n(n+1)/2), as `count` calls of
   * addSymmetricElementBlocks3. When starts and U are this assembler's staging areas
   * (elementStartsBuffer, symmetricElementBuffer), a refill runs in the WebAssembly kernel.
   */
  addSymmetricElementsBatch(starts: Int32Array, count: number, n: number, U: Float64Array, factor: number): void {
    const nu = (9 * n * (n + 1)) / 2;
    let from = 0;
    const kernel = this.kernel;
    if (
      this.phase === Phase.Numeric &&
      kernel &&
      this.valid &&
      this.sub === 0 &&
      U === kernel.U &&
      starts === kernel.starts &&
      n <= kernel.maxNodes
    ) {
      const h = kernel.header;
      h[SCATTER_HEADER.cursor] = this.cursor;
      kernel.scatter(count, n, factor);
      this.cursor = h[SCATTER_HEADER.cursor];
      from = h[SCATTER_HEADER.done];
    }
    for (let k = from; k < count; k++) this.addSymmetricElementBlocks3(starts, n, U, factor, k * n, k * nu);
  }

  /**
   * Where a caller may write the upper blocks of up to `count` elements of n nodes for
   * addSymmetricElementsBatch (the kernel's staging area, read without a copy), or undefined.
   */
  symmetricElementBuffer(n: number, count: number): Float64Array | undefined {
    const k = this.kernel;
    return k && n <= k.maxNodes && count <= ELEMENT_BATCH ? k.U : undefined;
  }

  /** Where a caller may write the first rows of `length / n` elements for addSymmetricElementsBatch. */
  elementStartsBuffer(length: number): Int32Array {
    const k = this.kernel;
    if (k && length <= k.starts.length) return k.starts;
    if (this.startsScratch.length < length) this.startsScratch = new Int32Array(length);
    return this.startsScratch;
  }

  /**
   * The WebAssembly refill of this pattern's symmetric elements (undefined without WebAssembly, for
   * a small matrix, or a pattern without element operations): a memory with the values (nnz),
   * the operation table (the first `opsLength` integers of `ops`, copied: `ops` becomes its view
   * there), the row pointers and the batch's staging areas.
   */
  private makeKernel(rowPtr: Int32Array, nnz: number, opsLength: number, maxNodes: number): ScatterKernel | undefined {
    if (maxNodes === 0 || maxNodes > SCATTER_MAX_NODES || nnz < KERNEL_MIN_VALUES) return undefined;
    const module = elementScatterModule();
    const api = wasmApi();
    if (!module || !api) return undefined;
    const nu = (9 * maxNodes * (maxNodes + 1)) / 2;
    const lens = SCATTER_HEADER_BYTES;
    const rp = lens + 8 * SCATTER_MAX_NODES;
    const ops = rp + 4 * (this.rows + 1);
    const starts = ops + 4 * opsLength;
    const values = Math.ceil((starts + 4 * ELEMENT_BATCH * maxNodes) / 8) * 8;
    const U = values + 8 * nnz;
    const bytes = U + 8 * ELEMENT_BATCH * nu;
    const pages = Math.ceil(bytes / 65536) + 1;
    if (pages > 65536) return undefined;
    let memory;
    try {
      memory = new api.Memory({ initial: pages, maximum: pages, shared: true });
    } catch {
      return undefined;
    }
    const buf = memory.buffer;
    const header = new Int32Array(buf, 0, SCATTER_HEADER_BYTES / 4);
    header[SCATTER_HEADER.values] = values;
    header[SCATTER_HEADER.ops] = ops;
    header[SCATTER_HEADER.rowPtr] = rp;
    header[SCATTER_HEADER.starts] = starts;
    header[SCATTER_HEADER.U] = U;
    header[SCATTER_HEADER.lens] = lens;
    new Int32Array(buf, rp, this.rows + 1).set(rowPtr);
    const opsView = new Int32Array(buf, ops, opsLength);
    opsView.set(this.ops.subarray(0, opsLength));
    this.ops = opsView;
    const fn = new api.Instance(module, { env: { memory } }).exports.scatterSymmetric as ScatterKernel['scatter'];
    return {
      scatter: fn,
      header,
      starts: new Int32Array(buf, starts, ELEMENT_BATCH * maxNodes),
      U: new Float64Array(buf, U, ELEMENT_BATCH * nu),
      maxNodes,
    };
  }

  /** Symbolic pass: the n² blocks recorded from item k0 on form one element. */
  private markElement(k0: number, n: number): void {
    if (this.phase === Phase.Symbolic && n > 0 && n < 255) this.recBlock[k0] = 1 + n;
  }

  /**
   * Numeric pass: checks that the next operation(s) are the n² blocks of an element with these
   * first rows and points eSrc/eBase (and rowLen0/1, or s1/s2) at their slots, moving the cursor
   * past them; false (and the refill invalid) otherwise.
   */
  private takeElement(starts: ArrayLike<number>, n: number, so = 0): boolean {
    if (!this.valid) {
      if (this.counting) {
        this.counted += 9 * n * n;
        this.countedItems += n * n;
      }
      return false;
    }
    const ops = this.ops,
      nb = n * n;
    let q = this.cursor;
    if (this.sub !== 0 || q >= this.opsEnd) return (this.valid = false);
    if (this.rowLen0.length < n) {
      this.rowLen0 = new Int32Array(n);
      this.rowLen1 = new Int32Array(n);
    }
    if (ops[q] === -1 - n) {
      // one element operation: its first rows, then the slot of entry (0,0) of each block
      const rowPtr = this.matrix!.rowPtr;
      for (let i = 0; i < n; i++) {
        const r = starts[so + i];
        if (ops[q + 1 + i] !== r) return (this.valid = false);
        this.rowLen0[i] = rowPtr[r + 1] - rowPtr[r];
        this.rowLen1[i] = rowPtr[r + 2] - rowPtr[r + 1];
      }
      this.eSrc = ops;
      this.eBase = q + 1 + n;
      this.ePerBlock = false;
      this.cursor = q + 1 + n + nb;
      return true;
    }
    if (q + OP_STRIDE * nb > this.opsEnd) return (this.valid = false);
    if (this.s0.length < nb) {
      this.s0 = new Int32Array(nb);
      this.s1 = new Int32Array(nb);
      this.s2 = new Int32Array(nb);
    }
    for (let i = 0, b = 0; i < n; i++) {
      const r0 = starts[so + i];
      for (let j = 0; j < n; j++, b++, q += OP_STRIDE) {
        if (ops[q] !== r0 || ops[q + 1] !== starts[so + j] || ops[q + 3] < 0) return (this.valid = false);
        this.s0[b] = ops[q + 2];
        this.s1[b] = ops[q + 3];
        this.s2[b] = ops[q + 4];
      }
    }
    this.eSrc = this.s0;
    this.eBase = 0;
    this.ePerBlock = true;
    this.cursor = q;
    return true;
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
   * The size of the operation table of the recorded items (see the class comment) and the largest
   * element it holds as one operation; slot[t] is the first slot of item t's first row.
   */
  private planOps(slot: Int32Array, nt: number, rowPtr: Int32Array, colInd: Int32Array): { size: number; maxNodes: number } {
    const rb = this.recBlock;
    let size = 0;
    let maxNodes = 0;
    for (let t = 0; t < nt;) {
      const mark = rb[t];
      if (mark > 1 && this.elementFits(t, mark - 1, slot, rowPtr, colInd)) {
        const n = mark - 1;
        if (n > maxNodes) maxNodes = n;
        size += 1 + n + n * n;
        t += n * n;
      } else {
        size += OP_STRIDE;
        t++;
      }
    }
    return { size, maxNodes };
  }

  /** Writes the operation table planned by planOps into `ops` (its size at least the plan's). */
  private compileOps(slot: Int32Array, nt: number, rowPtr: Int32Array, colInd: Int32Array): void {
    const rb = this.recBlock,
      rr = this.recRow,
      rc = this.recCol;
    const ops = this.ops;
    let q = 0;
    for (let t = 0; t < nt;) {
      const mark = rb[t];
      if (mark > 1 && this.elementFits(t, mark - 1, slot, rowPtr, colInd)) {
        const n = mark - 1;
        ops[q] = -1 - n;
        for (let i = 0; i < n; i++) ops[q + 1 + i] = rr[t + n * i];
        for (let b = 0; b < n * n; b++) ops[q + 1 + n + b] = slot[t + b];
        q += 1 + n + n * n;
        t += n * n;
        continue;
      }
      ops[q] = rr[t];
      ops[q + 1] = rc[t];
      ops[q + 2] = slot[t];
      if (mark >= 1) {
        const s1 = rowSlot(rowPtr, colInd, rr[t] + 1, rc[t], slot[t]);
        ops[q + 3] = s1;
        ops[q + 4] = rowSlot(rowPtr, colInd, rr[t] + 2, rc[t], s1);
      } else {
        ops[q + 3] = -1;
        ops[q + 4] = -1;
      }
      t++;
      q += OP_STRIDE;
    }
    this.opsEnd = q;
  }

  /**
   * Whether the element recorded from item t (n² blocks) can be one operation: blocks (i, j) at
   * rows and columns of distinct nodes i and j, each block's rows 1 and 2 starting where its row 0's
   * slot plus the row lengths put them (there, the pattern lists the block's first column).
   */
  private elementFits(t: number, n: number, slot: Int32Array, rowPtr: Int32Array, colInd: Int32Array): boolean {
    if (t + n * n > this.items) return false;
    const rr = this.recRow,
      rc = this.recCol;
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (rr[t + n * i] === rr[t + n * j]) return false;
    for (let b = 0; b < n * n; b++) {
      const e = t + b,
        r = rr[e],
        c = rc[e];
      if (this.recBlock[e] < 1 || r !== rr[t + n * ((b / n) | 0)] || c !== rr[t + n * (b % n)]) return false;
      // the slot of row 0 plus its length is in row 1 (columns are unique within a row), and so on
      const p1 = slot[e] + rowPtr[r + 1] - rowPtr[r],
        p2 = p1 + rowPtr[r + 2] - rowPtr[r + 1];
      if (p1 >= rowPtr[r + 2] || colInd[p1] !== c || p2 >= rowPtr[r + 3] || colInd[p2] !== c) return false;
    }
    return true;
  }

  private record(r: number, c: number, v: number): void {
    checkEntry(r, c, this.rows, this.cols);
    const t = this.items;
    if (t === this.recRow.length) this.growRecording(2 * t);
    if (this.recordValues && this.count === this.recVal.length) this.growValues(this.count + 1);
    this.recBlock[t] = 0;
    this.recRow[t] = r;
    this.recCol[t] = c;
    if (this.recordValues) this.recVal[this.count] = v;
    this.items = t + 1;
    this.count++;
  }

  /** Records factor·block[offset .. offset+9) at (r0, c0): one item, its nine values in row-major order. */
  private recordBlock(r0: number, c0: number, block: ArrayLike<number>, offset: number, factor: number): void {
    if (!(r0 >= 0 && r0 + 3 <= this.rows && c0 >= 0 && c0 + 3 <= this.cols) || (r0 | 0) !== r0 || (c0 | 0) !== c0)
      for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) checkEntry(r0 + i, c0 + j, this.rows, this.cols);
    const t = this.items;
    if (t === this.recRow.length) this.growRecording(2 * t);
    this.recBlock[t] = 1;
    this.recRow[t] = r0;
    this.recCol[t] = c0;
    if (this.recordValues) {
      const k = this.count;
      if (k + 9 > this.recVal.length) this.growValues(k + 9);
      const rv = this.recVal;
      for (let e = 0; e < 9; e++) rv[k + e] = factor * block[offset + e];
    }
    this.items = t + 1;
    this.count += 9;
  }

  /** The values' recording with room for at least `need` values (doubling), its contents kept. */
  private growValues(need: number): void {
    const nv = new Float64Array(Math.max(need, 2 * this.recVal.length, 64));
    nv.set(this.recVal.subarray(0, this.count));
    this.recVal = nv;
  }

  /** The recording with room for `capacity` items, its contents kept (a pass longer than counted). */
  private growRecording(capacity: number): void {
    const t = this.items;
    const nr = new Int32Array(capacity);
    nr.set(this.recRow.subarray(0, t));
    this.recRow = nr;
    const nc = new Int32Array(capacity);
    nc.set(this.recCol.subarray(0, t));
    this.recCol = nc;
    const nb = new Uint8Array(capacity);
    nb.set(this.recBlock.subarray(0, t));
    this.recBlock = nb;
  }
}

/**
 * The slot of column c in row r of the pattern (its columns sorted, each once): the row above's
 * slot of c plus that row's length when the two rows list the same columns up to c, else a binary
 * search of the row.
 */
function rowSlot(rowPtr: Int32Array, colInd: Int32Array, r: number, c: number, slotAbove: number): number {
  const guess = slotAbove + rowPtr[r] - rowPtr[r - 1];
  const end = rowPtr[r + 1];
  if (guess >= rowPtr[r] && guess < end && colInd[guess] === c) return guess;
  let lo = rowPtr[r],
    hi = end - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = colInd[mid];
    if (v === c) return mid;
    if (v < c) lo = mid + 1;
    else hi = mid - 1;
  }
  throw new Error(`FixedPatternAssembler: column ${c} missing from row ${r} of the pattern`);
}

/** Refuses an entry (r, c) outside a rows × cols matrix, or not at integer indices. */
function checkEntry(r: number, c: number, rows: number, cols: number): void {
  if (!(r >= 0 && r < rows && c >= 0 && c < cols) || (r | 0) !== r || (c | 0) !== c) {
    throw new Error(`FixedPatternAssembler.add: entry (${r}, ${c}) outside ${rows}x${cols}`);
  }
}
