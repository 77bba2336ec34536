import { expect } from 'chai';
import { EdgePressureForceField } from './EdgePressureForceField.js';
import { QuadPressureForceField } from './QuadPressureForceField.js';
import { SurfacePressureForceField } from './SurfacePressureForceField.js';
import { TaitSurfacePressureForceField } from './TaitSurfacePressureForceField.js';
import { TrianglePressureForceField } from './TrianglePressureForceField.js';
import { stiffnessAndFiniteDifferences } from './fd-check-test-support.js';
import { buildNode, rng, StubTopology } from '../mass/mesh-test-support.js';
import type { BaseForceField } from '@sofa-ts/core';

/** The unit cube [0, s]³ (vertex x + 2y + 4z) and its six faces as quads, counter-clockwise seen from outside. */
function cube(s = 1): { x: number[]; quads: number[]; triangles: number[] } {
  const x: number[] = [];
  for (let i = 0; i < 8; i++) x.push((i & 1) * s, ((i >> 1) & 1) * s, ((i >> 2) & 1) * s);
  const faces = [
    [0, 2, 3, 1],
    [4, 5, 7, 6],
    [0, 1, 5, 4],
    [2, 6, 7, 3],
    [0, 4, 6, 2],
    [1, 3, 7, 5],
  ];
  const quads = faces.flat();
  const triangles = faces.flatMap(([a, b, c, d]) => [a!, b!, c!, a!, c!, d!]);
  return { x, quads, triangles };
}

/** The cube's points moved randomly by up to `amp` (a closed surface, no longer flat faces). */
function jiggle(x: number[], amp: number, seed: number): Float64Array {
  const r = rng(seed);
  return Float64Array.from(x, (v) => v + amp * r());
}

function force(ff: BaseForceField, x: Float64Array, v = new Float64Array(x.length)): Float64Array {
  const f = new Float64Array(x.length);
  ff.addForce([f], [x], [v]);
  return f;
}

function sum3(f: Float64Array): number[] {
  const s = [0, 0, 0];
  for (let i = 0; i < f.length; i++) s[i % 3] += f[i];
  return s;
}

function expectKMatchesFD(ff: BaseForceField, x: Float64Array, scale: number, v?: Float64Array): void {
  const { K, FD } = stiffnessAndFiniteDifferences(ff, x, v ?? new Float64Array(x.length));
  for (let i = 0; i < x.length; i++)
    for (let j = 0; j < x.length; j++) expect(K[i][j], `K[${i}][${j}]`).to.be.closeTo(FD[i][j], 1e-6 * scale);
  // addDForce is K·dx with the same factor
  const dx = Float64Array.from({ length: x.length }, (_, k) => Math.sin(k + 1));
  const df = new Float64Array(x.length);
  ff.addDForce([df], [dx], 0.7, 0);
  for (let i = 0; i < x.length; i++) {
    let kdx = 0;
    for (let j = 0; j < x.length; j++) kdx += K[i][j] * dx[j];
    expect(df[i]).to.be.closeTo(0.7 * kdx, 1e-10 * scale);
  }
}

describe('TrianglePressureForceField', () => {
  it('constant force: pressure·A_rest/3 on each vertex of the listed triangles, K = 0', () => {
    const c = cube(2);
    const pff = new TrianglePressureForceField();
    pff.pressure.value = Float64Array.of(1, -2, 0.5);
    pff.triangleList.value = Uint32Array.of(0, 1); // the two triangles of face z = 0, area 4
    buildNode(c.x, new StubTopology(8, { triangles: c.triangles }), [pff]);
    expect(Array.from(pff.restAreas)).to.deep.equal([2, 2]);
    const f = force(pff, jiggle(c.x, 0.3, 1));
    expect(sum3(f)).to.deep.equal([4, -8, 2]);
    // vertex 0 is in both triangles: 2·(p·2/3)
    expect(f[0]).to.be.closeTo(4 / 3, 1e-15);
    const K: number[] = [];
    pff.addKToMatrix({ add: (_r, _c, v) => K.push(v) }, 1);
    expect(K).to.have.length(0);
  });

  it('Cauchy stress: f_v = σ·n_t/6 on the current triangles, K = ∂f/∂x (finite differences)', () => {
    const c = cube();
    const pff = new TrianglePressureForceField();
    pff.useConstantForce.value = false;
    pff.cauchyStress.value = Float64Array.of(3, 0.5, -1, 0.2, 0.7, 2); // xx yx yy zx zy zz
    pff.triangleList.value = Uint32Array.from({ length: 12 }, (_, i) => i);
    buildNode(c.x, new StubTopology(8, { triangles: c.triangles }), [pff]);
    const x = jiggle(c.x, 0.2, 2);
    const f = force(pff, x);
    // closed form on triangle 0 alone
    const one = new TrianglePressureForceField();
    one.useConstantForce.value = false;
    one.cauchyStress.value = pff.cauchyStress.value;
    one.triangleList.value = Uint32Array.of(0);
    buildNode(c.x, new StubTopology(8, { triangles: c.triangles }), [one]);
    const g = force(one, x);
    const [a, b, d] = c.triangles.slice(0, 3) as [number, number, number];
    const e1 = [0, 1, 2].map((k) => x[3 * b + k] - x[3 * a + k]),
      e2 = [0, 1, 2].map((k) => x[3 * d + k] - x[3 * a + k]);
    const n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
    const S = [
      [3, 0.5, 0.2],
      [0.5, -1, 0.7],
      [0.2, 0.7, 2],
    ];
    for (let k = 0; k < 3; k++) expect(g[3 * a + k]).to.be.closeTo((S[k][0] * n[0] + S[k][1] * n[1] + S[k][2] * n[2]) / 6, 1e-15);
    void f;
    expectKMatchesFD(pff, x, 3);
    // a closed surface under an isotropic stress σ = P·I: no net force
    pff.cauchyStress.value = Float64Array.of(2, 0, 2, 0, 0, 2);
    for (const s of sum3(force(pff, x))) expect(s).to.be.closeTo(0, 1e-14);
  });
});

