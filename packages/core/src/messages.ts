import type { SofaError } from './errors.js';

/**
 * Where the warnings of a scene go once it is built (SOFA's msg_warning): values reset as SOFA
 * resets them, settings sofa-ts does not honour, fallbacks taken during a step. Each warning is a
 * located SofaError; the same message is reported once, so a warning raised at every step does not
 * flood the output. A scene's root owns the sink (Node.messages); SofaScene and the CLI listen to it.
 */
export class MessageSink {
  /** Every distinct warning, in the order they arrived. */
  readonly warnings: SofaError[] = [];
  private readonly seen = new Set<string>();
  private readonly listeners: Array<(w: SofaError) => void> = [];

  warn(w: SofaError): void {
    if (this.seen.has(w.message)) return;
    this.seen.add(w.message);
    this.warnings.push(w);
    for (const l of this.listeners) l(w);
  }

  /** Calls `fn` for every new warning; returns the function that stops it. */
  onWarning(fn: (w: SofaError) => void): () => void {
    this.listeners.push(fn);
    return () => {
      const i = this.listeners.indexOf(fn);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }
}

/** The sink of components that are in no scene (built and initialised directly by code). */
export const detachedMessages = new MessageSink();
