import { expect } from 'chai';
import { loadSceneFromString, type SofaScene } from 'sofa-ts';

/**
 * SofaSphFluid's components through XML scenes: ParticleSource's emission law (the particle count
 * of SOFA's SPHParticleSource regression reference: 49 groups by t = 0.99 for delay 0.02 and
 * start −0.1, and the straight paths of particles emitted with a velocity and no force), an SPH
 * column falling on walls (finite, kept inside), and SPHFluidSurfaceMapping's surface of one
 * particle (the sphere (1 − r²/R²)³ = iso, closed).
 */

const centers = '-0.375 0 -0.75  0 0 -0.75  0.375 0 -0.75';

async function source(gravity: string, extra = ''): Promise<SofaScene> {
  return loadSceneFromString(`<Node name="root" dt="0.01" gravity="${gravity}">
    <DefaultAnimationLoop/>
    <Node name="particles">
      <EulerExplicitSolver symplectic="1"/>
      <MechanicalObject name="mo"/>
      <ParticleSource name="src" translation="0 10 0" radius="0.01 0.1 0.01" velocity="0 -10 0" delay="0.02" start="-0.1" stop="4" addNoise="0" center="${centers}"/>
      <UniformMass vertexMass="1"/>
      ${extra}
    </Node>
  </Node>`);
}

const data = (s: SofaScene, path: string, name: string) => s.get(path)!.findData(name)!.value as Float64Array;

describe('SofaSphFluid scenes', () => {
  it("ParticleSource emits 3 particles per 0.02 s: 49 groups by t = 0.99 (SOFA's SPHParticleSource reference count), on straight paths without forces (one step behind, as SOFA holds them)", async () => {
    const s = await source('0 0 0');
    for (let k = 0; k < 99; k++) s.step();
    const x = data(s, '/particles/mo', 'position'),
      v = data(s, '/particles/mo', 'velocity');
    expect(x.length / 3).to.equal(49 * 3);
    const T = 0.99;
    const c = centers.trim().split(/\s+/).map(Number);
    for (let g = 0; g < 49; g++)
      for (let p = 0; p < 3; p++) {
        const i = 3 * g + p;
        // emitted at t_g = (g + 1)·delay from centre + translation + radius, moving at (0, −10, 0); the
        // source holds its particles where they are at the step's start time (SOFA projects them
        // before the time advances), so each lags one step behind: x = p + v0·(T − dt − t_g)
        const want = [c[3 * p] + 0.01, c[3 * p + 1] + 10 + 0.1 - 10 * (T - 0.01 - 0.02 * (g + 1)), c[3 * p + 2] + 0.01];
        for (let a = 0; a < 3; a++) expect(x[3 * i + a], `particle ${i}`).to.be.closeTo(want[a], 1e-9);
        expect([v[3 * i], v[3 * i + 1], v[3 * i + 2]]).to.deep.equal([0, -10, 0]);
      }
  });

  it('ParticleSource holds its last particles at the emission velocity while gravity accelerates the older ones', async () => {
    const s = await source('0 -10 0');
    for (let k = 0; k < 30; k++) s.step();
    const v = data(s, '/particles/mo', 'velocity');
    const held = s.get('/particles/src')!.findData('lastparticles')!.value as Uint32Array;
    expect(held.length).to.be.at.least(3);
    for (const i of held) expect(v[3 * i + 1]).to.equal(-10);
    expect(v[1]).to.be.below(-11); // the first particle has fallen freely for ~0.28 s
  });

  it('an SPH column falls onto its walls and stays finite and inside them (SPHFluidForceField, SpatialGridContainer, RK4)', async () => {
    const s = await loadSceneFromString(`<Node name="root" dt="0.005" gravity="0 -10 0">
      <DefaultAnimationLoop/>
      <Node name="fluid">
        <RungeKutta4Solver/>
        <MechanicalObject name="mo" template="CudaVec3f"/>
        <RegularGridTopology nx="4" ny="12" nz="4" xmin="-1.5" xmax="0" ymin="-3" ymax="3" zmin="-1.5" zmax="0"/>
        <UniformMass vertexMass="1"/>
        <SpatialGridContainer cellWidth="1.5"/>
        <SPHFluidForceField radius="0.75" density="15" viscosity="10" pressure="1000" surfaceTension="-1000"/>
        <PlaneForceField normal="1 0 0" d="-4"/>
        <PlaneForceField normal="-1 0 0" d="-4"/>
        <PlaneForceField normal="0 1 0" d="-4"/>
        <PlaneForceField normal="0 0 1" d="-4"/>
        <PlaneForceField normal="0 0 -1" d="-4"/>
      </Node>
    </Node>`);
    for (let k = 0; k < 200; k++) s.step();
    const x = data(s, '/fluid/mo', 'position');
    expect(Array.from(x).every(Number.isFinite)).to.equal(true);
    for (let i = 0; i < x.length / 3; i++) {
      // the walls are penalties (stiffness 500): the particles may enter them, not cross them
      expect(x[3 * i + 1], `particle ${i} height`).to.be.above(-5);
      expect(Math.abs(x[3 * i]), `particle ${i} x`).to.be.below(5);
    }
  });

  it('SPHFluidSurfaceMapping of one particle is the sphere (1 − r²/R²)³ = iso: closed, at radius R·√(1 − iso^⅓)', async () => {
    const R = 1,
      iso = 0.3;
    const s = await loadSceneFromString(`<Node name="root" dt="0.01" gravity="0 0 0">
      <DefaultAnimationLoop/>
      <Node name="p">
        <MechanicalObject name="mo" position="0.13 -0.21 0.05"/>
        <Node name="visual">
          <OglModel name="surface"/>
          <SPHFluidSurfaceMapping input="@../mo" output="@surface" isoValue="${iso}" radius="${R}" step="0.05"/>
        </Node>
      </Node>
    </Node>`);
    s.step();
    const pos = data(s, '/p/visual/surface', 'position');
    const tris = s.get('/p/visual/surface')!.findData('triangles')!.value as Uint32Array;
    const normals = data(s, '/p/visual/surface', 'normal');
    expect(tris.length).to.be.above(300);
    const r = R * Math.sqrt(1 - Math.cbrt(iso));
    const edges = new Map<string, number>();
    for (let t = 0; t < tris.length; t += 3)
      for (let e = 0; e < 3; e++) {
        const key = `${tris[t + e]} ${tris[t + ((e + 1) % 3)]}`;
        edges.set(key, (edges.get(key) ?? 0) + 1);
      }
    for (const [key, n] of edges) {
      const [a, b] = key.split(' ');
      expect(n).to.equal(1);
      expect(edges.get(`${b} ${a}`), `edge ${key}`).to.equal(1);
    }
    for (let v = 0; v < pos.length / 3; v++) {
      const d = [pos[3 * v] - 0.13, pos[3 * v + 1] + 0.21, pos[3 * v + 2] - 0.05];
      expect(Math.hypot(...d)).to.be.closeTo(r, 0.01 * r);
      // normals point outward
      expect(d[0] * normals[3 * v] + d[1] * normals[3 * v + 1] + d[2] * normals[3 * v + 2]).to.be.above(0);
    }
  });
});
