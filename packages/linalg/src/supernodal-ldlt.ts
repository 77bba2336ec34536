/*
 * The supernodal LDLᵀ factorization (SupernodalLDLT, below).
 * Long file: the analysis (ordering, supernodes, the map of A's entries into them) and the numeric
 * phase share one layout of the supernodes' dense blocks, which both must agree on to the byte;
 * the WebAssembly kernel (wasm/supernodal-ldlt-wasm.ts), the orderings and the column counts
 * (ldlt-analysis.ts) are apart.
 */
import { type CsrMatrix, csrNnz } from './csr.js';
import {
  type LdltAnalyzeOptions,
  type LdltOrdering,
  checkAnalysedPattern,
  columnCounts,
  countNegative,
  eliminationTree,
  fillReducingOrdering,
  forEachSupernodeUpdate,
  lowerColumns,
  squareOrder,
  upperColumns,
} from './ldlt-analysis.js';
import { invertPermutation } from './ordering/permutation.js';
import { firstSharedProduct, subtreeSplit, type SubtreeSplit } from './ldlt-subtree-split.js';
import type { ThreadPool } from './parallel/thread-pool.js';
import { ZeroPivotError } from './sparse-ldlt.js';
import { LDLT_HEADER, LDLT_HEADER_BYTES, LDLT_PANEL, supernodalLdltModule } from './wasm/supernodal-ldlt-wasm.js';
import { wasmApi } from './wasm/wasm-module.js';

/** Below this order the numeric phase stays in JavaScript (a kernel's memory would cost more than it saves). */
export const LDLT_WASM_MIN_ORDER = 48;

/** The WebAssembly numeric phase of one analysis (supernodal-ldlt-wasm.ts): its functions and in/out views. */
interface LdltKernel {
  factor: () => void;
  /** ldltFactorRange(header, s0, s1, clear) (supernodal-ldlt.wat). */
  factorRange: (h: number, s0: number, s1: number, clear: number) => void;
  /** ldltSetTask(t): the products are shared through the task block at byte t (0: not). */
  setTask: (t: number) => void;
  solve: () => void;
  backward: () => void;
  /** The dense steps of SupernodalCompliance's forward solve (byte addresses; supernodal-ldlt-wasm.ts). */
  product: (
    aB: number,
    ldaB: number,
    wB: number,
    nk: number,
    ncol: number,
    nrow: number,
    cB: number,
    rowBaseB: number,
    colOffB: number,
    lower: number,
  ) => void;
  pairLowerSolve: (xB: number, ns: number, yB: number, ncol: number) => void;
  /** The Gram sums of one supernode's block of Y (SupernodalCompliance.addGram; supernodal-ldlt.wat's ldltGram). */
  gram: (yB: number, ns: number, na: number, dB: number, outB: number) => void;
  /** The scratch region (16-byte aligned) and its size in doubles. */
  scratch: Float64Array;
  /** (nnz of A) A's values, (n) the solve's vector, the failed step and its pivot, the pivot tolerance. */
  Av: Float64Array;
  vec: Float64Array;
  status: Int32Array;
  pivot: Float64Array;
  tol: Float64Array;
  /** The second thread's part of a parallel factorization (see SupernodalLDLT.threadPool). */
  second?: SecondThread;
}

/**
 * A factor dropped without a new analysis (its scene gone) has its job forgotten by the workers
 * once it is collected: their instance holds the factor's memory.
 */
const forgetJob = new FinalizationRegistry<{ pool: ThreadPool; jobs: number[] }>(({ pool, jobs }) => jobs.forEach((j) => pool.remove(j)));

/** How long the caller spins for the worker at the end of each part of a parallel factorization before it sleeps. */
const PARALLEL_SPIN_MS = 5;

/** Below this many floating-point operations per factorization a second thread costs more than it saves. */
export const LDLT_PARALLEL_MIN_FLOPS = 1e6;

/** The second thread of a parallel factorization: its header, job, lists and failure slots. */
interface SecondThread {
  /** Byte address of its header (the first one's, with its own scratch, lists and status). */
  header: number;
  /** The pool's jobs: ldltFactorRange, and ldltHelp (the products shared), on this kernel's memory. */
  job: number;
  helpJob: number;
  pool: ThreadPool;
  /** The task block of the shared products (32 words: seq, done, claimed, stop, the calls' arguments) and its byte address. */
  task: Int32Array;
  taskAddress: number;
  head: Int32Array;
  status: Int32Array;
  pivot: Float64Array;
}

export interface SupernodalAnalyzeOptions extends LdltAnalyzeOptions {
  /**
   * Relaxed supernodes (default true): a supernode is merged with its parent in the supernodal
   * elimination tree when the explicit zeros this adds stay few, so that the dense kernels work on
   * larger blocks. false keeps the fundamental supernodes (no stored zero).
   */
  relaxed?: boolean;
}

/**
 * Supernodal sparse LDLᵀ factorization P A Pᵀ = L D Lᵀ of a symmetric matrix (L unit lower
 * triangular, D diagonal, possibly with negative entries), without numerical pivoting: SPD
 * matrices and indefinite ones whose pivots in the chosen order do not vanish (quasi-definite
 * KKT matrices [H Jᵀ; J −C] with H, C positive definite, for any order). Same interface as
 * {@link SparseLDLT}; the same D and solution up to round-off for the same final ordering.
 *
 * A supernode is a range of consecutive columns k1..k2−1 of L sharing one row structure (its own
 * columns, then the rows below k2): its entries are one dense block, stored row by row
 * (nrows × ns, the unused upper triangle of its diagonal block included), so the numeric work is
 * done by dense kernels on contiguous memory instead of entry-by-entry sparse updates.
 *
 * - `analyze(A, ordering)` (init / pattern change; allocates): the fill-reducing ordering composed
 *   with a postorder of the elimination tree (same fill; it makes every supernode contiguous), the
 *   column counts of L, fundamental supernodes (a chain of the tree whose columns nest), relaxed
 *   amalgamation, the row structure of each supernode, where every entry of A lands in the
 *   blocks, and every scratch array the numeric phase needs.
 * - `factorize(A)` (every step; no allocation), left-looking by supernode: for supernode s,
 *   assemble its columns of P A Pᵀ, subtract the update L_d D_d L_d(r,:)ᵀ of every earlier
 *   supernode d whose structure has rows r among s's columns (rows of d at and below them, scattered
 *   through the relative positions of d's rows in s), then factor the block in place:
 *   for each column k, D_k = a_kk − Σ_{m<k} L_km D_m L_km and L_ik = (a_ik − Σ_{m<k} L_im D_m L_km) / D_k
 *   for every row i below k (the rows below the diagonal block included).
 *   The supernodes d waiting for s are kept in linked lists keyed by the next supernode they update.
 * - `solve(out, b)` (no allocation): x = Pᵀ L⁻ᵀ D⁻¹ L⁻¹ P b, block by block.
 */
