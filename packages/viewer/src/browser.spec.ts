/**
 * The viewer in Debian's chromium (headless, driven by playwright-core through its executable
 * path): pages load, draw and move; step, pause and reset act; the Data panel shows the states
 * the CLI writes (the in-browser run is the same computation: bit for bit on the liver); an edited
 * gravity changes the motion; shift-drag pulls a point. Screenshots go to out/viewer-tests/.
 */
import { expect } from 'chai';
import * as http from 'node:http';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { formatSofaNumber, readStateFile } from '@sofa-ts/io';
import { loadScene } from 'sofa-ts';
import { buildWeb } from './server/build-web.js';
import {
  canvasPixels,
  changed,
  editData,
  examples,
  hasChromium,
  hasCorpus,
  chromiumPath,
  launchChromium,
  nonBackground,
  openScene,
  panelNumbers,
  repoRoot,
  reset,
  screenshot,
  share,
  stepTimes,
  type Browser,
} from './browser-test-support.js';

const liver = path.join(examples, 'Demos', 'liver.scn');
const contact = path.join(examples, 'Component', 'Collision', 'Response', 'FrictionContact.scn');
const finger = path.join(repoRoot, 'scenes', 'softrobots', 'finger-direct.scn');
const cli = path.join(repoRoot, 'packages', 'cli', 'bin', 'sofa-ts.js');

