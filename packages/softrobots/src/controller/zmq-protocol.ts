/**
 * What the main thread and the ZeroMQ worker (zmq-worker.ts) share: a control block of Int32 in a
 * SharedArrayBuffer and a byte buffer for the message. The main thread posts an operation and
 * sleeps in Atomics.wait on FLAG until the worker, whose event loop runs the asynchronous zeromq
 * socket, stores the outcome and wakes it: a blocking socket inside a synchronous step.
 */
export const FLAG = 0;
export const LENGTH = 1;
export const STATUS = 2;
export const CONTROL_INTS = 3;

/** FLAG values. */
export const PENDING = 0;
export const DONE = 1;

/** STATUS values: the buffer then holds the message (OK), an error text (ERROR), nothing (TIMEOUT). */
export const OK = 0;
export const TIMEOUT = 1;
export const ERROR = 2;

/** Largest message, in bytes (the shared buffer). */
export const MAX_MESSAGE = 1 << 22;

export type ZmqJob = 'sender' | 'receiver';
export type ZmqPattern = 'publish/subscribe' | 'request/reply';

export interface ZmqOptions {
  job: ZmqJob;
  pattern: ZmqPattern;
  /** Bound by the sender (tcp://*:port), connected to by the receiver (tcp://ip:port). */
  port: string;
  ip: string;
  /** Send and receive timeout in ms, 0 for none. */
  timeOut: number;
  /** Publisher's high water mark (0: no limit). */
  hwm: number;
}

/** Operations posted to the worker. */
export type ZmqOp = { op: 'open' } | { op: 'send'; length: number } | { op: 'receive' } | { op: 'request' } | { op: 'close' };