export class SupernodalLDLT {
  /** Matrix size. */
  n = 0;
  /** (n) final ordering, new → old (the requested ordering followed by an etree postorder). */
  perm: Int32Array = new Int32Array(0);
  /** (n) inverse ordering, old → new. */
  pinv: Int32Array = new Int32Array(0);
  /** (n) elimination tree of P A Pᵀ: parent[j] > j (−1 for a root). */
  parent: Int32Array = new Int32Array(0);
  /** (n) the diagonal D. */
  D: Float64Array = new Float64Array(0);
  /** Number of supernodes. */
  nsuper = 0;
  /** (nsuper+1) first column of each supernode (columns superStart[s] .. superStart[s+1]−1). */
  superStart: Int32Array = new Int32Array(1);
  /** (nsuper+1) start of each supernode's row indices in superRows. */
  superRowPtr: Int32Array = new Int32Array(1);
  /** (Σ nrows) row indices of each supernode: its own columns, then the rows below (increasing). */
  superRows: Int32Array = new Int32Array(0);
  /** (nsuper+1) start of each supernode's block in Lx (nrows × ns, row by row). */
  superValPtr: Int32Array = new Int32Array(1);
  /** (Σ nrows·ns) blocks of L (the diagonal of a diagonal block holds D). */
  Lx: Float64Array = new Float64Array(0);
  /** Floating-point operations of one factorize (multiplications and additions of the kernels). */
  flops = 0;
  /** Whether analyze has run / the last factorize succeeded. */
  analyzed = false;
  factorized = false;

  private nnzExact = 0;
  private pivotTolerance = 0;
  private nnzA = 0;
  /** (n) supernode of each column. */
  private superOf: Int32Array = new Int32Array(0);
  /** (nsuper+1) A entries assembled into each supernode: aSrc (slot in A.values) → aDst (slot in Lx). */
  private aPtr: Int32Array = new Int32Array(1);
  private aSrc: Int32Array = new Int32Array(0);
  private aDst: Int32Array = new Int32Array(0);
  // Numeric scratch, sized by analyze.
  private relPos: Int32Array = new Int32Array(0); // (n) local row of each row of the current supernode
  private rowBase: Int32Array = new Int32Array(0); // (max nrows) Lx offset of the target rows of an update
  private colOff: Int32Array = new Int32Array(0); // (max ns) target column of an update
  private W: Float64Array = new Float64Array(0); // (max ndrow1·ndcol) L_d(r,:)·D_d of an update, row by row
  private head: Int32Array = new Int32Array(0); // (nsuper) first supernode waiting to update s
  private next: Int32Array = new Int32Array(0); // (nsuper) next in the same list
  private lpos: Int32Array = new Int32Array(0); // (nsuper) first local row of d not yet used for updates
  private y: Float64Array = new Float64Array(0); // (n) solve vector

  /** Number of entries of L strictly below the diagonal (structural, without relaxation zeros). */
  get nnzL(): number {
    return this.nnzExact;
  }

  /** Entries stored for L (blocks, including relaxation zeros and the unused upper triangles). */
  get storedEntries(): number {
    return this.Lx.length;
  }

  /** Number of negative pivots in D (the number of negative eigenvalues of A, by Sylvester's law). */
  get negativePivots(): number {
    return countNegative(this.D);
  }

  /**
   * Which code runs the numeric phase: 'wasm' (the WebAssembly kernel, the same operations in the
   * same order: bit for bit the JavaScript results) where WebAssembly is available and n ≥
   * LDLT_WASM_MIN_ORDER, or 'js'. Tests set 'js' to compare the two; set it before analyze.
   */
  kernelChoice: 'auto' | 'js' = 'auto';
  private kernel: LdltKernel | undefined;

  /**
   * Threads for the numeric factorization (set before analyze; the WebAssembly kernel only, for
   * factorizations of at least LDLT_PARALLEL_MIN_FLOPS): two ranges of whole subtrees of the
   * supernodal elimination tree are factorized at once, the caller on one and a worker of the pool
   * on the other (ldlt-subtree-split.ts, when a split saves a tenth of the work), then the
   * supernodes above them on the caller, the worker taking the rows of its large dense products
   * (supernodal-ldlt.wat, ldltHelp). Each supernode receives its updates in the one-thread order
   * (the lists of the supernodes above are joined as one thread leaves them) and each entry of a
   * product is one thread's dot product, so the factor is bit for bit the one-thread factor.
   */
  threadPool: ThreadPool | undefined;
  /** Whether factorize runs on two threads (the last analysis found it worth it: LDLT_PARALLEL_MIN_FLOPS). */
  parallel = false;
  /** The subtree split of the last analysis used by factorize (undefined: none; the products above are still shared). */
  split: SubtreeSplit | undefined;
  /** The first supernode above the split with a product large enough to share (nsuper: none): the worker helps from there. */
  private helpFrom = 0;

