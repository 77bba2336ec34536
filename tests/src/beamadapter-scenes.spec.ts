import { expect } from 'chai';
import { SofaError, loadSceneFromString, type BaseMechanicalState } from 'sofa-ts';

/**
 * BeamAdapter's BeamInterpolation and AdaptiveBeamForceFieldAndMass through the XML path users take:
 * a clamped cantilever of Rigid3d frames under tip loads against the beam closed forms, a free
 * fall against uniform acceleration, and the refusals of what sofa-ts does not implement.
 */

const [E, NU, R, LEN, N] = [1e5, 0.3, 0.1, 1, 4];
const I = (Math.PI * R ** 4) / 4,
  A = Math.PI * R * R,
  G = E / (2 * (1 + NU));

/** N beams along x (frames with the identity orientation), frame 0 clamped, `load` (fx fy fz tx ty tz) on the last frame, solved statically. */
function cantilever(load: number[], section = `radius="${R}"`): string {
  const frames = Array.from({ length: N + 1 }, (_, i) => `${(i * LEN) / N} 0 0 0 0 0 1`).join('  ');
  const lines = Array.from({ length: N }, (_, i) => `${i} ${i + 1}`).join(' ');
  return `<Node name="root" dt="1" gravity="0 0 0">
  <RequiredPlugin pluginName="BeamAdapter"/>
  <StaticSolver newton_iterations="20" absolute_correction_tolerance_threshold="1e-15" relative_correction_tolerance_threshold="1e-14" absolute_residual_tolerance_threshold="1e-15" relative_residual_tolerance_threshold="1e-14"/>
  <SparseLDLSolver template="CompressedRowSparseMatrixd"/>
  <MechanicalObject name="frames" template="Rigid3d" position="${frames}"/>
  <MeshTopology lines="${lines}"/>
  <BeamInterpolation ${section} defaultYoungModulus="${E}" defaultPoissonRatio="${NU}"/>
  <AdaptiveBeamForceFieldAndMass computeMass="0"/>
  <FixedProjectiveConstraint indices="0"/>
  <ConstantForceField indices="${N}" forces="${load.join(' ')}"/>
</Node>`;
}

/** The tip frame after a static solve: displacement (3) and rotation vector (3, small angles: 2·vector part). */
async function tip(load: number[], section?: string): Promise<number[]> {
  const scene = await loadSceneFromString(cantilever(load, section));
  scene.step(1);
  const x = scene.get<BaseMechanicalState>('/frames')!.x,
    o = 7 * N;
  const s = x[o + 6] < 0 ? -2 : 2;
  return [x[o] - LEN, x[o + 1], x[o + 2], s * x[o + 3], s * x[o + 4], s * x[o + 5]];
}

async function errorOf(p: Promise<unknown>): Promise<SofaError> {
  try {
    await p;
  } catch (e) {
    expect(e).to.be.instanceOf(SofaError);
    return e as SofaError;
  }
  throw new Error('expected a SofaError');
}

