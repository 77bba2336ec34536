// A worker of `sofa-ts check`: checks the scenes it is sent, one at a time, and answers each.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parentPort } from 'node:worker_threads';
import { checkScene, type LoadOptions } from 'sofa-ts';

export interface CheckJob {
  id: number;
  scene: string;
  steps: number;
  options: LoadOptions;
  /** Step of a checkpoint to resume from and compare (0: none). */
  checkpointAt: number;
}

// Files the scene writes (WriteState, logs, exporters) go into a folder of their own, removed after:
// a check never writes into the tree it checks.
parentPort!.on('message', (job: CheckJob) => {
  const outputDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-check-out-'));
  void checkScene(job.scene, job.steps, { ...job.options, outputDir }, job.checkpointAt)
    .then((result) => parentPort!.postMessage({ id: job.id, result }))
    .finally(() => fs.rmSync(outputDir, { recursive: true, force: true }));
});
