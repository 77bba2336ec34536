import { expect } from 'chai';
import * as path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { loadScene, mechanics } from 'sofa-ts';
import { repoRoot } from './corpus-test-support.js';

describe('plugins: examples/plugin-example', () => {
  const scene = path.join(repoRoot, 'examples/plugin-example/scenes/drag.scn');

  it('is loaded by RequiredPlugin and its force field acts as derived in closed form', async () => {
    const s = await loadScene(scene);
    const dofs = s.get<mechanics.MechanicalObject>('/Particle/dofs')!;
    // Backward Euler with drag B = −c·I: v_{n+1} = (m·v_n + h·(m·g + c·w)) / (m + h·c), per axis.
    const m = 2,
      c = 4,
      h = 0.01,
      g = [0, 0, -9.81],
      w = [1, 0, 0];
    const v = [0, 0, 0];
    for (let n = 0; n < 600; n++) {
      s.step();
      for (let k = 0; k < 3; k++) v[k] = (m * v[k] + h * (m * g[k] + c * w[k])) / (m + h * c);
    }
    for (let k = 0; k < 3; k++) expect(dofs.v[k]).to.be.closeTo(v[k], 1e-12);
    // Terminal velocity w + m·g/c is reached (6 time constants m/c).
    expect(dofs.v[2]).to.be.closeTo((m * -9.81) / c, 0.02);
    expect(dofs.v[0]).to.be.closeTo(1, 0.01);
  });

  it('is listed and documented by `sofa-ts components --plugin`', () => {
    const bin = path.join(repoRoot, 'packages/cli/bin/sofa-ts.js');
    const out = execFileSync(process.execPath, [bin, 'components', 'LinearDragForceField', '--plugin', 'sofa-ts-plugin-example'], {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(out).to.contain('LinearDragForceField');
    expect(out).to.contain('dragCoefficient');
    expect(out).to.contain('drag coefficient c');
    expect(out).to.contain('sofa-ts-plugin-example');
  });

  it('--plugin is resolved as RequiredPlugin names are: the scene folder, the working directory (and parents), never only the repository root', () => {
    const bin = path.join(repoRoot, 'packages/cli/bin/sofa-ts.js');
    const cli = (cwd: string, ...args: string[]) =>
      spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    // components, from a folder below the one whose node_modules has the plugin
    const sub = cli(
      path.join(repoRoot, 'examples/plugin-example/scenes'),
      'components',
      'LinearDragForceField',
      '--plugin',
      'sofa-ts-plugin-example',
    );
    expect(sub.status, sub.stderr).to.equal(0);
    expect(sub.stdout).to.contain('dragCoefficient');
    // run: a scene that does not name the plugin, outside the repository
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-plugin-flag-'));
    try {
      const scene = path.join(tmp, 'drag.scn');
      fs.writeFileSync(
        scene,
        fs.readFileSync(path.join(repoRoot, 'examples/plugin-example/scenes/drag.scn'), 'utf8').replace(/\s*<RequiredPlugin[^>]*>/, ''),
      );
      const fromRepo = cli(repoRoot, 'run', scene, '-n', '5', '--plugin', 'sofa-ts-plugin-example');
      expect(fromRepo.status, fromRepo.stderr).to.equal(0);
      const check = cli(repoRoot, 'check', scene, '-n', '2', '--plugin', 'sofa-ts-plugin-example', '-j', '1');
      expect(check.status, check.stdout + check.stderr).to.equal(0);
      expect(check.stdout).to.match(/runs/i);
      // a name found nowhere is a clear error
      const nowhere = cli(os.tmpdir(), 'run', scene, '-n', '5', '--plugin', 'sofa-ts-plugin-nowhere');
      expect(nowhere.status).to.equal(1);
      expect(nowhere.stderr).to.contain(`cannot load plugin 'sofa-ts-plugin-nowhere': no npm package of that name is installed`);
      // the scene's own folder: a scene beside the plugin's node_modules loads it from any working directory
      const beside = cli(tmp, 'run', path.join(repoRoot, 'examples/plugin-example/scenes/drag.scn'), '-n', '5');
      expect(beside.status, beside.stderr).to.equal(0);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
