import { expect } from 'chai';
import { AnimateBeginEvent } from '@sofa-ts/core';
import { el, find, initScene, type TestState } from '../scene-test-support.js';
import { arr, one } from '../engine-test-support.js';
import type { AverageCoord } from './AverageCoord.js';
import type { ClusteringEngine } from './ClusteringEngine.js';
import type { HausdorffDistance } from './HausdorffDistance.js';

describe('Engine.Analyze', () => {
  it('AverageCoord averages the state coordinates of the indices (all by default) and follows the state', () => {
    const root = initScene([
      el('TestState', { name: 'dofs', position: '0 0 0  2 0 0  4 6 0' }),
      el('AverageCoord', { name: 'a' }),
      el('AverageCoord', { name: 'b', indices: '1 2' }),
    ]);
    const a = find<AverageCoord>(root, 'a');
    expect(arr(a.average.value)).to.deep.equal([2, 2, 0]);
    expect(arr(find<AverageCoord>(root, 'b').average.value)).to.deep.equal([3, 3, 0]);
    find<TestState>(root, 'dofs').position.value = Float64Array.of(1, 1, 1, 1, 1, 1, 1, 1, 4);
    a.handleEvent(new AnimateBeginEvent(0.01));
    expect(arr(a.average.value)).to.deep.equal([1, 1, 2]);
  });

  it('HausdorffDistance: the directed distances and their max', () => {
    const h = one<HausdorffDistance>('HausdorffDistance', { points1: '0 0 0  10 0 0', points2: '0 0 0  1 0 0' });
    expect(h.d12.value).to.equal(9);
    expect(h.d21.value).to.equal(1);
    expect(h.max.value).to.equal(9);
    const v1 = one<HausdorffDistance>('HausdorffDistance', { template: 'Vec1', points1: '10', points2: '0 4' });
    expect([v1.d12.value, v1.d21.value, v1.max.value]).to.deep.equal([6, 10, 10]);
  });

  it('ClusteringEngine: clusters around every point within the radius, or around sampled centres', () => {
    const pts = '0 0 0  1 0 0  2 0 0  10 0 0';
    const all = one<ClusteringEngine>('ClusteringEngine', { position: pts, radius: '1.5', useTopo: '0' });
    // each cluster starts with its centre; the far point joins its nearest centre's cluster
    expect(all.cluster.value).to.deep.equal([[0, 1], [1, 0, 2], [2, 1, 3], [3]]);
    const two = one<ClusteringEngine>('ClusteringEngine', { position: pts, radius: '1.5', number: '2', useTopo: '0' });
    // centres 0 and 10 (farthest); 1 joins 0; 2 is farther than 1.5 from both and joins the nearest (0);
    // each centre, in no other cluster's radius, joins the nearest other centre's cluster (as SOFA)
    expect(two.cluster.value).to.deep.equal([
      [0, 1, 2, 3],
      [3, 0],
    ]);
  });
});
