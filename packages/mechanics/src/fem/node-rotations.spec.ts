import { expect } from 'chai';
import { boxGrid, femScene, forceAt, randomRotation, rng, transform } from './fem-test-support.js';
import { HexahedronFEMForceField } from './hexahedron/HexahedronFEMForceField.js';
import { TetrahedronFEMForceField } from './tetrahedron/TetrahedronFEMForceField.js';
import { tetrahedraFromHexahedra } from './volume-elasticity.js';

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
      for (let i = 0; i < n; i++) for (let k = 0; k < 9; k++) expect(out[9 * i + k]!).to.be.closeTo(Q[k]!, 1e-12);
      // (the edge frame of a tetrahedron turns under a non-uniform stretch: a uniform one for them)
      const s = 'uniform' in c ? [1.1, 1.1, 1.1] : [1.1, 0.95, 1.2];
      forceAt(
        ff,
        Float64Array.from(mo.x0, (v, k) => v * s[k % 3]!),
      );
      ff.getNodeRotations(out);
      for (let i = 0; i < n; i++) for (let k = 0; k < 9; k++) expect(out[9 * i + k]!).to.be.closeTo(k % 4 === 0 ? 1 : 0, 1e-12);
    });
  }
});
