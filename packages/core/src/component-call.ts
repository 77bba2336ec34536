import type { BaseObject } from './base-object.js';

/**
 * The component whose method the simulation is running, for error reports. A visitor or the
 * assembly engine stores the component before calling it and puts its caller's value back after:
 *
 *     const caller = componentCall.current;
 *     for (const ff of forceFields) { componentCall.current = ff; ff.addForce(f, x, v); }
 *     componentCall.current = caller;
 *
 * so when something throws, the restores are skipped and `current` is the innermost component that
 * was running. That is one store per call and no try/catch in the hot path: Simulation wraps the
 * whole step in one try/catch and reads `current` only when the step threw.
 * Steps are synchronous, so one slot serves every simulation of the process (a simulation stepped
 * inside another's step saves and restores it like any call).
 */
export const componentCall: { current: BaseObject | undefined } = { current: undefined };
