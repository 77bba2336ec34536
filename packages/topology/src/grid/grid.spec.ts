import { expect } from 'chai';
import { listAt } from '../container/adjacency.js';
import { buildScene } from '@sofa-ts/core';
import { el, initScene, objectNamed, topologyRegistry } from '../container/container-test-support.js';
import type { GridTopology } from './GridTopology.js';
import type { RegularGridTopology } from './RegularGridTopology.js';

function grid(attrs: Record<string, string>): RegularGridTopology {
  return objectNamed<RegularGridTopology>(initScene(el('Node', {}, [el('RegularGridTopology', { name: 'g', ...attrs })])), 'g');
}

describe('topology: RegularGridTopology and GridTopology', () => {
  it('numbers points i + nx·(j + ny·k) and places them at min + (i, j, k)·(max − min)/(n − 1)', () => {
    const g = grid({ n: '3 4 5', min: '-1 0 2', max: '1 6 4' });
    expect(g.getNbPoints()).to.equal(60);
    const p = g.getPositions()!;
    const at = (i: number, j: number, k: number): number[] =>
      Array.from(p.subarray(3 * (i + 3 * (j + 4 * k)), 3 * (i + 3 * (j + 4 * k)) + 3));
    expect(at(0, 0, 0)).to.deep.equal([-1, 0, 2]);
    expect(at(2, 3, 4)).to.deep.equal([1, 6, 4]);
    expect(at(1, 2, 3)).to.deep.equal([0, 4, 3.5]);
    // positions are stored in the position Data at init (computePointList)
    expect(g.position.value.length).to.equal(180);
    expect(g.getGrid()).to.deep.equal({ n: [3, 4, 5], min: [-1, 0, 2], max: [1, 6, 4] });
  });

  it("lists hexahedra in SOFA's vertex order, every quad, split triangles and their edges", () => {
    const g = grid({ n: '3 3 3', min: '0 0 0', max: '2 2 2' });
    const hexa = g.getHexahedra();
    expect(hexa.length / 8).to.equal(8);
    expect(Array.from(hexa.subarray(0, 8))).to.deep.equal([0, 1, 4, 3, 9, 10, 13, 12]);
    expect(Array.from(hexa.subarray(56, 64))).to.deep.equal([13, 14, 17, 16, 22, 23, 26, 25]);
    // every face of the grid, interior ones included: 3 directions × 3 planes × 4 faces
    const quads = g.getQuads();
    expect(quads.length / 4).to.equal(36);
    expect(Array.from(quads.subarray(0, 4))).to.deep.equal([0, 1, 4, 3]);
    expect(g.getTriangles().length / 3).to.equal(72);
    expect(Array.from(g.getTriangles().subarray(0, 6))).to.deep.equal([0, 1, 4, 0, 4, 3]);
    // edges of the triangles: the 54 grid lines and one diagonal per quad
    expect(g.getEdges().length / 2).to.equal(54 + 36);
    expect(g.getTopologyType()).to.equal('hexahedron');
    // each interior face belongs to two cells, each boundary face to one: 6·2² boundary faces
    const around = g.getHexahedraAroundQuad();
    let boundary = 0;
    for (let q = 0; q < 36; q++) if (listAt(around, q).length === 1) boundary++;
    expect(boundary).to.equal(24);
  });

  it('gives the grid lines as edges when triangles are not computed', () => {
    const g = grid({ n: '3 3 3', computeTriangleList: '0' });
    expect(g.getTriangles().length).to.equal(0);
    expect(Array.from(g.getEdges().subarray(0, 4))).to.deep.equal([0, 1, 1, 2]);
    expect(g.getEdges().length / 2).to.equal(54);
  });

  it('fills every quad and line of an uneven grid (no entry left unset)', () => {
    const g = grid({ n: '2 3 4', computeTriangleList: '0' });
    // quads: xy planes nz·(ny−1)·(nx−1), xz planes (nz−1)·ny·(nx−1), yz planes (nz−1)·(ny−1)·nx
    const quads = g.getQuads();
    expect(quads.length / 4).to.equal(4 * 2 * 1 + 3 * 3 * 1 + 3 * 2 * 2);
    for (let q = 0; q < quads.length / 4; q++) expect(new Set(quads.subarray(4 * q, 4 * q + 4)).size, `quad ${q}`).to.equal(4);
    // lines: along x nz·ny·(nx−1), along y nz·(ny−1)·nx, along z (nz−1)·ny·nx
    const edges = g.getEdges();
    expect(edges.length / 2).to.equal(4 * 3 * 1 + 4 * 2 * 2 + 3 * 3 * 2);
    for (let e = 0; e < edges.length / 2; e++) expect(edges[2 * e], `edge ${e}`).to.not.equal(edges[2 * e + 1]);
  });

  it('refuses a resolution whose points a state cannot index, at the grid, before allocating', () => {
    expect(() => grid({ n: '10000 10000 10000' })).to.throw(
      /RegularGridTopology 'g': a grid of 10000 × 10000 × 10000 = 1\.00e\+12 points is above the limit of 4000000 points/,
    );
  });

  it('a flat grid gives quads and a line grid gives edges', () => {
    const flat = grid({ n: '3 1 4', min: '0 0 0', max: '2 5 3' });
    expect(flat.getHexahedra().length).to.equal(0);
    expect(flat.getQuads().length / 4).to.equal(6);
    expect(flat.getTopologyType()).to.equal('quad');
    // a single point along y sits at the middle of [min, max]
    expect(flat.getPositions()![1]).to.equal(2.5);
    const line = grid({ n: '1 1 6', min: '-10 -10 -10', max: '10 10 10', computeHexaList: '0' });
    expect(line.getEdges().length / 2).to.equal(5);
    expect(line.getQuads().length).to.equal(0);
    expect(Array.from(line.getPositions()!.subarray(0, 6))).to.deep.equal([0, 0, -10, 0, 0, -6]);
  });

  it('reads the old attributes nx ny nz and xmin ... zmax (single precision, times scale)', () => {
    const g = grid({ nx: '4', ny: '4', nz: '11', xmin: '-1.5', xmax: '1.5', ymin: '-1.5', ymax: '1.5', zmin: '0', zmax: '10', scale: '2' });
    expect(g.getNbPoints()).to.equal(176);
    expect(Array.from(g.n.value)).to.deep.equal([4, 4, 11]);
    expect(Array.from(g.min.value)).to.deep.equal([-3, -3, 0]);
    expect(Array.from(g.max.value)).to.deep.equal([3, 3, 20]);
    const h = grid({ nx: '2', ny: '2', nz: '2', xmin: '0.1', xmax: '1', ymin: '0', ymax: '1', zmin: '0', zmax: '1' });
    expect(h.getPositions()![0]).to.equal(Math.fround(0.1));
  });

  it('replaces a resolution below 1 by 2 2 2, and p0 moves the grid', () => {
    expect(grid({ n: '0 3 3' }).getNbPoints()).to.equal(8);
    const g = grid({ n: '2 2 2', min: '0 0 0', max: '1 1 1', p0: '5 5 5' });
    expect(Array.from(g.getPositions()!.subarray(0, 6))).to.deep.equal([5, 5, 5, 6, 5, 5]);
    expect(g.getGrid().p0).to.deep.equal([5, 5, 5]);
  });

  it('computes the resolution from cellWidth', () => {
    const g = grid({ min: '0 0 0', max: '1 2 3', cellWidth: '0.5' });
    expect(g.resolution()).to.deep.equal([3, 5, 7]);
    expect(g.getHexahedra().length / 8).to.equal(2 * 4 * 6);
  });

  it('gives positions before its init (a MechanicalObject declared before the grid reads them)', () => {
    const root = buildScene(
      el('Node', {}, [
        el('RegularGridTopology', {
          name: 'g',
          nx: '2',
          ny: '3',
          nz: '2',
          xmin: '0',
          xmax: '1',
          ymin: '0',
          ymax: '2',
          zmin: '0',
          zmax: '1',
        }),
      ]),
      topologyRegistry(),
    );
    const g = objectNamed<RegularGridTopology>(root, 'g');
    expect(g.getNbPoints()).to.equal(12);
    expect(Array.from(g.getPositions()!.subarray(33, 36))).to.deep.equal([1, 2, 1]);
  });

  it('GridTopology gives connectivity only, positions from its position Data', () => {
    const g = objectNamed<GridTopology>(
      initScene(el('Node', {}, [el('GridTopology', { name: 'g', n: '2 2 1', position: '0 0 0 1 0 0' })])),
      'g',
    );
    expect(g.getNbPoints()).to.equal(4);
    expect(g.getQuads().length / 4).to.equal(1);
    expect(Array.from(g.getPositions()!)).to.deep.equal([0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
  });
});
