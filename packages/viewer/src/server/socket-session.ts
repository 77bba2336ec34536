import type { WebSocket } from 'ws';
import { SceneSession } from '../session/scene-session.js';
import type { FromSimulation, ToSimulation } from '../session/protocol.js';

/** Typed arrays in JSON: { $f32: [...] } / { $u32: [...] } (the page's reviveArrays reads them back). */
function replacer(_key: string, v: unknown): unknown {
  if (v instanceof Float32Array || v instanceof Float64Array) return { $f32: Array.from(v) };
  if (v instanceof Uint32Array || v instanceof Int32Array) return { $u32: Array.from(v) };
  return v;
}

/** A frame as one binary message: header length (u32), JSON header, padding to 8 bytes, floats, offsets. */
function encodeFrame(msg: Extract<FromSimulation, { type: 'frame' }>): Buffer {
  const { data, offsets, ...rest } = msg;
  const header = Buffer.from(JSON.stringify({ ...rest, nData: data.length, nOffsets: offsets.length }));
  const pad = (8 - ((4 + header.length) % 8)) % 8;
  const out = Buffer.alloc(4 + header.length + pad + 4 * data.length + 4 * offsets.length);
  out.writeUInt32LE(header.length, 0);
  header.copy(out, 4);
  let o = 4 + header.length + pad;
  Buffer.from(data.buffer, data.byteOffset, data.byteLength).copy(out, o);
  o += data.byteLength;
  Buffer.from(offsets.buffer, offsets.byteOffset, offsets.byteLength).copy(out, o);
  return out;
}

/**
 * --server: the scene runs in this process (plugins that cannot run in a browser work here) and
 * its states stream to the page over the WebSocket; the page's messages are the worker's.
 */
export function attachSocketSession(ws: WebSocket, open: { scene: string; dataPaths: string[] }): void {
  const session = new SceneSession((msg) => {
    if (ws.readyState !== ws.OPEN) return;
    if (msg.type === 'frame') ws.send(encodeFrame(msg));
    else ws.send(JSON.stringify(msg, replacer));
  });
  ws.on('message', (raw) => {
    let msg: ToSimulation;
    try {
      msg = JSON.parse(String(raw)) as ToSimulation;
    } catch {
      return;
    }
    // the page asks for its configured scene; the server decides which file that is
    if (msg.type === 'open') msg = { ...msg, scene: open.scene, dataPaths: open.dataPaths };
    void session.handle(msg);
  });
  ws.on('close', () => void session.handle({ type: 'pause' }).then(() => session.dispose()));
}
