import { expect } from 'chai';
import { EDGES_IN_TETRAHEDRON, TRIANGLES_IN_TETRAHEDRON } from '../container/element-tables.js';
import { edgesInVolumes, EdgeLookup, FaceLookup, trianglesInTetrahedra } from '../container/adjacency.js';
import { splitHexahedra } from '../mapping/Hexa2TetraTopologicalMapping.js';
import type { ElementKind } from '../container/topology-container.js';
import { DynamicMesh, MESH_KINDS } from './dynamic-mesh.js';

/** A grid of nx×ny×nz points split in tetrahedra (6 per cell), with its triangles and edges. */
function gridMesh(
  nx: number,
  ny: number,
  nz: number,
): { tetrahedra: Uint32Array; triangles: Uint32Array; edges: Uint32Array; nPoints: number } {
  const id = (i: number, j: number, k: number): number => i + nx * (j + ny * k);
  const hexa: number[] = [];
  for (let k = 0; k + 1 < nz; k++)
    for (let j = 0; j + 1 < ny; j++)
      for (let i = 0; i + 1 < nx; i++)
        hexa.push(
          id(i, j, k),
          id(i + 1, j, k),
          id(i + 1, j + 1, k),
          id(i, j + 1, k),
          id(i, j, k + 1),
          id(i + 1, j, k + 1),
          id(i + 1, j + 1, k + 1),
          id(i, j + 1, k + 1),
        );
  const tetrahedra = splitHexahedra(Uint32Array.from(hexa), true, nx - 1, ny - 1);
  // every distinct face and edge of the tetrahedra, in order of first appearance
  const faces: number[] = [];
  const seenF = new Set<string>();
  const edges: number[] = [];
  const seenE = new Set<string>();
  for (let t = 0; t < tetrahedra.length / 4; t++) {
    for (const f of TRIANGLES_IN_TETRAHEDRON) {
      const v = f.map((j) => tetrahedra[4 * t + j]);
      const key = [...v].sort((a, b) => a - b).join(',');
      if (!seenF.has(key)) (seenF.add(key), faces.push(...v));
    }
    for (const [a, b] of EDGES_IN_TETRAHEDRON) {
      const v = [tetrahedra[4 * t + a], tetrahedra[4 * t + b]];
      const key = [...v].sort((x, y) => x - y).join(',');
      if (!seenE.has(key)) (seenE.add(key), edges.push(...v));
    }
  }
  return { tetrahedra, triangles: Uint32Array.from(faces), edges: Uint32Array.from(edges), nPoints: nx * ny * nz };
}

/** Every list and shell of a mesh, in order, as text. */
function snapshot(mesh: DynamicMesh): string[] {
  const out: string[] = [`points ${mesh.nPoints}`];
  for (const kind of MESH_KINDS) {
    out.push(`${kind}: ${Array.from(mesh.view(kind)).join(' ')}`);
    const shells = mesh.aroundVertex[kind];
    for (let p = 0; p < shells.count; p++) out.push(`${kind}s around ${p}: ${Array.from(shells.list(p)).join(' ')}`);
    for (const st of mesh.subs[kind]) {
      if (!st.built) continue;
      out.push(`${st.sub}s in ${kind}: ${Array.from(st.table.view()).join(' ')}`);
      for (let s = 0; s < st.around.count; s++) out.push(`${kind}s around ${st.sub} ${s}: ${Array.from(st.around.list(s)).join(' ')}`);
    }
  }
  return out;
}

function rng(seed: number): (n: number) => number {
  // the high bits of a linear congruential generator (its low bits cycle quickly)
  return (n) => ((seed = (seed * 1103515245 + 12345) % 2147483648), Math.floor((seed / 2147483648) * n));
}

/** `count` distinct indices below n, in descending order. */
function someIndices(rand: (n: number) => number, n: number, count: number): number[] {
  const s = new Set<number>();
  while (s.size < Math.min(count, n)) s.add(rand(n));
  return [...s].sort((a, b) => b - a);
}

