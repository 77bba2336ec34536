import { expect } from 'chai';
import { Rigid3d, loadSceneFromString, type MechanicalSystem, type SofaScene, mechanics } from 'sofa-ts';
import { csrToDense } from '@sofa-ts/linalg';

/**
 * Mappings inside the assembly engine, through XML scenes: the assembled operator must be the
 * derivative of the forces the engine computes (K = ∂f/∂x by central differences over the master
 * dofs, mapped states and the mapping's geometric stiffness included), and the matrix-free product
 * must equal the assembled one.
 */

const cube = {
  position: '0 0 0  2 0 0  2 1 0  0 1 0  0 0 3  2 0 3  2 1 3  0 1 3',
  tetrahedra: '0 1 2 6  0 2 3 6  0 3 7 6  0 7 4 6  0 4 5 6  0 5 1 6',
};

async function load(body: string): Promise<SofaScene> {
  const xml = `<Node name="root" gravity="0 -9.81 0" dt="0.01">
    <DefaultAnimationLoop/>
    <EulerImplicitSolver name="ode" rayleighStiffness="0" rayleighMass="0"/>
    <CGLinearSolver iterations="500" tolerance="1e-16" threshold="1e-30"/>
    ${body}
  </Node>`;
  return loadSceneFromString(xml);
}

function systemOf(s: SofaScene): MechanicalSystem {
  return (s.get('/ode') as unknown as { getSystem(): MechanicalSystem }).getSystem();
}

/** x ⊕ h·e_j on the global coordinates of the masters (world-frame rotations for Rigid3d). */
function perturb(sys: MechanicalSystem, j: number, h: number): void {
  for (const m of sys.masters) {
    if (j < m.offset || j >= m.offset + m.derivLength) continue;
    const t = m.state.stateType;
    const local = j - m.offset;
    const p = Math.floor(local / t.derivSize);
    const a = local % t.derivSize;
    const x = sys.x.subarray(m.coordOffset, m.coordOffset + m.coordLength);
    if (t === Rigid3d && a >= 3) {
      const s = Math.sin(h / 2),
        c = Math.cos(h / 2);
      const o = 7 * p + 3;
      const [ax, ay, az] = [a === 3 ? s : 0, a === 4 ? s : 0, a === 5 ? s : 0];
      const [bx, by, bz, bw] = [x[o], x[o + 1], x[o + 2], x[o + 3]];
      x[o] = c * bx + ax * bw + ay * bz - az * by;
      x[o + 1] = c * by - ax * bz + ay * bw + az * bx;
      x[o + 2] = c * bz + ax * by - ay * bx + az * bw;
      x[o + 3] = c * bw - ax * bx - ay * by - az * bz;
    } else {
      x[p * t.coordSize + a] += h;
    }
  }
}

/** K (assembled with m = b = 0, k = 1) against central differences of the engine's forces, on unprojected dofs. */
function expectStiffnessIsForceDerivative(sys: MechanicalSystem, tol: number): void {
  sys.v.fill(0);
  sys.propagatePositionsAndVelocities();
  // force fields linearise at their last addForce (as in SOFA): compute the forces here first
  sys.computeForce();
  const K = csrToDense(sys.assembleMBK({ m: 0, b: 0, k: 1 }));
  const n = sys.size;
  const base = Float64Array.from(sys.x);
  const projected = projectedDofs(sys);
  const h = 1e-6;
  for (let j = 0; j < n; j++) {
    if (projected.has(j)) continue;
    const force = (sign: number): Float64Array => {
      sys.x.set(base);
      perturb(sys, j, sign * h);
      sys.propagatePositionsAndVelocities();
      sys.computeForce();
      return Float64Array.from(sys.f);
    };
    const fp = force(1);
    const fm = force(-1);
    for (let i = 0; i < n; i++) {
      if (projected.has(i)) continue;
      const fd = (fp[i] - fm[i]) / (2 * h);
      expect(K[i][j], `K[${i}][${j}]`).to.be.closeTo(fd, tol * Math.max(1, Math.abs(fd)));
    }
  }
  sys.x.set(base);
  sys.propagatePositionsAndVelocities();
}

