import { expect } from 'chai';
import { loadSceneFromString, type SofaScene } from 'sofa-ts';

/**
 * Edge2QuadTopologicalMapping + TubularMapping through XML: the tube of quads around a chain of
 * Rigid3 frames (closed forms: circle points, quad vertices, orientation), and the same tube
 * following an input edge removal.
 */

type V = [number, number, number];
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: V, b: V): V => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a: V, b: V): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/** Three frames along x (frame 2 turned by 90° about x), a tube of N points per circle. */
async function tube(mapping: string, tubular = true): Promise<SofaScene> {
  const s = Math.SQRT1_2;
  return loadSceneFromString(`<Node name="root" dt="0.01" gravity="0 0 0">
    <DefaultAnimationLoop/>
    <Node name="beam">
      <EdgeSetTopologyContainer name="edges" position="0 0 0  1 0 0  2 0 0" edges="0 1  1 2"/>
      <EdgeSetTopologyModifier name="edgeModifier"/>
      <MechanicalObject name="frames" template="Rigid3" position="0 0 0 0 0 0 1  1 0 0 0 0 0 1  2 0 0 ${s} 0 0 ${s}"/>
      <Node name="skin">
        <MechanicalObject name="points"/>
        <QuadSetTopologyContainer name="quads"/>
        <QuadSetTopologyModifier/>
        ${mapping}
        ${tubular ? '<TubularMapping name="tubular" nbPointsOnEachCircle="4" radius="0.5" input="@../frames" output="@points"/>' : ''}
      </Node>
    </Node>
  </Node>`);
}

const quadsOf = (scene: SofaScene): number[][] => {
  const q = scene.get('/beam/skin/quads')!.findData('quads')!.value as Uint32Array;
  return Array.from({ length: q.length / 4 }, (_, i) => Array.from(q.subarray(4 * i, 4 * i + 4)));
};
const positionsOf = (scene: SofaScene): Float64Array => scene.get('/beam/skin/points')!.findData('position')!.value as Float64Array;
const point = (x: Float64Array, i: number): V => [x[3 * i], x[3 * i + 1], x[3 * i + 2]];

