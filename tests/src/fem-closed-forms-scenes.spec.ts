import { expect } from 'chai';
import { loadSceneFromString, type BaseForceField, type BaseMass, type BaseMechanicalState } from 'sofa-ts';

/**
 * SOFA's remaining FEM force fields through the XML path users take: names, Data, warnings and the
 * closed forms that a scene can show (the kernels' own checks are in their specs).
 */

/** f(x) of a force field (fresh array). */
function forceAt(ff: BaseForceField, x: Float64Array): Float64Array {
  const f = new Float64Array(x.length);
  ff.addForce([f], [x], [new Float64Array(x.length)]);
  return f;
}

describe('FEM force fields in scenes: Data, warnings and closed forms (Euler–Bernoulli, uniform traction, Neo-Hooke)', function () {
  this.timeout(60000);

  it('TriangularFEMForceFieldOptim: loads from XML, warns about a method other than large, reports the principal stresses', async () => {
    const scene = await loadSceneFromString(`<Node name="root" dt="0.01" gravity="0 0 0">
      <MechanicalObject name="dofs" position="0 0 0  2 0 0  0 3 0"/>
      <MeshTopology triangles="0 1 2"/>
      <TriangularFEMForceFieldOptim name="ff" youngModulus="1000" poissonRatio="0.3" method="small" computePrincipalStress="1"/>
    </Node>`);
    expect(scene.warnings.map((w) => w.message).join('\n')).to.match(/method "small"/);
    const ff = scene.get<BaseForceField & { principalStress: Float64Array }>('/ff')!;
    forceAt(ff, Float64Array.of(0, 0, 0, 2.2, 0, 0, 0, 3, 0));
    // SOFA's stored ½σ, σ = −Ê·(0.1, 0.03, 0) in SOFA's sign: the largest magnitude first
    const Eh = 1000 / 0.91;
    expect(ff.principalStress[0]).to.be.closeTo(-0.05 * Eh, 1e-9);
    expect(ff.principalStress[1]).to.be.closeTo(-0.015 * Eh, 1e-9);
  });

  it("TriangularFEMForceFieldOptim: the frame's first axis is AB divided by |AB| (SOFA's Vec::normalize), not AB times 1/|AB|", async () => {
    // AB = (0.6, 1, 0.3) written as 0.1·6: its x/|AB| and x·(1/|AB|) differ in the last bit, and
    // the chaotic TriangularFEMForceFieldOptim.scn follows SOFA's reference only with the division
    const ab = [0.1 * 6, 1, 0.3];
    const scene = await loadSceneFromString(`<Node name="root" dt="0.01" gravity="0 0 0">
      <MechanicalObject name="dofs" position="0 0 0  ${ab.join(' ')}  0 0 1"/>
      <MeshTopology triangles="0 1 2"/>
      <TriangularFEMForceFieldOptim name="ff" youngModulus="1000" poissonRatio="0.3"/>
    </Node>`);
    const ff = scene.get<BaseForceField & { getFrame(e: number): Float64Array }>('/ff')!;
    const norm = Math.sqrt(ab[0] * ab[0] + ab[1] * ab[1] + ab[2] * ab[2]);
    expect(ab[0] / norm).to.not.equal(ab[0] * (1 / norm)); // the case tells the two apart
    expect(Array.from(ff.getFrame(0).subarray(0, 3))).to.deep.equal(ab.map((v) => v / norm));
  });

  it("HexahedronFEMForceFieldAndMass: SOFA's element mass (8/27·ρV in every block), gravity ρV/8 per corner, the stiffness of HexahedronFEMForceField", async () => {
    // one 2 × 3 × 4 box (V = 24) of density 5, g = (0, −10, 0)
    const grid = '<RegularGridTopology name="grid" n="2 2 2" min="0 0 0" max="2 3 4"/><MechanicalObject name="dofs"/>';
    const scene = await loadSceneFromString(`<Node name="root" dt="0.01" gravity="0 -10 0">${grid}
      <HexahedronFEMForceFieldAndMass name="FEM" youngModulus="1000" poissonRatio="0.3" density="5"/></Node>`);
    const plain = await loadSceneFromString(`<Node name="root" dt="0.01" gravity="0 -10 0">${grid}
      <HexahedronFEMForceField name="FEM" youngModulus="1000" poissonRatio="0.3"/></Node>`);
    const mass = scene.get<BaseMass>('/FEM_mass')!;
    expect(mass, 'the companion mass').to.not.equal(undefined);
    const n = 24,
      rhoV = 5 * 24;
    const M = new Float64Array(n * n);
    mass.addMToMatrix({ add: (r, c, v) => (M[r * n + c] += v) }, 1);
    for (let r = 0; r < n; r++)
      for (let c = 0; c < n; c++) expect(M[r * n + c]).to.be.closeTo(r % 3 === c % 3 ? (8 / 27) * rhoV : 0, 1e-12);
    const f = new Float64Array(n);
    mass.addForce(f, new Float64Array(n), new Float64Array(n));
    for (let i = 0; i < 8; i++) expect(f[3 * i + 1]).to.be.closeTo((-10 * rhoV) / 8, 1e-12);
    // same elastic force as HexahedronFEMForceField
    const x = Float64Array.from(scene.get<BaseMechanicalState>('/dofs')!.x);
    for (let i = 0; i < n; i++) x[i] += 0.01 * Math.sin(i);
    const ff = scene.get<BaseForceField>('/FEM')!,
      ref = plain.get<BaseForceField>('/FEM')!;
    const fa = forceAt(ff, x),
      fb = forceAt(ref, x);
    for (let i = 0; i < n; i++) expect(fa[i]).to.be.closeTo(fb[i], 1e-12);
  });

  /** A cantilever of n beams along x (length Ltot), clamped at frame 0, loaded at the tip frame. */
  function cantilever(n: number, Ltot: number, load: string, extra = ''): string {
    const pos: string[] = [],
      lines: string[] = [];
    for (let i = 0; i <= n; i++) pos.push(`${(i * Ltot) / n} 0 0 0 0 0 1`);
    for (let i = 0; i < n; i++) lines.push(`${i} ${i + 1}`);
    return `<Node name="root" gravity="0 0 0" dt="1">
      <StaticSolver/>
      <SparseLDLSolver template="CompressedRowSparseMatrixd"/>
      <MechanicalObject template="Rigid3" name="dofs" position="${pos.join('  ')}"/>
      <MeshTopology name="lines" lines="${lines.join(' ')}"/>
      <FixedProjectiveConstraint indices="0"/>
      <BeamFEMForceField name="FEM" radius="0.05" youngModulus="2e7" poissonRatio="0.3"/>
      <ConstantForceField indices="${n}" forces="${load}"/>
      ${extra}
    </Node>`;
  }

  it('BeamFEMForceField: a cantilever under a tip load matches Euler–Bernoulli (deflection PL³/3EI, slope PL²/2EI), traction PL/EA and torsion TL/GJ', async () => {
    const n = 10,
      L = 2,
      E = 2e7,
      nu = 0.3,
      r = 0.05;
    const I = (Math.PI * r ** 4) / 4,
      A = Math.PI * r * r,
      G = E / (2 * (1 + nu)),
      J = 2 * I;
    const P = 1e-3,
      T = 1e-3;
    const tip = async (load: string): Promise<Float64Array> => {
      const scene = await loadSceneFromString(cantilever(n, L, load));
      scene.step(1);
      const mo = scene.get<BaseMechanicalState>('/dofs')!;
      return mo.x.subarray(7 * n, 7 * n + 7);
    };
    const bend = await tip(`0 ${-P} 0 0 0 0`);
    const dy = -bend[1],
      exact = (P * L ** 3) / (3 * E * I);
    // measured: relative error 6e-13 (the cubic beam element is exact for a tip load), slope 5e-13, axial 1e-8, torsion 2e-15
    expect(Math.abs(dy - exact) / exact).to.be.below(1e-6);
    // slope at the tip: the rotation about −z, 2·q_z for a small angle
    const slope = -2 * Math.asin(bend[5]);
    expect(Math.abs(slope - (P * L * L) / (2 * E * I)) / ((P * L * L) / (2 * E * I))).to.be.below(1e-6);
    const pull = await tip(`${P} 0 0 0 0 0`);
    expect(pull[0] - L).to.be.closeTo((P * L) / (E * A), (1e-9 * (P * L)) / (E * A) + 1e-15);
    const twist = await tip(`0 0 0 ${T} 0 0`);
    const angle = 2 * Math.asin(twist[3]);
    expect(Math.abs(angle - (T * L) / (G * J)) / ((T * L) / (G * J))).to.be.below(1e-6);
  });

  it('BeamLinearMapping and CubeTopology: the surface points of a CubeTopology follow the bent beam', async () => {
    const scene = await loadSceneFromString(
      cantilever(
        4,
        4,
        '0 -0.01 0 0 0 0',
        `<Node name="skin">
        <CubeTopology name="cube" nx="5" ny="3" nz="3" min="0 -0.1 -0.1" max="4 0.1 0.1"/>
        <MechanicalObject name="pts"/>
        <BeamLinearMapping isMechanical="true"/>
      </Node>`,
      ),
    );
    const cube = scene.get<BaseMechanicalState>('/skin/pts')!;
    // 5·3·2 points on the faces z = min, z = max, plus 8 on the middle ring: SOFA's numbering
    expect(cube.size).to.equal(5 * 3 * 2 + (3 - 2) * (2 * 5 + 2 * 3 - 4));
    expect(Array.from(cube.x.subarray(3 * 31, 3 * 31 + 3))).to.deep.equal([1, -0.1, 0]);
    scene.step(1);
    const frames = scene.get<BaseMechanicalState>('/dofs')!.x;
    // a point on the axis-side face at s = 4 (the tip, t = 1 of the last segment) moves with the tip frame
    const tipY = frames[7 * 4 + 1];
    let found = false;
    for (let i = 0; i < cube.size; i++) {
      if (Math.abs(cube.x0[3 * i] - 4) < 1e-12 && Math.abs(cube.x0[3 * i + 1]) < 1e-12 && Math.abs(cube.x0[3 * i + 2] + 0.1) < 1e-12) {
        expect(cube.x[3 * i + 1]).to.be.closeTo(tipY, 1e-12);
        found = true;
      }
    }
    expect(found).to.equal(true);
    expect(tipY).to.be.below(-1e-4);
  });

  it('HexahedralFEMForceField(AndMass): a bar under uniform traction gives E·ε·A at its end, with free lateral contraction (exact for trilinear hexahedra)', async () => {
    for (const name of ['HexahedralFEMForceField', 'HexahedralFEMForceFieldAndMass']) {
      const scene = await loadSceneFromString(`<Node name="root" dt="0.01" gravity="0 0 0">
        <RegularGridTopology name="grid" n="3 3 5" min="0 0 0" max="2 1 4"/>
        <MechanicalObject name="dofs"/>
        <${name} name="FEM" youngModulus="3000" poissonRatio="0.35" method="large"/>
      </Node>`);
      const mo = scene.get<BaseMechanicalState>('/dofs')!,
        X = mo.x0,
        eps = 1e-6,
        nu = 0.35;
      const x = Float64Array.from(X, (c, i) => c * (i % 3 === 2 ? 1 + eps : 1 - nu * eps));
      const f = forceAt(scene.get<BaseForceField>('/FEM')!, x);
      let fz = 0;
      for (let i = 0; i < mo.size; i++) {
        if (X[3 * i + 2] === 4) fz += f[3 * i + 2];
        if (X[3 * i + 2] === 2) for (let c = 0; c < 3; c++) expect(Math.abs(f[3 * i + c]), name).to.be.below(1e-6 * 3000 * eps);
      }
      // σ = E·ε on the end face of area 2·1
      expect(-fz, name).to.be.closeTo(3000 * eps * 2, 1e-6 * 3000 * eps);
    }
  });

  it('StandardTetrahedralFEMForceField: a unit cube stretched by λ along x carries the Neo-Hookean first Piola stress P11 = μ(λ − 1/λ) + κ·ln J/λ on its face', async () => {
    // the cube [0, 1]³ cut in 6 tetrahedra around the diagonal 0–6
    const pts = '0 0 0  1 0 0  1 1 0  0 1 0  0 0 1  1 0 1  1 1 1  0 1 1';
    const tets = '0 1 2 6  0 2 3 6  0 3 7 6  0 7 4 6  0 4 5 6  0 5 1 6';
    const scene = await loadSceneFromString(`<Node name="root" dt="0.01" gravity="0 0 0">
      <MechanicalObject name="dofs" position="${pts}"/>
      <MeshTopology tetrahedra="${tets}"/>
      <StandardTetrahedralFEMForceField name="FEM" materialName="NeoHookean" ParameterSet="300 2000" ParameterFile="old.param"/>
    </Node>`);
    expect(scene.warnings.map((w) => w.message).join('\n')).to.match(/ParameterFile 'old.param' is not read/);
    const mu = 300,
      k = 2000,
      l = 1.3;
    const X = scene.get<BaseMechanicalState>('/dofs')!.x0;
    const x = Float64Array.from(X, (c, i) => (i % 3 === 0 ? c * l : c));
    const f = forceAt(scene.get<BaseForceField>('/FEM')!, x);
    let fx = 0;
    for (let i = 0; i < 8; i++) if (X[3 * i] === 1) fx += f[3 * i];
    // W = μ/2(I1 − 3) − μ ln J + κ/2 ln²J with J = λ: P11 = ∂W/∂λ = μλ − μ/λ + κ ln λ/λ
    expect(-fx).to.be.closeTo(mu * l - mu / l + (k * Math.log(l)) / l, 1e-9 * mu);
    await loadSceneFromString(`<Node name="root"><MechanicalObject position="${pts}"/><MeshTopology tetrahedra="${tets}"/>
      <StandardTetrahedralFEMForceField materialName="StableNeoHookean" ParameterSet="1 2"/></Node>`).then(
      () => expect.fail('StableNeoHookean accepted'),
      (e: Error) => expect(e.message).to.match(/has no material 'StableNeoHookean'/),
    );
  });
});