/** Dofs of the masters that projective constraints fix. */
function projectedDofs(sys: MechanicalSystem): Set<number> {
  const probe = new Float64Array(sys.size).fill(1);
  sys.projectResponse(probe);
  return new Set(Array.from(probe.keys()).filter((i) => probe[i] === 0));
}

/** P·A·P·v from the assembled matrix equals the matrix-free product on the free dofs. */
function expectMatrixFreeEqualsAssembled(sys: MechanicalSystem): void {
  sys.computeForce();
  const f = { m: 1.3, b: 0, k: -0.02 };
  const A = csrToDense(sys.assembleMBK(f));
  const fixed = projectedDofs(sys);
  const vec = Float64Array.from({ length: sys.size }, (_, i) => (fixed.has(i) ? 0 : Math.sin(1.7 * i + 0.3)));
  const out = new Float64Array(sys.size);
  sys.applyMBK(out, f, vec);
  let nonzero = 0;
  for (let i = 0; i < sys.size; i++) {
    if (fixed.has(i)) continue;
    const ref = A[i].reduce((s, v, j) => s + v * vec[j], 0);
    expect(out[i]).to.be.closeTo(ref, 1e-9);
    if (Math.abs(ref) > 1e-6) nonzero++;
  }
  expect(nonzero).to.be.above(0);
}

