import { expect } from 'chai';
import { applyRemoval, removalIndexMap, removalPermutation, renameAfterRemoval, type TopologyChange } from './topology-change.js';
import { TopologyElementData, followPointIndices } from './topology-data.js';
import { Data } from '../data.js';
import { IndexArray } from '../data-types.js';
import { Node } from '../node.js';
import { BaseMeshTopology } from './topology.js';

/** A topology that only delivers the changes given to it (its modifier's job). */
class FakeTopology extends BaseMeshTopology {
  n = 6;
  getNbPoints(): number {
    return this.n;
  }
  getPositions(): Float64Array | undefined {
    return undefined;
  }
  getEdges(): Uint32Array {
    return new Uint32Array(0);
  }
  getTriangles(): Uint32Array {
    return new Uint32Array(0);
  }
  getQuads(): Uint32Array {
    return new Uint32Array(0);
  }
  getTetrahedra(): Uint32Array {
    return new Uint32Array(0);
  }
  getHexahedra(): Uint32Array {
    return new Uint32Array(0);
  }
  send(c: TopologyChange): void {
    this.notifyTopologyChanges([c]);
  }
}

describe('core: topological changes', () => {
  it('a removal copies the last item into each removed slot, in descending order (SOFA)', () => {
    const a = Float64Array.of(0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5);
    expect(applyRemoval(a, 2, 6, [4, 1])).to.equal(4);
    // slot 4 ← 5, then slot 1 ← the new last (the old 5)
    expect(Array.from(a.subarray(0, 8))).to.deep.equal([0, 0, 5, 5, 2, 2, 3, 3]);
    // removing the last item does not move anything
    expect(Array.from(removalPermutation(6, [5, 0]))).to.deep.equal([4, 1, 2, 3]);
  });

  it('index lists drop removed items (keeping their order) and rename the moved last one', () => {
    // 6 points, removed 4 then 1: point 5 moves to 4, then that point (now the last) moves to 1
    expect(Array.from(renameAfterRemoval([5, 1, 3, 4], 6, [4, 1]))).to.deep.equal([1, 3]);
    expect(Array.from(renameAfterRemoval([0, 5, 2], 6, [1]))).to.deep.equal([0, 1, 2]);
  });

  it("a whole removal at once (index map, renamed lists) equals SOFA's one item at a time", () => {
    let seed = 99;
    const rand = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2147483648), Math.floor((seed / 2147483648) * n));
    for (let trial = 0; trial < 50; trial++) {
      const count = 1 + rand(40);
      const removed = [...new Set(Array.from({ length: rand(count + 1) }, () => rand(count)))].sort((a, b) => b - a);
      // one at a time: the item in each removed slot goes, the last item takes the slot
      const slots = Array.from({ length: count }, (_, i) => i);
      for (const i of removed) {
        slots[i] = slots[slots.length - 1];
        slots.pop();
      }
      const expected = new Array<number>(count).fill(-1);
      slots.forEach((item, slot) => (expected[item] = slot));
      expect(Array.from(removalIndexMap(count, removed)), `removing ${removed} of ${count}`).to.deep.equal(expected);
      // a list of indices (repeats, out of range) renamed: entries of removed items dropped, the others renamed in place
      const list = Array.from({ length: rand(20) }, () => rand(count + 2));
      let sequential = [...list];
      let last = count - 1;
      for (const p of removed) {
        sequential = sequential.filter((v) => v !== p);
        if (p !== last) sequential = sequential.map((v) => (v === last ? p : v));
        last--;
      }
      expect(Array.from(renameAfterRemoval(list, count, removed))).to.deep.equal(sequential);
    }
  });

  it('TopologyElementData and followPointIndices follow removals and additions', () => {
    const topo = new FakeTopology();
    const data = new TopologyElementData(
      topo,
      'point',
      2,
      { onAdd: (i, v, o, anc, w) => (v[o] = anc ? anc.reduce((s, a, j) => s + w![j] * 10 * a, 0) : -1) },
      6,
    );
    for (let i = 0; i < 6; i++) data.values[2 * i] = 10 * i;
    const indices = new Data<Uint32Array>(
      { name: 'indices', type: IndexArray(1), default: Uint32Array.of(5, 2, 4), help: 'points' },
      new Node('owner'),
    );
    followPointIndices(topo, indices);
    topo.send({ type: 'pointsRemoved', indices: Uint32Array.of(4, 2), dofs: true });
    // 4 ← 5, then 2 ← (the new last) 4: 0 10 50 30
    expect(Array.from(data.values).filter((_, i) => i % 2 === 0)).to.deep.equal([0, 10, 50, 30]);
    topo.n = 4;
    expect(Array.from(indices.value)).to.deep.equal([2]);
    topo.send({ type: 'pointsAdded', indices: Uint32Array.of(4), ancestors: [[0, 1]], coefs: [[0.5, 0.5]], dofs: true });
    expect(data.count).to.equal(5);
    expect(data.values[8]).to.equal(0.5 * 0 + 0.5 * 10);
  });
});
