import { expect } from 'chai';
import { TriangularBiquadraticSpringsForceField, TriangularQuadraticSpringsForceField } from './TriangularQuadraticSprings.js';
import { StubTopology, buildNode, rng } from '../mass/mesh-test-support.js';
import { stiffnessAndFiniteDifferences } from '../load/fd-check-test-support.js';

type Springs = TriangularQuadraticSpringsForceField | TriangularBiquadraticSpringsForceField;

// two triangles sharing edge (1, 2), not coplanar at rest
const rest = [0, 0, 0, 1, 0, 0, 0.2, 1, 0, 1.3, 1.1, 0.4];
const tris = [0, 1, 2, 1, 3, 2];

function make(kind: 'quad' | 'biquad', opts: { angular?: boolean; damping?: number; compressible?: boolean } = {}): Springs {
  const ff = kind === 'quad' ? new TriangularQuadraticSpringsForceField() : new TriangularBiquadraticSpringsForceField();
  ff.youngModulus.value = 500;
  ff.poissonRatio.value = 0.35;
  if (opts.angular === false) ff.useAngularSprings.value = false;
  if (opts.damping) ff.dampingRatio.value = opts.damping;
  if (opts.compressible === false && ff instanceof TriangularBiquadraticSpringsForceField) ff.compressible.value = false;
  buildNode(rest, new StubTopology(rest.length / 3, { triangles: tris }), [ff]);
  return ff;
}

function force(ff: Springs, x: ArrayLike<number>, v?: ArrayLike<number>): Float64Array {
  const f = new Float64Array(x.length);
  ff.addForce([f], [Float64Array.from(x)], [v ? Float64Array.from(v) : new Float64Array(x.length)]);
  return f;
}

function deformed(seed: number, amp: number, scale = 1): Float64Array {
  const r = rng(seed);
  return Float64Array.from(rest, (v) => scale * v + amp * (2 * r() - 1));
}

function expectClose(A: number[][], B: number[][], tol: number): void {
  let scale = 0;
  for (const row of B) for (const v of row) scale = Math.max(scale, Math.abs(v));
  for (let i = 0; i < A.length; i++) for (let j = 0; j < A.length; j++) expect(A[i][j], `[${i}][${j}]`).to.be.closeTo(B[i][j], tol * scale);
}

