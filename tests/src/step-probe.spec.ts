/** StepProbe (what --plot and the viewer's charts show) against closed forms, and `run --plot`. */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { StepProbe, loadSceneFromString } from 'sofa-ts';

const scene = `
<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
  <CGLinearSolver iterations="100" tolerance="1e-20" threshold="1e-20"/>
  <MechanicalObject name="dofs" position="0 0 0  1 0 0" velocity="0 0 0  0 2 0"/>
  <UniformMass name="mass" vertexMass="0.5"/>
  <StiffSpringForceField name="spring" spring="0 1 100 0 0.5"/>
</Node>`;

describe('StepProbe: energies, iterations and chosen Data per step (run --plot, viewer charts)', () => {
  it("kinetic = ½·Σ m·|v|², potential = −Σ m·g·x + ½·k·(|x1 − x0| − l0)², the chosen Data's norm", async () => {
    const s = await loadSceneFromString(scene);
    const probe = new StepProbe(s.root, ['/dofs.velocity', '/mass.vertexMass']);
    for (let step = 1; step <= 5; step++) {
      s.step();
      const x = s.get<any>('/dofs')!.x as Float64Array,
        v = s.get<any>('/dofs')!.v as Float64Array;
      const sample = probe.sample(step, 1);
      const kinetic = 0.5 * 0.5 * v.reduce((a, b) => a + b * b, 0);
      const stretch = Math.hypot(x[3] - x[0], x[4] - x[1], x[5] - x[2]) - 0.5;
      const potential = 0.5 * 9.81 * (x[1] + x[4]) + 0.5 * 100 * stretch * stretch;
      expect(sample.kinetic).to.be.closeTo(kinetic, 1e-12 * kinetic);
      expect(sample.potential).to.be.closeTo(potential, 1e-10 * Math.abs(potential) + 1e-12);
      expect(sample.iterations).to.be.greaterThan(0);
      expect(sample.data['/dofs.velocity']).to.be.closeTo(Math.hypot(...v), 1e-15);
      expect(sample.data['/mass.vertexMass']).to.equal(0.5);
      expect(sample.time).to.be.closeTo(0.01 * step, 1e-15);
    }
  });

  it('names an unknown Data', async () => {
    const s = await loadSceneFromString(scene);
    expect(() => new StepProbe(s.root, ['/dofs.nothing'])).to.throw(/no Data '\/dofs.nothing'/);
  });

  it('sofa-ts run --plot writes an SVG with the energy, iteration and residual panels and the chosen Data', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-plot-'));
    try {
      fs.writeFileSync(path.join(dir, 's.scn'), scene);
      const cli = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'packages', 'cli', 'bin', 'sofa-ts.js');
      execFileSync(
        process.execPath,
        [cli, 'run', path.join(dir, 's.scn'), '-n', '20', '--plot', path.join(dir, 'p.svg'), '--plot-data', '/dofs.velocity'],
        { stdio: 'pipe' },
      );
      const svg = fs.readFileSync(path.join(dir, 'p.svg'), 'utf8');
      expect(svg).to.match(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      for (const t of ['energy (J)', 'iterations', 'residual (log)', 'chosen Data', '/dofs.velocity']) expect(svg).to.contain(t);
      // kinetic, potential, total, two iteration series, residual, one Data: each a line of 20 points
      const lines = [...svg.matchAll(/<polyline[^>]*points="([^"]*)"/g)].map((m) => m[1].split(' ').length);
      expect(lines.filter((n) => n === 20).length).to.be.at.least(5);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
