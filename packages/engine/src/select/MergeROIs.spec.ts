import { expect } from 'chai';
import { el, find, initScene } from '../scene-test-support.js';
import type { MergeROIs } from './MergeROIs.js';

describe('MergeROIs', () => {
  it('gathers indices1 … indicesN into one vector of ROIs, in order', () => {
    const root = initScene([el('MergeROIs', { name: 'm', nbROIs: '3', indices1: '4 1', indices3: '7', indices2: '' })]);
    expect(find<MergeROIs>(root, 'm').roiIndices.value).to.deep.equal([[4, 1], [], [7]]);
  });
});
