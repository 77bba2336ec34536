import pc from 'picocolors';
import { SofaError, SofaErrors } from 'sofa-ts';

/** Prints an error for a user: the located message(s), never a stack trace (unless SOFA_TS_DEBUG). */
export function reportError(e: unknown, out: NodeJS.WriteStream = process.stderr): void {
  const lines = e instanceof SofaErrors ? e.errors.map((x) => x.message) : [e instanceof Error ? e.message : String(e)];
  for (const l of lines) out.write(`${pc.red('error')}: ${l}\n`);
  if (process.env['SOFA_TS_DEBUG'] && e instanceof Error && !(e instanceof SofaError)) out.write(`${e.stack}\n`);
}

/** Prints a scene's warnings (problems without consequence for the simulation). */
export function reportWarnings(warnings: readonly SofaError[], out: NodeJS.WriteStream = process.stderr): void {
  for (const w of warnings) out.write(`${pc.yellow('warning')}: ${w.message}
`);
}

/** One line of a reason (for regression tables). */
export function oneLine(e: unknown): string {
  const msg = e instanceof SofaErrors ? e.errors[0]!.message + (e.errors.length > 1 ? ` (+${e.errors.length - 1} more)` : '') : e instanceof Error ? e.message : String(e);
  return msg.split('\n')[0]!;
}