/** The positions of a state after n steps, as `sofa-ts run --write-state` writes them (SOFA's 6 digits). */
function cliPositions(scene: string, steps: number, stateName: string): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-viewer-cli-'));
  try {
    execFileSync(
      process.execPath,
      [cli, 'run', scene, '-n', String(steps), '--write-state', dir, '--data-path', share, '--data-path', examples],
      { stdio: 'pipe' },
    );
    const file = fs.readdirSync(dir).find((f) => f.endsWith(`_${stateName}.state.txt`));
    if (!file) throw new Error(`no state file for '${stateName}' in ${fs.readdirSync(dir).join(', ')}`);
    const frames = readStateFile(path.join(dir, file));
    return Array.from(frames[frames.length - 1].X, formatSofaNumber);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const meanY = (x: number[]): number => {
  let s = 0;
  for (let i = 1; i < x.length; i += 3) s += x[i];
  return s / (x.length / 3);
};

describe('viewer in chromium (browser tests)', function () {
  this.timeout(240000);
  let browser: Browser;

  before(async function () {
    if (!hasChromium) {
      console.log(
        `    browser tests skipped: no chromium at ${chromiumPath} (Debian: apt-get install chromium; CI installs it in .ci/run)`,
      );
      this.skip();
    }
    if (!hasCorpus) {
      console.log('    browser tests skipped: the SOFA corpus (../shared/sofa-regression) is absent');
      this.skip();
    }
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  it("liver: draws, moves, steps/pauses/resets, shows the CLI's states bit for bit, gravity edits and mouse drag act", async () => {
    const { page, viewer, errors } = await openScene(browser, liver);
    try {
      const first = await canvasPixels(page);
      expect(nonBackground(first), 'part of the canvas shows the liver').to.be.greaterThan(0.02);
      await screenshot(page, 'liver-0');

      // step: one step per click
      await stepTimes(page, 3);
      expect(await page.evaluate(() => (window as any).sofaViewer.step)).to.equal(3);
      // play, then pause: the step count grows, then stays
      await page.click('#play');
      await page.waitForFunction(() => (window as any).sofaViewer.step >= 40, null, { timeout: 60000 });
      await page.click('#play');
      await page.waitForFunction(() => !(window as any).sofaViewer.playing, null, { timeout: 30000 });
      const paused = await page.evaluate(() => (window as any).sofaViewer.step);
      await page.waitForTimeout(400);
      expect(await page.evaluate(() => (window as any).sofaViewer.step)).to.equal(paused);
      await page.waitForTimeout(200);
      const moved = await canvasPixels(page);
      expect(changed(first, moved), 'the liver moved between the two images').to.be.greaterThan(0.002);
      await screenshot(page, `liver-${paused}`);
      // reset: back to step 0 and the first image
      await reset(page);
      await page.waitForTimeout(300);
      expect(changed(first, await canvasPixels(page)), 'reset shows the initial state').to.be.lessThan(0.002);

      // Data panel after 5 steps = the CLI's state file (6 digits) = a Node run (all bits)
      await stepTimes(page, 5);
      const x = await panelNumbers(page, '/lroot/Liver/dofs', 'position');
      expect(x.map(formatSofaNumber)).to.deep.equal(cliPositions(liver, 5, 'dofs'));
      const node = await loadScene(liver, { dataPaths: [share, examples] });
      node.step(5);
      expect(x).to.deep.equal(Array.from(node.get<any>('/Liver/dofs')!.x as Float64Array), 'bit for bit');

      // gravity: upwards, the liver's mean height rises instead of falling
      await reset(page);
      const y0 = meanY(await panelNumbers(page, '/lroot/Liver/dofs', 'position'));
      await stepTimes(page, 5);
      const yDown = meanY(await panelNumbers(page, '/lroot/Liver/dofs', 'position'));
      await reset(page);
      await editData(page, '/lroot', 'gravity', '0 9.81 0');
      await stepTimes(page, 5);
      const yUp = meanY(await panelNumbers(page, '/lroot/Liver/dofs', 'position'));
      expect(yDown).to.be.lessThan(y0);
      expect(yUp).to.be.greaterThan(y0);
      await editData(page, '/lroot', 'gravity', '0 -9.81 0');

      // shift-drag a free point upwards (points 3, 39, 64 are fixed): it follows the mouse
      await reset(page);
      const p0 = await panelNumbers(page, '/lroot/Liver/dofs', 'position');
      const i = 100;
      const [sx, sy] = await page.evaluate(
        (p: [number, number, number]) => (window as any).sofaViewer.toScreen(p),
        [p0[3 * i], p0[3 * i + 1], p0[3 * i + 2]],
      );
      // drag while playing (the mouse spring pulls between steps)
      await page.click('#play');
      await page.waitForFunction(() => (window as any).sofaViewer.step >= 2, null, { timeout: 30000 });
      await page.mouse.move(sx, sy);
      await page.keyboard.down('Shift');
      await page.mouse.down();
      await page.mouse.move(sx, sy - 120, { steps: 6 });
      await page.waitForTimeout(1500);
      await screenshot(page, 'liver-drag');
      // read the Data panel (it shows the dofs and refreshes while playing) with the mouse still held
      const picked = await page.evaluate(() => (window as any).sofaViewer.picked);
      expect(picked?.path, 'a point of the liver was picked').to.equal('/lroot/Liver/dofs');
      const j: number = picked.index;
      const shown: { step: number; text: string } = await page.$eval('#data', (d: HTMLElement) => ({
        step: Number(d.dataset['step']),
        text: ((e: Element | null) => (e instanceof HTMLTextAreaElement ? e.value : (e?.textContent ?? '')))(
          d.querySelector('[data-name="position"]'),
        ),
      }));
      await page.mouse.up();
      await page.keyboard.up('Shift');
      await page.click('#play');
      await page.waitForFunction(() => !(window as any).sofaViewer.playing, null, { timeout: 30000 });
      const p1 = shown.text.trim().split(/\s+/).map(Number);
      const free = await loadScene(liver, { dataPaths: [share, examples] });
      free.step(shown.step);
      const yFree = (free.get<any>('/Liver/dofs')!.x as Float64Array)[3 * j + 1];
      // pulled up by the mouse spring: above where gravity alone takes it after as many steps
      expect(p1[3 * j + 1], 'the dragged point is above its free fall').to.be.greaterThan(yFree + 0.2);
      expect(p1[3 * j + 1] - p0[3 * j + 1], 'the dragged point rose').to.be.greaterThan(0);
      expect(errors).to.deep.equal([]);
    } finally {
      await page.close();
      await viewer.close();
    }
  });

  it("contact scene (FrictionContact): draws, moves, the Data panel shows the CLI's states (and a Node run's, bit for bit)", async () => {
    const { page, viewer, errors } = await openScene(browser, contact);
    try {
      const first = await canvasPixels(page);
      expect(nonBackground(first)).to.be.greaterThan(0.01);
      await stepTimes(page, 20);
      expect(changed(first, await canvasPixels(page))).to.be.greaterThan(0.002);
      await screenshot(page, 'friction-contact-20');
      // contacts (segments and λ along the normals) appear when switched on
      const without = await canvasPixels(page);
      await page.click('input[data-category="contact"]');
      await page.waitForTimeout(300);
      expect(changed(without, await canvasPixels(page)), 'contacts drawn').to.be.greaterThan(0);
      await screenshot(page, 'friction-contact-20-contacts');
      const x = await panelNumbers(page, '/root//TORUS/MechanicalObject1', 'position');
      const cliX = cliPositions(contact, 20, 'MechanicalObject1');
      expect(x.map(formatSofaNumber)).to.deep.equal(cliX);
      const node = await loadScene(contact, { dataPaths: [share, examples] });
      node.step(20);
      let torus: Float64Array | undefined;
      node.root.visit((n) => {
        if (n.getName() === 'TORUS') torus = (n.objects.find((o) => o.getName() === 'MechanicalObject1') as any).x;
      });
      expect(x).to.deep.equal(Array.from(torus!), 'bit for bit, contacts included');
      expect(errors).to.deep.equal([]);
    } finally {
      await page.close();
      await viewer.close();
    }
  });

  it("soft robot (finger-direct): draws its mechanics, moves, charts a Data, the Data panel shows the CLI's states (and a Node run's, bit for bit)", async () => {
    const { page, viewer, errors } = await openScene(browser, finger);
    try {
      const first = await canvasPixels(page);
      expect(nonBackground(first)).to.be.greaterThan(0.005);
      // chart the velocity of the finger live (its norm per step)
      await panelNumbers(page, '/root/finger/dofs', 'velocity');
      await page.click('#data button[data-watch="velocity"]');
      await stepTimes(page, 10);
      const charted: number = await page.evaluate(() => (window as any).sofaViewer.lastSample.data['/root/finger/dofs.velocity']);
      const node = await loadScene(finger);
      node.step(10);
      const v = node.get<any>('/finger/dofs')!.v as Float64Array;
      expect(charted).to.be.closeTo(Math.hypot(...v), 1e-9 * Math.hypot(...v));
      expect(changed(first, await canvasPixels(page))).to.be.greaterThan(0.001);
      await screenshot(page, 'finger-direct-10');
      const x = await panelNumbers(page, '/root/finger/dofs', 'position');
      expect(x.map(formatSofaNumber)).to.deep.equal(cliPositions(finger, 10, 'dofs'));
      expect(x).to.deep.equal(Array.from(node.get<any>('/finger/dofs')!.x as Float64Array), 'bit for bit');
      expect(errors).to.deep.equal([]);
    } finally {
      await page.close();
      await viewer.close();
    }
  });

  it('--server: the liver runs in the server process and streams its states to the page (same states)', async () => {
    const { page, viewer, errors } = await openScene(browser, liver, { server: true });
    try {
      expect(nonBackground(await canvasPixels(page))).to.be.greaterThan(0.02);
      await stepTimes(page, 5);
      const x = await panelNumbers(page, '/lroot/Liver/dofs', 'position');
      const node = await loadScene(liver, { dataPaths: [share, examples] });
      node.step(5);
      expect(x).to.deep.equal(Array.from(node.get<any>('/Liver/dofs')!.x as Float64Array));
      await screenshot(page, 'liver-server-5');
      expect(errors).to.deep.equal([]);
    } finally {
      await page.close();
      await viewer.close();
    }
  });

  it("keys pressed in the page reach a Python scene's keyboard controller (+ twice, - once: the cable pulled 1 mm)", async function () {
    if (spawnSync('python3', ['-c', 'import numpy']).status !== 0) this.skip();
    const keyboard = path.join(repoRoot, 'packages', 'python', 'test-scenes', 'finger_keyboard.py');
    const { page, viewer, errors } = await openScene(browser, keyboard);
    try {
      expect((viewer as { server?: boolean }).server, 'a Python scene runs in server mode').to.equal(true);
      for (const key of ['+', '+', '-']) await page.keyboard.press(key);
      await stepTimes(page, 1);
      expect(await panelNumbers(page, '/root/finger/cable', 'value')).to.deep.equal([1]);
      expect(errors).to.deep.equal([]);
    } finally {
      await page.close();
      await viewer.close();
    }
  });

  it('build-web: the static folder runs the liver from a plain static file server', async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-web-'));
    // a static server that knows nothing of sofa-ts: files of the folder, by path
    const server = http.createServer((req, res) => {
      const p = path.join(out, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).replace(/\/$/, '/index.html'));
      if (!p.startsWith(out) || !fs.existsSync(p) || !fs.statSync(p).isFile()) return void res.writeHead(404).end();
      res.writeHead(200, {
        'content-type': p.endsWith('.html')
          ? 'text/html'
          : p.endsWith('.js')
            ? 'text/javascript'
            : p.endsWith('.css')
              ? 'text/css'
              : 'application/octet-stream',
      });
      res.end(req.method === 'HEAD' ? undefined : fs.readFileSync(p));
    });
    try {
      const files = await buildWeb(liver, out, { dataPaths: [share, examples] });
      expect(files).to.include.members([
        'index.html',
        path.join('assets', 'worker.js'),
        path.join('files', 'scene', 'liver.scn'),
        path.join('files', 'data', '0', 'mesh', 'liver.msh'),
      ]);
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const page = await browser.newPage();
      try {
        await page.goto(`http://127.0.0.1:${(server.address() as { port: number }).port}/`);
        await page.waitForFunction(() => (window as any).sofaViewer?.loaded && (window as any).sofaViewer.framesReceived > 0, null, {
          timeout: 60000,
        });
        await stepTimes(page, 3);
        const x = await panelNumbers(page, '/lroot/Liver/dofs', 'position');
        const node = await loadScene(liver, { dataPaths: [share, examples] });
        node.step(3);
        expect(x).to.deep.equal(Array.from(node.get<any>('/Liver/dofs')!.x as Float64Array));
      } finally {
        await page.close();
      }
    } finally {
      server.close();
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it('frame rate drawing the liver while it simulates (measured, reported)', async () => {
    const { page, viewer } = await openScene(browser, liver);
    try {
      await page.waitForTimeout(1500);
      const idle: number = await page.evaluate(() => (window as any).sofaViewer.fps);
      await page.click('#play');
      await page.waitForTimeout(3500);
      const playing: number = await page.evaluate(() => (window as any).sofaViewer.fps);
      const steps: number = await page.evaluate(() => (window as any).sofaViewer.step);
      console.log(
        `      liver in headless chromium (software GL): ${idle.toFixed(1)} fps idle, ${playing.toFixed(1)} fps while simulating (${steps} steps in 3.5 s, real time)`,
      );
      // a floor that catches a page that stops drawing while the worker steps; the figure itself is reported
      expect(playing).to.be.greaterThan(5);
      await screenshot(page, 'liver-playing');
    } finally {
      await page.close();
      await viewer.close();
    }
  });
});
