import {
  AnimateBeginEvent,
  AnimateEndEvent,
  BaseObject,
  Bool,
  Enum,
  RealArray,
  Real,
  Str,
  UInt,
  printNumber,
  sofaComponent,
  type Data,
  type SofaEvent,
} from '@sofa-ts/core';
import { openBlockingZmqSocket, type BlockingZmqSocket } from './zmq-socket.js';
import type { ZmqJob, ZmqPattern } from './zmq-protocol.js';

/** Values per entry of each template; 0: a single number per field (no count in the message). */
const TUPLE: Record<string, number> = {
  double: 0,
  int: 0,
  'unsigned int': 0,
  Vec1d: 1,
  Vec3d: 3,
  Rigid3d: 7,
  Vec2i: 2,
  Vec1ui: 1,
  Vec2ui: 2,
};
const Values = RealArray(0, 'T');

/**
 * SoftRobots' CommunicationController: sends or receives its fields data1 … data<nbDataField>
 * between simulations over ZeroMQ (the npm package `zeromq`, an optional dependency), once per
 * step at its beginning (atBeginAnimationStep) or end, from the time beginAt on.
 *
 * - sender: binds tcp://*:port; publish/subscribe publishes (never waits), request/reply waits for
 *   a receiver's request then replies;
 * - receiver: connects to tcp://ip:port (ip default localhost), subscribes, or requests then waits;
 *   a step waits for the message (at most timeOut ms; 0: without limit, as in SOFA).
 *
 * A message is text: the template name, then each field — a scalar template (double, int,
 * unsigned int) one number, a vector template its entry count then its numbers — each followed by
 * a space ("double 3.5 0.25 ", "Vec3d 1 0 0 1 "). SoftRobots writes numbers with six decimals
 * (std::to_string); sofa-ts writes them in shortest round-trip form; both read either, commas
 * taken as decimal points. A received message of another template, a short message or a timeout
 * makes the controller inactive with a located warning (SOFA marks it invalid); no package
 * zeromq, no worker threads or a port that cannot be bound is an error at init. The socket
 * lives in a worker thread so that the synchronous step can wait on it (zmq-socket.ts); `close()`
 * frees the port.
 */
@sofaComponent({
  name: 'CommunicationController',
  category: 'SoftRobots',
  module: 'SoftRobots',
  description: 'Sends or receives data between simulations over the network (ZeroMQ).',
  templates: Object.keys(TUPLE),
  defaultTemplate: 'double',
})
export class CommunicationController extends BaseObject {
  readonly job = this.initData({
    name: 'job',
    type: Enum(['sender', 'receiver'] as const),
    default: 'sender',
    help: 'sender or receiver (default sender)',
  });
  readonly pattern = this.initData({
    name: 'pattern',
    type: Enum(['publish/subscribe', 'request/reply'] as const),
    default: 'publish/subscribe',
    help: 'publish/subscribe: fan out to every connected peer, never waits; request/reply: alternate request and reply. The same on both sides',
  });
  readonly HWM = this.initData({
    name: 'HWM',
    type: UInt,
    default: 0,
    help: 'publisher: the most messages queued in memory (0: no limit)',
  });
  readonly port = this.initData({ name: 'port', type: Str, default: '5556', help: 'TCP port' });
  readonly ip = this.initData({ name: 'ip', type: Str, default: '', help: 'receiver: IP address of the sender (default: localhost)' });
  readonly atBeginAnimationStep = this.initData({
    name: 'atBeginAnimationStep',
    type: Bool,
    default: true,
    help: 'send or receive at the beginning of the step (else at its end)',
  });
  readonly beginAt = this.initData({
    name: 'beginAt',
    type: Real,
    default: 0,
    unit: 's',
    help: 'simulation time from which to communicate',
  });
  readonly timeOut = this.initData({
    name: 'timeOut',
    type: UInt,
    default: 3000,
    help: 'time out of a send or receive in ms (0: none); then the communication stops',
  });
  readonly nbDataField = this.initData({ name: 'nbDataField', type: UInt, default: 1, help: "number of fields 'data' sent or received" });

  private readonly fields: Data<Float64Array>[] = [];
  private socket: BlockingZmqSocket | undefined;
  /** Why the controller no longer communicates (SOFA marks it invalid). */
  inactive: string | undefined;

  constructor() {
    super();
    this.resizeFields(1);
  }

  private resizeFields(n: number): void {
    while (this.fields.length < n)
      this.fields.push(
        this.initData({
          name: `data${this.fields.length + 1}`,
          type: Values,
          default: new Float64Array(0),
          help: 'data to send or receive',
        }),
      );
  }

  /** data<k> exists for any k the scene names (SOFA's vectorData). */
  override findData(name: string): Data<unknown> | undefined {
    const found = super.findData(name);
    if (found) return found;
    const m = /^data(\d+)$/.exec(name);
    if (!m || Number(m[1]) < 1 || Number(m[1]) > 10000) return undefined;
    this.resizeFields(Number(m[1]));
    return this.fields[Number(m[1]) - 1] as Data<unknown>;
  }

