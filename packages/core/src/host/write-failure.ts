import { SofaError } from '../errors.js';

/**
 * The operating system's reason of a failed file operation, in words and with its code:
 * "no space left on device (ENOSPC)", "i/o error (EIO)", "disk quota exceeded (EDQUOT)", "no such
 * file or directory (ENOENT)". Node's messages read "ENOSPC: no space left on device, write".
 */
export function osReason(cause: unknown): string {
  const e = cause as { code?: unknown; message?: unknown };
  const message = typeof e?.message === 'string' ? e.message : String(cause);
  const m = /^([A-Z][A-Z0-9_]+): ([^,]+)/.exec(message);
  if (m) return `${m[2]} (${m[1]})`;
  return typeof e?.code === 'string' && !message.includes(e.code) ? `${message} (${e.code})` : message;
}

/** The error of a write that failed: what, where and the system's reason (`cannot write state file
 *  /out/0_dofs.state.txt: no space left on device (ENOSPC)`). */
export function writeFailure(what: string, file: string, cause: unknown): SofaError {
  return new SofaError(`cannot write ${what} ${file}: ${osReason(cause)}`, { cause });
}