  /** Symbolic analysis of the symmetric matrix A (square CSR). Returns this. */
  analyze(A: CsrMatrix, ordering: LdltOrdering = 'amd', options: SupernodalAnalyzeOptions = {}): this {
    const n = squareOrder(A, 'SupernodalLDLT');
    const storage = options.storage ?? 'full';
    this.pivotTolerance = options.pivotTolerance ?? 0;
    this.n = n;
    this.nnzA = csrNnz(A);
    this.analyzed = false;
    this.factorized = false;

    const perm0 = fillReducingOrdering(A, ordering, 'SupernodalLDLT');
    const pinv0 = invertPermutation(perm0);

    // Elimination tree of the requested ordering, then a postorder of it.
    const up0 = upperColumns(A, storage, pinv0);
    const post = postorder(eliminationTree(n, up0.ptr, up0.row));
    const perm = new Int32Array(n);
    for (let k = 0; k < n; k++) perm[k] = perm0[post[k]];
    const pinv = invertPermutation(perm);
    this.perm = perm;
    this.pinv = pinv;

    // The same in the final numbering; counts[j] = entries of column j of L below the diagonal.
    const up = upperColumns(A, storage, pinv);
    const parent = eliminationTree(n, up.ptr, up.row);
    const counts = columnCounts(n, up.ptr, up.row, parent);
    let nnz = 0;
    for (let j = 0; j < n; j++) nnz += counts[j];
    this.nnzExact = nnz;
    this.parent = parent;

    // Supernodes and their row structures.
    const superStart = supernodePartition(n, parent, counts, options.relaxed ?? true);
    const nsuper = superStart.length - 1;
    const superOf = new Int32Array(n);
    for (let s = 0; s < nsuper; s++) superOf.fill(s, superStart[s], superStart[s + 1]);
    const lo = lowerColumns(A, storage, pinv);
    const { rowPtr: superRowPtr, rows: superRows } = supernodeStructure(n, superStart, superOf, parent, lo.ptr, lo.row);
    const superValPtr = new Int32Array(nsuper + 1);
    let maxRows = 0;
    let maxCols = 0;
    for (let s = 0; s < nsuper; s++) {
      const ns = superStart[s + 1] - superStart[s];
      const nr = superRowPtr[s + 1] - superRowPtr[s];
      superValPtr[s + 1] = superValPtr[s] + nr * ns;
      if (nr > maxRows) maxRows = nr;
      if (ns > maxCols) maxCols = ns;
    }

    // Destination of each A entry: supernode of its (lower) column, local row, column in the block.
    const relPos = new Int32Array(n);
    const aPtr = new Int32Array(nsuper + 1);
    for (let s = 0; s < nsuper; s++) aPtr[s + 1] = lo.ptr[superStart[s + 1]];
    const aSrc = lo.src;
    const aDst = new Int32Array(aSrc.length);
    for (let s = 0; s < nsuper; s++) {
      const k1 = superStart[s];
      const ns = superStart[s + 1] - k1;
      for (let p = superRowPtr[s]; p < superRowPtr[s + 1]; p++) relPos[superRows[p]] = p - superRowPtr[s];
      for (let j = k1; j < k1 + ns; j++) {
        for (let q = lo.ptr[j]; q < lo.ptr[j + 1]; q++) aDst[q] = superValPtr[s] + relPos[lo.row[q]] * ns + (j - k1);
      }
    }

    // Scratch for the updates (largest ndrow1·ndcol over all pairs) and the flop count.
    // (the WebAssembly kernel stores W by pairs of columns: counts rounded up to even)
    const even = (c: number) => c + (c & 1);
    // (and its dense factorization keeps a panel's L_km·D_m, PANEL², then eight rows of a panel, 8·PANEL)
    let maxW = Math.max(maxCols * even(Math.min(maxCols, PANEL)), PANEL * (PANEL + 8));
    let flops = 0;
    for (let d = 0; d < nsuper; d++) {
      const nd = superStart[d + 1] - superStart[d];
      for (let k = 0; k < nd; k++) flops += 2 * (superRowPtr[d + 1] - superRowPtr[d] - k) * k;
    }
    const structure = { nsuper, superStart, superRowPtr, superRows, superOf };
    forEachSupernodeUpdate(structure, (d, _t, _p, ndrow1, ndrow2) => {
      const nd = superStart[d + 1] - superStart[d];
      if (even(ndrow1) * nd > maxW) maxW = even(ndrow1) * nd;
      flops += 2 * nd * (ndrow1 * ndrow2 - (ndrow1 * (ndrow1 - 1)) / 2);
    });

    this.nsuper = nsuper;
    this.superStart = superStart;
    this.superOf = superOf;
    this.superRowPtr = superRowPtr;
    this.superRows = superRows;
    this.superValPtr = superValPtr;
    this.Lx = new Float64Array(superValPtr[nsuper]);
    this.D = new Float64Array(n);
    this.aPtr = aPtr;
    this.aSrc = aSrc;
    this.aDst = aDst;
    this.relPos = relPos;
    this.rowBase = new Int32Array(maxRows);
    this.colOff = new Int32Array(maxCols);
    this.W = new Float64Array(maxW);
    this.head = new Int32Array(nsuper);
    this.next = new Int32Array(nsuper);
    this.lpos = new Int32Array(nsuper);
    this.y = new Float64Array(n);
    this.flops = flops;
    this.releaseSecondThread();
    this.parallel = this.threadPool !== undefined && flops >= LDLT_PARALLEL_MIN_FLOPS;
    this.split = this.parallel ? subtreeSplit(structure) : undefined;
    this.helpFrom = this.parallel ? firstSharedProduct(structure, this.split?.r ?? 0, PANEL) : nsuper;
    this.kernel = this.kernelChoice === 'auto' && n >= LDLT_WASM_MIN_ORDER ? this.makeKernel() : undefined;
    if (!this.kernel?.second) {
      this.parallel = false;
      this.split = undefined;
    }
    this.analyzed = true;
    return this;
  }