describe('mappings in the assembly engine (scenes)', () => {
  for (const gs of ['None', 'Exact']) {
    it(`RigidMapping (geometricStiffness=${gs}): points on a rigid body held by springs; K = ∂f/∂x${gs === 'None' ? ' without the geometric term' : ''}, matrix-free = assembled`, async () => {
      const s = await load(`
        <Node name="anchor"><MechanicalObject name="a" position="0 2 0  1 2 0.5  -1 1.5 1"/><FixedProjectiveConstraint indices="0 1 2"/></Node>
        <Node name="body">
          <MechanicalObject name="frame" template="Rigid3" position="0.1 0.2 0.3  0.1 0.2 0.3 0.927362"/>
          <Node name="pts">
            <MechanicalObject name="p" position="0.5 0 0  0 0.4 0.3  -0.2 0.1 -0.6"/>
            <RigidMapping geometricStiffness="${gs}" globalToLocalCoords="1"/>
          </Node>
        </Node>
        <Node name="springs"><StiffSpringForceField object1="@../body/pts/p" object2="@../anchor/a" spring="0 0 50 0 0.5  1 1 80 0 0.7  2 2 30 0 0.4"/></Node>`);
      // (no mass on the frame: the operator is checked without stepping)
      const sys = systemOf(s);
      expect(sys.mappedStates).to.have.length(1);
      if (gs === 'Exact') expectStiffnessIsForceDerivative(sys, 1e-5);
      expectMatrixFreeEqualsAssembled(sys);
    });
  }

  for (const topo of ['MeshTopology', 'TetrahedronSetTopologyContainer']) {
    it(`BarycentricMapping on a ${topo}: mapped points follow, K = Jᵀ·K_c·J = ∂f/∂x, matrix-free = assembled`, async () => {
      const s = await load(`
        <Node name="anchor"><MechanicalObject name="a" position="1 3 1  2 -1 2"/><FixedProjectiveConstraint indices="0 1"/></Node>
        <Node name="body">
          <${topo} name="topo" position="${cube.position}" tetrahedra="${cube.tetrahedra}"/>
          <MechanicalObject name="dofs"/>
          <UniformMass vertexMass="0.3"/>
          <FixedProjectiveConstraint indices="0"/>
          <Node name="inside">
            <MechanicalObject name="p" position="1 0.5 1.5  0.2 0.9 2.8"/>
            <BarycentricMapping input="@.." output="@p"/>
          </Node>
        </Node>
        <Node name="springs"><StiffSpringForceField object1="@../body/inside/p" object2="@../anchor/a" spring="0 0 40 0 1  1 1 25 0 2"/></Node>`);
      s.step(4);
      const sys = systemOf(s);
      const dofs = s.get<mechanics.MechanicalObject>('/body/dofs')!;
      const p = s.get<mechanics.MechanicalObject>('/body/inside/p')!;
      // point 0 sits at the cube's centre: the mean of nodes 0 and 6 (the diagonal of every tetrahedron)
      for (let a = 0; a < 3; a++) expect(p.x[a]).to.be.closeTo(0.5 * (dofs.x[a] + dofs.x[18 + a]), 1e-12);
      expectStiffnessIsForceDerivative(sys, 1e-5);
      expectMatrixFreeEqualsAssembled(sys);
    });
  }

  it('after init, mechanical mappings have moved their outputs (a grid translated by its MechanicalObject carries its embedded points)', async () => {
    const s = await load(`
      <Node name="ffd">
        <RegularGridTopology nx="3" ny="2" nz="2" xmin="-1" xmax="1" ymin="0" ymax="1" zmin="0" zmax="2"/>
        <MechanicalObject name="grid" dx="7.5" dy="-1"/>
        <UniformMass vertexMass="1"/>
        <Node name="surf">
          <MechanicalObject name="p" position="0.25 0.5 0.5  -0.9 0.1 1.9  1.5 0.5 1"/>
          <BarycentricMapping/>
        </Node>
      </Node>`);
    const p = s.get<mechanics.MechanicalObject>('/ffd/surf/p')!;
    // located in the grid's own geometry, moved with the state's translation (the last point is
    // outside the grid and extrapolated from its nearest cell)
    const expected = [7.75, -0.5, 0.5, 6.6, -0.9, 1.9, 9, -0.5, 1];
    expected.forEach((v, i) => expect(p.x[i]).to.be.closeTo(v, 1e-12));
  });

  it('IdentityMapping and SubsetMapping states follow their input through steps', async () => {
    const s = await load(`
      <Node name="body">
        <MechanicalObject name="dofs" position="0 0 0  1 0 0  0 1 0"/>
        <UniformMass vertexMass="1"/>
        <Node name="copy"><MechanicalObject name="c"/><IdentityMapping/></Node>
        <Node name="sub"><MechanicalObject name="s"/><SubsetMapping indices="2 0"/></Node>
      </Node>`);
    s.step(5);
    const x = s.get<mechanics.MechanicalObject>('/body/dofs')!.x;
    const v = s.get<mechanics.MechanicalObject>('/body/dofs')!.v;
    const c = s.get<mechanics.MechanicalObject>('/body/copy/c')!;
    const sub = s.get<mechanics.MechanicalObject>('/body/sub/s')!;
    expect(Array.from(c.x)).to.deep.equal(Array.from(x));
    expect(Array.from(c.v)).to.deep.equal(Array.from(v));
    expect(Array.from(sub.x)).to.deep.equal([...x.subarray(6, 9), ...x.subarray(0, 3)]);
    expect(x[1]).to.be.below(0);
  });

  it('isMechanical: false on a visual mapping is what it does (no warning); on a mapping to a mechanical state it is said not to be honoured', async () => {
    const s = await load(`<MechanicalObject name="dofs" position="${cube.position}"/>
      <UniformMass totalMass="1"/>
      <Node name="visu"><OglModel name="model" position="${cube.position}"/><IdentityMapping isMechanical="false" input="@../dofs" output="@model"/></Node>
      <Node name="points"><MechanicalObject/><IdentityMapping name="m" isMechanical="false"/></Node>`);
    s.step();
    const found = s.warnings.map((w) => w.message).filter((m) => /isMechanical/.test(m));
    expect(found.length).to.equal(1);
    expect(found[0]).to.match(/IdentityMapping 'm'.*isMechanical=false is not honoured/);
  });
});
