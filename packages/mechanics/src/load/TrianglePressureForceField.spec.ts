import { expect } from 'chai';
import { TrianglePressureForceField } from './TrianglePressureForceField.js';
import { buildNode, StubTopology } from '../mass/mesh-test-support.js';

/** Two right triangles of the unit square at z = 0 (areas 1/2 each) and one of area 2 at z = 1. */
const PTS = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 2, 0, 1, 0, 2, 1];
const TRIS = [0, 1, 2, 0, 2, 3, 4, 5, 6];

describe('TrianglePressureForceField', () => {
  it('puts pressure × rest area on the listed triangles, a third on each vertex', () => {
    const p = new TrianglePressureForceField();
    p.pressure.value = Float64Array.of(0, 0, -3);
    p.triangleList.value = Uint32Array.of(0, 2);
    buildNode(PTS, new StubTopology(7, { triangles: TRIS }), [p]);
    const x = Float64Array.from(PTS);
    // moving the points does not change the force (it is measured on the rest areas)
    x[5] = 0.3;
    const f = new Float64Array(x.length);
    p.addForce([f], [x], [new Float64Array(x.length)]);
    // triangle 0: −3·½ → −½ per vertex (0, 1, 2); triangle 2: −3·2 → −2 per vertex (4, 5, 6)
    const fz = [0, 1, 2, 3, 4, 5, 6].map((i) => f[3 * i + 2]);
    expect(fz).to.deep.equal([-0.5, -0.5, -0.5, 0, -2, -2, -2]);
    let total = 0;
    for (let i = 0; i < f.length; i += 3) total += f[i + 2];
    expect(total).to.be.closeTo(-3 * (0.5 + 2), 1e-15);
  });

  it('with useConstantForce false applies σ·n·A/3 per vertex on the current shape', () => {
    const p = new TrianglePressureForceField();
    p.useConstantForce.value = false;
    // σ = diag(0, 0, 5): a traction 5·n_z on the unit-square triangles (n = +z, area ½)
    p.cauchyStress.value = Float64Array.of(0, 0, 0, 0, 0, 5);
    p.triangleList.value = Uint32Array.of(0);
    buildNode(PTS, new StubTopology(7, { triangles: TRIS }), [p]);
    const x = Float64Array.from(PTS);
    const f = new Float64Array(x.length);
    p.addForce([f], [x], [new Float64Array(x.length)]);
    for (const i of [0, 1, 2]) expect(f[3 * i + 2]).to.be.closeTo((5 * 0.5) / 3, 1e-15);
  });
});
