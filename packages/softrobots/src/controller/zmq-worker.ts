/**
 * The worker thread that holds a ZeroMQ socket for CommunicationController (Node only; see
 * zmq-protocol.ts). Each operation posted by the main thread runs on the socket of the npm package
 * `zeromq`, then the outcome is stored in the shared control block and the main thread is woken.
 */
import { CONTROL_INTS, DONE, ERROR, FLAG, LENGTH, MAX_MESSAGE, OK, STATUS, TIMEOUT, type ZmqOp, type ZmqOptions } from './zmq-protocol.js';

interface Port {
  on(ev: 'message', fn: (m: ZmqOp) => void): void;
}
interface ZmqSocket {
  bind(a: string): Promise<void>;
  connect(a: string): void;
  send(m: Uint8Array | string): Promise<void>;
  receive(): Promise<Uint8Array[]>;
  close(): void;
  subscribe?(...p: string[]): void;
}
type ZmqModule = Record<'Publisher' | 'Subscriber' | 'Request' | 'Reply', new (o?: Record<string, number>) => ZmqSocket>;

const wt = (globalThis as unknown as { process: { getBuiltinModule(id: string): unknown } }).process.getBuiltinModule(
  'node:worker_threads',
) as {
  parentPort: Port;
  workerData: { control: SharedArrayBuffer; buffer: SharedArrayBuffer; options: ZmqOptions };
};
const { control, buffer, options } = wt.workerData;
const ctrl = new Int32Array(control, 0, CONTROL_INTS);
const bytes = new Uint8Array(buffer);
let socket: ZmqSocket | undefined;

function finish(status: number, payload?: Uint8Array | string): void {
  const b = typeof payload === 'string' ? new TextEncoder().encode(payload) : (payload ?? new Uint8Array(0));
  const n = Math.min(b.length, MAX_MESSAGE);
  bytes.set(b.subarray(0, n));
  ctrl[LENGTH] = n;
  ctrl[STATUS] = status;
  Atomics.store(ctrl, FLAG, DONE);
  Atomics.notify(ctrl, FLAG);
}

const isTimeout = (e: unknown): boolean => (e as { code?: string }).code === 'EAGAIN';

async function open(): Promise<void> {
  let zmq: ZmqModule;
  try {
    // a variable name: an optional dependency, resolved at run time only
    const name = 'zeromq';
    zmq = (await import(name)) as ZmqModule;
  } catch (e) {
    throw new Error(
      `the npm package zeromq (ZeroMQ for Node) could not be loaded: ${(e as Error).message.split('\n')[0]}; install it with: npm install zeromq`,
      { cause: e },
    );
  }
  const t = options.timeOut > 0 ? options.timeOut : -1;
  const pubSub = options.pattern === 'publish/subscribe';
  if (options.job === 'sender') {
    socket = pubSub
      ? new zmq.Publisher({ sendTimeout: t, ...(options.hwm > 0 ? { sendHighWaterMark: options.hwm } : {}) })
      : new zmq.Reply({ sendTimeout: t, receiveTimeout: t });
    await socket.bind(`tcp://*:${options.port}`);
  } else {
    socket = pubSub ? new zmq.Subscriber({ receiveTimeout: t }) : new zmq.Request({ sendTimeout: t, receiveTimeout: t });
    if (pubSub) socket.subscribe!();
    socket.connect(`tcp://${options.ip}:${options.port}`);
  }
}

async function run(m: ZmqOp): Promise<void> {
  try {
    switch (m.op) {
      case 'open':
        await open();
        return finish(OK);
      case 'send':
        await socket!.send(bytes.slice(0, m.length));
        return finish(OK);
      case 'receive': {
        const [frame] = await socket!.receive();
        return finish(OK, frame ?? new Uint8Array(0));
      }
      case 'request':
        // request/reply: the receiver asks with an empty message, the sender waits for it
        await socket!.send(new Uint8Array(0));
        return finish(OK);
      case 'close':
        socket?.close();
        socket = undefined;
        return finish(OK);
    }
  } catch (e) {
    if (isTimeout(e)) return finish(TIMEOUT);
    return finish(ERROR, (e as Error).message);
  }
}

wt.parentPort.on('message', (m) => void run(m));
