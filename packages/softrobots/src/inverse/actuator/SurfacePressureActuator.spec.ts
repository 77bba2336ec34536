import { expect } from 'chai';
import { Vec3d } from '@sofa-ts/core';
import { ACTUATOR, InverseRows } from '../inverse-rows.js';
import { jacobian, jacobianError, mount, rng, TestState, violation } from '../test-support.js';
import { SurfacePressureActuator } from './SurfacePressureActuator.js';

/**
 * SurfacePressureActuator on small cavities: the volume growth against the closed form of a
 * tetrahedron (V = a·(b × c)/6 for a corner at the origin), its row against central finite
 * differences of the violation (tetrahedron, a non-planar hexahedral box of quads, faces inwards
 * with flipNormal), and the bounds and outputs it hands to the solver.
 */

/** Tetrahedron a = 0, b = e_x, c = e_y, d = e_z; faces with outward normals, and inward. */
const TET = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1];
const OUTWARD = '0 2 1  0 1 3  0 3 2  1 2 3';
const INWARD = '0 1 2  0 3 1  0 2 3  1 3 2';

/** Unit cube corners (i, j, k) at i + 2j + 4k, jittered; its six quads with outward normals. */
function jitteredCube(seed: number): number[] {
  const r = rng(seed);
  const x: number[] = [];
  for (let k = 0; k < 2; k++)
    for (let j = 0; j < 2; j++) for (let i = 0; i < 2; i++) x.push(i + 0.2 * (r() - 0.5), j + 0.2 * (r() - 0.5), k + 0.2 * (r() - 0.5));
  return x;
}
const CUBE_QUADS = '0 2 3 1  4 5 7 6  0 1 5 4  2 6 7 3  0 4 6 2  1 3 7 5';

function actuator(x: number[], faces: string, attrs: Record<string, string> = {}): { c: SurfacePressureActuator; s: TestState } {
  const c = new SurfacePressureActuator();
  c.triangles.read(faces);
  for (const [k, v] of Object.entries(attrs)) c.findData(k)!.read(v);
  const s = new TestState(Vec3d, x);
  return { c: mount(c, s), s };
}

describe('softrobots: SurfacePressureActuator (unit)', () => {
  it('V₀ of the unit tetrahedron is 1/6; δ_free = d_z/6 − 1/6 when the apex rises', () => {
    const { c, s } = actuator(TET, OUTWARD);
    expect(c.initialCavityVolume.value).to.be.closeTo(1 / 6, 1e-15);
    jacobian(c, s);
    s.xFree[11] = 1.3;
    s.xFree[9] = 0.4; // sliding the apex parallel to the base does not change the volume
    expect(violation(c, 1)[0]).to.be.closeTo(1.3 / 6 - 1 / 6, 1e-15);
  });

  it('its row is ∂δ/∂x at the free positions (central differences): tetrahedron, jittered box of quads, inward faces with flipNormal', () => {
    const r = rng(7);
    const jitter = (x: Float64Array): void => {
      for (let i = 0; i < x.length; i++) x[i] += 0.1 * (r() - 0.5);
    };
    const cases: Array<{ x: number[]; tri?: string; quads?: string; flip?: boolean }> = [
      { x: TET.slice(), tri: OUTWARD },
      { x: TET.slice(), tri: INWARD, flip: true },
      { x: jitteredCube(3), quads: CUBE_QUADS },
    ];
    for (const k of cases) {
      const c = new SurfacePressureActuator();
      if (k.tri) c.triangles.read(k.tri);
      if (k.quads) c.quads.read(k.quads);
      if (k.flip) c.flipNormal.value = true;
      const s = new TestState(Vec3d, k.x);
      mount(c, s);
      jitter(s.xFree);
      expect(jacobianError(c, s, 1e-6)).to.be.at.most(1e-8);
      // growth positive when the cavity inflates along its row
      const J = jacobian(c, s)[0];
      const d0 = violation(c, 1)[0];
      for (let i = 0; i < J.length; i++) s.xFree[i] += 1e-3 * J[i];
      expect(violation(c, 1)[0]).to.be.greaterThan(d0);
    }
  });

  it('hands the solver its bounds: pressure, volume growth, and the variations around the last step', () => {
    const rows = new InverseRows();
    rows.reset(1);
    const { c } = actuator(TET, OUTWARD, {
      minPressure: '0',
      maxPressure: '5',
      minVolumeGrowth: '-0.01',
      maxVolumeGrowth: '0.2',
      epsilon: '0.5',
    });
    c.getInverseRows(rows);
    expect(rows.role[0]).to.equal(ACTUATOR);
    expect([rows.lambdaMin[0], rows.lambdaMax[0], rows.deltaMin[0], rows.deltaMax[0], rows.epsilon[0]]).to.deep.equal([
      0, 5, -0.01, 0.2, 0.5,
    ]);

    rows.reset(1);
    const { c: free } = actuator(TET, OUTWARD);
    free.getInverseRows(rows);
    expect([rows.lambdaMin[0], rows.lambdaMax[0], rows.deltaMin[0], rows.deltaMax[0]]).to.deep.equal([
      -Infinity,
      Infinity,
      -Infinity,
      Infinity,
    ]);
    expect(Number.isNaN(rows.epsilon[0])).to.equal(true);

    rows.reset(1);
    const { c: v } = actuator(TET, OUTWARD, {
      maxPressure: '5',
      maxPressureVariation: '1',
      maxVolumeGrowth: '0.2',
      maxVolumeGrowthVariation: '0.05',
    });
    v.storeResults(Float64Array.of(4.5), Float64Array.of(0.1), 0.5);
    expect(v.pressure.value).to.equal(4.5);
    expect(v.physicalPressure.value).to.equal(9);
    expect(v.volumeGrowth.value).to.equal(0.1);
    v.getInverseRows(rows);
    expect([rows.lambdaMin[0], rows.lambdaMax[0]]).to.deep.equal([3.5, 5]);
    expect(rows.deltaMin[0]).to.be.closeTo(0.05, 1e-15);
    expect(rows.deltaMax[0]).to.be.closeTo(0.15, 1e-15);
  });

  it('refuses a face point out of range and a direct solve', () => {
    expect(() => actuator(TET, '0 1 9')).to.throw(/out of range/);
    const { c } = actuator(TET, OUTWARD);
    expect(() => c.getConstraintResolution([])).to.throw(/inverse problem solver/);
  });
});
