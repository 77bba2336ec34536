import type { FromSimulation, ToSimulation } from '../session/protocol.js';

/** Where the simulation runs: a Web Worker in the page, or the server process over a WebSocket. */
export interface Connection {
  send(msg: ToSimulation): void;
  onMessage(fn: (msg: FromSimulation) => void): void;
}

export function workerConnection(workerUrl: string, filesBase: string): Connection {
  const w = new Worker(workerUrl, { type: 'module' });
  return {
    send: (msg) => w.postMessage(msg.type === 'open' ? { ...msg, filesBase } : msg),
    onMessage: (fn) => {
      w.onmessage = (e: MessageEvent) => fn(e.data as FromSimulation);
      w.onerror = (e: ErrorEvent) => fn({ type: 'error', message: `worker: ${e.message}` });
    },
  };
}

/** Frames come as binary messages: a JSON header (its length in the first 4 bytes), then the floats and offsets. */
export function socketConnection(url: string): Connection {
  const ws = new WebSocket(url);
  ws.binaryType = 'arraybuffer';
  const queue: string[] = [];
  ws.onopen = () => {
    for (const m of queue.splice(0)) ws.send(m);
  };
  return {
    send: (msg) => {
      const text = JSON.stringify(msg);
      if (ws.readyState === WebSocket.OPEN) ws.send(text);
      else queue.push(text);
    },
    onMessage: (fn) => {
      ws.onmessage = (e: MessageEvent) => {
        if (typeof e.data === 'string') fn(reviveArrays(JSON.parse(e.data)) as FromSimulation);
        else fn(decodeFrame(e.data as ArrayBuffer));
      };
      ws.onclose = () => fn({ type: 'error', message: 'the server closed the connection' });
    },
  };
}

function decodeFrame(buf: ArrayBuffer): FromSimulation {
  const headerLength = new Uint32Array(buf, 0, 1)[0];
  const header = JSON.parse(new TextDecoder().decode(new Uint8Array(buf, 4, headerLength))) as { nData: number; nOffsets: number } & Record<
    string,
    unknown
  >;
  const start = 4 + headerLength + ((8 - ((4 + headerLength) % 8)) % 8);
  const data = new Float32Array(buf.slice(start, start + 4 * header.nData));
  const offsets = new Uint32Array(buf.slice(start + 4 * header.nData, start + 4 * header.nData + 4 * header.nOffsets));
  return { ...(header as object), type: 'frame', data, offsets } as FromSimulation;
}

/** Typed arrays travel in JSON as { $f32: [...] } / { $u32: [...] }. */
export function reviveArrays(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reviveArrays);
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (Array.isArray(o['$f32'])) return Float32Array.from(o['$f32'] as number[]);
    if (Array.isArray(o['$u32'])) return Uint32Array.from(o['$u32'] as number[]);
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(o)) out[k] = reviveArrays(x);
    return out;
  }
  return v;
}
