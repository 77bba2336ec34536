import { expect } from 'chai';
import { KeypressedEvent, KeyreleasedEvent, loadSceneFromString, type BaseMechanicalState, type BaseMeshTopology } from 'sofa-ts';
import type { collision } from 'sofa-ts';

/**
 * CarvingManager (SofaCarving): at the end of a step, the tool's contacts with the carved surface
 * closer than contactDistance + carvingDistance remove the tetrahedra under the touched boundary
 * triangles; the Tetra2TriangleTopologicalMapping gives the new boundary.
 */

/** A slab [0, nx] × [0, ny] × [0, 1] of unit cubes, each cut into the six tetrahedra around its diagonal. */
function slab(nx: number, ny: number): { points: number[]; tetra: number[] } {
  const points: number[] = [];
  const id = (i: number, j: number, k: number) => (k * (ny + 1) + j) * (nx + 1) + i;
  for (let k = 0; k <= 1; k++) for (let j = 0; j <= ny; j++) for (let i = 0; i <= nx; i++) points.push(i, j, k);
  const tetra: number[] = [];
  // Kuhn's cut: the paths 000 → 111 along the axes, one tetrahedron per order of the axes
  const orders = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
  ];
  for (let j = 0; j < ny; j++)
    for (let i = 0; i < nx; i++)
      for (const o of orders) {
        const c = [i, j, 0];
        const t = [id(c[0], c[1], c[2])];
        for (const ax of o) {
          c[ax]++;
          t.push(id(c[0], c[1], c[2]));
        }
        // positive orientation: swap two vertices when the determinant is negative
        const p = t.map((v) => points.slice(3 * v, 3 * v + 3));
        const d = (a: number[], b: number[]) => a.map((x, m) => x - b[m]);
        const [u, v, w] = [d(p[1], p[0]), d(p[2], p[0]), d(p[3], p[0])];
        const det = u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0]);
        if (det < 0) [t[2], t[3]] = [t[3], t[2]];
        tetra.push(...t);
      }
  return { points, tetra };
}

/** The faces (sorted vertex triples) of the tetrahedra that belong to exactly one of them. */
function boundaryFaces(tetra: ArrayLike<number>): Set<string> {
  const count = new Map<string, number>();
  for (let e = 0; e < tetra.length / 4; e++)
    for (let skip = 0; skip < 4; skip++) {
      const f: number[] = [];
      for (let m = 0; m < 4; m++) if (m !== skip) f.push(tetra[4 * e + m]);
      const key = f.sort((a, b) => a - b).join(' ');
      count.set(key, (count.get(key) ?? 0) + 1);
    }
  return new Set([...count].filter(([, c]) => c === 1).map(([k]) => k));
}

function scene(points: number[], tetra: number[], tool: number[], extra = '', manager = 'active="true"'): string {
  return `<Node name="root" dt="0.01" gravity="0 0 0">
  <DefaultAnimationLoop/>
  <CollisionPipeline/>
  <BruteForceBroadPhase/>
  <BVHNarrowPhase/>
  <CollisionResponse response="PenalityContactForceField"/>
  <MinProximityIntersection alarmDistance="0.5" contactDistance="0.1"/>
  <CarvingManager name="carving" ${manager} carvingDistance="0.05" ${extra}/>
  <Node name="slab">
    <MechanicalObject name="dofs" position="${points.join(' ')}"/>
    <TetrahedronSetTopologyContainer name="volume" tetrahedra="${tetra.join(' ')}"/>
    <TetrahedronSetTopologyModifier/>
    <Node name="surface">
      <TriangleSetTopologyContainer name="container"/>
      <TriangleSetTopologyModifier/>
      <Tetra2TriangleTopologicalMapping input="@../volume" output="@container"/>
      <TriangleCollisionModel tags="CarvingSurface"/>
    </Node>
  </Node>
  <Node name="tool">
    <MechanicalObject name="dofs" position="${tool.join(' ')}"/>
    <PointCollisionModel tags="CarvingTool"/>
  </Node>
</Node>`;
}

/** Deterministic pseudo-random numbers in [0, 1). */
function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