describe('BeamAdapter in scenes (BeamInterpolation, AdaptiveBeamForceFieldAndMass)', function () {
  this.timeout(20000);

  it('cantilever, tip force P along y: deflection P·L³/(3EI) and rotation P·L²/(2EI) (Euler–Bernoulli: no shear areas)', async () => {
    // P chosen for a deflection of 1e-4·L: the corotational solution is the linear one to ~1e-8
    const P = (3 * E * I * 1e-4) / LEN ** 3;
    const t = await tip([0, P, 0, 0, 0, 0]);
    const v = (P * LEN ** 3) / (3 * E * I),
      theta = (P * LEN ** 2) / (2 * E * I);
    expect(t[1] / v - 1).to.be.closeTo(0, 1e-6);
    expect(t[5] / theta - 1).to.be.closeTo(0, 1e-6);
    expect(Math.abs(t[2])).to.be.below(1e-12);
  });

  it('cantilever, axial force: stretch P·L/(EA); torque about the axis: twist T·L/(GJ), J = 2I', async () => {
    const P = E * A * 1e-5,
      T = G * 2 * I * 1e-4;
    const axial = await tip([P, 0, 0, 0, 0, 0]);
    expect(axial[0] / ((P * LEN) / (E * A)) - 1).to.be.closeTo(0, 1e-6);
    const twist = await tip([0, 0, 0, T, 0, 0]);
    expect(twist[3] / ((T * LEN) / (G * 2 * I)) - 1).to.be.closeTo(0, 1e-6);
  });

  it('rectangular section: bending along z with I_y = L_y·L_z³/12, along y with I_z = L_z·L_y³/12', async () => {
    const ly = 0.2,
      lz = 0.05,
      Iy = (ly * lz ** 3) / 12,
      Iz = (lz * ly ** 3) / 12;
    const section = `crossSectionShape="rectangular" lengthY="${ly}" lengthZ="${lz}"`;
    const Pz = (3 * E * Iy * 1e-4) / LEN ** 3,
      Py = (3 * E * Iz * 1e-4) / LEN ** 3;
    const tz = await tip([0, 0, Pz, 0, 0, 0], section);
    expect(tz[2] / ((Pz * LEN ** 3) / (3 * E * Iy)) - 1).to.be.closeTo(0, 1e-6);
    // θ_y = −dw/dx
    expect(-tz[4] / ((Pz * LEN ** 2) / (2 * E * Iy)) - 1).to.be.closeTo(0, 1e-6);
    const ty = await tip([0, Py, 0, 0, 0, 0], section);
    expect(ty[1] / ((Py * LEN ** 3) / (3 * E * Iz)) - 1).to.be.closeTo(0, 1e-6);
  });

  it('free fall with the consistent mass: every frame accelerates at g, the beam stays straight (backward Euler: x = x0 + h²·g·n(n+1)/2)', async () => {
    // unit quaternions (x along z): frames written 0.707 0 0.707 0 keep |q|² = 0.9997 and SOFA's
    // frame algebra then moves their origins with the world position (beam-frames.ts)
    const h = 0.01,
      g = [0.3, -9.81, 1.2],
      steps = 10,
      q = `${Math.SQRT1_2} 0 ${Math.SQRT1_2} 0`;
    const scene = await loadSceneFromString(`<Node name="root" dt="${h}" gravity="${g.join(' ')}">
  <RequiredPlugin pluginName="BeamAdapter"/>
  <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
  <SparseLDLSolver template="CompressedRowSparseMatrixd"/>
  <MechanicalObject name="frames" template="Rigid3d" position="0 0 0 ${q}  0 0 0.5 ${q}  0 0 1 ${q}"/>
  <MeshTopology lines="0 1 1 2"/>
  <BeamInterpolation radius="0.05" defaultYoungModulus="1e6"/>
  <AdaptiveBeamForceFieldAndMass massDensity="1000"/>
</Node>`);
    const s0 = scene.get<BaseMechanicalState>('/frames')!,
      x0 = Float64Array.from(s0.x);
    scene.step(steps);
    const s = scene.get<BaseMechanicalState>('/frames')!,
      k = (h * h * steps * (steps + 1)) / 2;
    for (let i = 0; i < 3; i++) {
      for (let c = 0; c < 3; c++) expect(s.x[7 * i + c] - x0[7 * i + c]).to.be.closeTo(k * g[c], 1e-10);
      for (let c = 0; c < 3; c++) expect(s.v[6 * i + 3 + c]).to.be.closeTo(0, 1e-10);
    }
  });

  it('refuses what it does not implement, at the attribute', async () => {
    const scene = (interp: string, ff = ''): string => `<Node name="root">
  <RequiredPlugin pluginName="BeamAdapter"/>
  <MechanicalObject name="frames" template="Rigid3d" position="0 0 0 0 0 0 1  1 0 0 0 0 0 1"/>
  <MeshTopology lines="0 1"/>
  <BeamInterpolation ${interp}/>
  <AdaptiveBeamForceFieldAndMass ${ff}/>
</Node>`;
    const cases: [string, string, RegExp][] = [
      ['crossSectionShape="elliptic (not available)"', '', /elliptic sections are not available/],
      ['', 'instrumentParameters="@frames"', /instrumentParameters: instrument parameters \(WireRestShape\) are not implemented/],
      ['', 'shearStressComputation="0"', /shearStressComputation="false" .* is not implemented/],
      ['radius="0.1" innerRadius="0.2"', '', /must exceed the inner radius/],
    ];
    for (const [interp, ff, message] of cases) {
      const e = await errorOf(loadSceneFromString(scene(interp, ff), { fileName: 'beam.scn' }));
      expect(e.message).to.match(message);
      expect(e.message).to.match(/beam\.scn:\d+:\d+/);
    }
  });

  it('reads DOF-to-node transformations from the scene: the beam runs between the transformed ends', async () => {
    // frames 1 apart along x; node 0 shifted by 0.1 along the first frame's y, node 1 by −0.2 along x
    const s = await loadSceneFromString(
      `<Node name="root" gravity="0 0 0">
  <RequiredPlugin pluginName="BeamAdapter"/>
  <MechanicalObject name="frames" template="Rigid3d" position="0 0 0 0 0 0 1  1 0 0 0 0 0 1"/>
  <MeshTopology lines="0 1"/>
  <BeamInterpolation name="interp" dofsAndBeamsAligned="false" DOF0TransformNode0="0 0.1 0 0 0 0 1" DOF1TransformNode1="-0.2 0 0 0 0 0 1"/>
  <AdaptiveBeamForceFieldAndMass/>
</Node>`,
      { fileName: 'beam.scn' },
    );
    const interp = s.get('/interp') as unknown as { lengths: Float64Array };
    // the centre line between (0, 0.1, 0) and (0.8, 0, 0), both ends' x axes along x: a Bézier arc a little longer than the chord
    const chord = Math.hypot(0.8, 0.1);
    expect(interp.lengths[0]).to.be.above(chord);
    expect(interp.lengths[0]).to.be.below(chord * 1.01);
  });
});