describe('QuadPressureForceField', () => {
  it('pressure·A_rest/4 on each vertex of the listed quads; quads selected between dmin and dmax', () => {
    const c = cube(3);
    const q = new QuadPressureForceField();
    q.pressure.value = Float64Array.of(0, 0, -2);
    q.quadList.value = Uint32Array.of(1); // z = 3, area 9
    buildNode(c.x, new StubTopology(8, { quads: c.quads }), [q]);
    expect(Array.from(q.restAreas)).to.deep.equal([9]);
    expect(sum3(force(q, Float64Array.from(c.x)))).to.deep.equal([0, 0, -18]);
    const byPlane = new QuadPressureForceField();
    byPlane.pressure.value = Float64Array.of(1, 0, 0);
    byPlane.normal.value = Float64Array.of(1, 0, 0);
    byPlane.dmin.value = 2.9;
    byPlane.dmax.value = 3.1;
    buildNode(c.x, new StubTopology(8, { quads: c.quads }), [byPlane]);
    expect(sum3(force(byPlane, Float64Array.from(c.x)))).to.deep.equal([9, 0, 0]);
  });
});

describe('SurfacePressureForceField', () => {
  for (const kind of ['triangles', 'quads'] as const) {
    it(`closed surface (${kind}): no net force nor torque, Σ f·x = 3·P·V, K = ∂f/∂x`, () => {
      const c = cube();
      const spf = new SurfacePressureForceField();
      spf.pressure.value = 5;
      buildNode(c.x, new StubTopology(8, kind === 'triangles' ? { triangles: c.triangles } : { quads: c.quads }), [spf]);
      const x = jiggle(c.x, 0.15, 3);
      const f = force(spf, x);
      for (const s of sum3(f)) expect(s).to.be.closeTo(0, 1e-13);
      let tx = 0,
        ty = 0,
        tz = 0,
        w = 0;
      for (let i = 0; i < 8; i++) {
        const [px, py, pz] = [x[3 * i], x[3 * i + 1], x[3 * i + 2]];
        const [fx, fy, fz] = [f[3 * i], f[3 * i + 1], f[3 * i + 2]];
        tx += py * fz - pz * fy;
        ty += pz * fx - px * fz;
        tz += px * fy - py * fx;
        w += px * fx + py * fy + pz * fz;
      }
      for (const t of [tx, ty, tz]) expect(t).to.be.closeTo(0, 1e-13);
      expect(w).to.be.closeTo(3 * 5 * spf.computeMeshVolume(x), 1e-12);
      expectKMatchesFD(spf, x, 5);
    });
  }

  it('open patch: the net force is P·A·n; each face pushes P·A_face·n̂ on its vertices', () => {
    const spf = new SurfacePressureForceField();
    spf.pressure.value = 3;
    const x = [0, 0, 0, 2, 0, 0, 2, 2, 0, 0, 2, 0];
    buildNode(x, new StubTopology(4, { quads: [0, 1, 2, 3] }), [spf]);
    expect(sum3(force(spf, Float64Array.from(x)))).to.deep.equal([0, 0, 12]);
  });

  it('mainDirection scales each triangle force by |n̂·d|; K = ∂f/∂x with that factor', () => {
    const c = cube();
    const spf = new SurfacePressureForceField();
    spf.pressure.value = 2;
    spf.mainDirection.value = Float64Array.of(0.3, 0.8, -0.5);
    buildNode(c.x, new StubTopology(8, { triangles: c.triangles }), [spf]);
    const x = jiggle(c.x, 0.15, 4);
    expectKMatchesFD(spf, x, 2);
  });

  it('the box selects the triangles whose three vertices are inside it', () => {
    const c = cube();
    const spf = new SurfacePressureForceField();
    spf.pressure.value = 1;
    spf.min.value = Float64Array.of(-0.1, -0.1, -0.1);
    spf.max.value = Float64Array.of(1.1, 1.1, 0.1); // face z = 0 only
    buildNode(c.x, new StubTopology(8, { triangles: c.triangles }), [spf]);
    expect(sum3(force(spf, Float64Array.from(c.x)))).to.deep.equal([0, 0, -1]);
  });
});

