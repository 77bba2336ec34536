import { expect } from 'chai';
import { det, inv, multiply, transpose } from 'mathjs';
import type { TetrahedronMethod } from './corotational-tetrahedra.js';
import {
  boxGrid,
  denseK,
  femScene,
  finiteDifferenceK,
  forceAt,
  maxAbs,
  maxAbsDiff,
  randomRotation,
  rng,
  rotateVectors,
  transform,
} from '../fem-test-support.js';
import { TetrahedralCorotationalFEMForceField } from './TetrahedralCorotationalFEMForceField.js';
import { TetrahedronFEMForceField } from './TetrahedronFEMForceField.js';
import { Node, upperBlockIndex } from '@sofa-ts/core';
import { MechanicalObject } from '../../MechanicalObject.js';
import { TestTopology } from '../fem-test-support.js';
import { tetrahedraFromHexahedra } from '../volume-elasticity.js';

const E = 1000;
const NU = 0.3;

/** A 1×1×2 bar of two unit cubes, split in 12 tetrahedra by the force field (hexahedral topology). */
function barScene(method: TetrahedronMethod, young = E, nu = NU) {
  const { points, hexa, grid } = boxGrid([2, 2, 3], [1, 1, 2]);
  return femScene(points, { hexa, grid }, new TetrahedronFEMForceField(), (ff) => {
    ff.method.value = method;
    ff.youngModulus.value = Float64Array.of(young);
    ff.poissonRatio.value = Float64Array.of(nu);
  });
}

/** V·Bᵀ·D·B of one linear tetrahedron, built densely with mathjs from the shape functions. */
function oracleStiffness(p: number[][], young: number, nu: number): number[][] {
  const P = p.map((q) => [1, q[0], q[1], q[2]]);
  const C = inv(P) as number[][]; // N_i = Σ_k C[k][i]·(1, x, y, z)_k
  const V = Math.abs(det(P) as number) / 6;
  const B: number[][] = Array.from({ length: 6 }, () => new Array<number>(12).fill(0));
  for (let i = 0; i < 4; i++) {
    const [gx, gy, gz] = [C[1][i], C[2][i], C[3][i]];
    // Voigt order εxx εyy εzz γxy γyz γzx
    B[0][3 * i] = gx;
    B[1][3 * i + 1] = gy;
    B[2][3 * i + 2] = gz;
    B[3][3 * i] = gy;
    B[3][3 * i + 1] = gx;
    B[4][3 * i + 1] = gz;
    B[4][3 * i + 2] = gy;
    B[5][3 * i] = gz;
    B[5][3 * i + 2] = gx;
  }
  const lambda = (young * nu) / ((1 + nu) * (1 - 2 * nu));
  const mu = young / (2 * (1 + nu));
  const D = Array.from({ length: 6 }, (_, r) =>
    Array.from({ length: 6 }, (_, c) => (r < 3 && c < 3 ? (r === c ? lambda + 2 * mu : lambda) : r === c ? mu : 0)),
  );
  return (multiply(multiply(transpose(B), D), B) as number[][]).map((row) => row.map((v) => v * V));
}

