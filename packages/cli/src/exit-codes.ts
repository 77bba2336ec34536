/**
 * Exit codes of the `sofa-ts` command (also in `sofa-ts run --help` and the README):
 *   0    success
 *   1    an error: the scene, a component, a file (the message says where)
 *   2    bad command-line usage
 *   3    the simulation diverged: a step left a NaN or infinite position or velocity (with
 *        --on-divergence continue too, once the run has gone to its end)
 *   130  interrupted by SIGINT (Ctrl-C), 143 by SIGTERM: 128 + the signal's number, the shells'
 *        convention; the current step was finished and every state file ends on the same frame
 */
export const EXIT_OK = 0;
export const EXIT_ERROR = 1;
export const EXIT_USAGE = 2;
export const EXIT_DIVERGED = 3;
export const EXIT_SIGINT = 130;
export const EXIT_SIGTERM = 143;

/** 128 + signal number for the signals `run` handles. */
export function exitCodeOfSignal(signal: NodeJS.Signals): number {
  return signal === 'SIGTERM' ? EXIT_SIGTERM : EXIT_SIGINT;
}
