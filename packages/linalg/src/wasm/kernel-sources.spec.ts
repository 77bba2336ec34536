import { expect } from 'chai';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compileKernel } from './wasm-module.js';

/** The repository root, from this file's place in packages/linalg/dist/wasm. */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

interface KernelBuild {
  kernelSources(): string[];
  staleKernels(): Promise<string[]>;
  exportName(source: string): string;
  compileKernel(source: string): Promise<Uint8Array>;
}
const build = async () => (await import(pathToFileURL(path.join(root, 'scripts/build-kernels.mjs')).href)) as KernelBuild;

describe('WebAssembly kernel sources (kernels/*.wat compiled by wabt)', () => {
  it('every generated NAME.wasm.ts is the compilation of its NAME.wat (else: npm run kernels)', async function () {
    this.timeout(60000);
    const b = await build();
    expect(b.kernelSources().length).to.be.greaterThan(0);
    expect(await b.staleKernels()).to.deep.equal([]);
  });

  it('each generated module compiles here (Node has SIMD and shared memory) with the exports of its source', async function () {
    this.timeout(60000);
    const b = await build();
    const WA = (globalThis as unknown as { WebAssembly: { Module: { exports(m: object): { name: string }[] } } }).WebAssembly;
    for (const source of b.kernelSources()) {
      const compiled = path.join(root, source.replace('/src/', '/dist/').replace(/\.wat$/, '.wasm.js'));
      const generated = (await import(pathToFileURL(compiled).href)) as Record<string, string>;
      const mod = compileKernel(generated[b.exportName(source)]);
      expect(mod, source).to.not.equal(undefined);
      const reference = new (globalThis as unknown as { WebAssembly: { Module: new (b: Uint8Array) => object } }).WebAssembly.Module(
        await b.compileKernel(source),
      );
      expect(WA.Module.exports(mod!), source).to.deep.equal(WA.Module.exports(reference));
    }
  });
});