  /**
   * Moves every array of the numeric phase into a WebAssembly memory (this object's arrays become
   * views of it, so the JavaScript code and the kernel share them) and instantiates the kernel.
   */
  private makeKernel(scratchDoubles = 0): LdltKernel | undefined {
    const module = supernodalLdltModule();
    const api = wasmApi();
    if (!module || !api) return undefined;
    const ints: Array<[keyof typeof LDLT_HEADER, Int32Array | number]> = [
      ['superStart', this.superStart],
      ['superRowPtr', this.superRowPtr],
      ['superRows', this.superRows],
      ['superValPtr', this.superValPtr],
      ['superOf', this.superOf],
      ['aPtr', this.aPtr],
      ['aSrc', this.aSrc],
      ['aDst', this.aDst],
      ['relPos', this.relPos],
      ['rowBase', this.rowBase],
      ['colOff', this.colOff],
      ['head', this.head],
      ['next', this.next],
      ['lpos', this.lpos],
      ['perm', this.perm],
      ['status', 1],
    ];
    const reals: Array<[keyof typeof LDLT_HEADER, Float64Array | number]> = [
      ['W', this.W],
      ['Lx', this.Lx],
      ['D', this.D],
      ['Av', this.nnzA],
      ['y', this.y],
      ['vec', this.n],
      ['pivot', 1],
      ['tol', 1],
    ];
    // a second thread (parallel factorization) has a header of its own after the first, and its own
    // scratch, lists and failure slots (named with a 2)
    const pool = this.parallel ? this.threadPool : undefined;
    const secondInts: Array<[string, number]> = pool
      ? [
          ['relPos2', this.n],
          ['rowBase2', this.rowBase.length],
          ['colOff2', this.colOff.length],
          ['head2', this.nsuper],
          ['status2', 1],
          ['task', 32],
        ]
      : [];
    const secondReals: Array<[string, number]> = pool
      ? [
          ['W2', this.W.length],
          ['pivot2', 1],
        ]
      : [];
    const len = (a: Int32Array | Float64Array | number) => (typeof a === 'number' ? a : a.length);
    let bytes = pool ? 2 * LDLT_HEADER_BYTES : LDLT_HEADER_BYTES;
    const at = new Map<string, number>();
    for (const [name, a] of [...ints, ...secondInts]) {
      if (name === 'task') bytes = Math.ceil(bytes / 64) * 64; // its own cache line
      at.set(name, bytes);
      bytes += 4 * len(a);
    }
    bytes = Math.ceil(bytes / 16) * 16; // W first, 16-byte aligned for the kernel's f64x2 loads
    for (const [name, a] of [...reals, ...secondReals]) {
      at.set(name, bytes);
      bytes += 8 * len(a);
      bytes = Math.ceil(bytes / 16) * 16;
    }
    bytes = Math.ceil(bytes / 16) * 16;
    const scratchAt = bytes;
    bytes += 8 * scratchDoubles;
    const pages = Math.ceil(bytes / 65536) + 1;
    if (pages > 65536) return undefined;
    let memory;
    try {
      memory = new api.Memory({ initial: pages, maximum: pages, shared: true });
    } catch {
      return undefined;
    }
    const buf = memory.buffer;
    const header = new Int32Array(buf, 0, LDLT_HEADER_BYTES / 4);
    header[LDLT_HEADER.nsuper] = this.nsuper;
    header[LDLT_HEADER.n] = this.n;
    const iview = (name: string, a: Int32Array | number) => {
      const v = new Int32Array(buf, at.get(name)!, len(a));
      if (typeof a !== 'number') v.set(a);
      header[LDLT_HEADER[name as keyof typeof LDLT_HEADER]] = at.get(name)!;
      return v;
    };
    const fview = (name: string, a: Float64Array | number) => {
      const v = new Float64Array(buf, at.get(name)!, len(a));
      if (typeof a !== 'number') v.set(a);
      header[LDLT_HEADER[name as keyof typeof LDLT_HEADER]] = at.get(name)!;
      return v;
    };
    this.superStart = iview('superStart', this.superStart);
    this.superRowPtr = iview('superRowPtr', this.superRowPtr);
    this.superRows = iview('superRows', this.superRows);
    this.superValPtr = iview('superValPtr', this.superValPtr);
    this.superOf = iview('superOf', this.superOf);
    this.aPtr = iview('aPtr', this.aPtr);
    this.aSrc = iview('aSrc', this.aSrc);
    this.aDst = iview('aDst', this.aDst);
    this.relPos = iview('relPos', this.relPos);
    this.rowBase = iview('rowBase', this.rowBase);
    this.colOff = iview('colOff', this.colOff);
    this.head = iview('head', this.head);
    this.next = iview('next', this.next);
    this.lpos = iview('lpos', this.lpos);
    this.perm = iview('perm', this.perm);
    const status = iview('status', 1);
    this.Lx = fview('Lx', this.Lx);
    this.D = fview('D', this.D);
    this.W = fview('W', this.W);
    const Av = fview('Av', this.nnzA);
    this.y = fview('y', this.y);
    const vec = fview('vec', this.n);
    const pivot = fview('pivot', 1);
    const tol = fview('tol', 1);
    const exports = new api.Instance(module, { env: { memory } }).exports;
    let second: SecondThread | undefined;
    if (pool) {
      const h2 = LDLT_HEADER_BYTES;
      const header2 = new Int32Array(buf, h2, LDLT_HEADER_BYTES / 4);
      header2.set(header);
      const own: Array<[keyof typeof LDLT_HEADER, string]> = [
        ['relPos', 'relPos2'],
        ['rowBase', 'rowBase2'],
        ['colOff', 'colOff2'],
        ['head', 'head2'],
        ['status', 'status2'],
        ['W', 'W2'],
        ['pivot', 'pivot2'],
      ];
      for (const [field, name] of own) header2[LDLT_HEADER[field]] = at.get(name)!;
      const job = pool.addWasm(module, memory, 'ldltFactorRange');
      const helpJob = pool.addWasm(module, memory, 'ldltHelp');
      second = {
        header: h2,
        job,
        helpJob,
        pool,
        task: new Int32Array(buf, at.get('task')!, 32),
        taskAddress: at.get('task')!,
        head: new Int32Array(buf, at.get('head2')!, this.nsuper),
        status: new Int32Array(buf, at.get('status2')!, 1),
        pivot: new Float64Array(buf, at.get('pivot2')!, 1),
      };
      forgetJob.register(this, { pool, jobs: [job, helpJob] }, second);
    }
    return {
      second,
      factorRange: exports.ldltFactorRange as LdltKernel['factorRange'],
      setTask: exports.ldltSetTask as LdltKernel['setTask'],
      factor: exports.ldltFactor as () => void,
      solve: exports.ldltSolve as () => void,
      backward: exports.ldltBackward as () => void,
      product: exports.ldltProduct as LdltKernel['product'],
      pairLowerSolve: exports.ldltPairLowerSolve as LdltKernel['pairLowerSolve'],
      gram: exports.ldltGram as LdltKernel['gram'],
      scratch: new Float64Array(buf, scratchAt, scratchDoubles),
      Av,
      vec,
      status,
      pivot,
      tol,
    };
  }

