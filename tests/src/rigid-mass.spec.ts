import { expect } from 'chai';
import { loadSceneFromString, mechanics } from 'sofa-ts';

/** A single Rigid3 frame with UniformMass, integrated by EulerImplicitSolver. */
async function frame(extra: string, velocity = '0 0 0 0 0 0', gravity = '0 0 -9.81') {
  return loadSceneFromString(`<Node name="root" dt="0.01" gravity="${gravity}">
    <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
    <CGLinearSolver iterations="50" tolerance="1e-15" threshold="1e-30"/>
    <MechanicalObject name="frame" template="Rigid3" position="1 2 3 0 0 0 1" velocity="${velocity}"/>
    ${extra}
  </Node>`);
}

describe('UniformMass on Rigid3 frames', () => {
  it('falls like a particle of the frame mass (backward Euler recurrence), without turning', async () => {
    const s = await frame('<UniformMass totalMass="2"/>');
    const mo = s.get<mechanics.MechanicalObject>('frame')!;
    let z = 3,
      vz = 0;
    const h = 0.01,
      g = -9.81;
    for (let n = 0; n < 50; n++) {
      s.step();
      vz += h * g; // M·Δv = h·m·g, no stiffness
      z += h * vz;
    }
    expect(mo.x[2]).to.be.closeTo(z, 1e-10);
    expect(mo.x[0]).to.equal(1);
    expect(Array.from(mo.x.subarray(3, 7))).to.deep.equal([0, 0, 0, 1]);
  });

  it("spins at constant ω without torque; the orientation follows SOFA's exponential quaternion update (θ = hω per step)", async () => {
    const s = await frame('<UniformMass vertexMass="2 1 1 0 0 0 2 0 0 0 3"/>', '0 0 0 0 0 4', '0 0 0');
    const mo = s.get<mechanics.MechanicalObject>('frame')!;
    const h = 0.01,
      w = 4,
      n = 30;
    s.step(n);
    const theta = n * h * w;
    expect(mo.x[5]).to.be.closeTo(Math.sin(theta / 2), 1e-12);
    expect(mo.x[6]).to.be.closeTo(Math.cos(theta / 2), 1e-12);
    expect(mo.v[5]).to.be.closeTo(w, 1e-12);
  });

  it('has M = diag(m·I, m·J): addMDx, addMToMatrix and accFromF agree and invert each other', async () => {
    const s = await frame('<UniformMass name="mass" vertexMass="2 1 1 0.1 0 0.1 2 0 0 0 3"/>');
    const mass = s.get<mechanics.UniformMass>('mass')!;
    expect(Array.from(mass.vertexMass.value)).to.deep.equal([2, 1, 1, 0.1, 0, 0.1, 2, 0, 0, 0, 3]);
    const dx = Float64Array.of(0.3, -1, 2, 0.5, 0.7, -0.2);
    const Mdx = new Float64Array(6);
    mass.addMDx(Mdx, dx, 1);
    const M = Array.from({ length: 6 }, () => new Float64Array(6));
    mass.addMToMatrix({ add: (r, c, v) => (M[r][c] += v) }, 1);
    for (let r = 0; r < 6; r++) {
      let y = 0;
      for (let c = 0; c < 6; c++) y += M[r][c] * dx[c];
      expect(Mdx[r]).to.be.closeTo(y, 1e-14);
    }
    // Translation 2·I; rotation 2·J with J = [[1 .1 0] [.1 2 0] [0 0 3]].
    expect(M[0][0]).to.equal(2);
    expect(M[3][4]).to.be.closeTo(0.2, 1e-15);
    expect(M[5][5]).to.equal(6);
    const a = new Float64Array(6);
    mass.accFromF(a, Mdx);
    for (let k = 0; k < 6; k++) expect(a[k]).to.be.closeTo(dx[k], 1e-14);
    expect(mass.getKineticEnergy(dx)).to.be.closeTo(0.5 * Array.from(dx).reduce((e, x, k) => e + x * Mdx[k], 0), 1e-14);
  });

  it('refuses a vertexMass of the wrong length with the expected forms', async () => {
    let msg = '';
    try {
      await frame('<UniformMass vertexMass="2 1 1 0 0"/>');
    } catch (e) {
      msg = (e as Error).message;
    }
    expect(msg).to.match(/"mass", "mass volume" or "mass volume inertia" \(9 inertia values\); got 5 values/);
  });
});
