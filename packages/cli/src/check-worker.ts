// A worker of `sofa-ts check`: checks the scenes it is sent, one at a time, and answers each.
import { parentPort } from 'node:worker_threads';
import { checkScene, type LoadOptions } from 'sofa-ts';

export interface CheckJob {
  id: number;
  scene: string;
  steps: number;
  options: LoadOptions;
  /** Step of a checkpoint to resume from and compare (0: none). */
  checkpointAt: number;
  /** The folder the scene's outputs go to (a fresh temporary one per scene). */
  outputDir: string;
}

// Files the scene writes (WriteState, logs, exporters) go into the job's folder (made and removed by
// the parent, which also removes it when it stops a worker that hangs): a check never writes into the
// tree it checks.
parentPort!.on('message', (job: CheckJob) => {
  void checkScene(job.scene, job.steps, { ...job.options, outputDir: job.outputDir }, job.checkpointAt).then((result) =>
    parentPort!.postMessage({ id: job.id, result }),
  );
});