  /**
   * The WebAssembly kernel's entry points for SupernodalCompliance and a scratch region of at least
   * `doubles` f64 in its memory (16-byte aligned; Lx, D, … are in the same memory, their byteOffset
   * is their address), or undefined when the numeric phase runs in JavaScript. A larger region than
   * the kernel has moves every array of this factor into a new memory (views change: read them
   * again after this call); the region's content is not kept.
   */
  kernelScratch(doubles: number): Pick<LdltKernel, 'product' | 'pairLowerSolve' | 'gram' | 'scratch'> | undefined {
    if (!this.kernel) return undefined;
    if (this.kernel.scratch.length < doubles) {
      const old = this.kernel.second;
      const bigger = this.makeKernel(Math.max(doubles, 2 * this.kernel.scratch.length));
      if (!bigger) return undefined;
      if (old) this.forget(old);
      this.kernel = bigger;
    }
    return this.kernel;
  }

  /** Numeric factorization of A (same pattern as analysed). No allocation; throws ZeroPivotError. */
  factorize(A: CsrMatrix): this {
    checkAnalysedPattern(A, this.analyzed, this.n, this.nnzA, 'SupernodalLDLT');
    this.factorized = false;
    const kernel = this.kernel;
    if (kernel) {
      // the worker wakes while A's values are copied in (waking it earlier, as the matrix is
      // assembled, had it spin through the assembly: a slower step where the two cores share one)
      kernel.second?.pool.warm();
      kernel.Av.set(A.values.subarray(0, this.nnzA));
      kernel.tol[0] = this.pivotTolerance;
      if (kernel.second) this.factorOnTwoThreads(kernel, kernel.second, this.split);
      else kernel.factor();
      const k = kernel.status[0];
      if (k !== -1) throw new ZeroPivotError(k, this.perm[k], kernel.pivot[0], 'SupernodalLDLT');
      this.factorized = true;
      return this;
    }
    const av = A.values;
    const { nsuper, superStart, superRowPtr, superRows, superValPtr, superOf, Lx, aPtr, aSrc, aDst, relPos, head, next, lpos } = this;
    head.fill(-1);
    for (let s = 0; s < nsuper; s++) {
      const k1 = superStart[s];
      const k2 = superStart[s + 1];
      const ns = k2 - k1;
      const r0 = superRowPtr[s];
      const nrows = superRowPtr[s + 1] - r0;
      const xs = superValPtr[s];
      // Block of s ← its columns of P A Pᵀ.
      Lx.fill(0, xs, xs + nrows * ns);
      for (let q = aPtr[s]; q < aPtr[s + 1]; q++) Lx[aDst[q]] += av[aSrc[q]];
      for (let p = 0; p < nrows; p++) relPos[superRows[r0 + p]] = p;
      // Updates from the supernodes waiting for s.
      let d = head[s];
      while (d !== -1) {
        const dNext = next[d];
        const rdEnd = superRowPtr[d + 1];
        const p1 = superRowPtr[d] + lpos[d];
        let p2 = p1;
        while (p2 < rdEnd && superRows[p2] < k2) p2++;
        this.update(d, p1, p2, s);
        lpos[d] = p2 - superRowPtr[d];
        if (p2 < rdEnd) {
          const t = superOf[superRows[p2]];
          next[d] = head[t];
          head[t] = d;
        }
        d = dNext;
      }
      this.factorBlock(s);
      if (nrows > ns) {
        lpos[s] = ns;
        const t = superOf[superRows[r0 + ns]];
        next[s] = head[t];
        head[t] = s;
      }
    }
    this.factorized = true;
    return this;
  }

  /**
   * The kernel's factorization on two threads. With a subtree split, [0, m) on this thread and
   * [m, r) on the pool's worker at once. The supernodes of [m, r) waiting for a supernode s above r
   * are in the worker's list of s; one thread would have put them in front of those of [0, m) (it
   * pushes each at the head of the list, [0, m) first), so they are joined in that order. Then
   * [r, nsuper) here, the worker taking half of each large dense product (ldltHelp: whole entries,
   * the same bits). A vanishing pivot is reported as one thread would: the first range's first.
   */
  private factorOnTwoThreads(kernel: LdltKernel, second: SecondThread, split: SubtreeSplit | undefined): void {
    const pool = second.pool;
    const { head, next, nsuper } = this;
    // (an empty range leaves the status as it is)
    kernel.status[0] = -1;
    let r = 0;
    if (split) {
      const m = split.m;
      r = split.r;
      // row 1: the worker's range; the rows of a larger pool's other threads: empty ranges
      const args = pool.args;
      args.fill(0, 8);
      args[8] = second.header;
      args[9] = m;
      args[10] = r;
      args[11] = 1;
      pool.run(second.job, () => kernel.factorRange(0, 0, m, 1), PARALLEL_SPIN_MS);
      if (kernel.status[0] !== -1) return;
      if (second.status[0] !== -1) {
        kernel.status[0] = second.status[0];
        kernel.pivot[0] = second.pivot[0];
        return;
      }
      const head2 = second.head;
      for (let s = r; s < nsuper; s++) {
        const d = head2[s];
        if (d === -1) continue;
        let tail = d;
        while (next[tail] !== -1) tail = next[tail];
        next[tail] = head[s];
        head[s] = d;
      }
    }
    const task = second.task;
    task.fill(0);
    // the supernodes below the first large product on this thread alone: the worker would only spin
    const h = Math.max(r, this.helpFrom);
    kernel.factorRange(0, r, h, split ? 0 : 1);
    if (kernel.status[0] !== -1 || h >= nsuper) return;
    pool.args.fill(0, 8);
    pool.args[8] = second.taskAddress;
    pool.run(
      second.helpJob,
      () => {
        kernel.setTask(second.taskAddress);
        try {
          kernel.factorRange(0, h, nsuper, split || h > 0 ? 0 : 1);
        } finally {
          kernel.setTask(0);
          Atomics.store(task, 3, 1);
          Atomics.notify(task, 0);
        }
      },
      PARALLEL_SPIN_MS,
    );
  }

  /** Dense products the last factorization shared with its second thread (0 on one thread). */
  get sharedProducts(): number {
    return this.kernel?.second?.task[0] ?? 0;
  }

  /** Frees the worker's instance of the last kernel (a new analysis makes another). */
  private releaseSecondThread(): void {
    const second = this.kernel?.second;
    if (second) this.forget(second);
  }

  private forget(second: SecondThread): void {
    forgetJob.unregister(second);
    second.pool.remove(second.job);
    second.pool.remove(second.helpJob);
  }