describe('TetrahedronFEMForceField', () => {
  const r = rng(7);

  it('one tetrahedron, small: K = −V·BᵀDB (dense mathjs oracle) and f = K·u', () => {
    const p = [
      [0.1, -0.2, 0.05],
      [1.3, 0.1, -0.1],
      [0.2, 0.9, 0.3],
      [-0.1, 0.2, 1.1],
    ];
    const points = Float64Array.from(p.flat());
    const { ff } = femScene(points, { tets: Uint32Array.of(0, 1, 2, 3) }, new TetrahedronFEMForceField(), (f) => {
      f.method.value = 'small';
      f.youngModulus.value = Float64Array.of(E);
      f.poissonRatio.value = Float64Array.of(NU);
    });
    const Ko = oracleStiffness(p, E, NU).flat();
    const K = denseK(ff, 12);
    const scale = maxAbs(Ko);
    expect(
      maxAbsDiff(
        K,
        Ko.map((v) => -v),
      ) / scale,
    ).to.be.below(1e-12);
    const u = Float64Array.from({ length: 12 }, () => 0.01 * (r() - 0.5));
    const f = forceAt(
      ff,
      Float64Array.from(points, (v, i) => v + u[i]),
    );
    const Ku = Array.from({ length: 12 }, (_, i) => Ko.slice(12 * i, 12 * i + 12).reduce((s, k, j) => s - k * u[j], 0));
    expect(maxAbsDiff(f, Ku) / maxAbs(Ku)).to.be.below(1e-10);
  });

  it('one tetrahedron: the stiffness is the same for every method at rest', () => {
    const points = Float64Array.of(0, 0, 0, 1, 0.1, 0, 0.2, 1, 0, 0.1, 0.3, 1);
    const ref = denseK(
      femScene(points, { tets: Uint32Array.of(0, 1, 2, 3) }, new TetrahedronFEMForceField(), (f) => (f.method.value = 'small')).ff,
      12,
    );
    for (const m of ['large', 'polar', 'svd'] as const) {
      const { ff } = femScene(points, { tets: Uint32Array.of(0, 1, 2, 3) }, new TetrahedronFEMForceField(), (f) => (f.method.value = m));
      forceAt(ff, points);
      expect(maxAbsDiff(denseK(ff, 12), ref) / maxAbs(ref), m).to.be.below(1e-12);
    }
  });

  for (const method of ['small', 'large', 'polar', 'svd'] as const) {
    describe(`method ${method}`, () => {
      it('f is zero at rest and at rigidly moved rest shapes', () => {
        const { ff, mo } = barScene(method);
        expect(maxAbs(forceAt(ff, mo.x0))).to.be.below(1e-10);
        if (method === 'small') return;
        const moved = transform(mo.x0, randomRotation(r), [0.3, -2, 5]);
        expect(maxAbs(forceAt(ff, moved))).to.be.below(1e-9);
      });

      it('K equals central finite differences of f at rotated rest shapes', () => {
        const { ff, mo } = barScene(method);
        const x =
          method === 'small' ? Float64Array.from(mo.x0, (v) => v + 0.05 * (r() - 0.5)) : transform(mo.x0, randomRotation(r), [1, 2, 3]);
        const fd = finiteDifferenceK(ff, x, 1e-6);
        const K = denseK(ff, x.length);
        expect(maxAbsDiff(K, fd) / maxAbs(fd)).to.be.below(1e-6);
      });

      it('K matches finite differences up to O(strain) at deformed and rotated shapes (rest stiffness, no dR/dx)', () => {
        const { ff, mo } = barScene(method);
        const strain = 1e-4;
        const x = transform(
          Float64Array.from(mo.x0, (v) => v + strain * (r() - 0.5)),
          randomRotation(r),
          [0, 1, 0],
        );
        const fd = finiteDifferenceK(ff, x, 1e-7);
        const K = denseK(ff, x.length);
        expect(maxAbsDiff(K, fd) / maxAbs(fd)).to.be.below(method === 'small' ? 1e-6 : 20 * strain);
      });

      it('addDForce gives (k + b·rayleighStiffness)·K·dx with the rotations of the last addForce', () => {
        const { ff, mo } = barScene(method);
        ff.rayleighStiffness.value = 0.1;
        const x = transform(
          Float64Array.from(mo.x0, (v) => v + 0.1 * (r() - 0.5)),
          randomRotation(r),
          [0, 0, 1],
        );
        forceAt(ff, x);
        const n = x.length;
        const K = denseK(ff, n);
        const dx = Float64Array.from({ length: n }, () => r() - 0.5);
        const df = new Float64Array(n);
        ff.addDForce([df], [dx], 2, 3);
        const expected = Array.from(
          { length: n },
          (_, i) => (2 + 3 * 0.1) * K.slice(i * n, i * n + n).reduce((s, k, j) => s + k * dx[j], 0),
        );
        expect(maxAbsDiff(df, expected) / maxAbs(expected)).to.be.below(1e-12);
      });

      it('element stiffness matrices are symmetric (also rotated)', () => {
        const { ff, mo } = barScene(method);
        forceAt(
          ff,
          transform(
            Float64Array.from(mo.x0, (v) => v + 0.1 * (r() - 0.5)),
            randomRotation(r),
            [0, 0, 0],
          ),
        );
        const K = new Float64Array(144);
        for (let e = 0; e < ff.elementCount; e++) {
          ff.elementStiffness(K, e);
          const s = maxAbs(K);
          for (let i = 0; i < 12; i++) for (let j = 0; j < i; j++) expect(Math.abs(K[12 * i + j] - K[12 * j + i]) / s).to.be.below(1e-13);
        }
      });

      if (method !== 'small') {
        it('f rotates with a rigid rotation of a deformed configuration', () => {
          const { ff, mo } = barScene(method);
          const x = Float64Array.from(mo.x0, (v) => v + 0.1 * (r() - 0.5));
          const f = forceAt(ff, x);
          const R = randomRotation(r);
          const fr = forceAt(ff, transform(x, R, [4, -1, 2]));
          expect(maxAbsDiff(fr, rotateVectors(f, R)) / maxAbs(f)).to.be.below(1e-10);
        });
      }

      it('a bar under uniaxial traction: end force = E·strain·area', () => {
        // homogeneous uniaxial stress along z: u = ε·(−ν x, −ν y, z)
        const eps = 1e-6;
        const { ff, mo } = barScene(method);
        const x = new Float64Array(mo.x0.length);
        for (let i = 0; i < x.length; i += 3) {
          x[i] = mo.x0[i] * (1 - NU * eps);
          x[i + 1] = mo.x0[i + 1] * (1 - NU * eps);
          x[i + 2] = mo.x0[i + 2] * (1 + eps);
        }
        const f = forceAt(ff, x);
        let top = 0,
          bottom = 0,
          lateral = 0;
        for (let i = 0; i < x.length; i += 3) {
          if (mo.x0[i + 2] === 2) top += f[i + 2];
          else if (mo.x0[i + 2] === 0) bottom += f[i + 2];
          else expect(Math.abs(f[i + 2])).to.be.below(1e-9 * E * eps);
          lateral = Math.max(lateral, Math.abs(f[i]), Math.abs(f[i + 1]));
        }
        const expected = E * eps * 1; // area 1×1
        expect(Math.abs(-top - expected) / expected).to.be.below(1e-4);
        expect(Math.abs(bottom - expected) / expected).to.be.below(1e-4);
        expect(lateral / expected).to.be.below(1e-4);
      });
    });
  }

  it('von Mises stress of a uniaxial stress state is E·strain (modes 1 and 2), per element and per node', () => {
    // Mode 1 applies the rest shape functions (world axes) to D in the element frame, as SOFA does:
    // exact for elements whose rest frame is the world frame, as the corner tetrahedron below.
    const eps = 1e-4;
    const corner = Float64Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1);
    const bar = boxGrid([2, 2, 3], [1, 1, 2]);
    for (const [method, mode] of [
      ['small', 2],
      ['large', 1],
      ['polar', 1],
      ['svd', 1],
    ] as const) {
      const points = mode === 1 ? corner : bar.points;
      const topo = mode === 1 ? { tets: Uint32Array.of(0, 1, 2, 3) } : { hexa: bar.hexa, grid: bar.grid };
      const { ff, mo } = femScene(points, topo, new TetrahedronFEMForceField(), (f) => {
        f.method.value = method;
        f.youngModulus.value = Float64Array.of(E);
        f.poissonRatio.value = Float64Array.of(NU);
        f.computeVonMisesStress.value = mode;
      });
      expect(maxAbs(ff.vonMisesPerElement.value)).to.equal(0);
      const stretched = Float64Array.from(mo.x0, (v, i) => (i % 3 === 2 ? v * (1 + eps) : v * (1 - NU * eps)));
      const x = mode === 1 ? transform(stretched, randomRotation(r), [1, 2, 3]) : stretched;
      ff.updateVonMises(x);
      for (const v of ff.vonMisesPerElement.value) expect(Math.abs(v - E * eps) / (E * eps), `${method} ${mode}`).to.be.below(1e-3);
      for (const v of ff.vonMisesPerNode.value) expect(Math.abs(v - E * eps) / (E * eps)).to.be.below(1e-3);
    }
  });

  it('computeVonMisesStress=1 with the small method is refused (as SOFA invalidates it)', () => {
    const { points, hexa, grid } = boxGrid([2, 2, 3], [1, 1, 2]);
    expect(() =>
      femScene(points, { hexa, grid }, new TetrahedronFEMForceField(), (f) => {
        f.method.value = 'small';
        f.computeVonMisesStress.value = 1;
      }),
    ).to.throw(/computeVonMisesStress=1/);
  });

  it('hexahedra are split in 6 tetrahedra per cube, filling the cube', () => {
    const { points, hexa } = boxGrid([3, 3, 3], [2, 2, 2]);
    const tets = tetrahedraFromHexahedra(hexa, 2, 2);
    expect(tets.length).to.equal(8 * 6 * 4);
    let vol = 0;
    for (let t = 0; t < tets.length; t += 4) {
      const q = [0, 1, 2, 3].map((k) => [points[3 * tets[t + k]], points[3 * tets[t + k] + 1], points[3 * tets[t + k] + 2]]);
      const v =
        Math.abs(det([q[1].map((c, i) => c - q[0][i]), q[2].map((c, i) => c - q[0][i]), q[3].map((c, i) => c - q[0][i])]) as number) / 6;
      expect(v).to.be.above(0.1);
      vol += v;
    }
    expect(vol).to.be.closeTo(8, 1e-12);
  });

  it('youngModulus per element and localStiffnessFactor scale the element stiffness', () => {
    const base = barScene('large');
    const K0 = new Float64Array(144);
    base.ff.elementStiffness(K0, 5);
    const { points, hexa, grid } = boxGrid([2, 2, 3], [1, 1, 2]);
    const young = Float64Array.from({ length: 12 }, (_, i) => E * (i + 1));
    const { ff } = femScene(points, { hexa, grid }, new TetrahedronFEMForceField(), (f) => {
      f.youngModulus.value = young;
      f.poissonRatio.value = Float64Array.of(NU);
      f.localStiffnessFactor.value = Float64Array.of(1, 10); // elements 0-5 ×1, 6-11 ×10
    });
    const K = new Float64Array(144);
    ff.elementStiffness(K, 5);
    expect(
      maxAbsDiff(
        K,
        K0.map((v) => v * 6),
      ),
    ).to.be.below(1e-9 * maxAbs(K));
    ff.elementStiffness(K, 7);
    base.ff.elementStiffness(K0, 7);
    expect(
      maxAbsDiff(
        K,
        K0.map((v) => v * 80),
      ),
    ).to.be.below(1e-9 * maxAbs(K));
  });

  it('plasticity: the plastic strain creeps and stays within plasticMaxThreshold', () => {
    const { ff, mo } = barScene('small');
    // SOFA's strain here is Jᵀ·D = 6V·ε (6V = 1 for these tetrahedra): ‖ε‖ ≈ 0.05
    ff.plasticMaxThreshold.value = 0.1;
    ff.plasticYieldThreshold.value = 1e-4;
    ff.plasticCreep.value = 0.5;
    const x = Float64Array.from(mo.x0, (v, i) => (i % 3 === 2 ? v * 1.05 : v));
    const norms: number[] = [];
    for (let s = 0; s < 5; s++) norms.push(maxAbs(forceAt(ff, x)));
    // creep: the elastic part halves at each evaluation
    for (let s = 1; s < 5; s++) expect(norms[s] / norms[s - 1]).to.be.closeTo(0.5, 1e-9);
    // a smaller ceiling stops the creep: the force stays that of (total − clamped plastic) strain
    ff.reset();
    ff.plasticMaxThreshold.value = 0.01;
    const clamped: number[] = [];
    for (let s = 0; s < 5; s++) clamped.push(maxAbs(forceAt(ff, x)));
    expect(clamped[4]).to.be.closeTo(clamped[1], 1e-9 * clamped[1]);
    expect(clamped[4]).to.be.above(0.5 * norms[0]);
    ff.plasticMaxThreshold.value = 0.1;
    ff.reset();
    expect(maxAbs(forceAt(ff, x))).to.be.closeTo(norms[0], 1e-9 * norms[0]);
  });

  it('TetrahedralCorotationalFEMForceField gives the same forces and stiffness', () => {
    const { points, hexa } = boxGrid([2, 2, 3], [1, 1, 2]);
    const tets = tetrahedraFromHexahedra(hexa, 1, 1);
    for (const method of ['small', 'large', 'polar'] as const) {
      const a = femScene(points, { tets }, new TetrahedronFEMForceField(), (f) => {
        f.method.value = method;
        f.youngModulus.value = Float64Array.of(E);
        f.poissonRatio.value = Float64Array.of(NU);
      }).ff;
      const b = femScene(points, { tets }, new TetrahedralCorotationalFEMForceField(), (f) => {
        f.method.value = method;
        f.youngModulus.value = Float64Array.of(E);
        f.poissonRatio.value = Float64Array.of(NU);
      }).ff;
      const x = transform(
        Float64Array.from(points, (v) => v + 0.1 * (r() - 0.5)),
        randomRotation(r),
        [1, 0, 0],
      );
      expect(maxAbsDiff(forceAt(a, x), forceAt(b, x))).to.equal(0);
      expect(maxAbsDiff(denseK(a, x.length), denseK(b, x.length))).to.equal(0);
    }
  });

  it("takes the node's topology as SOFA's context does: the last one of the node, else the first of an ancestor", () => {
    const { points, hexa } = boxGrid([2, 2, 3], [1, 1, 2]);
    const tets = tetrahedraFromHexahedra(hexa, 1, 1);
    const root = new Node('root');
    const parentTopo = root.addObject(new TestTopology(12, tets.slice(0, 4)));
    root.addObject(new TestTopology(12, tets.slice(0, 8)));
    const child = root.createChild('child');
    const mo = child.addObject(new MechanicalObject());
    mo.position.value = Float64Array.from(points);
    mo.init();
    const first = child.addObject(new TestTopology(12, new Uint32Array(0), hexa));
    const last = child.addObject(new TestTopology(12, tets));
    const ff = child.addObject(new TetrahedronFEMForceField());
    ff.init();
    expect(ff.topology.get()).to.equal(last);
    expect(ff.elementCount).to.equal(12);
    child.removeObject(last);
    child.removeObject(first);
    const ff2 = child.addObject(new TetrahedronFEMForceField());
    ff2.init();
    expect(ff2.topology.get()).to.equal(parentTopo);
    expect(ff2.elementCount).to.equal(1);
  });

  it('rebuilds when the topology changes its tetrahedra (a new revision with the same ones keeps the state)', () => {
    const { points, hexa } = boxGrid([2, 2, 3], [1, 1, 2]);
    const tets = tetrahedraFromHexahedra(hexa, 1, 1);
    const { ff, node, mo } = femScene(points, { tets }, new TetrahedronFEMForceField());
    const topo = node.objects.find((o) => o instanceof TestTopology) as TestTopology;
    const x = transform(mo.x0, randomRotation(r), [0, 0, 0]);
    forceAt(ff, x);
    const R = ff.getElementRotation(new Float64Array(9), 3);
    topo.revision++;
    const f = new Float64Array(x.length);
    ff.addForce([f], [x], [x]);
    expect(ff.elementCount).to.equal(12);
    expect(maxAbsDiff(ff.getElementRotation(new Float64Array(9), 3), R)).to.equal(0);
    topo.tets = tets.slice(0, 24);
    topo.revision++;
    ff.addForce([f], [x], [x]);
    expect(ff.elementCount).to.equal(6);
  });

  for (const method of ['small', 'large', 'polar'] as const) {
    it(`${method}: addKToMatrix emits factor·elementStiffness bit for bit, with and without the symmetric fast path`, () => {
      const { ff, mo } = barScene(method);
      forceAt(
        ff,
        transform(
          Float64Array.from(mo.x0, (v) => v + 0.1 * (r() - 0.5)),
          randomRotation(r),
          [0, 0, 0],
        ),
      );
      const factor = -0.37;
      // expected: the 16 blocks of each element's 12×12 matrix, row-major blocks, row-major entries
      const expected: number[] = [];
      const K = new Float64Array(144);
      for (let e = 0; e < ff.elementCount; e++) {
        ff.elementStiffness(K, e);
        for (let i = 0; i < 4; i++)
          for (let j = 0; j < 4; j++)
            for (let p = 0; p < 3; p++) for (let q = 0; q < 3; q++) expected.push(factor * K[36 * i + 12 * p + 3 * j + q]);
      }
      const plain: number[] = [];
      ff.addKToMatrix({ add: (_r, _c, v) => plain.push(v) }, factor);
      expect(plain.map((v) => (Object.is(v, -0) ? '-0' : v))).to.deep.equal(expected.map((v) => (Object.is(v, -0) ? '-0' : v)));
      // the fast path gets the upper blocks; block (j, i) is block (i, j) transposed
      const viaUpper: number[] = [];
      ff.addKToMatrix(
        {
          add: () => expect.fail('the fast path is taken'),
          addSymmetricElements3: (_nodes, _e0, count, n, U, f) => {
            const nu = (9 * n * (n + 1)) / 2;
            for (let k = 0; k < count; k++)
              for (let i = 0; i < n; i++)
                for (let j = 0; j < n; j++)
                  for (let p = 0; p < 3; p++)
                    for (let q = 0; q < 3; q++)
                      viaUpper.push(
                        f *
                          (j >= i
                            ? U[k * nu + 9 * upperBlockIndex(n, i, j) + 3 * p + q]
                            : U[k * nu + 9 * upperBlockIndex(n, j, i) + 3 * q + p]),
                      );
          },
        },
        factor,
      );
      expect(viaUpper).to.deep.equal(expected);
    });
  }

  it('emits the same matrix entries in the same order at every call', () => {
    const { ff, mo } = barScene('large');
    const seq = (): string => {
      const rc: number[] = [];
      ff.addKToMatrix({ add: (row, col) => rc.push(row, col) }, 1);
      return rc.join(',');
    };
    const s0 = seq();
    forceAt(ff, transform(mo.x0, randomRotation(r), [0, 0, 0]));
    expect(seq()).to.equal(s0);
    expect(s0.split(',').length).to.equal(2 * 144 * ff.elementCount);
  });
});
