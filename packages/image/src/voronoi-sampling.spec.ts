import { expect } from 'chai';
import { VoronoiSampler } from './voronoi-sampling.js';

describe('geodesic Voronoi sampling (ImageSampler, method 1)', () => {
  it('Dijkstra distances through 26 neighbours are the 3-D chamfer distance c√3 + (b − c)√2 + (a − b)', () => {
    const n = 9;
    const s = new VoronoiSampler(new Uint8Array(n * n * n).fill(1), n, n, n, [1, 1, 1]);
    s.resetDistances();
    s.addSeed([0, 0, 0], 1);
    s.dijkstra();
    for (const [x, y, z] of [
      [8, 0, 0],
      [3, 5, 1],
      [8, 8, 8],
      [2, 7, 4],
    ]) {
      const [a, b, c] = [x, y, z].sort((p, q) => q - p);
      expect(s.distances[x + n * (y + n * z)]).to.be.closeTo(c * Math.sqrt(3) + (b - c) * Math.SQRT2 + (a - b), 1e-12);
    }
  });

  it('background voxels are never reached; the voxel size scales the steps', () => {
    const mask = new Uint8Array([1, 1, 0, 1]);
    const s = new VoronoiSampler(mask, 4, 1, 1, [0.5, 1, 1]);
    s.resetDistances();
    s.addSeed([0, 0, 0], 1);
    s.dijkstra();
    expect(Array.from(s.distances)).to.deep.equal([0, 0.5, -1, Infinity]);
  });

  it('Lloyd relaxation centres two samples of a bar in its halves', () => {
    const L = 40;
    const s = new VoronoiSampler(new Uint8Array(L * 3 * 3).fill(1), L, 3, 3, [1, 1, 1]);
    const { samples } = s.sample(2, 100);
    const xs = samples.map((p) => p[0]).sort((a, b) => a - b);
    expect(xs[0]).to.be.within(L / 4 - 1.5, L / 4 + 0.5);
    expect(xs[1]).to.be.within((3 * L) / 4 - 1.5, (3 * L) / 4 + 0.5);
    // every object voxel belongs to a cell
    expect(Array.from(s.voronoi).every((v) => v === 1 || v === 2)).to.equal(true);
  });
});
