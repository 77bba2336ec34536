import type { BaseObject } from './base-object.js';
import { SofaError, SofaErrors, type SourceLocation } from './errors.js';

/** When a component failed: one of the lifecycle phases Simulation runs. `step` is 1-based
 *  (steps since init or the last reset) and `time` the simulated time the step started from, in s. */
export type LifecyclePhase =
  | { readonly kind: 'init' }
  | { readonly kind: 'bwdInit' }
  | { readonly kind: 'reset' }
  | { readonly kind: 'step'; readonly step: number; readonly time: number };

/** A simulated time for messages: 12 significant digits, so 0.1 + 0.2 prints as 0.3. */
export function formatTime(t: number): string {
  return String(+t.toPrecision(12));
}

export function describePhase(p: LifecyclePhase): string {
  return p.kind === 'step' ? `at step ${p.step}, t = ${formatTime(p.time)} s` : `during ${p.kind}`;
}

/**
 * An error raised by a component during init, bwdInit, a step or reset, reported with the
 * component, its node path, its place in the scene file and the phase. `cause` is what the component
 * threw (a stack a `--debug` run prints when it is not a SofaError: a bug of the component or of the
 * plugin that provides it).
 */
export class ComponentError extends SofaError {
  constructor(
    detail: string,
    options: { loc?: SourceLocation; component?: string; hint?: string; cause?: unknown },
    /** The phase it failed in. */
    readonly phase: LifecyclePhase,
    /** The component that failed: the one that raised the error, else the one the simulation was running. */
    override readonly source: BaseObject,
  ) {
    super(detail, options);
    this.name = 'ComponentError';
  }

  /** True when the component threw something other than a SofaError: a bug, not a scene error. */
  get isInternal(): boolean {
    return !(this.cause instanceof SofaError);
  }
}

// V8 can fail to allocate a typed array or an Array: a size asked for by the scene, out of reach.
const ALLOCATION_FAILURE = /Invalid typed array length|Array buffer allocation failed|Invalid array length|Invalid string length/;

/**
 * What to report when `obj` threw `e` in `phase`. A SofaError the component raised itself keeps its
 * location, component and hint and gains the phase (and the node path); anything else (TypeError,
 * a plain Error of a plugin, an internal check of a kernel) is reported as thrown by `obj`, naming
 * the method when the stack shows it. SofaErrors lists and errors already attributed pass through.
 */
export function componentError(obj: BaseObject, phase: LifecyclePhase, e: unknown): SofaError {
  if (e instanceof ComponentError || e instanceof SofaErrors) return e;
  const when = describePhase(phase);
  const self = obj.describe();
  const inNode = (o: BaseObject, who: string): string => (o.hasContext ? `${who} in ${o.context.path}` : who);
  if (e instanceof SofaError) {
    // Raised by the component, by another one it called (its own this.error), or by a kernel with
    // its own message: keep who raised it.
    const raisedBy = isComponent(e.source) ? e.source : e.component === undefined || e.component === self ? obj : undefined;
    const loc = e.loc ?? raisedBy?.loc;
    const component = raisedBy ? inNode(raisedBy, e.component ?? raisedBy.describe()) : e.component!;
    return new ComponentError(
      `${e.detail} (${when})`,
      { ...(loc ? { loc } : {}), component, ...(e.hint ? { hint: e.hint } : {}), cause: e },
      phase,
      raisedBy ?? obj,
    );
  }
  const err = e instanceof Error ? e : undefined;
  const what = err ? `${err.name}: ${err.message}` : `the value ${String(e)}`;
  const method = err ? methodInStack(err, obj) : undefined;
  const action = method === undefined ? 'threw' : `${method} threw`;
  const tail = method === phase.kind ? '' : ` (${when})`;
  const hint =
    err && ALLOCATION_FAILURE.test(err.message)
      ? 'the scene asks for more memory than the process can allocate: check the sizes it gives (resolutions, counts)'
      : 'an unchecked error inside the component: a bug of its code, or a case it does not report yet';
  return new ComponentError(
    `${action} ${what}${tail}`,
    { ...(obj.loc ? { loc: obj.loc } : {}), component: inNode(obj, self), hint, cause: e },
    phase,
    obj,
  );
}

function isComponent(o: unknown): o is BaseObject {
  return typeof o === 'object' && o !== null && typeof (o as BaseObject).describe === 'function' && 'hasContext' in o;
}

/** The method of `obj` the simulation called when the error was thrown, for messages only: in the
 *  stack, the outermost frame `Class.method` of the first run of frames whose Class is in the
 *  component's class chain (a helper method it called is inside that run); undefined when that run
 *  is cut by the end of the captured stack. */
function methodInStack(err: Error, obj: BaseObject): string | undefined {
  const stack = typeof err.stack === 'string' ? err.stack : '';
  const classes = new Set<string>();
  for (let p: object | null = Object.getPrototypeOf(obj); p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    const name = (p as { constructor?: { name?: unknown } }).constructor?.name;
    if (typeof name === 'string' && name) classes.add(name);
  }
  let method: string | undefined;
  for (const line of stack.split('\n').slice(1)) {
    const m = /^\s*at (?:new )?([\w$]+)\.([\w$]+) /.exec(line);
    if (m && classes.has(m[1])) method = m[2];
    else if (method !== undefined) return method;
  }
  // The run reaches the end of the captured stack (Error.stackTraceLimit): the entry point is not in it.
  return undefined;
}
