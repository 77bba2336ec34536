import { expect } from 'chai';
import { el, initScene, objectNamed } from '../container/container-test-support.js';
import { segmentCrossesTriangle } from './sparse-grid-ramification.js';
import type { SparseGridRamificationTopology } from './SparseGridRamificationTopology.js';
import type { SparseGridTopology } from './SparseGridTopology.js';

type Box = [[number, number, number], [number, number, number]];

/** Closed surfaces of axis-aligned boxes, as position and quads Data (outward quads). */
function boxes(...bs: Box[]): { position: string; quads: string } {
  const pos: number[] = [];
  const quads: number[] = [];
  for (const [lo, hi] of bs) {
    const o = pos.length / 3;
    for (let k = 0; k < 8; k++) pos.push(k & 1 ? hi[0] : lo[0], k & 2 ? hi[1] : lo[1], k & 4 ? hi[2] : lo[2]);
    // corners: bit 0 = x, bit 1 = y, bit 2 = z
    for (const q of [
      [0, 2, 3, 1],
      [4, 5, 7, 6],
      [0, 1, 5, 4],
      [2, 6, 7, 3],
      [0, 4, 6, 2],
      [1, 3, 7, 5],
    ])
      quads.push(...q.map((v) => v + o));
  }
  return { position: pos.join(' '), quads: quads.join(' ') };
}

function ramified(attrs: Record<string, string>): SparseGridRamificationTopology {
  return objectNamed<SparseGridRamificationTopology>(
    initScene(el('Node', {}, [el('SparseGridRamificationTopology', { name: 's', ...attrs })])),
    's',
  );
}

function plain(attrs: Record<string, string>): SparseGridTopology {
  return objectNamed<SparseGridTopology>(initScene(el('Node', {}, [el('SparseGridTopology', { name: 's', ...attrs })])), 's');
}

/** The distinct positions of a hexahedron's corners, as sorted strings. */
function cornerSet(t: SparseGridTopology, h: number): string[] {
  const p = t.getPositions()!;
  const hexa = t.getHexahedra();
  return Array.from({ length: 8 }, (_, w) => {
    const v = hexa[8 * h + w];
    return `${p[3 * v]} ${p[3 * v + 1]} ${p[3 * v + 2]}`;
  }).sort();
}

const CUBE_0_4 = ['0 0 0', '0 0 4', '0 4 0', '0 4 4', '4 0 0', '4 0 4', '4 4 0', '4 4 4'];

