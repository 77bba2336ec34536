import { expect } from 'chai';
import * as path from 'node:path';
import type { Node } from '@sofa-ts/core';
import { el, find, initScene, tempFiles, type TestIndicesUser, type TestState, type TestTopology } from './scene-test-support.js';
import type { BoxROI } from './BoxROI.js';

/** Points (i, j, k), i, j, k ∈ {0, 1, 2}, spacing 1, index i + 3·(j + 3·k). */
const grid = (() => {
  const p: number[] = [];
  for (let k = 0; k < 3; k++) for (let j = 0; j < 3; j++) for (let i = 0; i < 3; i++) p.push(i, j, k);
  return p.join(' ');
})();
const gridIndex = (i: number, j: number, k: number): number => i + 3 * (j + 3 * k);
const arr = (a: ArrayLike<number>): number[] => Array.from(a);

function box(root: Node, name = 'box'): BoxROI {
  return find<BoxROI>(root, name);
}

/** A BoxROI on explicit positions and elements (no other component needed). */
function roi(attrs: Record<string, string>): BoxROI {
  return box(initScene([el('BoxROI', { name: 'box', ...attrs })]));
}

describe('BoxROI', () => {
  it('selects the grid points in a box, boundary included', () => {
    const root = initScene([el('TestState', { position: grid }), el('BoxROI', { name: 'box', box: '-0.5 -0.5 -0.5 1 2.5 2.5' })]);
    const b = box(root);
    // x ≤ 1 (x = 1 lies on the boundary): i ∈ {0, 1}, all j, k.
    const expected: number[] = [];
    for (let k = 0; k < 3; k++) for (let j = 0; j < 3; j++) for (let i = 0; i < 2; i++) expected.push(gridIndex(i, j, k));
    expect(arr(b.indices.value)).to.deep.equal(expected.sort((x, y) => x - y));
    expect(b.nbIndices.value).to.equal(18);
    expect(arr(b.indicesOut.value)).to.deep.equal([2, 5, 8, 11, 14, 17, 20, 23, 26]);
    expect(arr(b.pointsInROI.value.subarray(0, 6))).to.deep.equal([0, 0, 0, 1, 0, 0]);
  });

  it("a Rigid3d BoxROI on a Vec3d state converts each point as SOFA's Data link does: its position, identity orientation", () => {
    // BaseData::genericCopyValueFrom between two vector types: one element per parent element, the
    // first min(3, 7) numbers copied, the others left at the default coordinate (Tripod's SphereROI).
    const root = initScene([
      el('TestState', { position: grid }),
      el('BoxROI', { name: 'box', template: 'Rigid3d', box: '-0.5 -0.5 -0.5 1 2.5 2.5' }),
    ]);
    const b = box(root);
    const expected: number[] = [];
    for (let k = 0; k < 3; k++) for (let j = 0; j < 3; j++) for (let i = 0; i < 2; i++) expected.push(gridIndex(i, j, k));
    expect(arr(b.indices.value)).to.deep.equal(expected.sort((x, y) => x - y));
    expect(arr(b.pointsInROI.value.subarray(0, 14))).to.deep.equal([0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1]);
  });

  it('takes the union of several boxes and accepts min and max written the other way round', () => {
    const b = box(initScene([el('TestState', { position: grid }), el('BoxROI', { name: 'box', box: '1 1 1 0 0 0  2 2 2 2 2 2' })]));
    // The unit cube corners (i, j, k ∈ {0, 1}) and the point (2 2 2).
    expect(arr(b.indices.value)).to.deep.equal([0, 1, 3, 4, 9, 10, 12, 13, 26]);
  });

  it('uses the box 0 0 0 1 1 1 when none is given', () => {
    const b = box(initScene([el('TestState', { position: grid }), el('BoxROI', { name: 'box' })]));
    expect(arr(b.box.value)).to.deep.equal([0, 0, 0, 1, 1, 1]);
    expect(b.indices.value.length).to.equal(8);
  });

  it('puts an element inside when all its points are (strict), or its center (strict=0)', () => {
    const attrs = { box: '0 0 0 1 1 1', position: '0 0 0  1 0 0  2 0 0', edges: '0 1  1 2  0 2' };
    const strict = roi(attrs);
    expect(arr(strict.edgeIndices.value)).to.deep.equal([0]);
    expect(arr(strict.edgesInROI.value)).to.deep.equal([0, 1]);
    expect(arr(strict.edgeOutIndices.value)).to.deep.equal([1, 2]);
    // The center of (0 2) is (1 0 0), on the boundary.
    const loose = roi({ ...attrs, strict: '0' });
    expect(arr(loose.edgeIndices.value)).to.deep.equal([0, 2]);
  });

  // Cases and expected selections of SOFA's BoxROI_test.
  describe("SOFA's own test cases", () => {
    it('triangles and tetrahedra in an aligned box', () => {
      const t = roi({ box: '0 0 0 1 1 1', position: '0 0 0 1 0 0 1 1 0 2 0 0', triangles: '0 1 2 1 3 2' });
      expect(t.triangleIndices.print()).to.equal('0');
      expect(t.trianglesInROI.print()).to.equal('0 1 2');
      const te = roi({ box: '0 0 0 1 1 1', position: '0 0 0 1 0 0 1 1 0 1 0 1 2 0 0', tetrahedra: '0 1 2 3 1 2 4 3' });
      expect(te.tetrahedronIndices.print()).to.equal('0');
      expect(te.tetrahedraInROI.print()).to.equal('0 1 2 3');
    });

    it('points, edges, triangles and tetrahedra in an oriented box', () => {
      const ob = { box: '0 0 0 0 0 0', orientedBox: '2 0 0  0 0 0  2 2 2  2' };
      expect(roi({ ...ob, position: '1 0 0  1 0 1  0 0 1' }).indices.print()).to.equal('0 1');
      const e = roi({ ...ob, position: '0 0 0  1 0 1  0 0 1', edges: '0 1 0 2' });
      expect(e.edgeIndices.print()).to.equal('0');
      expect(e.edgesInROI.print()).to.equal('0 1');
      const t = roi({ ...ob, position: '0 0 0  1 0 0  1 1 0  0 0 -1', triangles: '0 1 2 0 3 1' });
      expect(t.triangleIndices.print()).to.equal('0');
      const te = roi({ ...ob, position: '0 0 0  1 0 0  1 1 0  1 0 1  0 0 -2', tetrahedra: '0 1 2 3 0 1 2 4' });
      expect(te.tetrahedronIndices.print()).to.equal('0');
      expect(te.tetrahedraInROI.print()).to.equal('0 1 2 3');
    });

    it('points in several aligned and oriented boxes', () => {
      const b = roi({
        box: '0 0 0 1 1 1  0 0 0 -1 -1 -1',
        orientedBox: '3 0 0  1 0 0  3 2 2  2    -3 0 0  -1 0 0  -3 -2 -2  2',
        position: '1 0 0  -1 0 0  2 0 0  -2 0 0  1 -1 0  -1 1 0',
      });
      expect(b.indices.print()).to.equal('0 1 2 3');
    });
  });

  describe('inputs and lazy updates', () => {
    it("follows the node's state even when the state is initialised after the BoxROI", () => {
      // BoxROI first: at its init the state has no rest positions yet; the consumer, initialised
      // after the state, reads indices through its link and gets the selection on the real points.
      const root = initScene([
        el('BoxROI', { name: 'box', box: '-0.5 -0.5 -0.5 0.5 2.5 0.5' }),
        el('TestState', { name: 'dofs', position: grid }),
        el('TestIndicesUser', { name: 'fixed', indices: '@box.indices' }),
      ]);
      expect(find<TestIndicesUser>(root, 'fixed').seenAtInit).to.deep.equal([0, 3, 6]);
    });

    it('recomputes when an input changes and an output is read (unless doUpdate is 0)', () => {
      const root = initScene([
        el('TestState', { name: 'dofs', position: grid }),
        el('BoxROI', { name: 'box', box: '0 0 0 0 0 0' }),
        el('TestIndicesUser', { name: 'fixed', indices: '@box.indices' }),
      ]);
      const b = box(root);
      const user = find<TestIndicesUser>(root, 'fixed');
      expect(arr(user.indices.value)).to.deep.equal([0]);
      b.box.read('1.5 -1 -1 3 3 3');
      expect(arr(user.indices.value)).to.deep.equal([2, 5, 8, 11, 14, 17, 20, 23, 26]);
      const state = find<TestState>(root, 'dofs');
      state.restPosition.value = Float64Array.of(2, 0, 0, 0, 0, 0);
      expect(arr(b.indices.value)).to.deep.equal([0]);

      const frozen = box(
        initScene([el('TestState', { position: grid }), el('BoxROI', { name: 'box', box: '0 0 0 0 0 0', doUpdate: '0' })]),
      );
      expect(arr(frozen.indices.value)).to.deep.equal([0]);
      frozen.box.read('1.5 -1 -1 3 3 3');
      expect(arr(frozen.indices.value)).to.deep.equal([0]);
    });

    it("classifies the elements of a kind at the first read of its outputs, the topology's list copied then", () => {
      // Points 0..3 on the x axis at 0, 1, 2, 3; the box holds x ≤ 1.5: points 0 and 1.
      const root = initScene([
        el('TestState', { name: 'dofs', position: '0 0 0 1 0 0 2 0 0 3 0 0' }),
        el('TestTopology', { name: 'topo', edges: '0 1 1 2 2 3', triangles: '0 1 2 1 2 3' }),
        el('BoxROI', { name: 'box', box: '-1 -1 -1 1.5 1 1' }),
      ]);
      const b = box(root);
      // nothing read yet: no copy of the topology's lists, no element output
      expect(b.edges.rawValue.length).to.equal(0);
      expect(b.edgesInROI.rawValue.length).to.equal(0);
      expect(arr(b.indices.value)).to.deep.equal([0, 1]);
      expect(b.triangles.rawValue.length).to.equal(0);
      // a read classifies the kind (edge 0 has both points in, the others do not)
      expect(arr(b.edgeIndices.value)).to.deep.equal([0]);
      expect(arr(b.edgesOutROI.value)).to.deep.equal([1, 2, 2, 3]);
      expect(arr(b.edges.rawValue)).to.deep.equal([0, 1, 1, 2, 2, 3]);
      expect(arr(b.triangleOutIndices.value)).to.deep.equal([0, 1]);
      // a change of the points, then of the topology's list, is seen at the next read
      find<TestState>(root, 'dofs').restPosition.value = Float64Array.of(0, 0, 0, 1, 0, 0, 1, 0, 0, 3, 0, 0);
      expect(arr(b.edgeIndices.value)).to.deep.equal([0, 1]);
      expect(arr(b.triangleIndices.value)).to.deep.equal([0]);
      find<TestTopology>(root, 'topo').edges.value = Uint32Array.of(2, 3, 0, 2);
      expect(arr(b.edgeIndices.value)).to.deep.equal([1]);
      expect(arr(b.edgesInROI.value)).to.deep.equal([0, 2]);
      // doUpdate 0: the elements are those of init, whatever changes after
      const frozenRoot = initScene([
        el('TestState', { name: 'dofs', position: '0 0 0 1 0 0 2 0 0 3 0 0' }),
        el('TestTopology', { name: 'topo', edges: '0 1 1 2 2 3' }),
        el('BoxROI', { name: 'box', box: '-1 -1 -1 1.5 1 1', doUpdate: '0' }),
      ]);
      find<TestTopology>(frozenRoot, 'topo').edges.value = Uint32Array.of(2, 3, 0, 2);
      expect(arr(box(frozenRoot).edgeIndices.value)).to.deep.equal([0]);
    });

    it('takes positions from a state above when the node has none', () => {
      const root = initScene([
        el('TestState', { position: grid }),
        el('Node', { name: 'child' }, [el('BoxROI', { name: 'box', box: '1.5 1.5 1.5 3 3 3' })]),
      ]);
      expect(arr(box(root).indices.value)).to.deep.equal([26]);
    });

    it("takes positions from the node's mesh loader, and elements from its topology", () => {
      const file = path.join(tempFiles({ 'sq.obj': 'v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 5 5 0\nf 1 2 3\nf 1 3 4\nf 2 5 3\n' }), 'sq.obj');
      const root = initScene([
        el('MeshOBJLoader', { name: 'loader', filename: file }),
        el('TestTopology', { name: 'topo', triangles: '@loader.triangles', edges: '0 1 1 4' }),
        el('BoxROI', { name: 'box', box: '-1 -1 -1 2 2 2' }),
      ]);
      const b = box(root);
      expect(arr(b.indices.value)).to.deep.equal([0, 1, 2, 3]);
      expect(arr(b.triangleIndices.value)).to.deep.equal([0, 1]);
      expect(arr(b.edgeIndices.value)).to.deep.equal([0]);
    });

    it('says where positions can come from when there are none', () => {
      expect(() => initScene([el('Node', { name: 'n' }, [el('BoxROI', { name: 'box' })])])).to.throw(
        /BoxROI 'box': no positions to select from/,
      );
    });
  });

  it('compares only the spatial coordinates of rigid and 2D templates', () => {
    const rigid = roi({ template: 'Rigid3', box: '0 0 0 1 1 1', position: '0.5 0.5 0.5 0 0 0 1  2 0 0 0 0 0 1' });
    expect(arr(rigid.indices.value)).to.deep.equal([0]);
    expect(arr(rigid.pointsInROI.value)).to.deep.equal([0.5, 0.5, 0.5, 0, 0, 0, 1]);
    const planar = roi({ template: 'Vec2', box: '0 0 5 1 1 6', position: '0.5 0.5  2 0' });
    expect(arr(planar.indices.value)).to.deep.equal([0]);
  });
});
