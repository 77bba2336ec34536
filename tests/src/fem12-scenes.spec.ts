import { expect } from 'chai';
import { loadSceneFromString, type BaseForceField } from 'sofa-ts';

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
});
