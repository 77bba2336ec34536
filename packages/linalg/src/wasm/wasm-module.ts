/**
 * Loading the numeric kernels of sofa-ts: each is written in WebAssembly text (a kernels/NAME.wat
 * beside its loader, compiled by wabt into the generated kernels/NAME.wasm.ts: scripts/
 * build-kernels.mjs, `npm run kernels`), imports one shared linear memory and is compiled once
 * per process with WebAssembly.Module; the same compiled module is instantiated on the main
 * thread and in the worker threads (thread-pool.ts) over one shared memory, so a kernel runs the
 * same machine code on every thread. No fs at run time: the bytes are in the generated module, so
 * kernels load alike in Node and in a browser's Web Worker.
 */

/** The parts of the JS WebAssembly API the kernels use (lib.dom is not in this project's libs). */
export interface WasmMemory {
  readonly buffer: ArrayBufferLike;
  grow(pages: number): number;
}
export interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (desc: { initial: number; maximum: number; shared: boolean }) => WasmMemory;
  validate(bytes: Uint8Array): boolean;
}

/** The global WebAssembly object, or undefined where there is none. */
export function wasmApi(): WasmApi | undefined {
  return (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
}

/**
 * The compiled module of a kernel whose binary a generated module holds in base64 (a kernels/*.wat
 * source compiled by scripts/build-kernels.mjs), or undefined without WebAssembly or where the
 * binary does not validate (no SIMD or shared memory here).
 */
export function compileKernel(base64: string): object | undefined {
  const api = wasmApi();
  if (!api) return undefined;
  const bytes = decodeBase64(base64);
  if (!api.validate(bytes)) return undefined;
  return new api.Module(bytes);
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The bytes of a base64 text (no fs or Buffer in the browser; atob is not in this project's libs). */
function decodeBase64(s: string): Uint8Array {
  const value = new Int8Array(128).fill(-1);
  for (let i = 0; i < 64; i++) value[BASE64.charCodeAt(i)] = i;
  const n = s.replace(/=+$/, '').length;
  const out = new Uint8Array((n * 3) >> 2);
  let acc = 0,
    bits = 0,
    o = 0;
  for (let i = 0; i < n; i++) {
    acc = (acc << 6) | value[s.charCodeAt(i)];
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

/** 64 KiB: the size of a WebAssembly memory page. */
export const WASM_PAGE = 65536;