  /**
   * Block of s −= L_d(rows p1.., :) · D_d · L_d(rows p1..p2−1, :)ᵀ, scattered: row i of d goes to the
   * local row of superRows[i] in s, column j to superRows[j] − k1. Rows p1..p2−1 are s's columns.
   */
  private update(d: number, p1: number, p2: number, s: number): void {
    const { superStart, superRowPtr, superRows, superValPtr, Lx, D, W, rowBase, colOff, relPos } = this;
    const dk1 = superStart[d];
    const nd = superStart[d + 1] - dk1;
    const rd0 = superRowPtr[d];
    const xd = superValPtr[d];
    const k1 = superStart[s];
    const ns = superStart[s + 1] - k1;
    const xs = superValPtr[s];
    const ndrow1 = p2 - p1;
    const ndrow2 = superRowPtr[d + 1] - p1;
    // W(j, :) = L_d(row p1+j, :) · D_d; target columns and row offsets.
    for (let j = 0; j < ndrow1; j++) {
      const src = xd + (p1 - rd0 + j) * nd;
      const dst = j * nd;
      for (let k = 0; k < nd; k++) W[dst + k] = Lx[src + k] * D[dk1 + k];
      colOff[j] = superRows[p1 + j] - k1;
    }
    for (let i = 0; i < ndrow2; i++) rowBase[i] = xs + relPos[superRows[p1 + i]] * ns;
    subtractProducts(Lx, xd + (p1 - rd0) * nd, nd, W, nd, ndrow1, ndrow2, rowBase, colOff);
  }

  /**
   * Dense LDLᵀ of the block of s (its diagonal block and the rows below), by panels of PANEL
   * columns: the panel is first updated by all the columns before it (one subtractProducts), then
   * factored column by column: D_k = a_kk − Σ_m L_km D_m L_km, L_ik = (a_ik − Σ_m L_im D_m L_km) / D_k
   * with m over the panel's earlier columns, for every row i below k.
   */
  private factorBlock(s: number): void {
    const { superStart, superRowPtr, superValPtr, Lx, D, W, rowBase, colOff } = this;
    const k1 = superStart[s];
    const ns = superStart[s + 1] - k1;
    const nrows = superRowPtr[s + 1] - superRowPtr[s];
    const xs = superValPtr[s];
    const tol = this.pivotTolerance;
    for (let p0 = 0; p0 < ns; p0 += PANEL) {
      const p1 = Math.min(ns, p0 + PANEL);
      const nb = p1 - p0;
      if (p0 > 0) {
        // Panel −= L(p0.., 0:p0) · D · L(p0:p1, 0:p0)ᵀ
        for (let j = 0; j < nb; j++) {
          const src = xs + (p0 + j) * ns;
          const dst = j * p0;
          for (let k = 0; k < p0; k++) W[dst + k] = Lx[src + k] * D[k1 + k];
          colOff[j] = p0 + j;
        }
        for (let i = p0; i < nrows; i++) rowBase[i - p0] = xs + i * ns;
        subtractProducts(Lx, xs + p0 * ns, ns, W, p0, nb, nrows - p0, rowBase, colOff);
      }
      for (let k = p0; k < p1; k++) {
        // W(m − p0) = L_km D_m, D_k = a_kk − Σ L_km W(m − p0).
        const rk = xs + k * ns;
        let dk = Lx[rk + k];
        for (let m = p0; m < k; m++) {
          const l = Lx[rk + m];
          const w = l * D[k1 + m];
          W[m - p0] = w;
          dk -= l * w;
        }
        if (!(Math.abs(dk) > tol) || !Number.isFinite(dk)) throw new ZeroPivotError(k1 + k, this.perm[k1 + k], dk, 'SupernodalLDLT');
        D[k1 + k] = dk;
        Lx[rk + k] = dk;
        // L_ik for the rows below, two at a time.
        let i = k + 1;
        for (; i + 1 < nrows; i += 2) {
          const r0 = xs + i * ns;
          const r1 = r0 + ns;
          let s0 = Lx[r0 + k];
          let s1 = Lx[r1 + k];
          for (let m = p0; m < k; m++) {
            const w = W[m - p0];
            s0 -= Lx[r0 + m] * w;
            s1 -= Lx[r1 + m] * w;
          }
          Lx[r0 + k] = s0 / dk;
          Lx[r1 + k] = s1 / dk;
        }
        if (i < nrows) {
          const r0 = xs + i * ns;
          let s0 = Lx[r0 + k];
          for (let m = p0; m < k; m++) s0 -= Lx[r0 + m] * W[m - p0];
          Lx[r0 + k] = s0 / dk;
        }
      }
    }
  }

  /** out (n) = A⁻¹ b. out may alias b. No allocation. */
  solve(out: Float64Array, b: Float64Array): Float64Array {
    if (!this.factorized) throw new Error('SupernodalLDLT.solve: no valid factorization');
    const kernel = this.kernel;
    if (kernel) {
      kernel.vec.set(b.subarray(0, this.n));
      kernel.solve();
      out.set(kernel.vec);
      return out;
    }
    const { n, nsuper, perm, superStart, superRowPtr, superRows, superValPtr, Lx, D, y } = this;
    for (let k = 0; k < n; k++) y[k] = b[perm[k]];
    // L z = P b, supernode by supernode: the diagonal block, then the rows below.
    for (let s = 0; s < nsuper; s++) {
      const k1 = superStart[s];
      const ns = superStart[s + 1] - k1;
      const r0 = superRowPtr[s];
      const nrows = superRowPtr[s + 1] - r0;
      const xs = superValPtr[s];
      for (let k = 1; k < ns; k++) {
        const rk = xs + k * ns;
        let t = y[k1 + k];
        for (let m = 0; m < k; m++) t -= Lx[rk + m] * y[k1 + m];
        y[k1 + k] = t;
      }
      for (let i = ns; i < nrows; i++) {
        const ri = xs + i * ns;
        let t = 0;
        for (let m = 0; m < ns; m++) t += Lx[ri + m] * y[k1 + m];
        y[superRows[r0 + i]] -= t;
      }
    }
    // D w = z
    for (let k = 0; k < n; k++) y[k] /= D[k];
    // Lᵀ v = w
    this.backwardSubstitute();
    for (let k = 0; k < n; k++) out[perm[k]] = y[k];
    return out;
  }

