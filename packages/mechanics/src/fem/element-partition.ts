/**
 * Contiguous element ranges for threads, with the nodes' owners: the first range touching a node
 * adds to it directly; every later range's contribution to it goes to a deferred slot of its own,
 * added after the run in element order. Each node then sums the one-thread operands in the
 * one-thread order, whatever the number of threads (used by the parallel force fields).
 */
export interface ElementPartition {
  /** (threads + 1) thread t runs elements [bounds[t], bounds[t+1]). */
  bounds: Int32Array;
  /** (nElem × m) 1 where element e's node slot c is deferred. */
  deferred: Uint8Array;
  /** Number of deferred slots. */
  count: number;
}

/** Cuts nElem = elems.length / m elements into `threads` ranges whose inner bounds are multiples of `align`. */
export function partitionElements(elems: Uint32Array, m: number, nPoints: number, threads: number, align = 1): ElementPartition {
  const n = elems.length / m;
  const bounds = new Int32Array(threads + 1);
  for (let t = 1; t < threads; t++) bounds[t] = Math.floor(Math.floor((n * t) / threads) / align) * align;
  bounds[threads] = n;
  const owner = new Int32Array(nPoints).fill(-1);
  const deferred = new Uint8Array(elems.length);
  let count = 0;
  for (let t = 0; t < threads; t++)
    for (let e = bounds[t]; e < bounds[t + 1]; e++)
      for (let c = 0; c < m; c++) {
        const q = elems[m * e + c];
        if (owner[q] === -1) owner[q] = t;
        else if (owner[q] !== t) {
          deferred[m * e + c] = 1;
          count++;
        }
      }
  return { bounds, deferred, count };
}

/** A Float64Array of n zeros on a SharedArrayBuffer. */
export function sharedF64(n: number): Float64Array {
  return new Float64Array(new SharedArrayBuffer(8 * Math.max(n, 1))).subarray(0, n);
}
