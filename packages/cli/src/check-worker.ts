// A worker of `sofa-ts check`: checks the scenes it is sent, one at a time, and answers each.
import { parentPort } from 'node:worker_threads';
import { checkScene, type LoadOptions } from 'sofa-ts';

export interface CheckJob {
  id: number;
  scene: string;
  steps: number;
  options: LoadOptions;
}

parentPort!.on('message', (job: CheckJob) => {
  void checkScene(job.scene, job.steps, job.options).then((result) => parentPort!.postMessage({ id: job.id, result }));
});
