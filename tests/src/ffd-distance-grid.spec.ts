import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { collision, contactPointPosition, loadSceneFromString, type BaseMechanicalState, type SofaScene } from 'sofa-ts';
import { findNamed } from './harness-support-test-support.js';

/**
 * FFDDistanceGridCollisionModel (SofaDistanceGrid) against closed forms: the distance grid of the
 * box [−1, 1]³ in one cube of a RegularGridTopology ([−1.5, 1.5]³) whose corners are moved by an
 * affine map x = A·X + t, so that the undeformed point of p is A⁻¹(p − t) and the distance the
 * model gives is the box's distance there; a trilinear (non-affine) deformation, whose undeformed
 * point must be found by the Newton iterations within SOFA's tolerance; and the 8-weight contact
 * point on the cube's corners, its position against the affine map and its weights against
 * finite differences of the deformation (∂x(b)/∂C_j).
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-ffd-grid-'));
const box = path.join(dir, 'box.obj');
fs.writeFileSync(
  box,
  [
    ...Array.from({ length: 8 }, (_, k) => `v ${k & 1 ? 1 : -1} ${k & 2 ? 1 : -1} ${k & 4 ? 1 : -1}`),
    ...['1 3 4 2', '5 6 8 7', '1 2 6 5', '3 7 8 4', '1 5 7 3', '2 4 8 6'].map((q) => `f ${q}`),
  ].join('\n') + '\n',
);

async function ffdScene(points: number[], topology = 'topology="@grid"'): Promise<SofaScene> {
  const scene = await loadSceneFromString(`<Node name="root" gravity="0 0 0" dt="0.01">
    <DefaultAnimationLoop/>
    <Node name="object">
      <MechanicalObject name="dofs"/>
      <RegularGridTopology name="grid" n="2 2 2" min="-1.5 -1.5 -1.5" max="1.5 1.5 1.5"/>
      <FFDDistanceGridCollisionModel name="ffd" filename="${box}" nx="21" ny="21" nz="21" contactDistance="0.1" ${topology}/>
    </Node>
    <Node name="points">
      <MechanicalObject name="pts" position="${points.join(' ')}"/>
      <PointCollisionModel name="pm"/>
    </Node>
  </Node>`);
  scene.init();
  return scene;
}

const A = [1.3, 0.2, 0.1, 0.1, 0.8, 0, -0.2, 0.15, 1.1];
const t = [0.4, -0.3, 0.7];
const affine = (X: ArrayLike<number>, o = 0): number[] =>
  [0, 1, 2].map((i) => A[3 * i] * X[o] + A[3 * i + 1] * X[o + 1] + A[3 * i + 2] * X[o + 2] + t[i]);

function parts(scene: SofaScene): {
  ffd: collision.FFDDistanceGridCollisionModel;
  pm: collision.PointCollisionModel;
  dofs: BaseMechanicalState;
} {
  return {
    ffd: findNamed<collision.FFDDistanceGridCollisionModel>(scene.root, 'ffd'),
    pm: findNamed<collision.PointCollisionModel>(scene.root, 'pm'),
    dofs: findNamed<BaseMechanicalState>(scene.root, 'dofs'),
  };
}

function detect(ffd: collision.FFDDistanceGridCollisionModel, pm: collision.PointCollisionModel, j = 0): collision.DetectionOutputs {
  const method = new collision.LocalMinDistance();
  method.alarmDistance.value = 0.3;
  method.contactDistance.value = 0.1;
  const f = method.findIntersector(ffd.kind, pm.kind);
  expect(f, 'ffddistancegrid–point').to.not.equal(undefined);
  expect(f!.swap).to.equal(false);
  ffd.updateGrid();
  const out = new collision.DetectionOutputs();
  f!.test(ffd, 0, pm, j, out);
  return out;
}

describe('FFDDistanceGridCollisionModel', () => {
  it('an affinely deformed cube: value = distance of A⁻¹(p − t) to the box − contact distances, point0 on the undeformed surface, normal = A·n̂', async () => {
    // p is the image of X = (0.1, 1.05, −0.05), 0.05 above the face y = 1 of the undeformed box
    const X = [0.1, 1.05, -0.05];
    const scene = await ffdScene(affine(X));
    const { ffd, pm, dofs } = parts(scene);
    for (let i = 0; i < 8; i++) dofs.x.set(affine(dofs.x, 3 * i), 3 * i);
    const out = detect(ffd, pm);
    expect(out.count).to.equal(1);
    expect(out.value[0]).to.be.closeTo(0.05 - 0.2, 1e-9);
    [0.1, 1, -0.05].forEach((v, k) => expect(out.point0[k]).to.be.closeTo(v, 1e-9));
    const n = [A[1], A[4], A[7]];
    const r = Math.hypot(...n);
    n.forEach((v, k) => expect(out.normal[k]).to.be.closeTo(v / r, 1e-9));
    // the 8-weight contact point follows the affine map of the undeformed point
    const side = new collision.ContactSide();
    side.attach(0, ffd, out.elem1[0], out.point0, 0);
    expect(side.n[0]).to.equal(8);
    const p = new Float64Array(3);
    contactPointPosition(p, 0, dofs.x, side, 0);
    affine([0.1, 1, -0.05]).forEach((v, k) => expect(p[k]).to.be.closeTo(v, 1e-9));
  });

  it('a translated cube: the distance of a point 0.12 outside a face (not a contact beyond 0.001 + the contact distances)', async () => {
    const scene = await ffdScene([0.3 + 2, -1.12 - 1, 0.2 + 0.5, 0.3 + 2, -1.25 - 1, 0.2 + 0.5]);
    const { ffd, pm, dofs } = parts(scene);
    for (let i = 0; i < 8; i++) ((dofs.x[3 * i] += 2), (dofs.x[3 * i + 1] -= 1), (dofs.x[3 * i + 2] += 0.5));
    const out = detect(ffd, pm, 0);
    expect(out.count).to.equal(1);
    expect(out.value[0]).to.be.closeTo(0.12 - 0.2, 1e-9);
    [0, -1, 0].forEach((v, k) => expect(out.normal[k]).to.be.closeTo(v, 1e-12));
    [2.3, -2, 0.7].forEach((v, k) => expect(out.point0[k] + [2, -1, 0.5][k]).to.be.closeTo(v, 1e-9));
    expect(detect(ffd, pm, 1).count).to.equal(0);
  });

  it('a trilinear deformation: the Newton search finds the undeformed point within 0.005, its distance is the box distance there', async () => {
    const rest = Array.from({ length: 8 }, (_, j) => [j & 1 ? 1.5 : -1.5, j & 2 ? 1.5 : -1.5, j & 4 ? 1.5 : -1.5]);
    const moved = rest.map((c, j) => (j === 7 ? [c[0] + 0.3, c[1] - 0.2, c[2] + 0.25] : j === 2 ? [c[0] - 0.15, c[1] + 0.1, c[2]] : c));
    const bStar = [0.6, 0.75, 0.4];
    const trilinear = (b: number[]): number[] =>
      [0, 1, 2].map((c) =>
        moved.reduce((s, C, j) => s + C[c] * (j & 1 ? b[0] : 1 - b[0]) * (j & 2 ? b[1] : 1 - b[1]) * (j & 4 ? b[2] : 1 - b[2]), 0),
      );
    const scene = await ffdScene(trilinear(bStar));
    const { ffd, pm, dofs } = parts(scene);
    // grid point (i, j, k) has index i + 2j + 4k, as corner bits (x, y, z)
    moved.forEach((C, j) => dofs.x.set(C, 3 * j));
    ffd.updateGrid();
    const b = new Float64Array(3);
    expect(ffd.locate(0, pm.x, 0, 1, b)).to.equal(1);
    const found = trilinear(Array.from(b));
    expect(Math.hypot(...found.map((v, k) => v - pm.x[k]))).to.be.lessThan(Math.fround(0.005));
    // the undeformed point (0.3, 0.75, −0.3) is 0.25 inside the face y = 1
    const out = detect(ffd, pm);
    expect(out.count).to.equal(1);
    expect(out.value[0]).to.be.closeTo(-0.25 - 0.2, 0.01);
    // 8 weights: ∂x(b)/∂C_j by central differences of the deformation, at the contact's cube coordinates
    const side = new collision.ContactSide();
    side.attach(0, ffd, 0, out.point0, 0);
    ffd.baryCoords(0, out.point0, 0, b);
    const x = new Float64Array(3),
      xm = new Float64Array(3);
    const h = 1e-6;
    for (let k = 0; k < 8; k++) {
      const v = side.idx[k];
      dofs.x[3 * v + 1] += h;
      ffd.updateGrid();
      ffd.deform(0, b, x);
      dofs.x[3 * v + 1] -= 2 * h;
      ffd.updateGrid();
      ffd.deform(0, b, xm);
      dofs.x[3 * v + 1] += h;
      expect(side.w[k]).to.be.closeTo((x[1] - xm[1]) / (2 * h), 1e-8);
      expect(Math.abs(x[0] - xm[0]) + Math.abs(x[2] - xm[2])).to.be.lessThan(1e-12);
    }
  });

  it('refuses a topology that is not a grid', async () => {
    let err: unknown;
    await loadSceneFromString(`<Node name="root"><DefaultAnimationLoop/><Node name="o">
      <MechanicalObject position="0 0 0 1 0 0 0 1 0 0 0 1"/><MeshTopology name="t" tetrahedra="0 1 2 3"/>
      <FFDDistanceGridCollisionModel filename="${box}" nx="8" ny="8" nz="8" topology="@t"/></Node></Node>`)
      .then((s) => s.init())
      .catch((e: unknown) => (err = e));
    expect(String(err)).to.match(/RegularGridTopology or SparseGridTopology/);
  });
});
