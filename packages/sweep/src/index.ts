/**
 * @sofa-ts/sweep: parameter sweeps and datasets. The cases of a grid or a sample of Data values run
 * on worker threads (one per core) or on any number of machines through a BullMQ queue in Redis;
 * results go to Parquet and CSV with one row per case and recorded step, resumable by case identity.
 */
export * from './param-spec.js';
export * from './cases.js';
export * from './random.js';
export * from './record-spec.js';
export * from './case-recorder.js';
export * from './case-id.js';
export * from './run-case.js';
export * from './result-codec.js';
export * from './scene-bundle.js';
export * from './thread-pool.js';
export * from './local-runner.js';
export * from './journal.js';
export * from './results-table.js';
export * from './summary-svg.js';
export * from './redis-url.js';
export * from './queue-coordinator.js';
export * from './queue-worker.js';
export * from './sweep.js';