describe('TaitSurfacePressureForceField', () => {
  for (const gamma of [1, 7]) {
    it(`P = p0 − B((V/V0)^γ − 1) (γ = ${gamma}), f = P·∇V (∇V by finite differences of V), K = ∂f/∂x`, () => {
      const c = cube(2);
      const t = new TaitSurfacePressureForceField();
      t.p0.value = 3;
      t.B.value = 10;
      t.gamma.value = gamma;
      buildNode(c.x, new StubTopology(8, { quads: c.quads }), [t]);
      expect(t.initialVolume.value).to.be.closeTo(8, 1e-14);
      expect(t.initialSurfaceArea.value).to.be.closeTo(24, 1e-14);
      const x = jiggle(c.x, 0.2, 5);
      const f = force(t, x);
      const V = t.volumeAndArea(x)[0];
      expect(t.currentPressure.value).to.be.closeTo(3 - 10 * ((V / 8) ** gamma - 1), 1e-12);
      for (const s of sum3(f)) expect(s).to.be.closeTo(0, 1e-12);
      const h = 1e-6;
      for (let j = 0; j < 24; j++) {
        const xp = Float64Array.from(x),
          xm = Float64Array.from(x);
        xp[j] += h;
        xm[j] -= h;
        const grad = (t.volumeAndArea(xp)[0] - t.volumeAndArea(xm)[0]) / (2 * h);
        expect(f[j]).to.be.closeTo(t.currentPressure.value * grad, 1e-7);
      }
      force(t, x);
      expectKMatchesFD(t, x, 100);
    });
  }

  it('injectedVolume raises V0 at maxInjectionRate per second, at each AnimateBeginEvent', async () => {
    const { AnimateBeginEvent } = await import('@sofa-ts/core');
    const c = cube();
    const t = new TaitSurfacePressureForceField();
    t.injectedVolume.value = 0.5;
    t.maxInjectionRate.value = 2;
    buildNode(c.x, new StubTopology(8, { quads: c.quads }), [t]);
    t.handleEvent(new AnimateBeginEvent(0.1));
    expect(t.currentInjectedVolume.value).to.be.closeTo(0.2, 1e-15);
    expect(t.v0.value).to.be.closeTo(1.2, 1e-15);
    for (let k = 0; k < 5; k++) t.handleEvent(new AnimateBeginEvent(0.1));
    expect(t.currentInjectedVolume.value).to.equal(0.5);
  });
});

describe('EdgePressureForceField', () => {
  const x = [0, 0, 0, 2, 0, 0, 2, 1, 0, 0, 1, 0];
  const edges = [0, 1, 1, 2, 2, 3, 3, 0];

  it('a pressure vector gives p·L_rest/2 on both ends of each selected edge', () => {
    const e = new EdgePressureForceField();
    e.pressure.value = Float64Array.of(0, 0, -1);
    e.edges.value = Uint32Array.of(0, 1, 1, 2);
    buildNode(x, new StubTopology(4, { edges }), [e]);
    expect(Array.from(e.restLengths)).to.deep.equal([2, 1]);
    const f = force(e, Float64Array.from(x));
    expect(sum3(f)).to.deep.equal([0, 0, -3]);
    expect(f[5]).to.equal(-1.5); // point 1: half of each edge
  });

  it('binormal mode: I·L/2 along b̂ × t̂ on the current edges, K = ∂f/∂x', () => {
    const e = new EdgePressureForceField();
    e.edgeIndices.value = Uint32Array.of(0, 1, 2);
    e.binormal.value = Float64Array.of(0, 0, 2);
    e.intensity.value = Float64Array.of(-3, 1, 2);
    buildNode(x, new StubTopology(4, { edges }), [e]);
    const f = force(e, Float64Array.from(x));
    // edge 0 along x: b̂ × t̂ = (0, 1, 0), load −3·2/2 = −3 on points 0 and 1
    expect(f[1]).to.be.closeTo(-3, 1e-15);
    const xs = Float64Array.from(x, (v, k) => v + 0.2 * Math.sin(3 * k));
    expectKMatchesFD(e, xs, 3);
  });

  it('refuses the mode without pressure and without binormal', () => {
    const e = new EdgePressureForceField();
    e.edgeIndices.value = Uint32Array.of(0);
    e.intensity.value = Float64Array.of(1);
    expect(() => buildNode(x, new StubTopology(4, { edges }), [e])).to.throw(/not supported/);
  });
});
