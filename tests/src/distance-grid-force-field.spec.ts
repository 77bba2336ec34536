import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadSceneFromString, type BaseForceField, type SofaError } from 'sofa-ts';
import { findNamed } from './harness-support-test-support.js';

/**
 * DistanceGridForceField against closed forms, on the box [−1, 1]³ (grid 21³ over [−1.2, 1.2]³,
 * cell width w = 0.12): near the middle of a face the grid's φ is the exact signed distance, linear
 * along the face normal n, so the grid gradient per cell is g = w·n and a point at signed distance
 * d gets f = −k·d·g.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-distance-grid-'));
const box = path.join(dir, 'box.obj');
fs.writeFileSync(
  box,
  [
    ...Array.from({ length: 8 }, (_, k) => `v ${k & 1 ? 1 : -1} ${k & 2 ? 1 : -1} ${k & 4 ? 1 : -1}`),
    ...['1 3 4 2', '5 6 8 7', '1 2 6 5', '3 7 8 4', '1 5 7 3', '2 4 8 6'].map((q) => `f ${q}`),
  ].join('\n') + '\n',
);
const w = 2.4 / 20;

async function forceOn(positions: string, ffAttrs: string, extra = ''): Promise<{ f: Float64Array; warnings: SofaError[] }> {
  const scene = await loadSceneFromString(`<Node name="root" gravity="0 0 0" dt="0.01"><DefaultAnimationLoop/>
    ${extra}<MechanicalObject name="dofs" position="${positions}"/>
    <DistanceGridForceField name="ff" filename="${box}" nx="21" ny="21" nz="21" ${ffAttrs}/></Node>`);
  const ff = findNamed<BaseForceField>(scene.root, 'ff');
  const s = ff.getMechanicalStates()[0];
  const f = new Float64Array(s.size * 3);
  ff.addForce([f], [s.x], [new Float64Array(s.size * 3)]);
  return { f, warnings: scene.warnings };
}

describe('DistanceGridForceField', () => {
  it('pushes a point inside out along the face normal: f = k_in·depth·w·n', async () => {
    const { f } = await forceOn('0.05 0.7 -0.03', 'stiffnessIn="200" stiffnessArea="0"');
    // depth 0.3 under the face y = 1
    expect(f[0]).to.be.closeTo(0, 1e-10);
    expect(f[1]).to.be.closeTo(200 * 0.3 * w, 1e-10);
    expect(f[2]).to.be.closeTo(0, 1e-10);
  });

  it('pulls a point outside back with stiffnessOut, and ignores points beyond maxdist', async () => {
    const { f } = await forceOn('1.1 0.02 0.04  0.1 0.1 1.8', 'stiffnessIn="0" stiffnessOut="50" maxdist="0.5" stiffnessArea="0"');
    // 0.1 outside the face x = 1
    expect(f[0]).to.be.closeTo(-50 * 0.1 * w, 1e-10);
    expect(Math.abs(f[1]) + Math.abs(f[2])).to.be.below(1e-10);
    // outside the grid (z > 1.2): eval = √(0.6² + 0.2²) > maxdist
    expect(Array.from(f.subarray(3))).to.deep.equal([0, 0, 0]);
  });

  it('leaves alone a triangle whose area seen along the surface normal is at least minArea', async () => {
    // a triangle near the face y = 1 (s = (0, 1, 0) there): A = ½(B×C)·s
    const p = [
      [0, 0.8, 0],
      [0, 0.8, 0.1],
      [0.1, 0.8, 0],
    ];
    const { f } = await forceOn(
      p.map((q) => q.join(' ')).join('  '),
      'stiffnessIn="0" stiffnessArea="40" minArea="0.001"',
      `<TriangleSetTopologyContainer name="topo" position="${p.map((q) => q.join(' ')).join('  ')}" triangles="0 1 2"/>`,
    );
    const B = [0, 0, 0.1],
      C = [0.1, 0, 0];
    const s = [0, 1, 0];
    const A = 0.5 * ((B[1] * C[2] - B[2] * C[1]) * s[0] + (B[2] * C[0] - B[0] * C[2]) * s[1] + (B[0] * C[1] - B[1] * C[0]) * s[2]);
    expect(A).to.be.closeTo(0.005, 1e-15);
    // A = 0.005 ≥ minArea (and the point term off): no force
    expect(Array.from(f).every((v) => v === 0)).to.equal(true);
  });

  it('pushes apart a flipped triangle (area along the surface normal below minArea): f_b = k_A(A_min − A)·(C×s), f_c = k_A(A_min − A)·(s×B)', async () => {
    const p = [
      [0, 0.8, 0],
      [0.1, 0.8, 0],
      [0, 0.8, 0.1],
    ];
    const pos = p.map((q) => q.join(' ')).join('  ');
    // a second, larger triangle listed last sets flipNormals (its area along g is positive)
    const { f } = await forceOn(
      `${pos}  0.3 0.8 0.3  0.3 0.8 0.5  0.5 0.8 0.3`,
      'stiffnessIn="0" stiffnessArea="40" minArea="0"',
      `<TriangleSetTopologyContainer name="topo" position="${pos}  0.3 0.8 0.3  0.3 0.8 0.5  0.5 0.8 0.3" triangles="0 1 2  3 4 5"/>`,
    );
    const B = [0.1, 0, 0],
      C = [0, 0, 0.1],
      s = [0, 1, 0];
    const A = 0.5 * (B[2] * C[0] - B[0] * C[2]); // (B×C)_y
    expect(A).to.be.closeTo(-0.005, 1e-15);
    const F = 40 * (0 - A);
    const fb = [(C[1] * s[2] - C[2] * s[1]) * F, (C[2] * s[0] - C[0] * s[2]) * F, (C[0] * s[1] - C[1] * s[0]) * F];
    const fc = [(s[1] * B[2] - s[2] * B[1]) * F, (s[2] * B[0] - s[0] * B[2]) * F, (s[0] * B[1] - s[1] * B[0]) * F];
    for (let c = 0; c < 3; c++) {
      expect(f[3 + c]).to.be.closeTo(fb[c], 1e-12);
      expect(f[6 + c]).to.be.closeTo(fc[c], 1e-12);
      expect(f[c]).to.be.closeTo(-(fb[c] + fc[c]), 1e-12);
      expect(f[9 + c] + f[12 + c] + f[15 + c]).to.equal(0);
    }
  });

  it('pushes apart a tetrahedron below minVolume: f_k = k_V(V_min − V)/6 · (B×C, C×A, A×B), minus their sum on the first point', async () => {
    const p = [
      [0, 0, 0],
      [0.2, 0, 0],
      [0, 0.3, 0],
      [0, 0, 0.1],
    ];
    const pos = p.map((q) => q.join(' ')).join('  ');
    const { f } = await forceOn(
      pos,
      'stiffnessIn="0" stiffnessArea="0" stiffnessVolume="60" minVolume="0.01"',
      `<TetrahedronSetTopologyContainer name="topo" position="${pos}" tetrahedra="0 1 2 3"/>`,
    );
    const A = [0.2, 0, 0],
      B = [0, 0.3, 0],
      C = [0, 0, 0.1];
    const cross = (u: number[], v: number[]): number[] => [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
    const V = (0.2 * 0.3 * 0.1) / 6;
    const F = (60 * (0.01 - V)) / 6;
    const fs = [cross(B, C), cross(C, A), cross(A, B)].map((v) => v.map((x) => x * F));
    for (let c = 0; c < 3; c++) {
      for (let k = 0; k < 3; k++) expect(f[3 * (k + 1) + c]).to.be.closeTo(fs[k][c], 1e-12);
      expect(f[c]).to.be.closeTo(-(fs[0][c] + fs[1][c] + fs[2][c]), 1e-12);
    }
  });

  it('refuses a missing file, a mesh that is not OBJ and a grid of fewer than 2 values per axis, at the component', async () => {
    const load = (attrs: string) =>
      loadSceneFromString(`<Node name="root"><MechanicalObject position="0 0 0"/><DistanceGridForceField ${attrs}/></Node>`);
    for (const [attrs, message] of [
      ['', /requires an input filename/],
      ['filename="nowhere.obj"', /not found/],
      [`filename="${box.replace(/\.obj$/, '.vtk')}"`, /only OBJ meshes/],
      [`filename="${box}" nx="1"`, /nx, ny, nz must be an integer ≥ 2/],
    ] as const) {
      let error: unknown;
      try {
        await load(attrs);
      } catch (e) {
        error = e;
      }
      expect(String(error), attrs).to.match(message);
    }
  });
});
