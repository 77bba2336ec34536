import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { listDataPaths, runRegressionScene } from '@sofa-ts/cli';
import { readRegressionList } from '@sofa-ts/io';
import { loadSceneFromString, mapping, mechanics, topology, type SofaScene } from 'sofa-ts';
import { hasCorpus, topologyList } from './corpus-test-support.js';

/** A box of nx × ny × nz points (spacing 1), split in tetrahedra by Hexa2Tetra into a dynamic container. */
function beamXml(opts: {
  nx: number;
  ny: number;
  nz: number;
  extra?: string;
  child?: string;
  processor?: string;
  solver?: boolean;
  gravity?: string;
}): string {
  const { nx, ny, nz } = opts;
  return `<Node name="root" dt="0.01" gravity="${opts.gravity ?? '0 0 0'}">
    <DefaultAnimationLoop/>
    <Node name="beam">
      ${opts.solver ? '<EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/><CGLinearSolver iterations="100" tolerance="1e-12" threshold="1e-20"/>' : ''}
      <RegularGridTopology name="grid" n="${nx} ${ny} ${nz}" min="0 0 0" max="${nx - 1} ${ny - 1} ${nz - 1}"/>
      <MechanicalObject name="dofs"/>
      <TetrahedronSetTopologyContainer name="tetra"/>
      <TetrahedronSetTopologyModifier name="modifier"/>
      <Hexa2TetraTopologicalMapping input="@grid" output="@tetra" swapping="true"/>
      ${opts.extra ?? ''}
      ${opts.processor ?? ''}
      ${opts.child ?? ''}
    </Node>
  </Node>`;
}

/** Sorted-vertex keys of the faces (k vertices each) of elements given by their faces. */
function keys(list: Uint32Array, k: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < list.length; i += k)
    out.push(
      Array.from(list.subarray(i, i + k))
        .sort((a, b) => a - b)
        .join(','),
    );
  return out.sort();
}

/** The boundary triangles of tetrahedra (faces used once), as sorted keys. */
function boundaryOf(tetra: Uint32Array): string[] {
  const count = new Map<string, number>();
  for (let t = 0; t < tetra.length; t += 4) {
    for (let j = 0; j < 4; j++) {
      const f = [0, 1, 2, 3]
        .filter((m) => m !== j)
        .map((m) => tetra[t + m])
        .sort((a, b) => a - b)
        .join(',');
      count.set(f, (count.get(f) ?? 0) + 1);
    }
  }
  return [...count]
    .filter(([, c]) => c === 1)
    .map(([f]) => f)
    .sort();
}

function tetraOf(scene: SofaScene): topology.TetrahedronSetTopologyContainer {
  return scene.get<topology.TetrahedronSetTopologyContainer>('/beam/tetra')!;
}

/** Signed volume of tetrahedron t on positions x (det/6). */
function volume(x: Float64Array, tet: Uint32Array, t: number): number {
  const p = (j: number): number[] => [0, 1, 2].map((c) => x[3 * tet[4 * t + j] + c]);
  const [a, b, c, d] = [p(0), p(1), p(2), p(3)];
  const u = b.map((v, i) => v - a[i]),
    v = c.map((w, i) => w - a[i]),
    w = d.map((z, i) => z - a[i]);
  return (u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0])) / 6;
}