describe('topology: SparseGridRamificationTopology', () => {
  // one coarse cell [0, 4]³, two virtual finer levels (fine cells of size 1)
  const grid = { n: '2 2 2', min: '0 0 0', max: '4 4 4', nbVirtualFinerLevels: '2', finestConnectivity: 'false' };

  it('two parts apart inside one coarse cell give two hexahedra on the same corners, with their own 16 points', () => {
    const t = ramified({
      ...grid,
      ...boxes(
        [
          [0.5, 0.5, 0.5],
          [1.5, 1.5, 1.5],
        ],
        [
          [2.5, 2.5, 2.5],
          [3.5, 3.5, 3.5],
        ],
      ),
    });
    expect(t.getHexahedra().length / 8).to.equal(2);
    expect(t.getNbPoints()).to.equal(16);
    expect(cornerSet(t, 0)).to.deep.equal(CUBE_0_4);
    expect(cornerSet(t, 1)).to.deep.equal(CUBE_0_4);
    const hexa = Array.from(t.getHexahedra());
    expect(new Set(hexa).size).to.equal(16); // no point shared
    // each part: 8 fine boundary cells (coefficient 0.5 each) make one level-1 cell of coefficient
    // 8·0.5/8 = 0.5; the ramified coarse cell keeps one child slot: 0.5/8
    expect(t.getStiffnessCoef(0)).to.equal(0.0625);
    expect(t.getMassCoef(1)).to.equal(0.0625);
    // the same surface in a plain sparse grid: one cell
    expect(
      plain({
        n: '2 2 2',
        min: '0 0 0',
        max: '4 4 4',
        ...boxes(
          [
            [0.5, 0.5, 0.5],
            [1.5, 1.5, 1.5],
          ],
          [
            [2.5, 2.5, 2.5],
            [3.5, 3.5, 3.5],
          ],
        ),
      }).getHexahedra().length / 8,
    ).to.equal(1);
  });

  it('one connected part in the coarse cell stays one hexahedron with 8 points (coefficient from its 8 children)', () => {
    const t = ramified({
      ...grid,
      ...boxes([
        [0.5, 0.5, 0.5],
        [3.5, 3.5, 3.5],
      ]),
    });
    expect(t.getHexahedra().length / 8).to.equal(1);
    expect(t.getNbPoints()).to.equal(8);
    expect(cornerSet(t, 0)).to.deep.equal(CUBE_0_4);
    // level 1: 8 cells, each with 7 boundary children (0.5) and 1 inside child (1): (7·0.5 + 1)/8;
    // level 2: the mean of the 8
    expect(t.getStiffnessCoef(0)).to.be.closeTo(4.5 / 8, 1e-15);
  });

  it('finestConnectivity: adjacent boundary cells whose common face the surface does not cross are split', () => {
    const g = { n: '3 2 2', min: '0 0 0', max: '2 1 1', nbVirtualFinerLevels: '0' };
    // (SOFA's segment test reaches one segment length behind its start: the boxes keep their x edges
    // (0.3 long) more than 0.3 away from the face x = 1)
    const apart = boxes(
      [
        [0.1, 0.2, 0.2],
        [0.4, 0.8, 0.8],
      ],
      [
        [1.6, 0.2, 0.2],
        [1.9, 0.8, 0.8],
      ],
    );
    const split = ramified({ ...g, ...apart });
    expect(split.getHexahedra().length / 8).to.equal(2);
    expect(split.getNbPoints()).to.equal(16);
    // without the finest test, or with a surface crossing the face x = 1: one grid of 12 points
    expect(ramified({ ...g, ...apart, finestConnectivity: 'false' }).getNbPoints()).to.equal(12);
    const through = ramified({
      ...g,
      ...boxes([
        [0.2, 0.2, 0.2],
        [1.8, 0.8, 0.8],
      ]),
    });
    expect(through.getHexahedra().length / 8).to.equal(2);
    expect(through.getNbPoints()).to.equal(12);
    // merged points are numbered in order of first use: hexahedron 0 takes 0..7, hexahedron 1 shares its x = 1 face
    expect(Array.from(through.getHexahedra().subarray(0, 8))).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(Array.from(through.getHexahedra().subarray(8, 16))).to.deep.equal([1, 8, 9, 2, 5, 10, 11, 6]);
  });

  it('segment against triangle: crossing, missing, parallel', () => {
    const t: [number[], number[], number[]] = [
      [0, 0, 0],
      [1, 0, 0],
      [0, 1, 0],
    ];
    expect(segmentCrossesTriangle([0.2, 0.2, -1], [0.2, 0.2, 1], ...t)).to.equal(true);
    expect(segmentCrossesTriangle([0.2, 0.2, 0.5], [0.2, 0.2, 0.9], ...t)).to.equal(false); // plane 0.5 behind s0, length 0.4
    // SOFA accepts a crossing up to one length behind s0 (s0 taken as a centre): plane 0.3 behind, length 0.6
    expect(segmentCrossesTriangle([0.2, 0.2, 0.3], [0.2, 0.2, 0.9], ...t)).to.equal(true);
    expect(segmentCrossesTriangle([0.8, 0.8, -1], [0.8, 0.8, 1], ...t)).to.equal(false); // outside the triangle
    expect(segmentCrossesTriangle([0, 0, 0], [1, 1, 0], ...t)).to.equal(false); // in the plane: parallel
  });
});
