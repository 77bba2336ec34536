import { expect } from 'chai';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { loadScene, mechanics } from 'sofa-ts';
import { repoRoot } from './corpus.js';

describe('plugins: examples/plugin-example', () => {
  const scene = path.join(repoRoot, 'examples/plugin-example/scenes/drag.scn');

  it('is loaded by RequiredPlugin and its force field acts as derived in closed form', async () => {
    const s = await loadScene(scene);
    const dofs = s.get<mechanics.MechanicalObject>('/Particle/dofs')!;
    // Backward Euler with drag B = −c·I: v_{n+1} = (m·v_n + h·(m·g + c·w)) / (m + h·c), per axis.
    const m = 2, c = 4, h = 0.01, g = [0, 0, -9.81], w = [1, 0, 0];
    const v = [0, 0, 0];
    for (let n = 0; n < 600; n++) {
      s.step();
      for (let k = 0; k < 3; k++) v[k] = (m * v[k]! + h * (m * g[k]! + c * w[k]!)) / (m + h * c);
    }
    for (let k = 0; k < 3; k++) expect(dofs.v[k]).to.be.closeTo(v[k]!, 1e-12);
    // Terminal velocity w + m·g/c is reached (6 time constants m/c).
    expect(dofs.v[2]).to.be.closeTo((m * -9.81) / c, 0.02);
    expect(dofs.v[0]).to.be.closeTo(1, 0.01);
  });

  it('is listed and documented by `sofa-ts components --plugin`', () => {
    const bin = path.join(repoRoot, 'packages/cli/bin/sofa-ts.js');
    const out = execFileSync(process.execPath, [bin, 'components', 'LinearDragForceField', '--plugin', 'sofa-ts-plugin-example'], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(out).to.contain('LinearDragForceField');
    expect(out).to.contain('dragCoefficient');
    expect(out).to.contain('drag coefficient c');
    expect(out).to.contain('sofa-ts-plugin-example');
  });
});