describe('topological changes through the XML path', () => {
  (hasCorpus ? it : it.skip)(
    "SOFA's topology regression list: every scene gives SOFA's topologies, step by step (CompareTopology error 0)",
    async function () {
      this.timeout(120000);
      const list = readRegressionList(topologyList);
      const out = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-topology-'));
      expect(list.entries.length).to.equal(10);
      for (const entry of list.entries) {
        const r = await runRegressionScene(entry, list.referenceRoot, { out, dataPath: [] }, listDataPaths(topologyList));
        expect(r.reason, `${entry.sceneRelative}: ${r.reason}`).to.equal(undefined);
        expect(r.topologyError, entry.sceneRelative).to.equal(0);
        expect(r.passed).to.equal(true);
      }
    },
  );

  it('TopologicalChangeProcessor applies each block at the first step whose time reaches it, and the state follows the points', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-tcp-'));
    const file = path.join(dir, 'changes.txt');
    // 0.1 is reached at the 11th step (accumulated time 0.09999999999999999, within a double's epsilon)
    fs.writeFileSync(file, 'T= 0.03\n  REMOVE= 2\n0 1\nT= 0.1\n  REMOVE= 1\n5\n');
    const scene = await loadSceneFromString(
      beamXml({ nx: 3, ny: 3, nz: 3, processor: `<TopologicalChangeProcessor filename="${file}"/>` }),
    );
    const tetra = tetraOf(scene);
    const dofs = scene.get<mechanics.MechanicalObject>('/beam/dofs')!;
    const counts: number[] = [];
    const x0 = Float64Array.from(dofs.x);
    const t0 = Uint32Array.from(tetra.getTetrahedra());
    for (let k = 0; k < 12; k++) {
      scene.step();
      counts.push(tetra.getTetrahedra().length / 4);
    }
    // changes at the beginning of steps 4 (t = 0.03) and 11 (t ≈ 0.1)
    expect(counts).to.deep.equal([48, 48, 48, 46, 46, 46, 46, 46, 46, 46, 45, 45]);
    // the points follow: every remaining tetrahedron has the positions of one of the original ones
    const original = new Set(
      Array.from({ length: t0.length / 4 }, (_, t) =>
        [0, 1, 2, 3].map((j) => Array.from(x0.subarray(3 * t0[4 * t + j], 3 * t0[4 * t + j] + 3)).join(' ')).join('|'),
      ),
    );
    const tet = tetra.getTetrahedra();
    expect(dofs.size).to.equal(tetra.getNbPoints());
    for (let t = 0; t < tet.length / 4; t++) {
      const key = [0, 1, 2, 3].map((j) => Array.from(dofs.x.subarray(3 * tet[4 * t + j], 3 * tet[4 * t + j] + 3)).join(' ')).join('|');
      expect(original.has(key), key).to.equal(true);
    }
  });

  it('Tetra2Triangle and Triangle2Edge keep giving the boundary of the remaining elements through random removals', async () => {
    const child = `<Node name="surface">
        <TriangleSetTopologyContainer name="tri"/>
        <TriangleSetTopologyModifier name="triMod"/>
        <Tetra2TriangleTopologicalMapping input="@../tetra" output="@tri"/>
        <Node name="border">
          <EdgeSetTopologyContainer name="edges"/>
          <EdgeSetTopologyModifier/>
          <Triangle2EdgeTopologicalMapping input="@../tri" output="@edges"/>
        </Node>
      </Node>`;
    const scene = await loadSceneFromString(beamXml({ nx: 4, ny: 3, nz: 5, child }));
    const tetra = tetraOf(scene);
    const modifier = scene.get<topology.TetrahedronSetTopologyModifier>('/beam/modifier')!;
    const tri = scene.get<topology.TriangleSetTopologyContainer>('/beam/surface/tri')!;
    const edges = scene.get<topology.EdgeSetTopologyContainer>('/beam/surface/border/edges')!;
    let seed = 4;
    const rand = (n: number): number => ((seed = (seed * 16807) % 2147483647), seed % n);
    expect(keys(tri.getTriangles(), 3)).to.deep.equal(boundaryOf(tetra.getTetrahedra()));
    expect(edges.getEdges().length).to.equal(0);
    for (let round = 0; round < 25 && tetra.getTetrahedra().length > 0; round++) {
      const n = tetra.getTetrahedra().length / 4;
      modifier.removeTetrahedra(Array.from(new Set([rand(n), rand(n), rand(n)])));
      expect(keys(tri.getTriangles(), 3)).to.deep.equal(boundaryOf(tetra.getTetrahedra()));
      expect(tri.getNbPoints()).to.equal(tetra.getNbPoints());
      // the border of the triangles: edges used by a single triangle (a closed surface has none)
      const count = new Map<string, number>();
      const t = tri.getTriangles();
      for (let i = 0; i < t.length; i += 3)
        for (let j = 0; j < 3; j++) {
          const e = [t[i + ((j + 1) % 3)], t[i + ((j + 2) % 3)]].sort((a, b) => a - b).join(',');
          count.set(e, (count.get(e) ?? 0) + 1);
        }
      expect(keys(edges.getEdges(), 2)).to.deep.equal(
        [...count]
          .filter(([, c]) => c === 1)
          .map(([e]) => e)
          .sort(),
      );
      for (const c of [tetra, tri, edges]) expect(c.dynamicMesh().check()).to.deep.equal([]);
    }
  });

  it('DiagonalMass keeps the mass of the remaining tetrahedra (ρ·V), the fixed points follow their renaming', async () => {
    const scene = await loadSceneFromString(
      beamXml({
        nx: 3,
        ny: 3,
        nz: 6,
        extra: '<DiagonalMass name="mass" massDensity="2"/><FixedProjectiveConstraint name="fixed" indices="0 1 2 50 51 52"/>',
      }),
    );
    const tetra = tetraOf(scene);
    const modifier = scene.get<topology.TetrahedronSetTopologyModifier>('/beam/modifier')!;
    const mass = scene.get<mechanics.DiagonalMass>('/beam/mass')!;
    const fixed = scene.get<mechanics.FixedProjectiveConstraint>('/beam/fixed')!;
    const dofs = scene.get<mechanics.MechanicalObject>('/beam/dofs')!;
    const fixedAt = (): string[] => Array.from(fixed.indices.value, (i) => Array.from(dofs.x0.subarray(3 * i, 3 * i + 3)).join(' ')).sort();
    const before = fixedAt();
    // remove the tetrahedra of the top layer (z > 4): points 45..53 leave, 50..52 among them
    const tet = tetra.getTetrahedra();
    const top: number[] = [];
    for (let t = 0; t < tet.length / 4; t++) if ([0, 1, 2, 3].some((j) => dofs.x0[3 * tet[4 * t + j] + 2] > 4.5)) top.push(t);
    modifier.removeTetrahedra(top);
    const remaining = tetra.getTetrahedra();
    let v = 0;
    for (let t = 0; t < remaining.length / 4; t++) v += Math.abs(volume(dofs.x0, remaining, t));
    expect(v).to.be.closeTo(2 * 2 * 4, 1e-12);
    const m = mass.pointMasses;
    expect(m.length).to.equal(dofs.size);
    expect(m.reduce((a, b) => a + b, 0)).to.be.closeTo(2 * v, 1e-12);
    expect(mass.totalMass.value).to.be.closeTo(2 * v, 1e-12);
    // the fixed points 50..52 left with the top; 0 1 2 are still the same positions
    expect(fixedAt()).to.deep.equal(before.filter((p) => !p.endsWith(' 5')));
  });

  it('Direction, Line, Plane, Point, AffineMovement and LinearMovement projective constraints follow point removals (their points, origins and start positions renamed)', async () => {
    // the bottom layer (z = 0: points 0..8) leaves; the last points (45..53, the top) move into its slots
    const list = '0 1 2 41 44 50 51 52';
    const bottom = (scene: SofaScene): number[] => {
      const tet = tetraOf(scene).getTetrahedra(),
        x0 = scene.get<mechanics.MechanicalObject>('/beam/dofs')!.x0;
      const out: number[] = [];
      for (let t = 0; t < tet.length / 4; t++) if ([0, 1, 2, 3].some((j) => x0[3 * tet[4 * t + j] + 2] === 0)) out.push(t);
      return out;
    };
    const scene = await loadSceneFromString(
      beamXml({
        nx: 3,
        ny: 3,
        nz: 6,
        extra: `<DirectionProjectiveConstraint name="dir" indices="${list}" direction="0 0 1"/>
        <LineProjectiveConstraint name="line" indices="${list}" origin="0 0 0" direction="1 0 0"/>
        <PlaneProjectiveConstraint name="plane" indices="${list}" origin="0 0 0" normal="0 1 0"/>
        <PointProjectiveConstraint name="point" indices="${list}" point="0 0 0"/>`,
      }),
    );
    const dofs = scene.get<mechanics.MechanicalObject>('/beam/dofs')!;
    const names = ['dir', 'line', 'plane', 'point'];
    const at = (name: string): string[] =>
      Array.from(scene.get<mechanics.PointProjectiveConstraint>(`/beam/${name}`)!.indices.value, (i) =>
        Array.from(dofs.x0.subarray(3 * i, 3 * i + 3)).join(' '),
      ).sort();
    const before = at('dir');
    scene.get<topology.TetrahedronSetTopologyModifier>('/beam/modifier')!.removeTetrahedra(bottom(scene));
    expect(dofs.size).to.equal(45);
    // the points at z = 0 left; the others are the same positions under their new indices
    const expected = before.filter((p) => !p.endsWith(' 0'));
    expect(expected.length).to.equal(5);
    for (const name of names) expect(at(name), name).to.deep.equal(expected);
    // the direction constraint keeps each point's own origin (its position at init, the rest here)
    const dir = scene.get<mechanics.DirectionProjectiveConstraint>('/beam/dir')!;
    const x = Float64Array.from(dofs.x0, (v, i) => v + [0.1, 0.2, 0.3][i % 3]);
    dir.projectPosition(x);
    for (const i of dir.indices.value)
      expect(Array.from(x.subarray(3 * i, 3 * i + 3))).to.deep.equal([dofs.x0[3 * i], dofs.x0[3 * i + 1], dofs.x0[3 * i + 2] + 0.3]);

    // AffineMovement and LinearMovement: start positions captured at the first step, the points renamed after it
    for (const constraint of [
      `<AffineMovementProjectiveConstraint name="moving" indices="${list}" beginConstraintTime="0" endConstraintTime="0.05" translation="0 0 1"/>`,
      `<LinearMovementProjectiveConstraint name="moving" indices="${list}" keyTimes="0 0.05" movements="0 0 0  0 0 1" relativeMovements="true"/>`,
    ]) {
      // the displacement of the points without a change (the same for all, the constraint's motion)
      const control = await loadSceneFromString(beamXml({ nx: 3, ny: 3, nz: 6, solver: true, extra: constraint }));
      control.step(7);
      const cdofs = control.get<mechanics.MechanicalObject>('/beam/dofs')!;
      const d = [0, 1, 2].map((k) => cdofs.x[k] - cdofs.x0[k]);
      expect(d[2]).to.be.greaterThan(0.9);
      const moving = await loadSceneFromString(beamXml({ nx: 3, ny: 3, nz: 6, solver: true, extra: constraint }));
      const mdofs = moving.get<mechanics.MechanicalObject>('/beam/dofs')!;
      const c = moving.get<mechanics.AffineMovementProjectiveConstraint>('/beam/moving')!;
      moving.step();
      moving.get<topology.TetrahedronSetTopologyModifier>('/beam/modifier')!.removeTetrahedra(bottom(moving));
      moving.step(6);
      expect(c.indices.value.length, c.className).to.equal(5);
      for (const i of c.indices.value) {
        Array.from(mdofs.x.subarray(3 * i, 3 * i + 3)).forEach((v, k) =>
          expect(v - mdofs.x0[3 * i + k], c.className).to.be.closeTo(d[k], 1e-12),
        );
      }
    }
  });

  it('Mesh2PointTopologicalMapping places its points as SOFA does and removes those of removed input items', async () => {
    const scene = await loadSceneFromString(
      beamXml({
        nx: 2,
        ny: 2,
        nz: 3,
        child: `<Node name="pts">
        <PointSetTopologyContainer name="points"/>
        <PointSetTopologyModifier/>
        <Mesh2PointTopologicalMapping name="map" input="@../tetra" output="@points" pointBaryCoords="0 0 0" edgeBaryCoords="0.25 0 0" tetraBaryCoords="0.25 0.25 0.25"/>
        <MechanicalObject name="state"/>
      </Node>`,
      }),
    );
    const tetra = tetraOf(scene);
    const modifier = scene.get<topology.TetrahedronSetTopologyModifier>('/beam/modifier')!;
    const map = scene.get<topology.Mesh2PointTopologicalMapping>('/beam/pts/map')!;
    const points = scene.get<topology.PointSetTopologyContainer>('/beam/pts/points')!;
    const state = scene.get<mechanics.MechanicalObject>('/beam/pts/state')!;
    const x = scene.get<mechanics.MechanicalObject>('/beam/dofs')!.x0;
    const at = (p: number): number[] => Array.from(state.x.subarray(3 * p, 3 * p + 3));
    /** Every output point where its input item puts it (the mapping's own maps). */
    const check = (): void => {
      const np = tetra.getNbPoints(),
        edges = tetra.getEdges(),
        tet = tetra.getTetrahedra();
      let count = 0;
      for (let i = 0; i < np; i++, count++)
        expect(at(map.pointsMappedFrom('point', i)[0])).to.deep.equal(Array.from(x.subarray(3 * i, 3 * i + 3)));
      for (let e = 0; e < edges.length / 2; e++, count++) {
        const [a, b] = [edges[2 * e], edges[2 * e + 1]];
        at(map.pointsMappedFrom('edge', e)[0]).forEach((v, c) => expect(v).to.be.closeTo(0.75 * x[3 * a + c] + 0.25 * x[3 * b + c], 1e-12));
      }
      for (let t = 0; t < tet.length / 4; t++, count++) {
        at(map.pointsMappedFrom('tetrahedron', t)[0]).forEach((v, c) => {
          const w = [0.25, 0.25, 0.25, 0.25].map((f, j) => f * x[3 * tet[4 * t + j] + c]);
          expect(v).to.be.closeTo(
            w.reduce((p, q) => p + q, 0),
            1e-12,
          );
        });
      }
      expect(points.getNbPoints()).to.equal(count);
      expect(state.size).to.equal(count);
    };
    check();
    modifier.removeTetrahedra([0, 3]);
    check();
    modifier.removeTetrahedra([1]);
    check();
  });

  it('a checkpoint refuses a scene whose topology changed, even when no state changed size (its tables are not checkpointed)', async () => {
    const scene = await loadSceneFromString(
      beamXml({
        nx: 3,
        ny: 3,
        nz: 3,
        solver: true,
        extra: '<UniformMass totalMass="1"/><TetrahedronFEMForceField youngModulus="100" poissonRatio="0.3"/>',
      }),
    );
    scene.step(1);
    expect(() => scene.checkpoint()).not.to.throw();
    const points = scene.get<mechanics.MechanicalObject>('/beam/dofs')!.size;
    // an interior-free 3×3×3 box: every point is shared by several tetrahedra, so removing one keeps them all
    scene.get<topology.TetrahedronSetTopologyModifier>('/beam/modifier')!.removeTetrahedra([0]);
    expect(scene.get<mechanics.MechanicalObject>('/beam/dofs')!.size).to.equal(points);
    scene.step(1);
    expect(() => scene.checkpoint()).to.throw(
      /the topology of node \/beam\/ changed during the run: topological changes are not checkpointed/,
    );
  });

  it('SubsetTopologicalMapping keeps the subset as SOFA does: removed input triangles leave the output, added ones join it (samePoints), the maps stay inverse', async () => {
    // the boundary triangles of the beam; the subset: those in the plane z = 0 (a BoxROI, as SOFA's scene)
    const scene = await loadSceneFromString(
      beamXml({
        nx: 3,
        ny: 3,
        nz: 3,
        child: `<Node name="surface">
        <TriangleSetTopologyContainer name="tri"/>
        <TriangleSetTopologyModifier name="triModifier"/>
        <Tetra2TriangleTopologicalMapping input="@../tetra" output="@tri"/>
        <Node name="bottom">
          <BoxROI name="roi" position="@../../dofs.rest_position" triangles="@../tri.triangles" box="-1 -1 -0.1 3 3 0.1"/>
          <TriangleSetTopologyContainer name="sub" position="@../../dofs.rest_position" triangles="@roi.trianglesInROI"/>
          <TriangleSetTopologyModifier/>
          <SubsetTopologicalMapping name="map" input="@../tri" output="@sub" samePoints="true" handleTriangles="true"/>
        </Node>
      </Node>`,
      }),
    );
    const tri = scene.get<topology.TriangleSetTopologyContainer>('/beam/surface/tri')!;
    const sub = scene.get<topology.TriangleSetTopologyContainer>('/beam/surface/bottom/sub')!;
    const map = scene.get<topology.SubsetTopologicalMapping>('/beam/surface/bottom/map')!;
    const x = scene.get<mechanics.MechanicalObject>('/beam/dofs')!.x0;
    const consistent = (): void => {
      const s2d = map.triangleS2D.value,
        d2s = map.triangleD2S.value;
      const st = tri.getTriangles(),
        dt = sub.getTriangles();
      expect(s2d.length).to.equal(st.length / 3);
      expect(d2s.length).to.equal(dt.length / 3);
      for (let d = 0; d < d2s.length; d++) {
        expect(s2d[d2s[d]]).to.equal(d);
        expect(Array.from(dt.subarray(3 * d, 3 * d + 3)).sort()).to.deep.equal(Array.from(st.subarray(3 * d2s[d], 3 * d2s[d] + 3)).sort());
      }
      expect(sub.dynamicMesh().check()).to.deep.equal([]);
    };
    expect(sub.getTriangles().length / 3).to.equal(8);
    consistent();
    const modifier = scene.get<topology.TetrahedronSetTopologyModifier>('/beam/modifier')!;
    const tet = tetraOf(scene).getTetrahedra();
    // SOFA's rule: the subset after a change = (subset ∩ remaining input) ∪ (input triangles just added)
    // (triangles named by their vertices' rest positions: point removals rename the points)
    const dofs = scene.get<mechanics.MechanicalObject>('/beam/dofs')!;
    const named = (list: Uint32Array): string[] => {
      const out: string[] = [];
      for (let i = 0; i < list.length; i += 3)
        out.push(
          [0, 1, 2]
            .map((j) => Array.from(dofs.x0.subarray(3 * list[i + j], 3 * list[i + j] + 3)).join(' '))
            .sort()
            .join(' | '),
        );
      return out.sort();
    };
    const removeAndCheck = (ids: number[]): void => {
      const inBefore = new Set(named(tri.getTriangles()));
      const subBefore = new Set(named(sub.getTriangles()));
      modifier.removeTetrahedra(ids);
      const inAfter = named(tri.getTriangles());
      const expected = inAfter.filter((k) => subBefore.has(k) || !inBefore.has(k));
      expect(named(sub.getTriangles())).to.deep.equal(expected);
      consistent();
    };
    // the tetrahedra touching the bottom at x ≤ 1: their bottom faces leave the surface
    const low: number[] = [];
    for (let i = 0; i < tet.length / 4; i++)
      if ([0, 1, 2, 3].every((j) => x[3 * tet[4 * i + j]] <= 1) && [0, 1, 2, 3].some((j) => x[3 * tet[4 * i + j] + 2] === 0)) low.push(i);
    expect(low.length).to.be.greaterThan(0);
    removeAndCheck(low);
    removeAndCheck([0, 1, 2]);
  });

  it('SimpleTesselatedTetraTopologicalMapping splits each tetrahedron in 8 of the same total volume, its mechanical mapping gives the midpoints, and removed tetrahedra take their 8 children', async () => {
    const scene = await loadSceneFromString(
      beamXml({
        nx: 2,
        ny: 2,
        nz: 3,
        child: `<Node name="fine">
        <TetrahedronSetTopologyContainer name="fineTetra"/>
        <TetrahedronSetTopologyModifier/>
        <SimpleTesselatedTetraTopologicalMapping name="map" input="@../tetra" output="@fineTetra"/>
        <MechanicalObject name="state"/>
        <SimpleTesselatedTetraMechanicalMapping name="mmap"/>
      </Node>`,
      }),
    );
    const coarse = tetraOf(scene);
    const fine = scene.get<topology.TetrahedronSetTopologyContainer>('/beam/fine/fineTetra')!;
    const dofs = scene.get<mechanics.MechanicalObject>('/beam/dofs')!;
    const state = scene.get<mechanics.MechanicalObject>('/beam/fine/state')!;
    const mmap = scene.get<mapping.SimpleTesselatedTetraMechanicalMapping>('/beam/fine/mmap')!;
    const total = (x: Float64Array, tet: Uint32Array): number => {
      let v = 0;
      for (let t = 0; t < tet.length / 4; t++) v += Math.abs(volume(x, tet, t));
      return v;
    };
    const check = (): void => {
      const nt = coarse.getTetrahedra().length / 4;
      expect(fine.getTetrahedra().length / 4).to.equal(8 * nt);
      expect(fine.getNbPoints()).to.equal(coarse.getNbPoints() + coarse.getEdges().length / 2);
      expect(state.size).to.equal(fine.getNbPoints());
      // deform the coarse state, map, compare: each fine tetrahedron's volume sums to its parent's
      const x = dofs.x;
      for (let i = 0; i < x.length; i++) x[i] = dofs.x0[i] * (1 + 0.1 * ((i * 7) % 5));
      mmap.apply();
      expect(total(state.x, fine.getTetrahedra())).to.be.closeTo(total(x, coarse.getTetrahedra()), 1e-9);
      // J is the map of positions (linear): J·x = apply(x)
      const jx = new Float64Array(state.x.length);
      mmap.applyJ(jx, [x]);
      for (let i = 0; i < jx.length; i++) expect(jx[i]).to.be.closeTo(state.x[i], 1e-12);
      // Jᵀ is the transpose of J: <J u, w> = <u, Jᵀ w>
      const u = Float64Array.from(x, (_, i) => Math.sin(i));
      const w = Float64Array.from(jx, (_, i) => Math.cos(i));
      const ju = new Float64Array(jx.length);
      mmap.applyJ(ju, [u]);
      const jtw = new Float64Array(u.length);
      mmap.applyJT([jtw], w);
      const dot = (a: Float64Array, b: Float64Array): number => a.reduce((s, v, i) => s + v * b[i], 0);
      expect(dot(ju, w)).to.be.closeTo(dot(u, jtw), 1e-9);
    };
    check();
    const modifier = scene.get<topology.TetrahedronSetTopologyModifier>('/beam/modifier')!;
    modifier.removeTetrahedra([0, 5]);
    check();
    modifier.removeTetrahedra([2, 3, 4]);
    check();
  });

  it('SimpleTesselatedTetraTopologicalMapping needs no modifier beside its output (as SOFA): removed input tetrahedra then leave the output unchanged, with a warning', async () => {
    const scene = await loadSceneFromString(
      beamXml({
        nx: 2,
        ny: 2,
        nz: 3,
        child: `<Node name="fine">
        <TetrahedronSetTopologyContainer name="fineTetra"/>
        <SimpleTesselatedTetraTopologicalMapping name="map" input="@../tetra" output="@fineTetra"/>
      </Node>`,
      }),
    );
    const coarse = tetraOf(scene);
    const fine = scene.get<topology.TetrahedronSetTopologyContainer>('/beam/fine/fineTetra')!;
    const map = scene.get<topology.SimpleTesselatedTetraTopologicalMapping>('/beam/fine/map')!;
    const nt = coarse.getTetrahedra().length / 4;
    expect(fine.getTetrahedra().length / 4).to.equal(8 * nt);
    scene.get<topology.TetrahedronSetTopologyModifier>('/beam/modifier')!.removeTetrahedra([0]);
    expect(coarse.getTetrahedra().length / 4).to.equal(nt - 1);
    expect(fine.getTetrahedra().length / 4).to.equal(8 * nt);
    expect(map.tetrahedraMappedFromTetra.value.length).to.equal(8 * (nt - 1));
    expect(scene.warnings.map((w) => w.message).join('\n')).to.match(
      /has no TetrahedronSetTopologyModifier: the output keeps their 8 children, as SOFA does/,
    );
  });

  it('Hexa2TetraTopologicalMapping follows a dynamic hexahedral input: removed hexahedra take their 6 tetrahedra, added ones are split', async () => {
    const scene = await loadSceneFromString(`<Node name="root" dt="0.01" gravity="0 0 0">
      <DefaultAnimationLoop/>
      <Node name="hexa">
        <RegularGridTopology name="grid" n="4 3 3" min="0 0 0" max="3 2 2"/>
        <HexahedronSetTopologyContainer name="hexa" position="@grid.position" hexahedra="@grid.hexahedra"/>
        <HexahedronSetTopologyModifier name="modifier"/>
        <MechanicalObject name="dofs" position="@grid.position"/>
        <Node name="tetra">
          <TetrahedronSetTopologyContainer name="tetra"/>
          <TetrahedronSetTopologyModifier/>
          <Hexa2TetraTopologicalMapping input="@../hexa" output="@tetra" swapping="true"/>
        </Node>
      </Node>
    </Node>`);
    const hexa = scene.get<topology.HexahedronSetTopologyContainer>('/hexa/hexa')!;
    const tetra = scene.get<topology.TetrahedronSetTopologyContainer>('/hexa/tetra/tetra')!;
    const modifier = scene.get<topology.HexahedronSetTopologyModifier>('/hexa/modifier')!;
    const dofs = scene.get<mechanics.MechanicalObject>('/hexa/dofs')!;
    // elements named by their vertices' rest positions (point removals rename the points)
    const name = (list: Uint32Array, i: number, k: number): string =>
      Array.from(list.subarray(k * i, k * i + k), (p) => Array.from(dofs.x0.subarray(3 * p, 3 * p + 3)).join(' ')).join(' | ');
    const children = new Map<string, string[]>();
    const h0 = hexa.getHexahedra(),
      t0 = tetra.getTetrahedra();
    for (let h = 0; h < h0.length / 8; h++)
      children.set(
        name(h0, h, 8),
        [0, 1, 2, 3, 4, 5].map((j) => name(t0, 6 * h + j, 4)),
      );
    const check = (): void => {
      const hs = hexa.getHexahedra(),
        ts = tetra.getTetrahedra();
      const expected: string[] = [];
      for (let h = 0; h < hs.length / 8; h++) expected.push(...children.get(name(hs, h, 8))!);
      const got: string[] = [];
      for (let t = 0; t < ts.length / 4; t++) got.push(name(ts, t, 4));
      expect(got.sort()).to.deep.equal(expected.sort());
      expect(tetra.getNbPoints()).to.equal(hexa.getNbPoints());
      expect(tetra.dynamicMesh().check()).to.deep.equal([]);
      for (let t = 0; t < ts.length / 4; t++) expect(volume(dofs.x0, ts, t)).to.be.greaterThan(0);
    };
    modifier.removeHexahedra([0, 5]);
    check();
    modifier.removeHexahedra([1, 2, 3]);
    check();
    // an added hexahedron (a copy of one that is left) is split as the grid's would be at its index
    const hs = hexa.getHexahedra();
    const n = hs.length / 8;
    modifier.removeHexahedra([0]);
    const again = Array.from(hs.subarray(0, 8));
    modifier.addHexahedra(again);
    expect(tetra.getTetrahedra().length / 4).to.equal(6 * n);
    check();
  });
});
