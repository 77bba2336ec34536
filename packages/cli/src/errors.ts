import pc from 'picocolors';
import { ComponentError, SofaError, SofaErrors } from 'sofa-ts';

/** How errors are printed: `debug` (--debug, or env SOFA_TS_DEBUG) adds the stack of internal errors. */
export const reporting = { debug: Boolean(process.env['SOFA_TS_DEBUG']) };

/**
 * Prints an error for a user: the located message(s), never a stack trace unless debugging. An
 * internal error (something a component threw that is not a SofaError, or any other exception)
 * gets its stack with --debug, and a note saying so without.
 */
export function reportError(e: unknown, out: NodeJS.WriteStream = process.stderr, debug = reporting.debug): void {
  const lines = e instanceof SofaErrors ? e.errors.map((x) => x.message) : [e instanceof Error ? e.message : String(e)];
  for (const l of lines) out.write(`${pc.red('error')}: ${l}\n`);
  const internals = (e instanceof SofaErrors ? e.errors : [e]).map(internalCause).filter((x) => x !== undefined);
  if (internals.length === 0) return;
  if (!debug) out.write(`${pc.dim('(run with --debug for the stack)')}\n`);
  else for (const x of internals) out.write(`${x instanceof Error && x.stack ? x.stack : String(x)}\n`);
}

/** What a component threw when it is not a SofaError (a bug), or any non-SofaError exception. */
function internalCause(e: unknown): unknown {
  if (e instanceof ComponentError) return e.isInternal ? e.cause : undefined;
  return e instanceof SofaError ? undefined : e;
}

/** Prints a scene's warnings (problems without consequence for the simulation). */
export function reportWarnings(warnings: readonly SofaError[], out: NodeJS.WriteStream = process.stderr): void {
  for (const w of warnings)
    out.write(`${pc.yellow('warning')}: ${w.message}
`);
}

/**
 * One line of a reason (for regression tables): the missing components or plugins, all named, when
 * that is why the scene stopped; else the first error and how many others there were.
 */
export function oneLine(e: unknown): string {
  const all = e instanceof SofaErrors ? e.errors : e instanceof SofaError ? [e] : [];
  const missing = all.filter((x) => x.code === 'unknown-component' || x.code === 'missing-plugin');
  if (missing.length > 0) {
    const names = [
      ...new Set(missing.map((x) => (x.code === 'missing-plugin' ? 'plugin ' : '') + (/'([^']+)'/.exec(x.detail)?.[1] ?? x.detail))),
    ];
    return `missing ${names.join(', ')} (first at ${missing[0].message.split(': ')[0]})`;
  }
  const msg =
    e instanceof SofaErrors
      ? e.errors[0].message + (e.errors.length > 1 ? ` (and ${e.errors.length - 1} other error${e.errors.length > 2 ? 's' : ''})` : '')
      : e instanceof Error
        ? e.message
        : String(e);
  return msg.split('\n')[0];
}
