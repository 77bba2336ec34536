import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadSceneFromString, mapping, type BaseMechanicalState, type SofaScene } from 'sofa-ts';
import { findNamed } from './harness-support-test-support.js';

/**
 * A BVH file written by hand (the public Biovision Hierarchy format): a root joint with 3
 * translations and a rotation about z, an arm 2 along x rotating about z, an End Site. Read by
 * ArticulatedHierarchyContainer and played by ArticulatedHierarchyBVHController through
 * ArticulatedSystemMapping; the expected values come from the file's numbers: translations as
 * given, angles a/180·3.14 (SOFA's conversion), interpolated between frames at α = n·Δ (Δ the
 * frame time), and the bodies by planar trigonometry: the root at the translation, rotated by θ,
 * the arm at root + R_z(θ)·(2, 0, 0), rotated by θ + φ.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-bvh-'));
function bvhFile(name: string, frameTime: number, frames: number[][]): string {
  const file = path.join(dir, name);
  fs.writeFileSync(
    file,
    `HIERARCHY
ROOT Hips
{
\tOFFSET 0.5 0 0
\tCHANNELS 4 Xposition Yposition Zposition Zrotation
\tJOINT Arm
\t{
\t\tOFFSET 2 0 0
\t\tCHANNELS 1 Zrotation
\t\tEnd Site
\t\t{
\t\t\tOFFSET 1 0 0
\t\t}
\t}
}
MOTION
Frames: ${frames.length}
Frame Time: ${frameTime}
${frames.map((f) => f.join(' ')).join('\n')}
`,
  );
  return file;
}

async function bvhScene(file: string): Promise<SofaScene> {
  const scene = await loadSceneFromString(`<Node name="root" gravity="0 0 0" dt="0.1"><DefaultAnimationLoop/>
    <Node name="man">
      <MechanicalObject name="q" template="Vec1d"/>
      <Node name="bodies">
        <MechanicalObject name="dofs" template="Rigid3d"/>
        <ArticulatedSystemMapping input1="@../q" output="@dofs"/>
      </Node>
      <ArticulatedHierarchyContainer name="hierarchy" filename="${file}"/>
      <ArticulatedHierarchyBVHController name="player"/>
    </Node></Node>`);
  scene.init();
  return scene;
}

const rad = (deg: number): number => (deg / 180) * 3.14;

function expectBodies(dofs: BaseMechanicalState, t: number[], theta: number, phi: number): void {
  const x = dofs.x;
  const hips = [0.5 + t[0], t[1], t[2]];
  hips.forEach((v, k) => expect(x[7 + k], `hips ${k}`).to.be.closeTo(v, 1e-12));
  // quaternion of R_z(θ): (0, 0, sin θ/2, cos θ/2)
  expect(x[7 + 5]).to.be.closeTo(Math.sin(theta / 2), 1e-12);
  expect(x[7 + 6]).to.be.closeTo(Math.cos(theta / 2), 1e-12);
  const arm = [hips[0] + 2 * Math.cos(theta), hips[1] + 2 * Math.sin(theta), hips[2]];
  arm.forEach((v, k) => expect(x[14 + k], `arm ${k}`).to.be.closeTo(v, 1e-12));
  expect(Math.abs(x[14 + 5])).to.be.closeTo(Math.abs(Math.sin((theta + phi) / 2)), 1e-12);
  expect(Math.abs(x[14 + 6])).to.be.closeTo(Math.abs(Math.cos((theta + phi) / 2)), 1e-12);
}

describe('BVH motion (ArticulatedHierarchyContainer filename, ArticulatedHierarchyBVHController)', () => {
  it('parses the hierarchy: joints numbered in order (End Sites too), offsets, channels, motion by joint', () => {
    const bvh = mapping.parseBvh(
      fs.readFileSync(
        bvhFile('parse.bvh', 0.5, [
          [1, 2, 3, 90, 10],
          [4, 5, 6, 45, -20],
        ]),
        'utf8',
      ),
    );
    expect(bvh.numJoints).to.equal(3);
    expect(bvh.frameCount).to.equal(2);
    expect(bvh.frameTime).to.equal(0.5);
    const arm = bvh.root.children[0];
    expect([bvh.root.id, arm.id, arm.children[0].id]).to.deep.equal([0, 1, 2]);
    expect(arm.children[0].endSite).to.equal(true);
    expect(arm.offset).to.deep.equal([2, 0, 0]);
    expect(bvh.root.channels).to.deep.equal(['Xposition', 'Yposition', 'Zposition', 'Zrotation']);
    expect(Array.from(bvh.root.motion)).to.deep.equal([1, 2, 3, 90, 4, 5, 6, 45]);
    expect(Array.from(arm.motion)).to.deep.equal([10, -20]);
  });

  it("builds SOFA's centers and articulations, sizes the states, and plays one frame a step (frame time 1)", async () => {
    const frames = [
      [1, 2, 3, 90, 0],
      [0.5, -1, 2, 30, 60],
      [0, 0, 1, -45, 120],
    ];
    const scene = await bvhScene(bvhFile('walk.bvh', 1, frames));
    const q = findNamed<BaseMechanicalState>(scene.root, 'q');
    const dofs = findNamed<BaseMechanicalState>(scene.root, 'dofs');
    expect(q.size).to.equal(5); // 4 + 1 channels
    expect(dofs.size).to.equal(4); // 3 joints + the fixed body 0
    const centers = findNamed<mapping.ArticulatedHierarchyContainer>(scene.root, 'hierarchy').getArticulationCenters();
    expect(centers.map((c) => [c.parentIndex.value, c.childIndex.value])).to.deep.equal([
      [0, 1],
      [1, 2],
    ]);
    expect(Array.from(centers[1].posOnParent.value)).to.deep.equal([2, 0, 0]);
    expect(centers.map((c) => c.getArticulations().map((a) => a.articulationIndex.value))).to.deep.equal([[0, 1, 2, 3], [4]]);
    for (let f = 0; f < 3; f++) {
      scene.step(1);
      // the last step repeats frame F − 2 = 1 (SOFA stops at F − 2 and interpolates with α = 0)
      const g = Math.min(f, 1);
      const fr = frames[g];
      const expected = [fr[0], fr[1], fr[2], rad(fr[3]), rad(fr[4])];
      expected.forEach((v, k) => expect(q.x[k], `frame ${g} channel ${k}`).to.be.closeTo(v, 1e-15));
      expectBodies(dofs, fr.slice(0, 3), rad(fr[3]), rad(fr[4]));
    }
  });

  it('interpolates within a frame: frame time 0.25 gives α = 0, 0.25, 0.5, 0.75, then the next frame', async () => {
    const frames = [
      [0, 0, 0, 0, 0],
      [4, 8, -4, 40, 80],
      [0, 0, 0, 0, 0],
    ];
    const scene = await bvhScene(bvhFile('slow.bvh', 0.25, frames));
    const q = findNamed<BaseMechanicalState>(scene.root, 'q');
    const dofs = findNamed<BaseMechanicalState>(scene.root, 'dofs');
    for (const alpha of [0, 0.25, 0.5, 0.75]) {
      scene.step(1);
      const t = [4 * alpha, 8 * alpha, -4 * alpha];
      t.forEach((v, k) => expect(q.x[k]).to.be.closeTo(v, 1e-14));
      expect(q.x[3]).to.be.closeTo(alpha * rad(40), 1e-14);
      expectBodies(dofs, t, alpha * rad(40), alpha * rad(80));
    }
    scene.step(1);
    expect(q.x[0]).to.be.closeTo(4, 1e-14);
  });

  it('refuses a controller without a BVH hierarchy', async () => {
    let err: unknown;
    await loadSceneFromString(`<Node name="root"><DefaultAnimationLoop/><Node name="man">
      <MechanicalObject template="Vec1d" position="0"/><ArticulatedHierarchyContainer/><ArticulatedHierarchyBVHController/></Node></Node>`)
      .then((s) => s.init())
      .catch((e: unknown) => (err = e));
    expect(String(err)).to.match(/0 BVH frames/);
  });
});
