/** A pool kernel for tests: adds 1 to the count of the calling thread (args[0]) in a shared Int32Array. */
export function countRuns(data: unknown, args: Float64Array): void {
  Atomics.add(data as Int32Array, args[0], 1);
}
