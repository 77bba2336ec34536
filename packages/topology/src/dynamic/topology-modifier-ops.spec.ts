import { expect } from 'chai';
import { TopologyElementData, type TopologyChange } from '@sofa-ts/core';
import type { TetrahedronSetTopologyContainer } from '../container/TetrahedronSetTopologyContainer.js';
import type { TetrahedronSetTopologyModifier } from '../container/TetrahedronSetTopologyModifier.js';
import type { TriangleSetTopologyContainer } from '../container/TriangleSetTopologyContainer.js';
import type { TriangleSetTopologyModifier } from '../container/TriangleSetTopologyModifier.js';
import { el, initScene, objectNamed } from '../container/container-test-support.js';
import { TRIANGLES_IN_TETRAHEDRON } from '../container/element-tables.js';
import { splitHexahedra } from '../mapping/Hexa2TetraTopologicalMapping.js';

/** Two tetrahedra sharing the face 1-2-3. */
const TWO_TETS = '0 1 2 3  1 2 3 4';

function tetScene(tetrahedra: string): { container: TetrahedronSetTopologyContainer; modifier: TetrahedronSetTopologyModifier } {
  const root = initScene(
    el('Node', { name: 'root' }, [
      el('TetrahedronSetTopologyContainer', { name: 't', tetrahedra }),
      el('TetrahedronSetTopologyModifier', { name: 'm' }),
    ]),
  );
  return { container: objectNamed(root, 't'), modifier: objectNamed(root, 'm') };
}

/** Every change the container sends, as a compact line. */
function record(container: { addTopologyHandler(h: { handleTopologyChange(c: TopologyChange): void }): void }): string[] {
  const log: string[] = [];
  container.addTopologyHandler({
    handleTopologyChange(c) {
      if (c.type === 'endOfChanges') log.push('end');
      else if (c.type === 'pointsRemoved' || c.type === 'pointsAdded') log.push(`${c.type} ${Array.from(c.indices).join(',')}`);
      else log.push(`${c.type} ${c.kind} ${Array.from(c.indices).join(',')}`);
    },
  });
  return log;
}

/** A grid of 2×2×3 cells split in 6 tetrahedra each (72 tetrahedra, 36 points). */
function gridTetrahedra(): string {
  const nx = 3,
    ny = 3,
    nz = 4;
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
  return Array.from(splitHexahedra(Uint32Array.from(hexa), true, nx - 1, ny - 1)).join(' ');
}

