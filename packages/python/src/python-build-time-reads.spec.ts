import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BaseMechanicalState } from 'sofa-ts';
import { loadPythonScene } from './load-python-scene.js';

/**
 * Values a Python scene reads while it builds the graph, before the scene's init
 * (test-scenes/loader_before_init.py asserts them): a mesh loader's outputs and what follows them,
 * as SOFA's loaders read their file when it is given; the file's own POINTS line is the oracle.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const scenes = path.resolve(here, '..', 'test-scenes');
const hasPython = spawnSync('python3', ['-c', 'import sys; sys.exit(0 if sys.version_info >= (3, 9) else 1)']).status === 0;

(hasPython ? describe : describe.skip)('Python scenes reading a loader before init', function () {
  this.timeout(120_000);

  it("see the loader's points, the topology's and those of a state initialised by hand", async () => {
    const py = await loadPythonScene(path.join(scenes, 'loader_before_init.py'));
    try {
      const dofs = py.get<BaseMechanicalState>('/body/dofs')!;
      expect(dofs.size).to.equal(240);
      // the translation is applied once, though the loader and the state ran init twice
      expect(Array.from(dofs.x.subarray(0, 3))).to.deep.equal([0, 30, 0]);
      expect(py.get<BaseMechanicalState>('/prefab/part/dofs')!.size).to.equal(240);
      py.step();
    } finally {
      py.dispose();
    }
  });
});
