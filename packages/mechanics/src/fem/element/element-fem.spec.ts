import { expect } from 'chai';
import { Node, type MatrixAccumulator } from '@sofa-ts/core';
import { MechanicalObject } from '../../MechanicalObject.js';
import {
  TestTopology,
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
import { tetrahedraFromHexahedra } from '../volume-elasticity.js';
import type { BaseElementLinearFEMForceField } from './BaseElementLinearFEMForceField.js';
import { CorotationalFEMForceField, type RotationMethod } from './CorotationalFEMForceField.js';
import { LinearSmallStrainFEMForceField } from './LinearSmallStrainFEMForceField.js';

const E = 4000;
const NU = 0.3;
type Kind = 'Tetrahedron' | 'Hexahedron';

/** A box mesh of hexahedra, or of the 6 tetrahedra per cube SOFA's splitting gives. */
function mesh(
  kind: Kind,
  n: [number, number, number],
  size: [number, number, number],
): { points: Float64Array; topo: { tets?: Uint32Array; hexa?: Uint32Array } } {
  const { points, hexa } = boxGrid(n, size);
  return { points, topo: kind === 'Hexahedron' ? { hexa } : { tets: tetrahedraFromHexahedra(hexa, n[0] - 1, n[1] - 1) } };
}

/** The variants: small strain, and the corotational one with each rotation method of the element. */
function variants(kind: Kind): { label: string; make: () => BaseElementLinearFEMForceField; rotating: boolean }[] {
  const methods: RotationMethod[] = [kind === 'Tetrahedron' ? 'triangle' : 'hexahedron', 'polar', 'stable_polar', 'identity'];
  return [
    { label: 'LinearSmallStrainFEMForceField', make: () => new LinearSmallStrainFEMForceField(), rotating: false },
    ...methods.map((m) => ({
      label: `CorotationalFEMForceField rotationMethod=${m}`,
      make: () => {
        const ff = new CorotationalFEMForceField();
        ff.rotationMethod.value = m;
        return ff;
      },
      rotating: m !== 'identity',
    })),
  ];
}

function scene<F extends BaseElementLinearFEMForceField>(
  kind: Kind,
  points: Float64Array,
  topo: { tets?: Uint32Array; hexa?: Uint32Array },
  ff: F,
  young = E,
  nu = NU,
) {
  return femScene(points, topo, ff, (f) => {
    f.template = `Vec3d,${kind}`;
    f.youngModulus.value = Float64Array.of(young);
    f.poissonRatio.value = Float64Array.of(nu);
  });
}

/** Isotropic stress (Voigt xx yy zz xy yz zx) of the small strain of u = G·X. */
function stressOf(G: number[][], young: number, nu: number): number[][] {
  const lambda = (young * nu) / ((1 + nu) * (1 - 2 * nu));
  const mu = young / (2 * (1 + nu));
  const tr = G[0][0] + G[1][1] + G[2][2];
  return [0, 1, 2].map((i) => [0, 1, 2].map((j) => (i === j ? lambda * tr : 0) + mu * (G[i][j] + G[j][i])));
}

describe('element FEM force fields (LinearSmallStrainFEMForceField, CorotationalFEMForceField)', () => {
  const r = rng(26);

  for (const kind of ['Tetrahedron', 'Hexahedron'] as const) {
    for (const v of variants(kind)) {
      describe(`${v.label}, Vec3,${kind}`, () => {
        const { points, topo } = mesh(kind, [2, 3, 3], [1, 1.2, 2]);
        const distorted = Float64Array.from(points, (p) => p + 0.08 * (r() - 0.5));

        it('f is zero at rest (and, corotational, at rigidly moved rest shapes)', () => {
          const { ff, mo } = scene(kind, distorted, topo, v.make());
          expect(maxAbs(forceAt(ff, mo.x0))).to.be.below(1e-10);
          if (v.rotating) expect(maxAbs(forceAt(ff, transform(mo.x0, randomRotation(r), [3, 2, -1])))).to.be.below(1e-9);
        });

        it('K = ∂f/∂x: addKToMatrix equals central finite differences of f', () => {
          const { ff, mo } = scene(kind, distorted, topo, v.make());
          // small strain: any shape; corotational: rigidly moved rest shapes (SOFA leaves dR/dx out)
          const x = v.rotating ? transform(mo.x0, randomRotation(r), [1, 0, 2]) : Float64Array.from(mo.x0, (p) => p + 0.05 * (r() - 0.5));
          const fd = finiteDifferenceK(ff, x, 1e-6);
          expect(maxAbsDiff(denseK(ff, x.length), fd) / maxAbs(fd)).to.be.below(1e-6);
        });

        if (v.rotating) {
          it('K matches finite differences up to O(strain) at deformed and rotated shapes', () => {
            const { ff, mo } = scene(kind, distorted, topo, v.make());
            const strain = 1e-4;
            const x = transform(
              Float64Array.from(mo.x0, (p) => p + strain * (r() - 0.5)),
              randomRotation(r),
              [0, 0, 0],
            );
            const fd = finiteDifferenceK(ff, x, 1e-7);
            expect(maxAbsDiff(denseK(ff, x.length), fd) / maxAbs(fd)).to.be.below(20 * strain);
          });

          it('f rotates with a rigid rotation of a deformed configuration', () => {
            const { ff, mo } = scene(kind, distorted, topo, v.make());
            const x = Float64Array.from(mo.x0, (p) => p + 0.05 * (r() - 0.5));
            const f = forceAt(ff, x);
            const R = randomRotation(r);
            expect(maxAbsDiff(forceAt(ff, transform(x, R, [1, 1, 1])), rotateVectors(f, R)) / maxAbs(f)).to.be.below(1e-9);
          });
        }

        it('addDForce gives (k + b·rayleighStiffness)·K·dx with the rotations of the last addForce', () => {
          const { ff, mo } = scene(kind, distorted, topo, v.make());
          ff.rayleighStiffness.value = 0.2;
          const x = transform(
            Float64Array.from(mo.x0, (p) => p + 0.05 * (r() - 0.5)),
            randomRotation(r),
            [0, 1, 0],
          );
          forceAt(ff, x);
          const n = x.length;
          const K = denseK(ff, n);
          const dx = Float64Array.from({ length: n }, () => r() - 0.5);
          const df = new Float64Array(n);
          ff.addDForce([df], [dx], 1.5, 2);
          const expected = Array.from(
            { length: n },
            (_, i) => (1.5 + 2 * 0.2) * K.slice(i * n, i * n + n).reduce((s, k, j) => s + k * dx[j], 0),
          );
          expect(maxAbsDiff(df, expected) / maxAbs(expected)).to.be.below(1e-12);
        });

        it('K is symmetric and its null space holds the rigid modes', () => {
          const { ff, mo } = scene(kind, distorted, topo, v.make());
          forceAt(ff, v.rotating ? transform(mo.x0, randomRotation(r), [0, 0, 0]) : mo.x0);
          const n = mo.x0.length;
          const K = denseK(ff, n);
          for (let i = 0; i < n; i++)
            for (let j = 0; j < i; j++) expect(Math.abs(K[n * i + j] - K[n * j + i])).to.be.below(1e-12 * maxAbs(K));
          for (let k = 0; k < 3; k++) {
            const t = Float64Array.from({ length: n }, (_, i) => (i % 3 === k ? 1 : 0));
            const Kt = Array.from({ length: n }, (_, i) => K.slice(n * i, n * i + n).reduce((s, kv, j) => s + kv * t[j], 0));
            expect(maxAbs(Kt)).to.be.below(1e-10 * maxAbs(K));
          }
        });

        it('energy ½uᵀK_e u: its finite-difference gradient is −f', () => {
          const { ff, mo } = scene(kind, distorted, topo, v.make());
          const x = Float64Array.from(mo.x0, (p) => p + 1e-3 * (r() - 0.5));
          const f = forceAt(ff, x);
          if (v.rotating) return; // rotations of the last addForce: exact only for small strain
          const h = 1e-7,
            xp = Float64Array.from(x);
          for (const i of [0, 7, x.length - 1]) {
            xp[i] = x[i] + h;
            const ep = ff.getPotentialEnergy([xp]);
            xp[i] = x[i] - h;
            const em = ff.getPotentialEnergy([xp]);
            xp[i] = x[i];
            expect((ep - em) / (2 * h)).to.be.closeTo(-f[i], 1e-6 * maxAbs(f));
          }
        });

        it('a bar under uniaxial traction: end force = E·strain·area', () => {
          const { points: bar, topo: barTopo } = mesh(kind, [3, 3, 6], [1, 1, 5]);
          const { ff, mo } = scene(kind, bar, barTopo, v.make());
          const eps = 1e-6;
          const x = Float64Array.from(mo.x0, (p, i) => (i % 3 === 2 ? p * (1 + eps) : p * (1 - NU * eps)));
          const f = forceAt(ff, x);
          let top = 0,
            bottom = 0,
            other = 0;
          for (let i = 0; i < x.length; i += 3) {
            if (mo.x0[i + 2] === 5) top += f[i + 2];
            else if (mo.x0[i + 2] === 0) bottom += f[i + 2];
            else other = Math.max(other, Math.abs(f[i + 2]));
          }
          const expected = E * eps;
          expect(Math.abs(-top - expected) / expected).to.be.below(1e-4);
          expect(Math.abs(bottom - expected) / expected).to.be.below(1e-4);
          expect(other / expected).to.be.below(1e-4);
        });
      });
    }
  }

  it('one box hexahedron: nodal forces of a linear field are −σ·∫∇Nᵢ dV (closed form)', () => {
    const [a, b, c] = [2, 1.5, 0.8];
    const { points, topo } = mesh('Hexahedron', [2, 2, 2], [a, b, c]);
    const { ff } = scene('Hexahedron', points, topo, new LinearSmallStrainFEMForceField());
    const G = [
      [1e-3, 2e-4, -3e-4],
      [5e-4, -2e-3, 1e-4],
      [-1e-4, 3e-4, 1.5e-3],
    ];
    const x = Float64Array.from(points);
    for (let i = 0; i < 8; i++)
      for (let k = 0; k < 3; k++) x[3 * i + k] += G[k][0] * points[3 * i] + G[k][1] * points[3 * i + 1] + G[k][2] * points[3 * i + 2];
    const f = forceAt(ff, x);
    const sigma = stressOf(G, E, NU);
    for (let i = 0; i < 8; i++) {
      const sx = points[3 * i] > 0 ? 1 : -1,
        sy = points[3 * i + 1] > 0 ? 1 : -1,
        sz = points[3 * i + 2] > 0 ? 1 : -1;
      // ∫∂Nᵢ/∂X dV = (sx·bc, sy·ac, sz·ab)/4
      const g = [(sx * b * c) / 4, (sy * a * c) / 4, (sz * a * b) / 4];
      for (let k = 0; k < 3; k++)
        expect(f[3 * i + k]).to.be.closeTo(-(sigma[k][0] * g[0] + sigma[k][1] * g[1] + sigma[k][2] * g[2]), 1e-12 * E);
    }
  });

  it('one tetrahedron: f = −V·σ·∇Nᵢ for a linear field (closed form)', () => {
    const X = Float64Array.of(0.1, 0.2, 0, 1.3, 0, 0.1, 0.2, 1.1, 0, 0, 0.3, 0.9);
    const { ff } = scene('Tetrahedron', X, { tets: Uint32Array.of(0, 1, 2, 3) }, new LinearSmallStrainFEMForceField());
    const G = [
      [1e-3, 2e-4, -3e-4],
      [5e-4, -2e-3, 1e-4],
      [-1e-4, 3e-4, 1.5e-3],
    ];
    const x = Float64Array.from(
      X,
      (p, i) => p + G[i % 3][0] * X[i - (i % 3)] + G[i % 3][1] * X[i - (i % 3) + 1] + G[i % 3][2] * X[i - (i % 3) + 2],
    );
    const f = forceAt(ff, x);
    const sigma = stressOf(G, E, NU);
    // ∇N of the P1 tetrahedron: rows of the inverse of [X₁−X₀; X₂−X₀; X₃−X₀]ᵀ, ∇N₀ = −Σ
    const e = [0, 1, 2].map((k) => [0, 1, 2].map((c) => X[3 * (k + 1) + c] - X[c]));
    const det =
      e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) -
      e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) +
      e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]);
    const cross = (u: number[], w: number[]): number[] => [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
    const grads = [cross(e[1], e[2]), cross(e[2], e[0]), cross(e[0], e[1])].map((g) => g.map((c) => c / det));
    grads.unshift([0, 1, 2].map((c) => -(grads[0][c] + grads[1][c] + grads[2][c])));
    const V = Math.abs(det) / 6;
    for (let i = 0; i < 4; i++)
      for (let k = 0; k < 3; k++)
        expect(f[3 * i + k]).to.be.closeTo(
          -V * (sigma[k][0] * grads[i][0] + sigma[k][1] * grads[i][1] + sigma[k][2] * grads[i][2]),
          1e-12 * E,
        );
  });

  it('addDForce after a cycle of many products (matrix-free CG) sums the element blocks once: same product', () => {
    for (const kind of ['Tetrahedron', 'Hexahedron'] as const) {
      const { points, topo } = mesh(kind, [3, 2, 4], [1, 1, 2]);
      const { ff, mo } = scene(
        kind,
        Float64Array.from(points, (p) => p + 0.05 * (r() - 0.5)),
        topo,
        new CorotationalFEMForceField(),
      );
      const n = mo.x0.length;
      const dx = Float64Array.from({ length: n }, () => r() - 0.5);
      const x1 = transform(
        Float64Array.from(mo.x0, (p) => p + 0.05 * (r() - 0.5)),
        randomRotation(r),
        [0, 0, 0],
      );
      const x2 = transform(
        Float64Array.from(mo.x0, (p) => p + 0.05 * (r() - 0.5)),
        randomRotation(r),
        [1, 0, 0],
      );
      const product = (): Float64Array => {
        const df = new Float64Array(n);
        ff.addDForce([df], [dx], 0.7, 0);
        return df;
      };
      // first cycle: element by element, many products
      forceAt(ff, x1);
      const elementWise = product();
      for (let i = 0; i < 20; i++) product();
      // next cycle: the summed blocks, refilled with the new rotations
      forceAt(ff, x2);
      const blocks = product();
      const K = denseK(ff, n);
      const expected = Array.from({ length: n }, (_, i) => 0.7 * K.slice(i * n, i * n + n).reduce((s, k, j) => s + k * dx[j], 0));
      expect(maxAbsDiff(blocks, expected) / maxAbs(expected), kind).to.be.below(1e-12);
      expect(maxAbsDiff(blocks, elementWise) / maxAbs(expected), `${kind}: the rotations changed`).to.be.above(1e-6);
    }
  });

  it('elements of the same rest shape share one stiffness matrix (a regular grid needs one)', () => {
    const { points, topo } = mesh('Hexahedron', [4, 3, 5], [3, 2, 4]);
    const { ff } = scene('Hexahedron', points, topo, new CorotationalFEMForceField());
    expect(ff.elementCount).to.equal(24);
    expect(ff.stiffnessMatrixCount).to.equal(1);
  });

  it("the default rotation method is the element's: triangle on tetrahedra, hexahedron on hexahedra", () => {
    for (const kind of ['Tetrahedron', 'Hexahedron'] as const) {
      const { points, topo } = mesh(kind, [2, 2, 2], [1, 1, 1]);
      const { ff } = scene(kind, points, topo, new CorotationalFEMForceField());
      expect(ff.rotationMethod.value).to.equal(kind === 'Tetrahedron' ? 'triangle' : 'hexahedron');
    }
  });

  it('refuses a template without an element type, and a rotation method of another element', () => {
    const { points, topo } = mesh('Hexahedron', [2, 2, 2], [1, 1, 1]);
    expect(() => femScene(points, topo, new LinearSmallStrainFEMForceField())).to.throw(/template must name the element type/);
    expect(() =>
      femScene<CorotationalFEMForceField>(points, topo, new CorotationalFEMForceField(), (f) => {
        f.template = 'Vec3d,Hexahedron';
        f.rotationMethod.value = 'triangle';
      }),
    ).to.throw(/rotationMethod 'triangle' is not defined for hexahedra/);
    expect(() => femScene(points, topo, new LinearSmallStrainFEMForceField(), (f) => (f.template = 'Vec3d,Tetrahedron'))).to.throw(
      /has no tetrahedra/,
    );
  });

  it('acts on the state of the nearest ancestor when its node has none (SOFA getMechanicalState)', () => {
    const { points, hexa } = boxGrid([2, 2, 3], [1, 1, 2]);
    const root = new Node('root');
    const mo = root.addObject(new MechanicalObject());
    mo.position.value = Float64Array.from(points);
    mo.init();
    const child = root.addChild(new Node('fem'));
    child.addObject(new TestTopology(points.length / 3, new Uint32Array(0), hexa));
    const ff = child.addObject(new LinearSmallStrainFEMForceField());
    ff.template = 'Vec3d,Hexahedron';
    ff.init();
    expect(ff.getMechanicalStates()[0]).to.equal(mo);
  });

  it('emits the same matrix entries in the same order at every call', () => {
    const { points, topo } = mesh('Tetrahedron', [2, 2, 3], [1, 1, 2]);
    const { ff, mo } = scene('Tetrahedron', points, topo, new CorotationalFEMForceField());
    const seq = (): string => {
      const rc: number[] = [];
      const acc: MatrixAccumulator = { add: (row, col) => rc.push(row, col) };
      ff.addKToMatrix(acc, 1);
      return rc.join(',');
    };
    const s0 = seq();
    forceAt(ff, transform(mo.x0, randomRotation(r), [0, 0, 0]));
    expect(seq()).to.equal(s0);
    expect(s0.split(',').length).to.equal(2 * 144 * ff.elementCount);
  });
});
