import { expect } from 'chai';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** scripts/build-kernels.mjs, from this file's place in packages/linalg/dist/wasm. */
const script = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../scripts/build-kernels.mjs');

interface KernelBuild {
  kernelSources(): string[];
  staleKernels(): Promise<string[]>;
}

describe('WebAssembly kernel sources (kernels/*.wat compiled by wabt)', () => {
  it('every generated NAME.wasm.ts is the compilation of its NAME.wat (else: npm run kernels)', async function () {
    this.timeout(60000);
    const build = (await import(pathToFileURL(script).href)) as KernelBuild;
    expect(build.kernelSources().length).to.be.greaterThan(0);
    expect(await build.staleKernels()).to.deep.equal([]);
  });
});
