/**
 * The viewer in Debian's chromium (headless, driven by playwright-core through its executable
 * path): pages load, draw and move; step, pause and reset act; the Data panel shows the states
 * the CLI writes (the in-browser run is the same computation: bit for bit on the liver); an edited
 * gravity changes the motion; shift-drag pulls a point. Screenshots go to out/viewer-tests/.
 */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { formatSofaNumber, readStateFile } from '@sofa-ts/io';
import { loadScene } from 'sofa-ts';
import {
  canvasPixels, changed, editData, examples, hasChromium, hasCorpus, chromiumPath, launchChromium, nonBackground, openScene, panelNumbers, repoRoot, reset, screenshot, share, stepTimes, type Browser,
} from './browser-test-support.js';

const liver = path.join(examples, 'Demos', 'liver.scn');
const contact = path.join(examples, 'Component', 'Collision', 'Response', 'FrictionContact.scn');
const finger = path.join(repoRoot, 'scenes', 'softrobots', 'finger-direct.scn');
const cli = path.join(repoRoot, 'packages', 'cli', 'bin', 'sofa-ts.js');

/** The positions of a state after n steps, as `sofa-ts run --write-state` writes them (SOFA's 6 digits). */
function cliPositions(scene: string, steps: number, stateName: string): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-viewer-cli-'));
  try {
    execFileSync(process.execPath, [cli, 'run', scene, '-n', String(steps), '--write-state', dir, '--data-path', share, '--data-path', examples], { stdio: 'pipe' });
    const file = fs.readdirSync(dir).find((f) => f.endsWith(`_${stateName}.state.txt`));
    if (!file) throw new Error(`no state file for '${stateName}' in ${fs.readdirSync(dir).join(', ')}`);
    const frames = readStateFile(path.join(dir, file));
    return Array.from(frames[frames.length - 1]!.X, formatSofaNumber);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const meanY = (x: number[]): number => {
  let s = 0;
  for (let i = 1; i < x.length; i += 3) s += x[i]!;
  return s / (x.length / 3);
};

describe('viewer in chromium (browser tests)', function () {
  this.timeout(240000);
  let browser: Browser;

  before(async function () {
    if (!hasChromium) {
      console.log(`    browser tests skipped: no chromium at ${chromiumPath} (Debian: apt-get install chromium; CI installs it in .ci/run)`);
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

  it('liver: draws, moves, steps/pauses/resets, shows the CLI\'s states bit for bit, gravity edits and mouse drag act', async () => {
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
      const [sx, sy] = await page.evaluate((p: [number, number, number]) => (window as any).sofaViewer.toScreen(p), [p0[3 * i]!, p0[3 * i + 1]!, p0[3 * i + 2]!]);
      // drag while playing (the mouse spring pulls between steps)
      await page.click('#play');
      await page.waitForFunction(() => (window as any).sofaViewer.step >= 2, null, { timeout: 30000 });
      await page.mouse.move(sx, sy);
      await page.keyboard.down('Shift');
      await page.mouse.down();
      await page.mouse.move(sx, sy - 120, { steps: 6 });
      await page.waitForTimeout(1500);
      await screenshot(page, 'liver-drag');
      await page.mouse.up();
      await page.keyboard.up('Shift');
      await page.click('#play');
      await page.waitForFunction(() => !(window as any).sofaViewer.playing, null, { timeout: 30000 });
      const picked = await page.evaluate(() => (window as any).sofaViewer.picked);
      expect(picked?.path, 'a point of the liver was picked').to.equal('/lroot/Liver/dofs');
      const j: number = picked.index;
      const steps: number = await page.evaluate(() => (window as any).sofaViewer.step);
      const p1 = await panelNumbers(page, '/lroot/Liver/dofs', 'position');
      const free = await loadScene(liver, { dataPaths: [share, examples] });
      free.step(steps);
      const yFree = (free.get<any>('/Liver/dofs')!.x as Float64Array)[3 * j + 1]!;
      // pulled up by the mouse spring: above where gravity alone takes it after as many steps
      expect(p1[3 * j + 1]!, 'the dragged point rose above its free fall').to.be.greaterThan(yFree + 0.2);
      expect(p1[3 * j + 1]! - p0[3 * j + 1]!, 'the dragged point rose').to.be.greaterThan(0);
      expect(errors).to.deep.equal([]);
    } finally {
      await page.close();
      await viewer.close();
    }
  });

  it('contact scene (FrictionContact): draws, moves, the Data panel shows the CLI\'s states', async () => {
    const { page, viewer, errors } = await openScene(browser, contact);
    try {
      const first = await canvasPixels(page);
      expect(nonBackground(first)).to.be.greaterThan(0.01);
      await stepTimes(page, 20);
      expect(changed(first, await canvasPixels(page))).to.be.greaterThan(0.002);
      await screenshot(page, 'friction-contact-20');
      const x = await panelNumbers(page, '/root//TORUS/MechanicalObject1', 'position');
      const cliX = cliPositions(contact, 20, 'MechanicalObject1');
      expect(x.map(formatSofaNumber)).to.deep.equal(cliX);
      expect(errors).to.deep.equal([]);
    } finally {
      await page.close();
      await viewer.close();
    }
  });

  it('soft robot (finger-direct): draws its mechanics, moves, the Data panel shows the CLI\'s states', async () => {
    const { page, viewer, errors } = await openScene(browser, finger);
    try {
      const first = await canvasPixels(page);
      expect(nonBackground(first)).to.be.greaterThan(0.005);
      await stepTimes(page, 10);
      expect(changed(first, await canvasPixels(page))).to.be.greaterThan(0.001);
      await screenshot(page, 'finger-direct-10');
      const x = await panelNumbers(page, '/root/finger/dofs', 'position');
      expect(x.map(formatSofaNumber)).to.deep.equal(cliPositions(finger, 10, 'dofs'));
      expect(errors).to.deep.equal([]);
    } finally {
      await page.close();
      await viewer.close();
    }
  });
});