describe('Edge2QuadTopologicalMapping and TubularMapping (scene)', () => {
  it('a chain of 2 edges gives 2·N quads (p0·N + j, p1·N + j, p1·N + j + 1, p0·N + j + 1) and N points per frame on the circle', async () => {
    const scene = await tube(
      '<Edge2QuadTopologicalMapping name="e2q" nbPointsOnEachCircle="4" radius="0.5" input="@../edges" output="@quads"/>',
      false,
    );
    expect(quadsOf(scene)).to.deep.equal([
      [0, 4, 5, 1],
      [1, 5, 6, 2],
      [2, 6, 7, 3],
      [3, 7, 4, 0],
      [4, 8, 9, 5],
      [5, 9, 10, 6],
      [6, 10, 11, 7],
      [7, 11, 8, 4],
    ]);
    expect(scene.get('/beam/skin/quads')!.findData('nbPoints')!.value).to.equal(12);
    // the mapping placed the circle points in the output node's state: c + ρ·(cos θ·R·e_y + sin θ·R·e_z)
    const x = positionsOf(scene);
    const expected: V[] = [
      [0, 0.5, 0],
      [0, 0, 0.5],
      [0, -0.5, 0],
      [0, 0, -0.5],
      [1, 0.5, 0],
      [1, 0, 0.5],
      [1, -0.5, 0],
      [1, 0, -0.5],
      [2, 0, 0.5],
      [2, -0.5, 0],
      [2, 0, -0.5],
      [2, 0.5, 0],
    ];
    expected.forEach((p, i) => point(x, i).forEach((v, k) => expect(v).to.be.closeTo(p[k], 1e-15)));
  });

  it('quads face the axis by default and away from it with flipNormals (reversed order)', async () => {
    for (const flip of [false, true]) {
      const scene = await tube(
        `<Edge2QuadTopologicalMapping nbPointsOnEachCircle="4" radius="0.5" flipNormals="${flip}" input="@../edges" output="@quads"/>`,
      );
      const x = positionsOf(scene);
      for (const q of quadsOf(scene).slice(0, 4)) {
        const [a, b, , d] = q.map((i) => point(x, i)) as [V, V, V, V];
        const n = cross(sub(b, a), sub(d, a));
        // outward direction at the quad: its centre minus the axis (frame 0 and 1 lie on the x axis)
        const c = q.map((i) => point(x, i)).reduce((s, p) => [s[0] + p[0] / 4, s[1] + p[1] / 4, s[2] + p[2] / 4], [0, 0, 0] as V);
        const out: V = [0, c[1], c[2]];
        expect(Math.sign(dot(n, out))).to.equal(flip ? 1 : -1);
      }
    }
  });

  it('TubularMapping moves the circle points with the frames, where Edge2Quad placed them at init', async () => {
    const placed = positionsOf(
      await tube('<Edge2QuadTopologicalMapping nbPointsOnEachCircle="4" radius="0.5" input="@../edges" output="@quads"/>', false),
    );
    const scene = await tube('<Edge2QuadTopologicalMapping nbPointsOnEachCircle="4" radius="0.5" input="@../edges" output="@quads"/>');
    positionsOf(scene).forEach((v, i) => expect(v).to.be.closeTo(placed[i], 1e-15));
    // translate frame 1 by (0, 0, 1) between steps: its circle follows
    const frames = scene.get('/beam/frames')!.findData('position')!.value as Float64Array;
    frames[7 + 2] = 1;
    scene.step();
    const x = positionsOf(scene);
    for (let j = 0; j < 4; j++)
      for (let k = 0; k < 3; k++) expect(x[3 * (4 + j) + k]).to.be.closeTo(placed[3 * (4 + j) + k] + (k === 2 ? 1 : 0), 1e-12);
  });

  it('radiusFocal and focalAxis give an ellipse; edgeList keeps the listed edges only', async () => {
    const scene = await tube(
      '<Edge2QuadTopologicalMapping nbPointsOnEachCircle="4" radius="0.5" radiusFocal="0.2" focalAxis="0 1 0" edgeList="1" input="@../edges" output="@quads"/>',
      false,
    );
    expect(quadsOf(scene)).to.deep.equal([
      [4, 8, 9, 5],
      [5, 9, 10, 6],
      [6, 10, 11, 7],
      [7, 11, 8, 4],
    ]);
    // Z0 = e_y, Y0 = Z0 × e_x = −e_z: x = c + ρ·cos θ·Y0 + ρ_f·sin θ·Z0 (frame 0 unrotated)
    const x = positionsOf(scene);
    const expected: V[] = [
      [0, 0, -0.5],
      [0, 0.2, 0],
      [0, 0, 0.5],
      [0, -0.2, 0],
    ];
    expected.forEach((p, i) => point(x, i).forEach((v, k) => expect(v).to.be.closeTo(p[k], 1e-15)));
  });

  it('follows the removal of an input edge: the quads of the kept edge remain', async () => {
    const scene = await tube('<Edge2QuadTopologicalMapping nbPointsOnEachCircle="4" radius="0.5" input="@../edges" output="@quads"/>');
    const modifier = scene.get('/beam/edgeModifier') as unknown as { removeEdges(ids: number[], removeIsolatedPoints?: boolean): void };
    modifier.removeEdges([0], false);
    // the input's edge 1 (1, 2) moved to slot 0; its quads are the output's
    const quads = quadsOf(scene).map((q) =>
      q
        .map((i) => Math.floor(i / 4))
        .sort()
        .join(','),
    );
    expect(quads).to.have.length(4);
    for (const q of quads) expect(q).to.equal('1,1,2,2');
  });

  it('a mapping without any radius is refused, located at the component', async () => {
    let error: unknown;
    try {
      await tube('<Edge2QuadTopologicalMapping nbPointsOnEachCircle="4" input="@../edges" output="@quads"/>', false);
    } catch (e) {
      error = e;
    }
    expect(String(error)).to.match(/Edge2QuadTopologicalMapping.*no radius/s);
  });
});