  /**
   * out (n, A's numbering) = Pᵀ·L⁻ᵀ·z for z (n) in the elimination order (SupernodalCompliance's
   * backward solve after its own forward and diagonal steps). Rows whose entry of z is 0 at their
   * turn are skipped. z is not modified. No allocation.
   */
  backwardSolve(out: Float64Array, z: Float64Array): Float64Array {
    if (!this.factorized) throw new Error('SupernodalLDLT.backwardSolve: no valid factorization');
    const kernel = this.kernel;
    if (kernel) {
      this.y.set(z.subarray(0, this.n));
      kernel.backward();
      out.set(kernel.vec);
      return out;
    }
    const { n, perm, y } = this;
    y.set(z.subarray(0, n));
    this.backwardSubstitute();
    for (let k = 0; k < n; k++) out[perm[k]] = y[k];
    return out;
  }

  /**
   * y ← L⁻ᵀ·y in place (JavaScript path), supernodes in reverse: the rows below, then the diagonal
   * block; an entry of y that is 0 at its turn is skipped.
   */
  private backwardSubstitute(): void {
    const { nsuper, superStart, superRowPtr, superRows, superValPtr, Lx, y } = this;
    for (let s = nsuper - 1; s >= 0; s--) {
      const k1 = superStart[s];
      const ns = superStart[s + 1] - k1;
      const r0 = superRowPtr[s];
      const nrows = superRowPtr[s + 1] - r0;
      const xs = superValPtr[s];
      for (let i = ns; i < nrows; i++) {
        const ri = xs + i * ns;
        const yi = y[superRows[r0 + i]];
        if (yi === 0) continue;
        for (let m = 0; m < ns; m++) y[k1 + m] -= Lx[ri + m] * yi;
      }
      for (let k = ns - 1; k > 0; k--) {
        const rk = xs + k * ns;
        const yk = y[k1 + k];
        if (yk === 0) continue;
        for (let m = 0; m < k; m++) y[k1 + m] -= Lx[rk + m] * yk;
      }
    }
  }
}

/** Columns per panel in the dense factorization of a supernode (the WebAssembly kernel's too). */
const PANEL = LDLT_PANEL;

/**
 * T −= X · Wᵀ on the lower part, scattered: for j < ncol and i ≥ j (from the start of j's block of
 * three) with i < nrow,  Lx[rowBase[i] + colOff[j]] −= Σ_{k<nk} Lx[x0 + i·ldx + k] · W[j·nk + k].
 * X's rows are contiguous in k, W is ncol × nk row by row. Three rows by three columns at a time
 * (nine dot products sharing six loads per k). The entries above the diagonal (i < j) that a block
 * on the diagonal computes are not written: the unused upper triangle of the blocks stays zero, as
 * in the WebAssembly kernel (whose tiles differ).
 */
function subtractProducts(
  Lx: Float64Array,
  x0: number,
  ldx: number,
  W: Float64Array,
  nk: number,
  ncol: number,
  nrow: number,
  rowBase: Int32Array,
  colOff: Int32Array,
): void {
  let j = 0;
  for (; j + 2 < ncol; j += 3) {
    const w0 = j * nk;
    const w1 = w0 + nk;
    const w2 = w1 + nk;
    const c0 = colOff[j];
    const c1 = colOff[j + 1];
    const c2 = colOff[j + 2];
    let i = j;
    for (; i + 2 < nrow; i += 3) {
      const l0 = x0 + i * ldx;
      const l1 = l0 + ldx;
      const l2 = l1 + ldx;
      let s00 = 0;
      let s01 = 0;
      let s02 = 0;
      let s10 = 0;
      let s11 = 0;
      let s12 = 0;
      let s20 = 0;
      let s21 = 0;
      let s22 = 0;
      for (let k = 0; k < nk; k++) {
        const y0 = W[w0 + k];
        const y1 = W[w1 + k];
        const y2 = W[w2 + k];
        const a = Lx[l0 + k];
        const b = Lx[l1 + k];
        const c = Lx[l2 + k];
        s00 += a * y0;
        s01 += a * y1;
        s02 += a * y2;
        s10 += b * y0;
        s11 += b * y1;
        s12 += b * y2;
        s20 += c * y0;
        s21 += c * y1;
        s22 += c * y2;
      }
      let b = rowBase[i];
      Lx[b + c0] -= s00;
      if (i > j) {
        Lx[b + c1] -= s01;
        Lx[b + c2] -= s02;
      }
      b = rowBase[i + 1];
      Lx[b + c0] -= s10;
      Lx[b + c1] -= s11;
      if (i > j) Lx[b + c2] -= s12;
      b = rowBase[i + 2];
      Lx[b + c0] -= s20;
      Lx[b + c1] -= s21;
      Lx[b + c2] -= s22;
    }
    for (; i < nrow; i++) {
      const l0 = x0 + i * ldx;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      for (let k = 0; k < nk; k++) {
        const a = Lx[l0 + k];
        s0 += a * W[w0 + k];
        s1 += a * W[w1 + k];
        s2 += a * W[w2 + k];
      }
      const b = rowBase[i];
      Lx[b + c0] -= s0;
      if (i > j) Lx[b + c1] -= s1;
      if (i > j + 1) Lx[b + c2] -= s2;
    }
  }
  for (; j < ncol; j++) {
    const w0 = j * nk;
    const c0 = colOff[j];
    for (let i = j; i < nrow; i++) {
      const l0 = x0 + i * ldx;
      let s0 = 0;
      for (let k = 0; k < nk; k++) s0 += Lx[l0 + k] * W[w0 + k];
      Lx[rowBase[i] + c0] -= s0;
    }
  }
}

/** post[k] = node visited k-th by a depth-first postorder of the forest (children in increasing order). */
function postorder(parent: Int32Array): Int32Array {
  const n = parent.length;
  const firstChild = new Int32Array(n).fill(-1);
  const sibling = new Int32Array(n).fill(-1);
  // Children lists built from the highest index down, so that each list is increasing.
  for (let j = n - 1; j >= 0; j--) {
    const p = parent[j];
    if (p !== -1) {
      sibling[j] = firstChild[p];
      firstChild[p] = j;
    }
  }
  const post = new Int32Array(n);
  const stack = new Int32Array(n);
  let k = 0;
  for (let root = 0; root < n; root++) {
    if (parent[root] !== -1) continue;
    let top = 0;
    stack[0] = root;
    while (top >= 0) {
      const j = stack[top];
      const c = firstChild[j];
      if (c === -1) {
        post[k++] = j;
        top--;
      } else {
        firstChild[j] = sibling[c]; // detach the child, visit it
        stack[++top] = c;
      }
    }
  }
  return post;
}