describe('CarvingManager', () => {
  it('removes exactly the tetrahedra under the top triangles that tool points reach within contactDistance + carvingDistance', async () => {
    const nx = 5,
      ny = 4;
    const { points, tetra } = slab(nx, ny);
    // top triangles (z = 1), found from the tetrahedra: face → its tetrahedron
    const top: { v: number[]; tet: number }[] = [];
    for (let e = 0; e < tetra.length / 4; e++)
      for (let skip = 0; skip < 4; skip++) {
        const f = [0, 1, 2, 3].filter((m) => m !== skip).map((m) => tetra[4 * e + m]);
        if (f.every((v) => points[3 * v + 2] === 1)) top.push({ v: f, tet: e });
      }
    expect(top.length).to.equal(2 * nx * ny);
    const rnd = lcg(7);
    const tool: number[] = [];
    const expected = new Set<number>();
    let near = 0;
    while (tool.length < 3 * 40) {
      const x = 0.3 + (nx - 0.6) * rnd(),
        y = 0.3 + (ny - 0.6) * rnd(),
        h = 0.3 * rnd();
      // the top triangle whose interior holds (x, y), with its barycentric coordinates
      let hit: number | undefined,
        margin = Infinity;
      for (const t of top) {
        const [a, b, c] = t.v.map((v) => [points[3 * v], points[3 * v + 1]]);
        const den = (b[1] - c[1]) * (a[0] - c[0]) + (c[0] - b[0]) * (a[1] - c[1]);
        const l1 = ((b[1] - c[1]) * (x - c[0]) + (c[0] - b[0]) * (y - c[1])) / den;
        const l2 = ((c[1] - a[1]) * (x - c[0]) + (a[0] - c[0]) * (y - c[1])) / den;
        const m = Math.min(l1, l2, 1 - l1 - l2);
        if (m > 0) [hit, margin] = [t.tet, m];
      }
      // keep clear of edges (the point-triangle test takes interiors only) and of the threshold
      if (hit === undefined || margin < 1e-3 || Math.abs(h - 0.15) < 1e-3) continue;
      tool.push(x, y, 1 + h);
      // value = distance − contactDistance < carvingDistance
      if (h - 0.1 < 0.05) {
        expected.add(hit);
        near++;
      }
    }
    expect(near).to.be.greaterThan(5);
    expect(expected.size).to.be.lessThan(top.length);
    const sc = await loadSceneFromString(scene(points, tetra, tool));
    const volume = sc.get<BaseMeshTopology>('/slab/volume')!;
    const surface = sc.get<BaseMeshTopology>('/slab/surface/container')!;
    sc.step(1);
    const kept = volume.getTetrahedra();
    expect(kept.length / 4).to.equal(tetra.length / 4 - expected.size);
    // the removed ones are the expected ones: the kept tetrahedra (as vertex sets) are the others
    const key = (t: ArrayLike<number>, e: number) =>
      Array.from({ length: 4 }, (_, m) => t[4 * e + m])
        .sort((a, b) => a - b)
        .join(' ');
    const keptKeys = new Set(Array.from({ length: kept.length / 4 }, (_, e) => key(kept, e)));
    for (let e = 0; e < tetra.length / 4; e++) expect(keptKeys.has(key(tetra, e)), `tetrahedron ${e}`).to.equal(!expected.has(e));
    // the mapped surface is the boundary of what is left
    const tri = surface.getTriangles();
    const surfKeys = new Set(
      Array.from({ length: tri.length / 3 }, (_, t) => [tri[3 * t], tri[3 * t + 1], tri[3 * t + 2]].sort((a, b) => a - b).join(' ')),
    );
    expect(surfKeys).to.deep.equal(boundaryFaces(kept));
    expect(surfKeys.size).to.equal(tri.length / 3);
    // the scene goes on with the changed topology
    sc.step(3);
    expect(boundaryFaces(volume.getTetrahedra())).to.deep.equal(
      new Set(
        Array.from({ length: surface.getTriangles().length / 3 }, (_, t) =>
          Array.from(surface.getTriangles().subarray(3 * t, 3 * t + 3))
            .sort((a, b) => a - b)
            .join(' '),
        ),
      ),
    );
  });

  it('carving a point model removes the tetrahedra under the surface triangles around the touched vertex', async () => {
    const nx = 3,
      ny = 3;
    const { points, tetra } = slab(nx, ny);
    const v = (1 * (ny + 1) + 1) * (nx + 1) + 1; // vertex (1, 1, 1)
    expect(points.slice(3 * v, 3 * v + 3)).to.deep.equal([1, 1, 1]);
    // the top faces around v and the tetrahedron of each
    const expected = new Set<number>();
    for (let e = 0; e < tetra.length / 4; e++)
      for (let skip = 0; skip < 4; skip++) {
        const f = [0, 1, 2, 3].filter((m) => m !== skip).map((m) => tetra[4 * e + m]);
        if (f.includes(v) && f.every((p) => points[3 * p + 2] === 1)) expected.add(e);
      }
    expect(expected.size).to.be.greaterThan(0);
    const text = scene(points, tetra, [1, 1, 1.12]).replace(
      '<TriangleCollisionModel tags="CarvingSurface"/>',
      '<PointCollisionModel tags="CarvingSurface"/>',
    );
    const sc = await loadSceneFromString(text);
    const volume = sc.get<BaseMeshTopology>('/slab/volume')!;
    const dofs = sc.get<BaseMechanicalState>('/slab/dofs')!;
    sc.step(1);
    const kept = volume.getTetrahedra();
    expect(kept.length / 4).to.equal(tetra.length / 4 - expected.size);
    // tetrahedra compared by the coordinates of their vertices (points left isolated are removed, renumbering the others)
    const key = (t: ArrayLike<number>, e: number, x: ArrayLike<number>) =>
      Array.from({ length: 4 }, (_, m) => Array.from({ length: 3 }, (_, c) => Math.round(x[3 * t[4 * e + m] + c])).join(','))
        .sort()
        .join(' ');
    const keptKeys = new Set(Array.from({ length: kept.length / 4 }, (_, e) => key(kept, e, dofs.x)));
    for (let e = 0; e < tetra.length / 4; e++) expect(keptKeys.has(key(tetra, e, points)), `tetrahedron ${e}`).to.equal(!expected.has(e));
    expect(dofs.size).to.equal(volume.getNbPoints());
  });

  it('removes nothing when every tool point is farther than contactDistance + carvingDistance', async () => {
    const { points, tetra } = slab(2, 2);
    const sc = await loadSceneFromString(scene(points, tetra, [0.7, 0.4, 1.2, 1.3, 1.6, 1.16]));
    sc.step(2);
    expect(sc.get<BaseMeshTopology>('/slab/volume')!.getTetrahedra().length).to.equal(tetra.length);
  });

  it('carves while its key is held, and between two presses of keySwitch, when not active', async () => {
    const { points, tetra } = slab(2, 2);
    const sc = await loadSceneFromString(scene(points, tetra, [0.7, 0.4, 1.05], '', 'active="false" key="c" keySwitch="s"'));
    const volume = sc.get<BaseMeshTopology>('/slab/volume')!;
    const n0 = volume.getTetrahedra().length / 4;
    sc.step(1);
    expect(volume.getTetrahedra().length / 4).to.equal(n0);
    sc.root.propagateEvent(new KeypressedEvent('c'));
    sc.step(1);
    const n1 = volume.getTetrahedra().length / 4;
    expect(n1).to.equal(n0 - 1);
    sc.root.propagateEvent(new KeyreleasedEvent('c'));
    sc.step(2);
    expect(volume.getTetrahedra().length / 4).to.equal(n1);
    sc.root.propagateEvent(new KeypressedEvent('s'));
    expect(sc.get<collision.CarvingManager>('/carving')!.active.value).to.equal(true);
    // the tool moved over another top triangle
    const tool = sc.get<BaseMechanicalState>('/tool/dofs')!;
    tool.x.set([1.7, 1.4, 1.05]);
    tool.touch();
    sc.step(1);
    expect(volume.getTetrahedra().length / 4).to.equal(n1 - 1);
    sc.root.propagateEvent(new KeypressedEvent('s'));
    expect(sc.get<collision.CarvingManager>('/carving')!.active.value).to.equal(false);
  });

  it('is a located error without a tool model', async () => {
    const { points, tetra } = slab(1, 1);
    const text = scene(points, tetra, [0.5, 0.5, 1.05]).replace('tags="CarvingTool"', '');
    let err: unknown;
    try {
      await loadSceneFromString(text);
    } catch (e) {
      err = e;
    }
    expect(String(err)).to.match(/CarvingManager 'carving'.*Tool Collision Model not found/s);
  });
});
