import { expect } from 'chai';
import { NeighborGrid } from './neighbor-grid.js';
import { rng } from '../mass/mesh-test-support.js';

/** The pairs i < j with |xi − xj| < dist, by comparing every pair, as "i j" strings. */
function bruteForce(x: Float64Array, n: number, dist: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const r2 = (x[3 * j] - x[3 * i]) ** 2 + (x[3 * j + 1] - x[3 * i + 1]) ** 2 + (x[3 * j + 2] - x[3 * i + 2]) ** 2;
      if (r2 < dist * dist) out.push(`${i} ${j}`);
    }
  return out.sort();
}

function found(g: NeighborGrid): string[] {
  const out: string[] = [];
  for (let k = 0; k < g.count; k++) out.push(`${g.pairI[k]} ${g.pairJ[k]}`);
  return out.sort();
}

describe('NeighborGrid (the pair search of SpatialGridContainer)', () => {
  for (const [what, cellWidth] of [
    ['cells the distance wide', 0.3],
    ['cells narrower than the distance (SOFA would miss pairs)', 0.05],
    ['cells wider than the distance', 1.7],
  ] as const) {
    it(`finds exactly the pairs closer than the distance, each once (${what})`, () => {
      const r = rng(3);
      const g = new NeighborGrid();
      for (const n of [0, 1, 2, 50, 400]) {
        const x = new Float64Array(3 * n);
        // a cloud around negative and positive coordinates, with a tight cluster
        for (let i = 0; i < 3 * n; i++) x[i] = i % 7 === 0 ? 0.01 * r() : 2 * r();
        g.search(x, 3, n, 0.3, cellWidth);
        expect(found(g), `n = ${n}`).to.deep.equal(bruteForce(x, n, 0.3));
        for (let k = 0; k < g.count; k++) {
          const i = g.pairI[k],
            j = g.pairJ[k];
          expect(g.pairR2[k]).to.equal(
            (x[3 * j] - x[3 * i]) ** 2 + (x[3 * j + 1] - x[3 * i + 1]) ** 2 + (x[3 * j + 2] - x[3 * i + 2]) ** 2,
          );
        }
      }
    });
  }

  it('reads points with a stride, finds coincident points, and skips non-finite ones', () => {
    const x = Float64Array.of(0, 0, 0, 9, 0, 0, 0.1, 9, NaN, 0, 0, 9, 5, 5, 5, 9, 0, 0, 0, 9, 1e6, 1e6, -1e6, 9);
    const g = new NeighborGrid();
    g.search(x, 4, 6, 0.5, 1);
    expect(found(g)).to.deep.equal(['0 1', '0 4', '1 4']);
    expect(g.skipped).to.equal(1);
  });

  it('grows its pair buffers: every one of the n(n − 1)/2 pairs of a block smaller than the distance', () => {
    const n = 1000;
    const x = new Float64Array(3 * n);
    for (let i = 0; i < n; i++)
      [x[3 * i], x[3 * i + 1], x[3 * i + 2]] = [i % 10, Math.floor(i / 10) % 10, Math.floor(i / 100)].map((c) => 0.01 * c);
    const g = new NeighborGrid();
    expect(g.search(x, 3, n, 1, 0.2)).to.equal((n * (n - 1)) / 2);
  });
});