// Relaxed amalgamation thresholds (the usual ones of supernodal Cholesky codes): a merged supernode
// of at most RELAX_COLS[0] columns is always accepted; of at most RELAX_COLS[l] columns if its
// fraction of explicit zeros is below RELAX_ZEROS[l]; of any size below RELAX_ZEROS[2].
const RELAX_COLS = [4, 16, 48];
const RELAX_ZEROS = [0.8, 0.1, 0.05];

/**
 * First column of each supernode (n+1 entries, last = n), for a postordered tree. Fundamental
 * supernodes: j joins j−1's supernode when j−1 is its only child and column j−1 of L is
 * {j−1} ∪ column j. With `relaxed`, each supernode is then merged into its parent when the parent
 * comes right after it (it is the parent's last child) and the zeros stay within the thresholds.
 */
function supernodePartition(n: number, parent: Int32Array, counts: Int32Array, relaxed: boolean): Int32Array {
  if (n === 0) return new Int32Array(1);
  const children = new Int32Array(n);
  for (let j = 0; j < n; j++) if (parent[j] !== -1) children[parent[j]]++;
  const starts: number[] = [0];
  for (let j = 1; j < n; j++) {
    const chain = parent[j - 1] === j && children[j] === 1 && counts[j - 1] === counts[j] + 1;
    if (!chain) starts.push(j);
  }
  starts.push(n);
  const nf = starts.length - 1;
  if (!relaxed) return Int32Array.from(starts);

  // Per fundamental supernode f: columns, rows of its first column (diagonal included), parent.
  const cols = new Float64Array(nf);
  const rows = new Float64Array(nf);
  const zeros = new Float64Array(nf);
  const sparent = new Int32Array(nf);
  const fOf = new Int32Array(n);
  for (let f = 0; f < nf; f++) fOf.fill(f, starts[f], starts[f + 1]);
  for (let f = 0; f < nf; f++) {
    cols[f] = starts[f + 1] - starts[f];
    rows[f] = counts[starts[f]] + 1;
    const p = parent[starts[f + 1] - 1];
    sparent[f] = p === -1 ? -1 : fOf[p];
  }
  // From the last supernode down: f merges with the group headed by f+1 when f+1 is its parent.
  const merged = new Uint8Array(nf); // merged[f+1] = 1: f+1 belongs to f's group
  for (let f = nf - 2; f >= 0; f--) {
    if (sparent[f] !== f + 1) continue;
    const g = f + 1;
    const ns = cols[f] + cols[g];
    const lnz = cols[f] + rows[g]; // rows of the merged first column
    const newZeros = cols[f] * (cols[f] + rows[g] - rows[f]);
    const totalZeros = zeros[f] + zeros[g] + newZeros;
    const size = ns * lnz - (ns * (ns - 1)) / 2;
    const z = totalZeros / size;
    const accept =
      ns <= RELAX_COLS[0] ||
      (ns <= RELAX_COLS[1] && z < RELAX_ZEROS[0]) ||
      (ns <= RELAX_COLS[2] && z < RELAX_ZEROS[1]) ||
      z < RELAX_ZEROS[2];
    if (!accept) continue;
    merged[g] = 1;
    cols[f] = ns;
    rows[f] = lnz;
    zeros[f] = totalZeros;
  }
  const out: number[] = [];
  for (let f = 0; f < nf; f++) if (!merged[f]) out.push(starts[f]);
  out.push(n);
  return Int32Array.from(out);
}

/**
 * Row structure of each supernode: its own columns, then (increasing) the rows ≥ k2 of the lower
 * columns of A in it and of the structures of its child supernodes. Children come before their
 * parent in a postorder, so one pass in supernode order suffices.
 */
function supernodeStructure(
  n: number,
  superStart: Int32Array,
  superOf: Int32Array,
  parent: Int32Array,
  loPtr: Int32Array,
  loRow: Int32Array,
): { rowPtr: Int32Array; rows: Int32Array } {
  const nsuper = superStart.length - 1;
  // Child supernode lists.
  const firstChild = new Int32Array(nsuper).fill(-1);
  const sibling = new Int32Array(nsuper).fill(-1);
  for (let s = nsuper - 1; s >= 0; s--) {
    const p = parent[superStart[s + 1] - 1];
    if (p === -1) continue;
    const t = superOf[p];
    sibling[s] = firstChild[t];
    firstChild[t] = s;
  }
  const mark = new Int32Array(n).fill(-1);
  const rowPtr = new Int32Array(nsuper + 1);
  let rows = new Int32Array(Math.max(16, 2 * loRow.length));
  let len = 0;
  for (let s = 0; s < nsuper; s++) {
    const k1 = superStart[s];
    const k2 = superStart[s + 1];
    const start = len;
    const need = (k: number) => {
      if (len + k > rows.length) {
        const bigger = new Int32Array(Math.max(2 * rows.length, len + k));
        bigger.set(rows.subarray(0, len));
        rows = bigger;
      }
    };
    need(k2 - k1);
    for (let j = k1; j < k2; j++) rows[len++] = j;
    for (let j = k1; j < k2; j++) {
      for (let q = loPtr[j]; q < loPtr[j + 1]; q++) {
        const i = loRow[q];
        if (i >= k2 && mark[i] !== s) {
          mark[i] = s;
          need(1);
          rows[len++] = i;
        }
      }
    }
    for (let c = firstChild[s]; c !== -1; c = sibling[c]) {
      for (let p = rowPtr[c]; p < rowPtr[c + 1]; p++) {
        const i = rows[p];
        if (i >= k2 && mark[i] !== s) {
          mark[i] = s;
          need(1);
          rows[len++] = i;
        }
      }
    }
    rows.subarray(start + (k2 - k1), len).sort();
    rowPtr[s] = start;
    rowPtr[s + 1] = len;
  }
  return { rowPtr, rows: rows.slice(0, len) };
}
