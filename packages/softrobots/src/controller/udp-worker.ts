/**
 * The worker thread that sends InteractiveControl's datagrams (Node only): the main thread posts
 * each datagram and goes on; this thread's own event loop sends it at once, so that datagrams leave
 * during a synchronous run of steps (dgram sends from the main thread only when its event loop
 * turns). A send error is written into the shared status block for the main thread to report.
 */
interface DgramSocket {
  send(b: Uint8Array, port: number, address: string, cb: (e: Error | null) => void): void;
  unref(): void;
}
const proc = (globalThis as unknown as { process: { getBuiltinModule(id: string): unknown } }).process;
const wt = proc.getBuiltinModule('node:worker_threads') as {
  parentPort: { on(ev: 'message', fn: (m: Uint8Array) => void): void };
  workerData: { address: string; port: number; status: SharedArrayBuffer };
};
const dgram = proc.getBuiltinModule('node:dgram') as { createSocket(type: string): DgramSocket };
const { address, port, status } = wt.workerData;
const errorCount = new Int32Array(status, 0, 1);
const errorText = new Uint8Array(status, 4);
const socket = dgram.createSocket(address.includes(':') ? 'udp6' : 'udp4');

wt.parentPort.on('message', (datagram) => {
  socket.send(datagram, port, address, (e) => {
    if (!e) return;
    const t = new TextEncoder().encode(e.message).subarray(0, errorText.length);
    errorText.fill(0);
    errorText.set(t);
    Atomics.add(errorCount, 0, 1);
  });
});