describe('topology: modifiers (SOFA topological changes)', () => {
  it("removing a tetrahedron: the last one takes its slot, its isolated faces, edges and point go too, in SOFA's event order", () => {
    const { container, modifier } = tetScene(TWO_TETS);
    expect(container.getTriangles().length / 3).to.equal(7);
    expect(container.getEdges().length / 2).to.equal(9);
    const log = record(container);
    modifier.removeTetrahedra([0]);
    // the remaining tetrahedron (1 2 3 4) took slot 0; point 0, isolated, was removed: point 4 (the last) now is 0
    expect(Array.from(container.getTetrahedra())).to.deep.equal([1, 2, 3, 0]);
    expect(container.getNbPoints()).to.equal(4);
    expect(container.getTriangles().length / 3).to.equal(4);
    expect(container.getEdges().length / 2).to.equal(6);
    for (let i = 0; i < container.getTriangles().length; i++) expect(container.getTriangles()[i]).to.be.below(4);
    expect(container.dynamicMesh().check()).to.deep.equal([]);
    // SOFA's order: tetrahedra warned and propagated, then their isolated faces and edges (one
    // propagation), then the isolated point; faces 0 3 2 (its faces but 1-2-3), edges 0 1 2 (those with point 0)
    expect(log).to.deep.equal([
      'elementsRemoved tetrahedron 0',
      'end',
      'elementsRemoved triangle 3,2,1',
      'elementsRemoved edge 2,1,0',
      'end',
      'pointsRemoved 0',
      'end',
    ]);
  });

  it('adding a tetrahedron creates the faces (SOFA orientation) and edges it lacks, each warned as it is created', () => {
    const { container, modifier } = tetScene('');
    const log = record(container);
    modifier.addTetrahedra([0, 1, 2, 3]);
    expect(container.getNbPoints()).to.equal(4);
    // face j opposite vertex j, as TRIANGLES_IN_TETRAHEDRON orients it, not rotated
    expect(Array.from(container.getTriangles())).to.deep.equal(TRIANGLES_IN_TETRAHEDRON.flat());
    // the edges of face 0 (vertices j+1, j+2), then the new ones of faces 1 and 2
    expect(Array.from(container.getEdges())).to.deep.equal([2, 3, 3, 1, 1, 2, 2, 0, 0, 3, 0, 1]);
    expect(log).to.deep.equal([
      'elementsAdded edge 0',
      'elementsAdded edge 1',
      'elementsAdded edge 2',
      'elementsAdded triangle 0',
      'elementsAdded edge 3',
      'elementsAdded edge 4',
      'elementsAdded triangle 1',
      'elementsAdded edge 5',
      'elementsAdded triangle 2',
      'elementsAdded triangle 3',
      'elementsAdded tetrahedron 0',
      'end',
    ]);
    // a second tetrahedron on face 1-2-3 reuses it and three of its edges
    modifier.addTetrahedra([1, 2, 3, 4]);
    expect(container.getTriangles().length / 3).to.equal(7);
    expect(container.getEdges().length / 2).to.equal(9);
    expect(container.dynamicMesh().check()).to.deep.equal([]);
  });

  it('random removals keep every table consistent, and per-item data follow the elements (swap with the last)', () => {
    const tets = gridTetrahedra();
    const { container, modifier } = tetScene(tets);
    const original = Uint32Array.from(tets.split(' ').map(Number));
    const nTet0 = original.length / 4;
    const nPts0 = container.getNbPoints();
    // per-point and per-tetrahedron data holding the original index, following the changes
    const pointId = new TopologyElementData(container, 'point', 1, {}, nPts0);
    pointId.values.forEach((_, i) => (pointId.values[i] = i));
    const tetId = new TopologyElementData(container, 'tetrahedron', 1, {}, nTet0);
    tetId.values.forEach((_, i) => (tetId.values[i] = i));
    let seed = 12345;
    const rand = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    const removed = new Set<number>();
    while (container.getTetrahedra().length > 0) {
      const n = container.getTetrahedra().length / 4;
      const ids = Array.from(new Set(Array.from({ length: 1 + rand(6) }, () => rand(n))));
      for (const i of ids) removed.add(tetId.values[i]);
      modifier.removeTetrahedra(ids);
      expect(container.dynamicMesh().check()).to.deep.equal([]);
      // each remaining tetrahedron is an original one, with its original points
      const t = container.getTetrahedra();
      expect(tetId.count).to.equal(t.length / 4);
      expect(pointId.count).to.equal(container.getNbPoints());
      const seen = new Set<number>();
      for (let e = 0; e < t.length / 4; e++) {
        const o = tetId.values[e];
        expect(removed.has(o), `tetrahedron ${o} was removed`).to.equal(false);
        seen.add(o);
        for (let j = 0; j < 4; j++) expect(pointId.values[t[4 * e + j]]).to.equal(original[4 * o + j]);
      }
      expect(seen.size).to.equal(nTet0 - removed.size);
      // every point left is used by a tetrahedron (removeIsolated)
      const used = new Set(t);
      expect(used.size).to.equal(container.getNbPoints());
    }
    expect(container.getNbPoints()).to.equal(0);
    expect(container.getTriangles().length).to.equal(0);
    expect(container.getEdges().length).to.equal(0);
  });

  it('removing triangles removes the edges and points they leave isolated; out-of-range indices are reported', () => {
    const root = initScene(
      el('Node', { name: 'root' }, [
        el('TriangleSetTopologyContainer', { name: 't', triangles: '0 1 2  1 3 2  2 3 4' }),
        el('TriangleSetTopologyModifier', { name: 'm' }),
      ]),
    );
    const container = objectNamed<TriangleSetTopologyContainer>(root, 't');
    const modifier = objectNamed<TriangleSetTopologyModifier>(root, 'm');
    expect(container.getEdges().length / 2).to.equal(7);
    modifier.removeTriangles([2, 7]);
    expect(Array.from(container.getTriangles())).to.deep.equal([0, 1, 2, 1, 3, 2]);
    expect(container.getEdges().length / 2).to.equal(5);
    expect(container.getNbPoints()).to.equal(4);
    expect(container.dynamicMesh().check()).to.deep.equal([]);
    // keeping the isolated points: the point count stays
    modifier.removeTriangles([1], true, false);
    expect(container.getNbPoints()).to.equal(4);
    expect(container.getEdges().length / 2).to.equal(3);
  });
});
