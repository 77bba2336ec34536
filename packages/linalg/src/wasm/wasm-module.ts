/**
 * A small WebAssembly binary writer for the numeric kernels of sofa-ts (no toolchain, no
 * dependency): one module importing a shared linear memory, functions of i32/f64/v128 locals, and
 * the instructions those kernels use (scalar f64, i32 address arithmetic, f64x2 SIMD, loops).
 * The module's bytes are produced once per process and compiled with WebAssembly.Module; the same
 * compiled module is instantiated on the main thread and in the worker threads (thread-pool.ts)
 * over one shared memory, so a kernel runs the same machine code on every thread.
 */

/** Value types of the binary format. */
export const enum WasmType {
  i32 = 0x7f,
  f64 = 0x7c,
  v128 = 0x7b,
}

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
  let acc = 0, bits = 0, o = 0;
  for (let i = 0; i < n; i++) {
    acc = (acc << 6) | value[s.charCodeAt(i)]!;
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

function uleb(out: number[], v: number): void {
  do {
    let b = v & 0x7f;
    v >>>= 7;
    if (v !== 0) b |= 0x80;
    out.push(b);
  } while (v !== 0);
}

function sleb(out: number[], v: number): void {
  for (;;) {
    const b = v & 0x7f;
    v >>= 7;
    if ((v === 0 && (b & 0x40) === 0) || (v === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return;
    }
    out.push(b | 0x80);
  }
}

/** A local variable of a function (an index, with its type). */
export interface Local {
  readonly index: number;
  readonly type: WasmType;
}

/** Builds one function body: locals beyond the parameters are added on demand. */
export class FunctionBuilder {
  readonly code: number[] = [];
  private readonly extra: WasmType[] = [];

  constructor(
    readonly name: string,
    readonly params: readonly WasmType[],
  ) {}

  param(i: number): Local {
    return { index: i, type: this.params[i]! };
  }

  local(type: WasmType): Local {
    this.extra.push(type);
    return { index: this.params.length + this.extra.length - 1, type };
  }

  private op(a: number, b?: number): this {
    this.code.push(a);
    if (b !== undefined) this.code.push(b);
    return this;
  }

  private simd(op: number): this {
    this.code.push(0xfd);
    uleb(this.code, op);
    return this;
  }

  private memarg(align: number, offset: number): this {
    uleb(this.code, align);
    uleb(this.code, offset);
    return this;
  }

  get(l: Local): this {
    this.code.push(0x20);
    uleb(this.code, l.index);
    return this;
  }
  set(l: Local): this {
    this.code.push(0x21);
    uleb(this.code, l.index);
    return this;
  }
  tee(l: Local): this {
    this.code.push(0x22);
    uleb(this.code, l.index);
    return this;
  }
  i32Const(v: number): this {
    this.code.push(0x41);
    sleb(this.code, v | 0);
    return this;
  }
  f64Const(v: number): this {
    this.code.push(0x44);
    const b = new Uint8Array(new Float64Array([v]).buffer);
    for (const x of b) this.code.push(x);
    return this;
  }
  i32Eqz(): this { return this.op(0x45); }
  i32Eq(): this { return this.op(0x46); }
  i32Ne(): this { return this.op(0x47); }
  i32LtS(): this { return this.op(0x48); }
  i32GtS(): this { return this.op(0x4a); }
  i32LeS(): this { return this.op(0x4c); }
  i32GeS(): this { return this.op(0x4e); }
  i32Store(offset = 0): this { return this.op(0x36).memarg(2, offset); }
  f64Div(): this { return this.op(0xa3); }
  f64Sqrt(): this { return this.op(0x9f); }
  f64Abs(): this { return this.op(0x99); }
  f64Eq(): this { return this.op(0x61); }
  f64Gt(): this { return this.op(0x64); }
  f64Le(): this { return this.op(0x65); }
  /** if … (else …) end (void). */
  if(): this { return this.op(0x04, 0x40); }
  else(): this { return this.op(0x05); }
  return(): this { return this.op(0x0f); }
  /** Calls function `index` of the module (see wasmModuleBytes: the imported functions come first). */
  call(index: number): this {
    this.code.push(0x10);
    uleb(this.code, index);
    return this;
  }
  i32Add(): this { return this.op(0x6a); }
  i32Sub(): this { return this.op(0x6b); }
  i32Mul(): this { return this.op(0x6c); }
  i32Shl(): this { return this.op(0x74); }
  i32ShrS(): this { return this.op(0x75); }
  i32And(): this { return this.op(0x71); }
  i32Or(): this { return this.op(0x72); }
  i32LtU(): this { return this.op(0x49); }
  i32GeU(): this { return this.op(0x4f); }
  i32Load(offset = 0): this { return this.op(0x28).memarg(2, offset); }
  f64Load(offset = 0): this { return this.op(0x2b).memarg(3, offset); }
  f64Store(offset = 0): this { return this.op(0x39).memarg(3, offset); }
  f64Add(): this { return this.op(0xa0); }
  f64Sub(): this { return this.op(0xa1); }
  f64Mul(): this { return this.op(0xa2); }
  f64Neg(): this { return this.op(0x9a); }
  f64ConvertI32(): this { return this.op(0xb7); }
  v128Load(offset = 0): this { return this.simd(0x00).memarg(4, offset); }
  v128Store(offset = 0): this { return this.simd(0x0b).memarg(4, offset); }
  f64x2Splat(): this { return this.simd(0x14); }
  /** v128.load64_splat: the f64 at the address in both lanes. */
  v128Load64Splat(offset = 0): this { return this.simd(0x0a).memarg(3, offset); }
  /** v128.store64_lane: stores one f64 lane at the address. */
  v128Store64Lane(lane: number, offset = 0): this { return this.simd(0x5b).memarg(3, offset).op(lane); }
  /** i8x16.shuffle of the two vectors on the stack: byte i of the result is byte lanes[i] of a‖b. */
  i8x16Shuffle(lanes: readonly number[]): this {
    this.simd(0x0d);
    for (const l of lanes) this.code.push(l);
    return this;
  }
  v128Load64Zero(offset = 0): this { return this.simd(0x5d).memarg(3, offset); }
  v128Load64Lane(lane: number, offset = 0): this { return this.simd(0x57).memarg(3, offset).op(lane); }
  f64x2ExtractLane(lane: number): this { return this.simd(0x21).op(lane); }
  f64x2ReplaceLane(lane: number): this { return this.simd(0x22).op(lane); }
  f64x2Add(): this { return this.simd(0xf0); }
  f64x2Sub(): this { return this.simd(0xf1); }
  f64x2Mul(): this { return this.simd(0xf2); }
  f64x2Div(): this { return this.simd(0xf3); }
  f64x2Neg(): this { return this.simd(0xed); }
  f64x2Sqrt(): this { return this.simd(0xef); }
  /** memory.copy (bulk memory): dest, source, length on the stack. */
  memoryCopy(): this {
    this.code.push(0xfc);
    uleb(this.code, 10);
    this.code.push(0x00, 0x00);
    return this;
  }
  /** memory.fill (bulk memory): dest, byte value, length on the stack. */
  memoryFill(): this {
    this.code.push(0xfc);
    uleb(this.code, 11);
    this.code.push(0x00);
    return this;
  }
  /** block … end and loop … end (void); br_if depth. */
  block(): this { return this.op(0x02, 0x40); }
  loop(): this { return this.op(0x03, 0x40); }
  end(): this { return this.op(0x0b); }
  br(depth: number): this {
    this.code.push(0x0c);
    uleb(this.code, depth);
    return this;
  }
  brIf(depth: number): this {
    this.code.push(0x0d);
    uleb(this.code, depth);
    return this;
  }

  /** The function body: local declarations, code, end. */
  body(): number[] {
    const out: number[] = [];
    const groups: [number, WasmType][] = [];
    for (const t of this.extra) {
      const last = groups[groups.length - 1];
      if (last && last[1] === t) last[0]++;
      else groups.push([1, t]);
    }
    uleb(out, groups.length);
    for (const [n, t] of groups) {
      uleb(out, n);
      out.push(t);
    }
    append(out, this.code);
    out.push(0x0b);
    const sized: number[] = [];
    uleb(sized, out.length);
    return sized.concat(out);
  }
}

/** out.push(...more) without the argument-count limit of a spread. */
function append(out: number[], more: readonly number[]): void {
  for (const b of more) out.push(b);
}

function section(out: number[], id: number, content: number[]): void {
  out.push(id);
  uleb(out, content.length);
  append(out, content);
}

function name(out: number[], s: string): void {
  const b = new TextEncoder().encode(s);
  uleb(out, b.length);
  out.push(...b);
}

/** A function the module imports from `env` (called with `call(i)`, i its position in the imports). */
export interface WasmFunctionImport {
  readonly name: string;
  readonly params: readonly WasmType[];
}

/**
 * The module: imports env.memory (shared, `maxPages` pages at most) and the `functionImports` from
 * env, exports every function by its name. Functions return nothing. Function indices (for `call`)
 * are the imports' first, then the functions' in their order.
 */
export function wasmModuleBytes(functions: readonly FunctionBuilder[], maxPages: number, functionImports: readonly WasmFunctionImport[] = []): Uint8Array {
  const out = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  const types: number[] = [];
  const signatures = [...functionImports.map((f) => f.params), ...functions.map((f) => f.params)];
  uleb(types, signatures.length);
  for (const params of signatures) {
    types.push(0x60);
    uleb(types, params.length);
    types.push(...params);
    types.push(0x00);
  }
  section(out, 1, types);
  const imports: number[] = [];
  uleb(imports, 1 + functionImports.length);
  name(imports, 'env');
  name(imports, 'memory');
  imports.push(0x02, 0x03); // memory, limits: shared with a maximum
  uleb(imports, 1);
  uleb(imports, maxPages);
  functionImports.forEach((f, i) => {
    name(imports, 'env');
    name(imports, f.name);
    imports.push(0x00); // a function of type i
    uleb(imports, i);
  });
  section(out, 2, imports);
  const nImports = functionImports.length;
  const funcs: number[] = [];
  uleb(funcs, functions.length);
  functions.forEach((_, i) => uleb(funcs, nImports + i));
  section(out, 3, funcs);
  const exports: number[] = [];
  uleb(exports, functions.length);
  functions.forEach((f, i) => {
    name(exports, f.name);
    exports.push(0x00);
    uleb(exports, nImports + i);
  });
  section(out, 7, exports);
  const code: number[] = [];
  uleb(code, functions.length);
  for (const f of functions) append(code, f.body());
  section(out, 10, code);
  return Uint8Array.from(out);
}
