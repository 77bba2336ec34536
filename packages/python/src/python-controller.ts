import {
  type CheckpointContext,
  type CheckpointReader,
  type CheckpointRecord,
  type Checkpointable,
  type Data,
  AnimateBeginEvent,
  AnimateEndEvent,
  BaseObject,
  KeypressedEvent,
  KeyreleasedEvent,
  type SofaEvent,
} from '@sofa-ts/core';
import type { WireValue } from './wire-values.js';
import { wireNumber } from './wire-values.js';

/** How a controller reaches its Python object: a synchronous call answered before it returns. */
export interface PythonCaller {
  callPython(op: string, args: Record<string, unknown>, blobs?: readonly ArrayBufferView[]): unknown;
  dataOf(owner: unknown, name: string): Data<unknown> | undefined;
  handleOf(d: Data<unknown>): number | undefined;
  encodeValue(d: Data<unknown>, blobs: ArrayBufferView[]): unknown;
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

  /** Per handler, the Data it read last time: their values go with the next event (no round trip per read). */
  private readonly readSets = new Map<string, Data<unknown>[]>();

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
    const blobs: ArrayBufferView[] = [];
    const pre: Array<{ owner: number; name: string; v: unknown }> = [];
    for (const d of this.readSets.get(method) ?? []) {
      const owner = this.caller.handleOf(d);
      if (owner !== undefined) pre.push({ owner, name: d.name, v: this.caller.encodeValue(d, blobs) });
    }
    const r = this.caller.callPython('event', { obj: this.pyId, method, event: eventDict(event), pre }, blobs) as {
      handled?: boolean;
      reads?: Array<{ owner: number; name: string }>;
    } | null;
    if (r?.reads) {
      const set: Data<unknown>[] = [];
      for (const { owner, name } of r.reads) {
        const d = this.caller.dataOf(owner, name);
        if (d) set.push(d);
      }
      this.readSets.set(method, set);
    }
    if (r?.handled === true) event.handled = true;
  }
}

/** The dict SofaPython3 gives a handler: the event's class name and its fields. */
export function eventDict(event: SofaEvent): Record<string, WireValue> {
  const base: Record<string, WireValue> = { type: event.type, isHandled: event.handled };
  if (event instanceof AnimateBeginEvent || event instanceof AnimateEndEvent) return { ...base, dt: wireNumber(event.dt) };
  if (event instanceof KeypressedEvent || event instanceof KeyreleasedEvent) return { ...base, key: event.key };
  // ResetEvent, SimulationInitDoneEvent and the others: their class name only
  return base;
}
