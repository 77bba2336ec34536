import {
  CONTROL_INTS,
  ERROR,
  FLAG,
  LENGTH,
  MAX_MESSAGE,
  OK,
  PENDING,
  STATUS,
  TIMEOUT,
  type ZmqOp,
  type ZmqOptions,
} from './zmq-protocol.js';

/** A ZeroMQ socket used synchronously (each call returns when the operation is done). */
export interface BlockingZmqSocket {
  /** Sends one message; false when the send timed out. */
  send(message: Uint8Array): boolean;
  /** The next message, undefined when the receive timed out. */
  receive(): Uint8Array | undefined;
  /** request/reply receiver: sends the empty request; false when it timed out. */
  request(): boolean;
  close(): void;
}

interface WorkerLike {
  postMessage(m: ZmqOp): void;
  unref(): void;
  terminate(): Promise<number>;
  on(ev: 'error', fn: (e: Error) => void): void;
}

/**
 * Opens a ZeroMQ socket in a worker thread (zmq-worker.ts) and returns a blocking handle on it:
 * each call posts the operation and waits (Atomics.wait) until the worker has done it — at most
 * the timeout plus a margin, without limit when timeOut is 0 (as SOFA's). Throws a plain Error with
 * the reason when there are no worker threads (outside Node), when the npm package zeromq cannot
 * be loaded, or when the socket cannot be bound or connected.
 */
export function openBlockingZmqSocket(options: ZmqOptions): BlockingZmqSocket {
  const proc = (globalThis as { process?: { getBuiltinModule?(id: string): unknown } }).process;
  const wt = proc?.getBuiltinModule?.('node:worker_threads') as { Worker: new (url: URL, o: object) => WorkerLike } | undefined;
  if (!wt) throw new Error('ZeroMQ needs Node worker threads (this host has none)');
  const control = new SharedArrayBuffer(4 * CONTROL_INTS);
  const buffer = new SharedArrayBuffer(MAX_MESSAGE);
  const ctrl = new Int32Array(control);
  const bytes = new Uint8Array(buffer);
  const worker = new wt.Worker(new URL('./zmq-worker.js', import.meta.url), { workerData: { control, buffer, options } });
  let failure: Error | undefined;
  worker.on('error', (e) => (failure = e));
  // the worker must not keep the process alive once the scene is done with it
  worker.unref();
  const margin = 5000;

  /** Posts the operation and waits for its outcome. */
  const call = (op: ZmqOp, waitMs: number): { status: number; payload: Uint8Array } => {
    Atomics.store(ctrl, FLAG, PENDING);
    worker.postMessage(op);
    const r = Atomics.wait(ctrl, FLAG, PENDING, waitMs > 0 ? waitMs : undefined);
    if (r === 'timed-out')
      throw new Error(
        failure ? `the ZeroMQ worker failed: ${failure.message}` : `the ZeroMQ worker did not answer '${op.op}' within ${waitMs} ms`,
      );
    const n = ctrl[LENGTH];
    return { status: ctrl[STATUS], payload: bytes.slice(0, n) };
  };
  const wait = options.timeOut > 0 ? options.timeOut + margin : 0;
  const text = (b: Uint8Array): string => new TextDecoder().decode(b);

  // opening: loading zeromq and binding take a moment; 30 s is far more than either needs
  const opened = call({ op: 'open' }, 30000);
  if (opened.status !== OK) {
    void worker.terminate();
    throw new Error(text(opened.payload));
  }
  const check = (r: { status: number; payload: Uint8Array }): boolean => {
    if (r.status === ERROR) throw new Error(text(r.payload));
    return r.status !== TIMEOUT;
  };
  return {
    send(message) {
      if (message.length > MAX_MESSAGE) throw new Error(`a message of ${message.length} bytes is longer than ${MAX_MESSAGE}`);
      bytes.set(message);
      return check(call({ op: 'send', length: message.length }, wait));
    },
    receive() {
      const r = call({ op: 'receive' }, wait);
      return check(r) ? r.payload : undefined;
    },
    request() {
      return check(call({ op: 'request' }, wait));
    },
    close() {
      try {
        call({ op: 'close' }, margin);
      } finally {
        void worker.terminate();
      }
    },
  };
}