describe('TriangularQuadraticSpringsForceField and TriangularBiquadraticSpringsForceField', () => {
  for (const kind of ['quad', 'biquad'] as const) {
    it(`${kind}: no force at rest, none under a rigid motion`, () => {
      const ff = make(kind);
      expect(Array.from(force(ff, rest)).every((v) => Math.abs(v) < 1e-12)).to.equal(true);
      const c = Math.cos(0.7),
        s = Math.sin(0.7);
      const moved = [];
      for (let i = 0; i < 4; i++)
        moved.push(c * rest[3 * i] - s * rest[3 * i + 2] + 1, rest[3 * i + 1] - 2, s * rest[3 * i] + c * rest[3 * i + 2] + 0.5);
      expect(Array.from(force(ff, moved)).every((v) => Math.abs(v) < 1e-10)).to.equal(true);
    });

    for (const angular of [true, false]) {
      it(`${kind}${angular ? '' : ' without angular springs'}: K = ∂f/∂x against finite differences (stretched and compressed)`, () => {
        const ff = make(kind, { angular });
        for (const [seed, scale] of [
          [3, 1.1],
          [5, 0.8],
        ] as const) {
          const x = deformed(seed, 0.1, scale);
          const { K, FD } = stiffnessAndFiniteDifferences(ff, x, new Float64Array(12));
          expectClose(K, FD, 1e-6);
        }
      });
    }

    it(`${kind}: with a damping ratio, K = ∂f/∂x and B = ∂f/∂v against finite differences at a moving state`, () => {
      const ff = make(kind, { damping: 0.3 });
      const x = deformed(7, 0.1, 1.05);
      const v = Float64Array.from(deformed(8, 1, 0));
      const { K, FD } = stiffnessAndFiniteDifferences(ff, x, v);
      expectClose(K, FD, 1e-6);
      force(ff, x, v);
      const B = Array.from({ length: 12 }, () => new Array<number>(12).fill(0));
      ff.addBToMatrix({ add: (r, c, val) => (B[r][c] += val) }, 1);
      const FDv = Array.from({ length: 12 }, () => new Array<number>(12).fill(0));
      for (let j = 0; j < 12; j++) {
        const vp = Float64Array.from(v),
          vm = Float64Array.from(v);
        vp[j] += 1e-6;
        vm[j] -= 1e-6;
        const fp = force(ff, x, vp),
          fm = force(ff, x, vm);
        for (let i = 0; i < 12; i++) FDv[i][j] = (fp[i] - fm[i]) / 2e-6;
      }
      expectClose(B, FDv, 1e-6);
    });

    it(`${kind}: addDForce applies the assembled K and B`, () => {
      const ff = make(kind, { damping: 0.2 });
      const x = deformed(11, 0.15, 0.85);
      force(ff, x, deformed(12, 1, 0));
      const M = Array.from({ length: 12 }, () => new Array<number>(12).fill(0));
      ff.addKToMatrix({ add: (r, c, val) => (M[r][c] += val) }, 0.7);
      ff.addBToMatrix({ add: (r, c, val) => (M[r][c] += val) }, 0.3);
      const dx = Float64Array.from({ length: 12 }, (_, i) => Math.cos(3 * i));
      const df = new Float64Array(12);
      ff.addDForce([df], [dx], 0.7, 0.3);
      for (let r = 0; r < 12; r++) {
        let s = 0;
        for (let c = 0; c < 12; c++) s += M[r][c] * dx[c];
        expect(df[r]).to.be.closeTo(s, 1e-9 * (1 + Math.abs(s)));
      }
    });
  }

  it('biquadratic: the edge energy is the plane-stress St Venant–Kirchhoff membrane energy A⁰·(λ/2·tr(E)² + μ·tr(E²)), λ = Eν/(1−ν²), μ = E/(2(1+ν)) (Delingette; SOFA\'s "mu" is 2μ), and f = −∇W', () => {
    const ff = make('biquad', { compressible: false });
    const E = 500,
      nu = 0.35;
    const lam = (E * nu) / (1 - nu * nu),
      mu = E / (2 * (1 + nu));
    expect(ff.mu).to.be.closeTo(2 * mu, 1e-9);
    const x = deformed(21, 0.2, 1.15);
    force(ff, x);
    let W = 0;
    for (const t of [
      [0, 1, 2],
      [1, 3, 2],
    ]) {
      // E = ½(FᵀF − I) in the rest triangle's own 2D frame: G = Dᵀ·D with D the edge matrix, E = ½·D0⁻ᵀ(G − G0)D0⁻¹
      const e = (p: ArrayLike<number>, a: number, b: number): number[] => [0, 1, 2].map((k) => p[3 * b + k] - p[3 * a + k]);
      const dot = (u: number[], v: number[]): number => u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
      const [a, b, c] = t as [number, number, number];
      const g0 = [dot(e(rest, a, b), e(rest, a, b)), dot(e(rest, a, b), e(rest, a, c)), dot(e(rest, a, c), e(rest, a, c))];
      const g1 = [dot(e(x, a, b), e(x, a, b)), dot(e(x, a, b), e(x, a, c)), dot(e(x, a, c), e(x, a, c))];
      // metric tensors G0, G in the (e_ab, e_ac) basis; E (mixed) = ½·G0⁻¹·(G − G0)
      const det = g0[0] * g0[2] - g0[1] ** 2;
      const inv = [g0[2] / det, -g0[1] / det, g0[0] / det];
      const dG = [g1[0] - g0[0], g1[1] - g0[1], g1[2] - g0[2]];
      const m00 = 0.5 * (inv[0] * dG[0] + inv[1] * dG[1]),
        m01 = 0.5 * (inv[0] * dG[1] + inv[1] * dG[2]);
      const m10 = 0.5 * (inv[1] * dG[0] + inv[2] * dG[1]),
        m11 = 0.5 * (inv[1] * dG[1] + inv[2] * dG[2]);
      const tr = m00 + m11,
        tr2 = m00 * m00 + m01 * m10 + m10 * m01 + m11 * m11;
      W += (Math.sqrt(det) / 2) * ((lam / 2) * tr * tr + mu * tr2);
    }
    expect(ff.getPotentialEnergy()).to.be.closeTo(W, 1e-10 * Math.abs(W));
    // f = −∂W/∂x by finite differences of the energy
    const f = force(ff, x);
    for (let j = 0; j < 12; j++) {
      const xp = Float64Array.from(x),
        xm = Float64Array.from(x);
      xp[j] += 1e-6;
      xm[j] -= 1e-6;
      force(ff, xp);
      const wp = ff.getPotentialEnergy();
      force(ff, xm);
      const wm = ff.getPotentialEnergy();
      expect(f[j]).to.be.closeTo(-(wp - wm) / 2e-6, 1e-5 * (1 + Math.abs(f[j])));
    }
  });

  it('biquadratic: a compressed triangle is pushed back by 3(λ+μ)(J−1)³·∂A/∂x (the area term alone: no angular springs means no area term, as SOFA)', () => {
    const on = make('biquad'),
      off = make('biquad', { compressible: false });
    // shrink uniformly: J = s² < 1
    const s = 0.8;
    const x = Float64Array.from(rest, (v) => s * v);
    const d = force(on, x).map((v, i) => v - force(off, x)[i]);
    // triangle (0, 1, 2): rest area; ∂A/∂x_0 = ½·n × (x_2 − x_1)
    const A0 = 0.5,
      J = s * s,
      kA = 3 * (on.lambda + on.mu);
    // vertex 0 belongs to triangle 0 only (normal +z)
    const e = [x[6] - x[3], x[7] - x[4], x[8] - x[5]];
    const grad = [0.5 * -e[1], 0.5 * e[0], 0];
    for (let k = 0; k < 3; k++) expect(d[k]).to.be.closeTo(-kA * (J - 1) ** 3 * grad[k], 1e-10);
    expect(A0).to.equal(0.5);
  });
});