  /** The fields data1 … data<nbDataField>. */
  get data(): readonly Data<Float64Array>[] {
    return this.fields.slice(0, this.nbDataField.value);
  }

  override init(): void {
    this.template ||= 'double';
    if (TUPLE[this.template] === undefined)
      throw this.error(`template ${this.template} is not supported`, `use one of ${Object.keys(TUPLE).join(', ')}`);
    this.resizeFields(this.nbDataField.value);
    if (!this.listening.value)
      this.warn('listening is false: as in SOFA, the controller receives no step events and communicates nothing', 'set listening="true"');
    if (this.timeOut.value === 0 && this.job.value === 'receiver')
      this.warnAbout(this.timeOut, 'timeOut 0: a step waits for the sender without limit');
    this.inactive = undefined;
    this.close();
    try {
      this.socket = openBlockingZmqSocket({
        job: this.job.value as ZmqJob,
        pattern: this.pattern.value as ZmqPattern,
        port: this.port.value.trim(),
        ip: this.ip.value.trim() || 'localhost',
        timeOut: this.timeOut.value,
        hwm: this.HWM.value,
      });
    } catch (e) {
      throw this.error(`no ZeroMQ socket (${this.job.value} on port ${this.port.value}): ${(e as Error).message}`);
    }
  }

  /** Closes the socket (frees the port); the controller then communicates nothing. */
  close(): void {
    const s = this.socket;
    this.socket = undefined;
    s?.close();
  }

  override handleEvent(event: SofaEvent): void {
    if (!this.listening.value || !this.socket || this.inactive !== undefined) return;
    const begin = event instanceof AnimateBeginEvent;
    if (!begin && !(event instanceof AnimateEndEvent)) return;
    if (begin !== this.atBeginAnimationStep.value) return;
    // the time at the beginning of this step (at its end the context time has advanced by dt)
    const t = this.context.getTime() - (begin ? 0 : event.dt);
    if (t < this.beginAt.value) return;
    try {
      if (this.job.value === 'sender') this.sendData();
      else this.receiveData();
    } catch (e) {
      this.stop(`the communication failed: ${(e as Error).message}`);
    }
  }

  private stop(why: string): void {
    this.warn(`${why}; the controller communicates nothing more`, this.timeOut.value > 0 ? 'a longer timeOut may help' : undefined);
    this.inactive = why;
    this.close();
  }

  /** The message of the fields (see the class comment). */
  message(): string {
    const n = TUPLE[this.template];
    let m = `${this.template} `;
    for (const d of this.data) {
      const v = d.value;
      if (n === 0) {
        m += `${printNumber(v[0] ?? 0)} `;
      } else {
        m += `${Math.floor(v.length / n)} `;
        for (let i = 0; i < Math.floor(v.length / n) * n; i++) m += `${printNumber(v[i])} `;
      }
    }
    return m;
  }

  private sendData(): void {
    const s = this.socket!;
    if (this.pattern.value === 'request/reply' && s.receive() === undefined) return this.stop('no request from a receiver within timeOut');
    if (!s.send(new TextEncoder().encode(this.message()))) this.stop('the message could not be sent within timeOut');
  }

  private receiveData(): void {
    const s = this.socket!;
    if (this.pattern.value === 'request/reply' && !s.request()) return this.stop('the request could not be sent within timeOut');
    const got = s.receive();
    if (got === undefined) return this.stop('no message within timeOut');
    this.readMessage(new TextDecoder().decode(got));
  }

  /** Sets the fields from a received message; a message of another template or too short stops the controller. */
  readMessage(text: string): void {
    const cut = text.indexOf(' ');
    const type = cut < 0 ? text : text.slice(0, cut);
    if (type !== this.template) return this.stop(`received a message of template '${type}', this controller is ${this.template}`);
    const tokens = text
      .slice(cut + 1)
      .replace(/,/g, '.')
      .trim()
      .split(/\s+/)
      .filter((t) => t !== '');
    const n = TUPLE[this.template];
    let k = 0;
    const next = (): number => {
      if (k >= tokens.length) throw new Error('short');
      const v = Number(tokens[k++]);
      if (!Number.isFinite(v)) throw new Error(`'${tokens[k - 1]}' is not a number`);
      return v;
    };
    const values: Float64Array[] = [];
    try {
      for (let f = 0; f < this.data.length; f++) {
        if (n === 0) {
          values.push(Float64Array.of(next()));
        } else {
          const count = next();
          if (!Number.isInteger(count) || count < 0) throw new Error(`entry count '${count}' of data${f + 1}`);
          const v = new Float64Array(count * n);
          for (let i = 0; i < v.length; i++) v[i] = next();
          values.push(v);
        }
      }
    } catch (e) {
      const why =
        (e as Error).message === 'short'
          ? `the message has fewer numbers than ${this.data.length} fields need`
          : `bad message: ${(e as Error).message}`;
      return this.stop(`${why} (${JSON.stringify(text.slice(0, 80))})`);
    }
    values.forEach((v, f) => (this.data[f].value = v));
  }
}
