import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { listDataPaths, runRegressionScene } from '@sofa-ts/cli';
import { readRegressionList } from '@sofa-ts/io';
import { loadSceneFromString, mechanics, topology, type SofaScene } from 'sofa-ts';
import { hasCorpus, topologyList } from './corpus.js';

/** A box of nx × ny × nz points (spacing 1), split in tetrahedra by Hexa2Tetra into a dynamic container. */
function beamXml(opts: { nx: number; ny: number; nz: number; extra?: string; child?: string; processor?: string; solver?: boolean; gravity?: string }): string {
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
  for (let i = 0; i < list.length; i += k) out.push(Array.from(list.subarray(i, i + k)).sort((a, b) => a - b).join(','));
  return out.sort();
}

/** The boundary triangles of tetrahedra (faces used once), as sorted keys. */
function boundaryOf(tetra: Uint32Array): string[] {
  const count = new Map<string, number>();
  for (let t = 0; t < tetra.length; t += 4) {
    for (let j = 0; j < 4; j++) {
      const f = [0, 1, 2, 3].filter((m) => m !== j).map((m) => tetra[t + m]!).sort((a, b) => a - b).join(',');
      count.set(f, (count.get(f) ?? 0) + 1);
    }
  }
  return [...count].filter(([, c]) => c === 1).map(([f]) => f).sort();
}

function tetraOf(scene: SofaScene): topology.TetrahedronSetTopologyContainer {
  return scene.get<topology.TetrahedronSetTopologyContainer>('/beam/tetra')!;
}

/** Signed volume of tetrahedron t on positions x (det/6). */
function volume(x: Float64Array, tet: Uint32Array, t: number): number {
  const p = (j: number): number[] => [0, 1, 2].map((c) => x[3 * tet[4 * t + j]! + c]!);
  const [a, b, c, d] = [p(0), p(1), p(2), p(3)];
  const u = b.map((v, i) => v - a[i]!), v = c.map((w, i) => w - a[i]!), w = d.map((z, i) => z - a[i]!);
  return (u[0]! * (v[1]! * w[2]! - v[2]! * w[1]!) - u[1]! * (v[0]! * w[2]! - v[2]! * w[0]!) + u[2]! * (v[0]! * w[1]! - v[1]! * w[0]!)) / 6;
}

describe('topological changes through the XML path', () => {
  (hasCorpus ? it : it.skip)("SOFA's topology regression list: every scene gives SOFA's topologies, step by step (CompareTopology error 0)", async function () {
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
  });

  it("TopologicalChangeProcessor applies each block at the first step whose time reaches it, and the state follows the points", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-tcp-'));
    const file = path.join(dir, 'changes.txt');
    // 0.1 is reached at the 11th step (accumulated time 0.09999999999999999, within a double's epsilon)
    fs.writeFileSync(file, 'T= 0.03\n  REMOVE= 2\n0 1\nT= 0.1\n  REMOVE= 1\n5\n');
    const scene = await loadSceneFromString(beamXml({ nx: 3, ny: 3, nz: 3, processor: `<TopologicalChangeProcessor filename="${file}"/>` }));
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
    const original = new Set(Array.from({ length: t0.length / 4 }, (_, t) => [0, 1, 2, 3].map((j) => Array.from(x0.subarray(3 * t0[4 * t + j]!, 3 * t0[4 * t + j]! + 3)).join(' ')).join('|')));
    const tet = tetra.getTetrahedra();
    expect(dofs.size).to.equal(tetra.getNbPoints());
    for (let t = 0; t < tet.length / 4; t++) {
      const key = [0, 1, 2, 3].map((j) => Array.from(dofs.x.subarray(3 * tet[4 * t + j]!, 3 * tet[4 * t + j]! + 3)).join(' ')).join('|');
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
      for (let i = 0; i < t.length; i += 3) for (let j = 0; j < 3; j++) {
        const e = [t[i + ((j + 1) % 3)]!, t[i + ((j + 2) % 3)]!].sort((a, b) => a - b).join(',');
        count.set(e, (count.get(e) ?? 0) + 1);
      }
      expect(keys(edges.getEdges(), 2)).to.deep.equal([...count].filter(([, c]) => c === 1).map(([e]) => e).sort());
      for (const c of [tetra, tri, edges]) expect(c.dynamicMesh().check()).to.deep.equal([]);
    }
  });

  it('DiagonalMass keeps the mass of the remaining tetrahedra (ρ·V), the fixed points follow their renaming', async () => {
    const scene = await loadSceneFromString(beamXml({ nx: 3, ny: 3, nz: 6, extra: '<DiagonalMass name="mass" massDensity="2"/><FixedProjectiveConstraint name="fixed" indices="0 1 2 50 51 52"/>' }));
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
    for (let t = 0; t < tet.length / 4; t++) if ([0, 1, 2, 3].some((j) => dofs.x0[3 * tet[4 * t + j]! + 2]! > 4.5)) top.push(t);
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
});
