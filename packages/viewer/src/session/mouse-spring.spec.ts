import { expect } from 'chai';
import { createRegistry, loadSceneFromString } from 'sofa-ts';
import { viewerModule } from './mouse-spring.js';

const scene = (spring: string, solver: string): string => `
<Node name="root" dt="0.05" gravity="0 0 0">
  <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
  ${solver}
  <MechanicalObject name="dofs" position="0 0 0  2 0 0"/>
  <UniformMass vertexMass="0.5"/>
  <StiffSpringForceField spring="0 1 30 0 2"/>
  ${spring}
</Node>`;

async function run(
  spring: string,
  solver: string,
  steps: number,
  drive?: (s: Awaited<ReturnType<typeof loadSceneFromString>>) => void,
): Promise<Float64Array> {
  const registry = createRegistry();
  registry.load('@sofa-ts/viewer', viewerModule);
  const s = await loadSceneFromString(scene(spring, solver), { registry });
  drive?.(s);
  s.step(steps);
  return Float64Array.from(s.get<any>('/dofs')!.x as Float64Array);
}

describe('viewer: MouseSpringForceField (the shift-drag spring)', () => {
  for (const solver of ['<CGLinearSolver iterations="50" tolerance="1e-20" threshold="1e-20"/>', '<SparseLDLSolver/>']) {
    it(`idle, leaves the states bit for bit unchanged (${/<(\w+)/.exec(solver)![1]})`, async () => {
      const without = await run('', solver, 20, (s) => ((s.get<any>('/dofs')!.v as Float64Array)[0] = 1));
      const idle = await run('<MouseSpringForceField name="mouse"/>', solver, 20, (s) => ((s.get<any>('/dofs')!.v as Float64Array)[0] = 1));
      expect(Array.from(idle)).to.deep.equal(Array.from(without));
    });
  }

  it('pulls its point to the target as backward Euler integrates f = k·(target − x)', async () => {
    // point 1 alone (no inter-point spring): m·Δv = h·(k·(t − x) − h·k·v) / (1 + h²·k/m) per axis
    const registry = createRegistry();
    registry.load('@sofa-ts/viewer', viewerModule);
    const s = await loadSceneFromString(
      `
<Node name="root" dt="0.05" gravity="0 0 0">
  <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
  <SparseLDLSolver/>
  <MechanicalObject name="dofs" position="0 0 0  2 0 0"/>
  <UniformMass vertexMass="0.5"/>
  <MouseSpringForceField name="mouse" index="1" target="3 1 -1" stiffness="40"/>
</Node>`,
      { registry },
    );
    const h = 0.05,
      m = 0.5,
      k = 40,
      t = [3, 1, -1];
    const x = [2, 0, 0],
      v = [0, 0, 0];
    for (let n = 0; n < 10; n++) {
      s.step();
      for (let a = 0; a < 3; a++) {
        const dv = (h * (k * (t[a] - x[a]) - h * k * v[a])) / (m + h * h * k);
        v[a] += dv;
        x[a] += h * v[a];
      }
      const got = s.get<any>('/dofs')!.x as Float64Array;
      for (let a = 0; a < 3; a++) expect(got[3 + a]).to.be.closeTo(x[a], 1e-12);
      expect(Array.from(got.subarray(0, 3))).to.deep.equal([0, 0, 0]);
    }
  });
});
