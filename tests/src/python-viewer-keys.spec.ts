import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import '@sofa-ts/python';
import { SceneSession, type FromSimulation } from '@sofa-ts/viewer';
import type { Data } from 'sofa-ts';

/**
 * The viewer's key presses reach a Python scene's keyboard controller: the page sends
 * `{type: 'key'}` messages (runSofa's Ctrl+key and the plain + - and arrows), the scene session
 * sends them through the graph as SOFA's Keypressed/KeyreleasedEvent, between two steps.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const keyboardScene = path.resolve(here, '..', '..', 'packages', 'python', 'test-scenes', 'finger_keyboard.py');
const hasPython = spawnSync('python3', ['-c', 'import numpy']).status === 0;

(hasPython ? describe : describe.skip)('viewer keys to a Python controller', function () {
  this.timeout(120_000);

  it("'+' twice and '-' once in the page leave the cable pulled by 1 mm", async () => {
    const sent: FromSimulation[] = [];
    const session = new SceneSession((m) => sent.push(m));
    await session.handle({ type: 'open', scene: keyboardScene, dataPaths: [] });
    const errors = sent.filter((m) => m.type === 'error');
    expect(errors, JSON.stringify(errors)).to.deep.equal([]);
    for (const [key, pressed] of [
      ['+', true],
      ['+', false],
      ['+', true],
      ['+', false],
      ['-', true],
      ['-', false],
    ] as const)
      await session.handle({ type: 'key', key, pressed });
    await session.handle({ type: 'step', count: 2 });
    const scene = (session as unknown as { scene: { get(p: string): { findData(n: string): Data<Float64Array> }; dispose(): void } }).scene;
    expect(Array.from(scene.get('/finger/cable').findData('value').value)).to.deep.equal([1]);
    scene.dispose();
  });
});
