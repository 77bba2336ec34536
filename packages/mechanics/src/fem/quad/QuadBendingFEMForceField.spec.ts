import { expect } from 'chai';
import { buildNode, StubTopology } from '../../mass/mesh-test-support.js';
import { stiffnessAndFiniteDifferences } from '../../load/fd-check-test-support.js';
import { QuadBendingFEMForceField } from './QuadBendingFEMForceField.js';

/** A Lx × Ly plate in the xy plane cut in nx × ny rectangles (SOFA's node order per quad). */
function plate(nx: number, ny: number, Lx: number, Ly: number): { pts: number[]; quads: number[] } {
  const pts: number[] = [];
  for (let j = 0; j <= ny; j++) for (let i = 0; i <= nx; i++) pts.push((Lx * i) / nx, (Ly * j) / ny, 0);
  const id = (i: number, j: number): number => i + (nx + 1) * j;
  const quads: number[] = [];
  for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) quads.push(id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1));
  return { pts, quads };
}

function make(E: number, nu: number, t: number, pts: number[], quads: number[]): QuadBendingFEMForceField {
  const ff = new QuadBendingFEMForceField();
  ff.youngModulus.value = Float64Array.of(E);
  ff.poissonRatio.value = Float64Array.of(nu);
  ff.thickness.value = t;
  buildNode(pts, new StubTopology(pts.length / 3, { quads }), [ff]);
  return ff;
}

function forceAt(ff: QuadBendingFEMForceField, x: Float64Array): Float64Array {
  const f = new Float64Array(x.length);
  ff.addForce([f], [x], [new Float64Array(x.length)]);
  return f;
}

describe('QuadBendingFEMForceField', () => {
  const E = 2000,
    nu = 0.3,
    t = 0.5;
  const Lx = 3,
    Ly = 2;

  it('patch test: a uniform membrane strain gives no force inside and the plane-stress traction σ·t on the edges', () => {
    // 3 × 2 unequal rectangles: u = G·X with a small G (the current half sizes move K by O(G²))
    const { pts, quads } = plate(3, 2, Lx, Ly);
    pts[3 * 1] = 0.8; // uneven columns, still rectangles
    pts[3 * 5] = 0.8;
    pts[3 * 9] = 0.8;
    const ff = make(E, nu, t, pts, quads);
    const s = 1e-7,
      G = [0.7 * s, 0.3 * s, 0.1 * s, -0.4 * s];
    const x = Float64Array.from(pts);
    for (let i = 0; i < pts.length / 3; i++) {
      x[3 * i] += G[0] * pts[3 * i] + G[1] * pts[3 * i + 1];
      x[3 * i + 1] += G[2] * pts[3 * i] + G[3] * pts[3 * i + 1];
    }
    const f = forceAt(ff, x);
    const Eh = E / (1 - nu * nu);
    const sxx = Eh * (G[0] + nu * G[3]),
      syy = Eh * (G[3] + nu * G[0]),
      sxy = (E / (2 * (1 + nu))) * (G[1] + G[2]);
    // inner nodes (1, 1) and (2, 1): no force
    for (const node of [5, 6]) for (let c = 0; c < 3; c++) expect(Math.abs(f[3 * node + c])).to.be.below(1e-6 * Math.abs(sxx) * t);
    // the right edge x = Lx carries −(σxx, σxy)·t·Ly (internal forces)
    let fx = 0,
      fy = 0;
    for (const node of [3, 7, 11]) {
      fx += f[3 * node];
      fy += f[3 * node + 1];
    }
    expect(-fx).to.be.closeTo(sxx * t * Ly, 1e-6 * Math.abs(sxx * t * Ly));
    expect(-fy).to.be.closeTo(sxy * t * Ly, 1e-6 * Math.abs(sxy * t * Ly));
    // the top edge y = Ly carries −(σxy, σyy)·t·Lx
    let gy = 0;
    for (const node of [8, 9, 10, 11]) gy += f[3 * node + 1];
    expect(-gy).to.be.closeTo(syy * t * Lx, 1e-6 * Math.abs(syy * t * Lx));
  });

  it('patch test of the transverse term: a uniform slope w = α·x gives no force inside and k·G·t·α·Ly on the edge', () => {
    const { pts, quads } = plate(3, 2, Lx, Ly);
    const ff = make(E, nu, t, pts, quads);
    const alpha = 1e-3;
    const x = Float64Array.from(pts, (c, i) => (i % 3 === 2 ? alpha * pts[i - 2] : c));
    const f = forceAt(ff, x);
    const kGt = ((5 / 6) * E * t) / (2 * (1 + nu));
    for (const node of [5, 6]) expect(Math.abs(f[3 * node + 2])).to.be.below(1e-12 * kGt);
    let fz = 0;
    for (const node of [3, 7, 11]) fz += f[3 * node + 2];
    // the slope lengthens the x edges by O(α²): K, measured on them, by α²/2
    expect(-fz).to.be.closeTo(kGt * alpha * Ly, alpha * alpha * kGt * alpha * Ly);
  });

  it('K equals the finite differences of the force at rest and after a translation; addDForce is the same K', () => {
    const { pts, quads } = plate(2, 2, Lx, Ly);
    const ff = make(E, nu, t, pts, quads);
    for (const shift of [0, 0.7]) {
      const x = Float64Array.from(pts, (c) => c + shift);
      const { K, FD } = stiffnessAndFiniteDifferences(ff, x, new Float64Array(x.length), 1e-6);
      let err = 0,
        scale = 0;
      for (let i = 0; i < K.length; i++)
        for (let j = 0; j < K.length; j++) {
          err = Math.max(err, Math.abs(K[i][j] - FD[i][j]));
          scale = Math.max(scale, Math.abs(K[i][j]));
        }
      expect(err / scale).to.be.below(1e-7);
      const dx = Float64Array.from(x, (_, i) => Math.sin(3 * i));
      const df = new Float64Array(x.length);
      ff.addDForce([df], [dx], 0.3, 0);
      for (let i = 0; i < x.length; i++) {
        let s = 0;
        for (let j = 0; j < x.length; j++) s += K[i][j] * dx[j];
        expect(df[i]).to.be.closeTo(0.3 * s, 1e-10 * scale);
      }
    }
  });
});
