import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startViewer, type RunningViewer } from './server/serve.js';

/** The repository root (packages/viewer/dist → ../../..). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const corpusRoot = process.env['SOFA_REGRESSION_DIR'] ?? path.resolve(repoRoot, '..', 'shared', 'sofa-regression');
export const examples = path.join(corpusRoot, 'sofa', 'examples');
export const share = path.join(corpusRoot, 'sofa', 'share');
export const hasCorpus = fs.existsSync(examples);
/** Debian's chromium; the tests never download a browser. */
export const chromiumPath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
export const hasChromium = fs.existsSync(chromiumPath);
/** Where the browser tests leave their screenshots (test artefacts). */
export const artefacts = path.join(repoRoot, 'out', 'viewer-tests');

/** The flags the browser runs with here (no GPU, no network services, no first-run UI). */
export const chromiumFlags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  newPage(): Promise<any>;
  close(): Promise<void>;
}

/** Launches the system chromium with a fresh profile folder (removed at close). */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-chromium-'));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    viewport: { width: 1100, height: 700 },
    args: chromiumFlags,
  });
  return {
    newPage: () => ctx.newPage(),
    close: async () => {
      await ctx.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Opens a scene in the viewer (served here, simulated in the page) and waits for it to load. */
export async function openScene(
  browser: Browser,
  scene: string,
  o: { server?: boolean } = {},
): Promise<{ page: any; viewer: RunningViewer; errors: string[] }> {
  const viewer = await startViewer(scene, { dataPaths: [share, examples], ...(o.server ? { server: true } : {}) });
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e: Error) => errors.push(e.message));
  await page.goto(viewer.url);
  await page.waitForFunction(() => (window as any).sofaViewer?.loaded && (window as any).sofaViewer.framesReceived > 0, null, {
    timeout: 60000,
  });
  // the first frame drawn, then two more
  const drawn: number = await page.evaluate(() => (window as any).sofaViewer.framesDrawn);
  await page.waitForFunction((d: number) => (window as any).sofaViewer.framesDrawn > d + 2, drawn, { timeout: 60000 });
  return { page, viewer, errors };
}

/** The canvas scaled to 160 × 100 RGBA pixels. */
export async function canvasPixels(page: any): Promise<Uint8ClampedArray> {
  const data: number[] = await page.evaluate(() => {
    const src = document.getElementById('view') as HTMLCanvasElement;
    const c = document.createElement('canvas');
    c.width = 160;
    c.height = 100;
    const g = c.getContext('2d')!;
    g.drawImage(src, 0, 0, 160, 100);
    return Array.from(g.getImageData(0, 0, 160, 100).data);
  });
  return Uint8ClampedArray.from(data);
}

/** Fraction of pixels that differ from the background (the corner pixel's color). */
export function nonBackground(px: Uint8ClampedArray): number {
  let n = 0;
  for (let i = 0; i < px.length; i += 4) if (Math.abs(px[i] - px[0]) + Math.abs(px[i + 1] - px[1]) + Math.abs(px[i + 2] - px[2]) > 24) n++;
  return n / (px.length / 4);
}

/** Fraction of pixels that changed between two images. */
export function changed(a: Uint8ClampedArray, b: Uint8ClampedArray): number {
  let n = 0;
  for (let i = 0; i < a.length; i += 4) if (Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) + Math.abs(a[i + 2] - b[i + 2]) > 24) n++;
  return n / (a.length / 4);
}

export async function screenshot(page: any, name: string): Promise<void> {
  fs.mkdirSync(artefacts, { recursive: true });
  await page.screenshot({ path: path.join(artefacts, `${name}.png`) });
}

/** Clicks Step n times, each time waiting for the frame of that step. */
export async function stepTimes(page: any, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const before: number = await page.evaluate(() => (window as any).sofaViewer.step);
    await page.click('#step');
    await page.waitForFunction((s: number) => (window as any).sofaViewer.step === s + 1, before, { timeout: 30000 });
  }
}

export async function reset(page: any): Promise<void> {
  await page.click('#reset');
  await page.waitForFunction(() => (window as any).sofaViewer.step === 0 && !(window as any).sofaViewer.playing, null, { timeout: 30000 });
}

/** Selects a component in the tree and returns the numbers of one of its Data, as the panel shows them at the current step. */
export async function panelNumbers(page: any, componentPath: string, field: string): Promise<number[]> {
  const step: number = await page.evaluate(() => (window as any).sofaViewer.step);
  await page.click(`.tree-object[data-path="${componentPath}"]`);
  await page.waitForFunction(
    ({ p, s }: { p: string; s: number }) => {
      const d = document.getElementById('data')!;
      return d.dataset['path'] === p && d.dataset['step'] === String(s);
    },
    { p: componentPath, s: step },
    { timeout: 30000 },
  );
  const text: string = await page.$eval(`#data [data-name="${field}"]`, (e: HTMLElement) =>
    e instanceof HTMLTextAreaElement ? e.value : (e.textContent ?? ''),
  );
  return text.trim().split(/\s+/).map(Number);
}

/** Sets a Data from the panel (as a user would: type, then leave the field). */
export async function editData(page: any, componentPath: string, field: string, value: string): Promise<void> {
  await page.click(`[data-path="${componentPath}"]`);
  await page.waitForFunction((p: string) => document.getElementById('data')!.dataset['path'] === p, componentPath, { timeout: 30000 });
  const sel = `#data textarea[data-name="${field}"]`;
  await page.fill(sel, value);
  await page.$eval(sel, (e: HTMLTextAreaElement) => e.dispatchEvent(new Event('change')));
  await page.waitForFunction(
    ({ s, v }: { s: string; v: string }) => (document.querySelector(s) as HTMLTextAreaElement | null)?.value.trim() === v,
    { s: sel, v: value },
    { timeout: 30000 },
  );
}