describe('topology: DynamicMesh removals at once', () => {
  for (const tables of [false, true]) {
    it(`removing a list of elements in one call gives the lists, tables and shells (in order) of removing them one at a time${tables ? ', sub-element tables built' : ''}`, () => {
      const g = gridMesh(4, 4, 5);
      const rand = rng(tables ? 7 : 3);
      for (const kind of ['tetrahedron', 'triangle', 'edge'] as ElementKind[]) {
        // the kinds above `kind` are left out: a removed face or edge has no owner left (the
        // modifiers remove only isolated ones)
        const make = (): DynamicMesh => {
          const m = new DynamicMesh(g.nPoints, {
            ...(kind === 'tetrahedron' ? { tetrahedron: g.tetrahedra } : {}),
            ...(kind !== 'edge' ? { triangle: g.triangles } : {}),
            edge: g.edges,
          });
          if (tables)
            for (const [k, s] of [
              ['tetrahedron', 'triangle'],
              ['tetrahedron', 'edge'],
              ['triangle', 'edge'],
            ] as const)
              if (m.count(k) > 0) m.ensureTable(k, s);
          return m;
        };
        const a = make();
        const b = make();
        const ids = someIndices(rand, a.count(kind), Math.ceil(a.count(kind) / 3));
        const iso = (['triangle', 'edge'] as ElementKind[]).filter((s) => a.subs[kind].some((st) => st.sub === s));
        const batch = a.removeElements(kind, ids, iso, true);
        const seq = new Map<ElementKind, Set<number>>(iso.map((s) => [s, new Set()]));
        const points = new Set<number>();
        for (const i of ids) {
          const r = b.removeElements(kind, [i], iso, true);
          for (const s of iso) for (const x of Array.from(r.subs.get(s)!)) seq.get(s)!.add(x);
          for (const p of Array.from(r.points)) points.add(p);
        }
        const sa = snapshot(a),
          sb = snapshot(b);
        const first = sa.findIndex((line, i) => line !== sb[i]);
        expect(first < 0 ? '' : `${sa[first]}\n${sb[first]}`, kind).to.equal('');
        expect(sa.length).to.equal(sb.length);
        for (const s of iso)
          expect(
            [...Array.from(batch.subs.get(s)!)].sort((x, y) => x - y),
            `isolated ${s}s of ${kind}s`,
          ).to.deep.equal([...seq.get(s)!].sort((x, y) => x - y));
        expect([...Array.from(batch.points)].sort((x, y) => x - y)).to.deep.equal([...points].sort((x, y) => x - y));
      }
    });
  }

  it('a removal of tetrahedra, then of the faces and edges it isolates, at once or one at a time: the same tables (owners renamed)', () => {
    const g = gridMesh(4, 5, 4);
    const rand = rng(5);
    const make = (): DynamicMesh => {
      const m = new DynamicMesh(g.nPoints, { tetrahedron: g.tetrahedra, triangle: g.triangles, edge: g.edges });
      for (const [k, s] of [
        ['tetrahedron', 'triangle'],
        ['tetrahedron', 'edge'],
        ['triangle', 'edge'],
      ] as const)
        m.ensureTable(k, s);
      return m;
    };
    const a = make();
    const b = make();
    const desc = (x: Iterable<number>): number[] => [...x].sort((p, q) => q - p);
    const ids = someIndices(rand, a.count('tetrahedron'), 60);
    const r = a.removeElements('tetrahedron', ids, ['triangle', 'edge'], true);
    const faces = desc(Array.from(r.subs.get('triangle')!));
    const edges = desc(Array.from(r.subs.get('edge')!));
    expect(faces.length).to.be.above(0);
    expect(edges.length).to.be.above(0);
    a.removeElements('triangle', faces, [], false);
    a.removeElements('edge', edges, [], false);
    for (const i of ids) b.removeElements('tetrahedron', [i], [], false);
    for (const i of faces) b.removeElements('triangle', [i], [], false);
    for (const i of edges) b.removeElements('edge', [i], [], false);
    const sa = snapshot(a),
      sb = snapshot(b);
    const first = sa.findIndex((line, i) => line !== sb[i]);
    expect(first < 0 ? '' : `${sa[first]}\n${sb[first]}`).to.equal('');
    expect(sa.length).to.equal(sb.length);
    expect(a.check()).to.deep.equal([]);
  });

  it('a mesh holding its lists and table (adopt) changes them in place and ends as a copying mesh does', () => {
    const g = gridMesh(4, 4, 5);
    const rand = rng(7);
    const lists = { tetrahedron: g.tetrahedra.slice(), triangle: g.triangles.slice(), edge: g.edges.slice() };
    const table = new Uint32Array(6 * (g.tetrahedra.length / 4));
    {
      const index = new EdgeLookup(g.edges);
      for (let e = 0; e < g.tetrahedra.length / 4; e++)
        for (let j = 0; j < 6; j++) {
          const [u, v] = EDGES_IN_TETRAHEDRON[j];
          table[6 * e + j] = index.get(g.tetrahedra[4 * e + u], g.tetrahedra[4 * e + v]);
        }
    }
    const held = new DynamicMesh(g.nPoints, lists, true);
    held.setTable('tetrahedron', 'edge', table, true);
    const copied = new DynamicMesh(g.nPoints, { tetrahedron: g.tetrahedra, triangle: g.triangles, edge: g.edges });
    copied.setTable('tetrahedron', 'edge', table.slice());
    // no copy: the views are the given arrays
    expect(held.view('tetrahedron').buffer).to.equal(lists.tetrahedron.buffer);
    expect(held.view('edge').buffer).to.equal(lists.edge.buffer);
    for (const m of [held, copied]) m.ensureTable('tetrahedron', 'triangle');
    const ids = someIndices(rand, g.tetrahedra.length / 4, 25);
    for (const m of [held, copied]) m.removeElements('tetrahedron', ids, ['triangle', 'edge'], true);
    expect(snapshot(held)).to.deep.equal(snapshot(copied));
    expect(Array.from(held.view('tetrahedron'))).to.deep.equal(Array.from(lists.tetrahedron.subarray(0, held.view('tetrahedron').length)));
    expect(held.check()).to.deep.equal([]);
  });

  it('the faces and edges a removal of tetrahedra isolates are those no kept tetrahedron has (brute force)', () => {
    const g = gridMesh(5, 4, 6);
    const rand = rng(11);
    for (let trial = 0; trial < 4; trial++) {
      const mesh = new DynamicMesh(g.nPoints, { tetrahedron: g.tetrahedra, triangle: g.triangles, edge: g.edges });
      const nTet = g.tetrahedra.length / 4;
      const ids = someIndices(rand, nTet, 1 + rand(nTet));
      const removed = new Set(ids);
      // brute force: a sub-element of a removed tetrahedron, absent from every kept one
      const faceOf = trianglesInTetrahedra(g.tetrahedra, new FaceLookup(g.triangles, 3));
      const edgeOf = edgesInVolumes(g.tetrahedra, 'tetrahedron', new EdgeLookup(g.edges));
      const expected = (table: Uint32Array, n: number): number[] => {
        const kept = new Set<number>();
        const gone = new Set<number>();
        for (let t = 0; t < nTet; t++) for (let j = 0; j < n; j++) (removed.has(t) ? gone : kept).add(table[n * t + j]);
        return [...gone].filter((s) => !kept.has(s)).sort((a, b) => a - b);
      };
      const r = mesh.removeElements('tetrahedron', ids, ['triangle', 'edge'], false);
      expect([...Array.from(r.subs.get('triangle')!)].sort((a, b) => a - b)).to.deep.equal(expected(faceOf, 4));
      expect([...Array.from(r.subs.get('edge')!)].sort((a, b) => a - b)).to.deep.equal(expected(edgeOf, 6));
    }
  });

  it('removing points at once renames the moved points as one at a time does', () => {
    const g = gridMesh(3, 3, 4);
    // points 0 … 5 used by no element, so that removing them moves used points into their slots
    const shift = (a: Uint32Array): Uint32Array => a.map((p) => p + 6);
    const make = (): DynamicMesh =>
      new DynamicMesh(g.nPoints + 6, { tetrahedron: shift(g.tetrahedra), triangle: shift(g.triangles), edge: shift(g.edges) });
    const a = make();
    const b = make();
    const ids = [5, 3, 2, 0];
    a.removePoints(ids);
    for (const i of ids) b.removePoints([i]);
    expect(snapshot(a)).to.deep.equal(snapshot(b));
    expect(a.check()).to.deep.equal([]);
    expect(a.nPoints).to.equal(g.nPoints + 2);
  });
});
