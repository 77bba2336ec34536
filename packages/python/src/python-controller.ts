import {
  type CheckpointContext,
  type CheckpointReader,
  type CheckpointRecord,
  type Checkpointable,
  type Data,
  BaseObject,
  type SofaEvent,
} from '@sofa-ts/core';
import { readSlot, type ReadSlot } from './wire-binary.js';

/** How a controller reaches its Python object: a synchronous call answered before it returns. */
export interface PythonCaller {
  callPython(op: string, args: Record<string, unknown>, blobs?: readonly ArrayBufferView[]): unknown;
  /**
   * Calls the handler `method` of the Python object `obj` with the event, sending the values of
   * `reads` with it; the handler's writes are applied before this returns. `reads` in the answer:
   * the Data the handler read, when they differ from those sent.
   */
  callEvent(
    obj: number,
    method: string,
    event: SofaEvent,
    reads: readonly ReadSlot[],
  ): { handled: boolean; reads: Array<{ owner: number; name: string }> | undefined; pythonMs: number };
  dataOf(owner: unknown, name: string): Data<unknown> | undefined;
}

/**
 * A `Sofa.Core.Controller` written in Python (SofaPython3's Controller): the component sits in the
 * graph like any other and forwards the events it receives to the Python object's handler named
 * `on` + the event's class (`onAnimateBeginEvent`, `onKeypressedEvent`, ...), else to its
 * `onEvent`; a handler returning True marks the event handled (its propagation stops, as in SOFA).
 * Only the handlers the Python class defines are called, so an event it does not handle costs no
 * round trip. Its `init`/`reinit`/`reset` call the Python methods of the same name when defined.
 * Not creatable from a scene file: Python scenes add it with `node.addObject(MyController(...))`.
 */
export class PythonController extends BaseObject implements Checkpointable {
  /** The Python class name, which SofaPython3 reports as the class name of the component. */
  pythonClass = 'Controller';

  /**
   * The last event's cost (ms): the whole call (`event`: the round trip, the writes applied) and,
   * of it, the Python handler's own run as Python measured it (`python`: from the event received
   * to the answer made); what remains is the channel (wake-ups, system calls, framing).
   */
  readonly timings = { event: 0, python: 0 };

  /** Per handler, the Data it read last time: their values go with the next event (no round trip per read). */
  private readonly readSets = new Map<string, ReadSlot[]>();

  constructor(
    readonly caller: PythonCaller,
    readonly pyId: number,
    readonly methods: ReadonlySet<string>,
  ) {
    super();
    this.listening.value = true;
    this.componentState = 'valid';
  }

  override get className(): string {
    return this.pythonClass;
  }

  override describe(): string {
    return `${this.pythonClass} '${this.getName()}' (Python controller)`;
  }

  /**
   * A checkpoint holds the controller's Data, not the attributes of its Python object (counters,
   * phases of a trajectory): said once per checkpoint, as the run resumed from it starts them anew.
   */
  checkpointState(ctx: CheckpointContext): CheckpointRecord {
    ctx.warn(
      this,
      `the attributes of the Python object (${this.pythonClass}) are not in the checkpoint: a resumed run starts them as createScene left them`,
    );
    return {};
  }

  restoreState(_saved: CheckpointReader): void {}

  override init(): void {
    if (this.methods.has('init')) this.caller.callPython('method', { obj: this.pyId, method: 'init' });
  }

  override reset(): void {
    if (this.methods.has('reset')) this.caller.callPython('method', { obj: this.pyId, method: 'reset' });
  }

  override handleEvent(event: SofaEvent): void {
    if (!this.listening.value) return;
    const handler = `on${event.type}`;
    const method = this.methods.has(handler) ? handler : this.methods.has('onEvent') ? 'onEvent' : undefined;
    if (method === undefined) return;
    const t = performance.now();
    const r = this.caller.callEvent(this.pyId, method, event, this.readSets.get(method) ?? noReads);
    this.timings.event = performance.now() - t;
    this.timings.python = r.pythonMs;
    if (r.reads) {
      const set: ReadSlot[] = [];
      r.reads.forEach(({ owner, name }, slot) => {
        const d = this.caller.dataOf(owner, name);
        if (d) set.push(readSlot(d, slot));
      });
      this.readSets.set(method, set);
    }
    if (r.handled) event.handled = true;
  }
}

const noReads: readonly ReadSlot[] = [];
