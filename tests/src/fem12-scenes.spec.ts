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

describe('FEM force fields of issue 12 in scenes', function () {
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

  it('HexahedronFEMForceFieldAndMass: SOFA\'s element mass (8/27·ρV in every block), gravity ρV/8 per corner, the stiffness of HexahedronFEMForceField', async () => {
    // one 2 × 3 × 4 box (V = 24) of density 5, g = (0, −10, 0)
    const grid = '<RegularGridTopology name="grid" n="2 2 2" min="0 0 0" max="2 3 4"/><MechanicalObject name="dofs"/>';
    const scene = await loadSceneFromString(`<Node name="root" dt="0.01" gravity="0 -10 0">${grid}
      <HexahedronFEMForceFieldAndMass name="FEM" youngModulus="1000" poissonRatio="0.3" density="5"/></Node>`);
    const plain = await loadSceneFromString(`<Node name="root" dt="0.01" gravity="0 -10 0">${grid}
      <HexahedronFEMForceField name="FEM" youngModulus="1000" poissonRatio="0.3"/></Node>`);
    const mass = scene.get<BaseMass>('/FEM_mass')!;
    expect(mass, 'the companion mass').to.not.equal(undefined);
    const n = 24, rhoV = 5 * 24;
    const M = new Float64Array(n * n);
    mass.addMToMatrix({ add: (r, c, v) => (M[r * n + c] += v) }, 1);
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) expect(M[r * n + c]).to.be.closeTo(r % 3 === c % 3 ? (8 / 27) * rhoV : 0, 1e-12);
    const f = new Float64Array(n);
    mass.addForce(f, new Float64Array(n), new Float64Array(n));
    for (let i = 0; i < 8; i++) expect(f[3 * i + 1]).to.be.closeTo((-10 * rhoV) / 8, 1e-12);
    // same elastic force as HexahedronFEMForceField
    const x = Float64Array.from(scene.get<BaseMechanicalState>('/dofs')!.x);
    for (let i = 0; i < n; i++) x[i] += 0.01 * Math.sin(i);
    const ff = scene.get<BaseForceField>('/FEM')!, ref = plain.get<BaseForceField>('/FEM')!;
    const fa = forceAt(ff, x), fb = forceAt(ref, x);
    for (let i = 0; i < n; i++) expect(fa[i]).to.be.closeTo(fb[i]!, 1e-12);
  });
});
