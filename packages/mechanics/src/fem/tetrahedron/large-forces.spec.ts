import { expect } from 'chai';
import { boxGrid, femScene, forceAt, rng } from '../fem-test-support.js';
import { TetrahedronFEMForceField } from './TetrahedronFEMForceField.js';

/** 3×3×3 cubes split in 162 tetrahedra ('large'), with the options that pick each path of addForce. */
function largeField(kernel: 'auto' | 'js', plasticity: boolean) {
  const { points, hexa, grid } = boxGrid([4, 4, 4], [1, 1, 1]);
  return femScene(points, { hexa, grid }, new TetrahedronFEMForceField(), (ff) => {
    ff.method.value = 'large';
    ff.youngModulus.value = Float64Array.of(3000);
    ff.poissonRatio.value = Float64Array.of(0.35);
    ff.productKernel = kernel;
    // plasticity that never acts (no strain reaches the yield threshold, no clamp): the general element loop
    if (plasticity) {
      ff.plasticMaxThreshold.value = 1e300;
      ff.plasticYieldThreshold.value = 1e300;
    }
  }).ff;
}

describe("CorotationalTetrahedra, the three writings of the 'large' force", () => {
  it('the element loop, the loop on locals (addLargeForces) and the WebAssembly kernel give the same forces and rotations bit for bit', () => {
    const general = largeField('js', true);
    const locals = largeField('js', false);
    const wasm = largeField('auto', false);
    const r = rng(7);
    const x = Float64Array.from(general.initialPoints.value, (v) => v + 0.08 * (r() - 0.5));
    const fields = [general, locals, wasm];
    const forces = fields.map((ff) => forceAt(ff, x));
    // the WebAssembly kernel ran (it is available on Node 20) and the forces are not trivial
    expect(wasm.inPlaceDForce()).to.not.equal(undefined);
    expect(locals.inPlaceDForce()).to.equal(undefined);
    expect(forces[0].some((v) => Math.abs(v) > 1)).to.equal(true);
    for (const f of forces.slice(1)) expect(f.every((v, i) => Object.is(v, forces[0][i]))).to.equal(true);
    const R = new Float64Array(9),
      R0 = new Float64Array(9);
    for (let e = 0; e < general.elementCount; e++) {
      general.getElementRotation(R0, e);
      for (const ff of fields.slice(1)) expect(ff.getElementRotation(R, e).every((v, k) => Object.is(v, R0[k]))).to.equal(true);
    }
  });
});
