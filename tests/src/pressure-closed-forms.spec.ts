import { expect } from 'chai';
import type { BaseForceField, BaseMechanicalState } from 'sofa-ts';
import { findNamed, meshes, sceneOf } from './harness-support-test-support.js';

/**
 * Pressure loads per node, written from the physics through the XML path (their stiffness against
 * finite differences is in force-field-harness.spec.ts):
 * - TrianglePressureForceField, pressure vector p: each node of triangle t gets p·A_t/3;
 * - QuadPressureForceField: each node of quad q gets p·A_q/4;
 * - SurfacePressureForceField, scalar pressure p: each node of triangle (a, b, c) gets
 *   p·(b − a)×(c − a)/6 (a third of p times the area vector), so that a closed surface is in
 *   equilibrium and the total force on one face is p·A·n.
 */

const { strip, stripTriangles, stripQuads, cube } = meshes;
const num = (s: string) => s.trim().split(/\s+/).map(Number);
const S = num(strip),
  C = num(cube);
const pt = (p: number[], i: number) => [p[3 * i], p[3 * i + 1], p[3 * i + 2]];
const sub = (a: number[], b: number[]) => a.map((v, k) => v - b[k]);
const cross = (a: number[], b: number[]) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const chunks = (a: number[], n: number) => Array.from({ length: a.length / n }, (_, i) => a.slice(n * i, n * i + n));
/** Outward triangles of the unit cube's surface (grid point order i + 2j + 4k). */
const cubeSurface = '0 2 1  1 2 3  4 5 6  5 7 6  0 1 4  1 5 4  2 6 3  3 6 7  0 4 2  2 4 6  1 3 5  3 7 5';

async function forceOf(body: string): Promise<Float64Array> {
  const scene = await sceneOf(body);
  const ff = findNamed<BaseForceField>(scene.root, 'ff');
  const states: readonly BaseMechanicalState[] = ff.getMechanicalStates();
  const f = states.map((s) => new Float64Array(s.size * 3));
  ff.addForce(
    f,
    states.map((s) => Float64Array.from(s.x)),
    states.map((s) => new Float64Array(s.size * 3)),
  );
  return f[0];
}

describe('pressure loads per node (closed forms through the XML path)', () => {
  const p = [0.3, -0.2, 1.5];

  it('TrianglePressureForceField: p·A/3 on each node of each triangle', async () => {
    const f =
      await forceOf(`<TriangleSetTopologyContainer position="${strip}" triangles="${stripTriangles}"/><MechanicalObject position="${strip}"/>
      <TrianglePressureForceField name="ff" pressure="${p.join(' ')}" triangleList="0 1 2 3"/>`);
    const expected = new Float64Array(18);
    for (const t of chunks(num(stripTriangles), 3)) {
      const A = Math.hypot(...cross(sub(pt(S, t[1]), pt(S, t[0])), sub(pt(S, t[2]), pt(S, t[0])))) / 2;
      for (const i of t) for (let k = 0; k < 3; k++) expected[3 * i + k] += (p[k] * A) / 3;
    }
    for (let i = 0; i < 18; i++) expect(f[i]).to.be.closeTo(expected[i], 1e-14);
    // node 1 belongs to three triangles of area ½: p/2
    expect(f[4]).to.be.closeTo(p[1] / 2, 1e-14);
  });

  it('QuadPressureForceField: p·A/4 on each node of each quad', async () => {
    const f = await forceOf(`<QuadSetTopologyContainer position="${strip}" quads="${stripQuads}"/><MechanicalObject position="${strip}"/>
      <QuadPressureForceField name="ff" pressure="${p.join(' ')}" quadList="0 1"/>`);
    // unit quads: corner nodes get p/4, the two middle nodes (in both quads) p/2
    const share = [1, 2, 1, 1, 2, 1];
    for (let i = 0; i < 6; i++) for (let k = 0; k < 3; k++) expect(f[3 * i + k]).to.be.closeTo((share[i] * p[k]) / 4, 1e-14);
  });

  it('SurfacePressureForceField: p·(b − a)×(c − a)/6 per node; a closed cube is in equilibrium and a face carries p·A·n', async () => {
    const pr = 7;
    const f =
      await forceOf(`<TriangleSetTopologyContainer position="${cube}" triangles="${cubeSurface}"/><MechanicalObject position="${cube}"/>
      <SurfacePressureForceField name="ff" pressure="${pr}"/>`);
    const expected = new Float64Array(24);
    for (const t of chunks(num(cubeSurface), 3)) {
      const n = cross(sub(pt(C, t[1]), pt(C, t[0])), sub(pt(C, t[2]), pt(C, t[0])));
      for (const i of t) for (let k = 0; k < 3; k++) expected[3 * i + k] += (pr * n[k]) / 6;
    }
    for (let i = 0; i < 24; i++) expect(f[i]).to.be.closeTo(expected[i], 1e-13);
    for (let k = 0; k < 3; k++)
      expect(
        [0, 1, 2, 3, 4, 5, 6, 7].reduce((s, i) => s + f[3 * i + k], 0),
        'closed surface: no net force',
      ).to.be.closeTo(0, 1e-13);
    // the top face alone (its two triangles): p·A·n = (0, 0, 7)
    const top =
      await forceOf(`<TriangleSetTopologyContainer position="${cube}" triangles="4 5 6  5 7 6"/><MechanicalObject position="${cube}"/>
      <SurfacePressureForceField name="ff" pressure="${pr}"/>`);
    [0, 0, pr].forEach((v, k) => expect([4, 5, 6, 7].reduce((s, i) => s + top[3 * i + k], 0)).to.be.closeTo(v, 1e-13));
  });
});
