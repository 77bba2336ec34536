import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The page's files: its script, the worker's script (the sofa-ts packages for the browser), uPlot's style sheet. */
export interface WebAssets {
  'main.js': string;
  'worker.js': string;
  'uPlot.min.css': string;
}

let cached: Promise<WebAssets> | undefined;

/**
 * Bundles the compiled page and worker (dist/client/main.js, dist/worker/worker.js) with esbuild,
 * once per process (≈1 s). The worker bundle holds core, mechanics, solvers, constraint,
 * collision, compliant, softrobots… unchanged: they read files through core's host.
 */
export function webAssets(): Promise<WebAssets> {
  cached ??= build();
  return cached;
}

async function build(): Promise<WebAssets> {
  const esbuild = await import('esbuild');
  const entry = (rel: string): string => fileURLToPath(new URL(rel, import.meta.url));
  const bundle = async (file: string): Promise<string> => {
    const r = await esbuild.build({
      entryPoints: [file],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      write: false,
      minify: true,
      legalComments: 'none',
      logLevel: 'silent',
    });
    return r.outputFiles[0].text;
  };
  const [main, worker] = await Promise.all([bundle(entry('../client/main.js')), bundle(entry('../worker/worker.js'))]);
  const require = createRequire(import.meta.url);
  const css = fs.readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8');
  return { 'main.js': main, 'worker.js': worker, 'uPlot.min.css': css };
}
