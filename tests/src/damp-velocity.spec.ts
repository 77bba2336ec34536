import { expect } from 'chai';
import { loadSceneFromString, type SofaScene } from 'sofa-ts';

/**
 * DampVelocitySolver through XML, against closed forms: alone it scales the velocities by
 * exp(−rate·dt) per step and moves nothing; after an explicit Euler solver of the same node with no
 * force, the positions advance by the geometric sum of the damped velocities; points slower than
 * the threshold stop.
 */

const dt = 0.05,
  rate = 0.9;

async function scene(solvers: string, velocity: string): Promise<SofaScene> {
  return loadSceneFromString(`<Node name="root" dt="${dt}" gravity="0 0 0">
    <DefaultAnimationLoop/>
    <Node name="M">
      ${solvers}
      <MechanicalObject name="mo" position="0 0 0  1 0 0" velocity="${velocity}"/>
      <UniformMass vertexMass="0.1"/>
    </Node>
  </Node>`);
}

const data = (s: SofaScene, name: string): Float64Array => s.get('/M/mo')!.findData(name)!.value as Float64Array;

describe('DampVelocitySolver (scene)', () => {
  it('alone: v_n = exp(−rate·dt·n)·v_0, positions unchanged', async () => {
    const s = await scene(`<DampVelocitySolver rate="${rate}"/>`, '1 2 0  0 0 -3');
    for (let n = 1; n <= 10; n++) {
      s.step();
      const f = Math.exp(-rate * dt * n);
      const expected = [1, 2, 0, 0, 0, -3].map((v) => v * f);
      data(s, 'velocity').forEach((v, i) => expect(v).to.be.closeTo(expected[i], 1e-14));
    }
    expect(Array.from(data(s, 'position'))).to.deep.equal([0, 0, 0, 1, 0, 0]);
  });

  it('after EulerExplicitSolver (no force): x_n = x_0 + dt·v_0·Σ_{k<n} exp(−rate·dt·k)', async () => {
    const s = await scene(`<EulerExplicitSolver/><DampVelocitySolver rate="${rate}"/>`, '1 0 0  1 0 0');
    let sum = 0;
    for (let n = 1; n <= 10; n++) {
      s.step();
      sum += Math.exp(-rate * dt * (n - 1));
      expect(data(s, 'position')[0]).to.be.closeTo(dt * sum, 1e-14);
      expect(data(s, 'position')[3]).to.be.closeTo(1 + dt * sum, 1e-14);
    }
  });

  it('threshold: a point whose damped speed (the norm of its velocity) is below it stops', async () => {
    // speeds 0.3 and 0.5, damped to 0.287 (< 0.29: stops) and 0.478 (kept, though its x component 0.287 is below 0.29)
    const s = await scene(`<DampVelocitySolver rate="${rate}" threshold="0.29"/>`, '0.18 0.24 0  0.3 0.4 0');
    s.step();
    const f = Math.exp(-rate * dt);
    const v = Array.from(data(s, 'velocity'));
    expect(v.slice(0, 3)).to.deep.equal([0, 0, 0]);
    [0.3 * f, 0.4 * f, 0].forEach((e, i) => expect(v[3 + i]).to.be.closeTo(e, 1e-15));
  });
});
