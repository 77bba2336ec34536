import { expect } from 'chai';
import { boxGrid, femScene, forceAt, randomRotation, rng, transform } from './fem-test-support.js';
import { HexahedronFEMForceField } from './hexahedron/HexahedronFEMForceField.js';
import { TetrahedronFEMForceField } from './tetrahedron/TetrahedronFEMForceField.js';
import { tetrahedraFromHexahedra } from './volume-elasticity.js';
import { nearRotationPolar } from './node-rotations.js';
import { polarDecompositionStable } from './polar-decomposition.js';

/**
 * The node rotations HexahedronFEMForceField and TetrahedronFEMForceField give as SOFA's
 * BaseRotationFinder (getRotations, read by RotationMatrixSystem / WarpPreconditioner): a rigid
 * motion x = Q·X + t turns every node by Q; a stretch along the axes turns none.
 */
describe('node rotations of the corotational force fields (BaseRotationFinder)', () => {
  const r = rng(41);
  const { points, hexa } = boxGrid([3, 3, 4], [1, 1.5, 2]);
  const cases = [
    { label: 'HexahedronFEMForceField (large)', make: () => ({ ff: new HexahedronFEMForceField(), topo: { hexa } }) },
    {
      label: 'HexahedronFEMForceField (polar)',
      make: () => {
        const ff = new HexahedronFEMForceField();
        ff.method.value = 'polar';
        return { ff, topo: { hexa } };
      },
    },
    {
      label: 'TetrahedronFEMForceField (large)',
      make: () => ({ ff: new TetrahedronFEMForceField(), topo: { tets: tetrahedraFromHexahedra(hexa, 2, 2) } }),
      uniform: true,
    },
  ];
  for (const c of cases) {
    it(`${c.label}: every node turns by Q under a rigid motion, by I under an axis stretch (uniform for tetrahedra)`, () => {
      const { ff, topo } = c.make();
      const { mo } = femScene(points, topo, ff);
      const n = mo.size;
      const out = new Float64Array(9 * n);
      const Q = randomRotation(r);
      forceAt(ff, transform(mo.x0, Q, [0.3, -1, 2]));
      ff.getNodeRotations(out);
      for (let i = 0; i < n; i++) for (let k = 0; k < 9; k++) expect(out[9 * i + k]).to.be.closeTo(Q[k], 1e-12);
      // (the edge frame of a tetrahedron turns under a non-uniform stretch: a uniform one for them)
      const s = 'uniform' in c ? [1.1, 1.1, 1.1] : [1.1, 0.95, 1.2];
      forceAt(
        ff,
        Float64Array.from(mo.x0, (v, k) => v * s[k % 3]),
      );
      ff.getNodeRotations(out);
      for (let i = 0; i < n; i++) for (let k = 0; k < 9; k++) expect(out[9 * i + k]).to.be.closeTo(k % 4 === 0 ? 1 : 0, 1e-12);
    });
  }

  it('nearRotationPolar: the polar factor of a sum of nearby rotations is the SVD one (1e-14); matrices far from a rotation are left to the SVD', () => {
    const q = new Float64Array(9),
      ref = new Float64Array(9);
    for (let t = 0; t < 50; t++) {
      // Σ of 1..8 rotations within about 0.3 rad of a random one
      const base = randomRotation(r);
      const m = new Float64Array(9);
      const count = 1 + (t % 8);
      for (let c = 0; c < count; c++) {
        const d = smallRotation(r, 0.3);
        for (let i = 0; i < 3; i++)
          for (let j = 0; j < 3; j++) m[3 * i + j] += base[3 * i] * d[j] + base[3 * i + 1] * d[3 + j] + base[3 * i + 2] * d[6 + j];
      }
      expect(nearRotationPolar(q, m), `case ${t}`).to.equal(true);
      polarDecompositionStable(ref, m);
      for (let k = 0; k < 9; k++) expect(q[k]).to.be.closeTo(ref[k], 1e-14);
    }
    expect(nearRotationPolar(q, [1, 0, 0, 0, 1, 0, 0, 0, 0.2])).to.equal(false);
    expect(nearRotationPolar(q, [1, 0.9, 0, 0, 1, 0, 0, 0, 1])).to.equal(false);
    expect(nearRotationPolar(q, [0, 0, 0, 0, 0, 0, 0, 0, 0])).to.equal(false);
  });
});

/** A rotation by an angle up to maxAngle about a random axis (Rodrigues). */
function smallRotation(r: () => number, maxAngle: number): Float64Array {
  const u = [2 * r() - 1, 2 * r() - 1, 2 * r() - 1];
  const l = Math.hypot(u[0], u[1], u[2]) || 1;
  const [x, y, z] = u.map((v) => v / l) as [number, number, number];
  const a = maxAngle * r(),
    c = Math.cos(a),
    s = Math.sin(a),
    t = 1 - c;
  return Float64Array.of(
    t * x * x + c,
    t * x * y - s * z,
    t * x * z + s * y,
    t * x * y + s * z,
    t * y * y + c,
    t * y * z - s * x,
    t * x * z - s * y,
    t * y * z + s * x,
    t * z * z + c,
  );
}
