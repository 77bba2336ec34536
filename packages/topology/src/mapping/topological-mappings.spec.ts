import { expect } from 'chai';
import { SofaError, type Node } from '@sofa-ts/core';
import { listAt } from '../container/adjacency.js';
import type { QuadSetTopologyContainer } from '../container/QuadSetTopologyContainer.js';
import type { TetrahedronSetTopologyContainer } from '../container/TetrahedronSetTopologyContainer.js';
import type { TriangleSetTopologyContainer } from '../container/TriangleSetTopologyContainer.js';
import { el, initScene, objectNamed } from '../container/container-test-support.js';
import type { RegularGridTopology } from '../grid/RegularGridTopology.js';
import { splitHexahedra } from './Hexa2TetraTopologicalMapping.js';

type V = [number, number, number];
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: V, b: V): V => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a: V, b: V): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const pt = (p: Float64Array, i: number): V => [p[3 * i], p[3 * i + 1], p[3 * i + 2]];

/** Signed volume of each tetrahedron: det(b − a, c − a, d − a)/6. */
function volumes(p: Float64Array, tetra: Uint32Array): number[] {
  const out: number[] = [];
  for (let t = 0; t < tetra.length; t += 4) {
    const [a, b, c, d] = [0, 1, 2, 3].map((k) => pt(p, tetra[t + k])) as [V, V, V, V];
    out.push(dot(sub(b, a), cross(sub(c, a), sub(d, a))) / 6);
  }
  return out;
}

/** A grid node with its tetrahedron container and mapping, the container before or after the mapping. */
function tetraScene(gridAttrs: Record<string, string>, swapping: string, containerFirst: boolean): Node {
  const container = [
    el('TetrahedronSetTopologyContainer', { name: 'Tetra_topo' }),
    el('TetrahedronSetTopologyModifier', { name: 'Modifier' }),
    el('TetrahedronSetGeometryAlgorithms', { name: 'GeomAlgo', template: 'Vec3' }),
  ];
  const mapping = el('Hexa2TetraTopologicalMapping', { input: '@grid', output: '@Tetra_topo', swapping });
  const grid = el('RegularGridTopology', { name: 'grid', ...gridAttrs });
  return initScene(el('Node', { name: 'root' }, [grid, ...(containerFirst ? [...container, mapping] : [mapping, ...container])]));
}

describe('topology: topological mappings', () => {
  for (const swapping of ['false', 'true']) {
    it(`Hexa2Tetra (swapping=${swapping}) fills a box with positive tetrahedra whose volumes sum to the box volume`, () => {
      const root = tetraScene({ min: '-5 -5 0', max: '5 5 40', n: '5 5 20' }, swapping, true);
      const grid = objectNamed<RegularGridTopology>(root, 'grid');
      const tets = objectNamed<TetrahedronSetTopologyContainer>(root, 'Tetra_topo');
      const tetra = tets.getTetrahedra();
      expect(tetra.length / 4).to.equal(6 * 4 * 4 * 19);
      expect(tets.getNbPoints()).to.equal(500);
      const vol = volumes(grid.getPositions()!, tetra);
      const cell = 2.5 * 2.5 * (40 / 19);
      for (const v of vol) expect(v).to.be.closeTo(cell / 6, 1e-12);
      expect(vol.reduce((a, b) => a + b, 0)).to.be.closeTo(10 * 10 * 40, 1e-9);
      // a conforming mesh: each face belongs to one or two tetrahedra, and the boundary is 2 triangles per grid face
      const around = tets.getTetrahedraAroundTriangle();
      let boundary = 0;
      for (let t = 0; t < tets.getTriangles().length / 3; t++) {
        const k = listAt(around, t).length;
        expect(k).to.be.oneOf([1, 2]);
        if (k === 1) boundary++;
      }
      expect(boundary).to.equal(2 * (2 * 16 + 4 * 4 * 19));
    });
  }

  it("Hexa2Tetra splits each hexahedron in SOFA's order, mirrored in alternation with swapping", () => {
    const h = Uint32Array.of(0, 1, 4, 3, 9, 10, 13, 12);
    expect(Array.from(splitHexahedra(h, false, 2, 1).subarray(0, 8))).to.deep.equal([0, 10, 1, 13, 0, 1, 3, 13]);
    // cell 0 has an even x: mirrored in x, vertices 0↔1, 3↔2, 4↔5, 7↔6, and the mirrored split
    expect(Array.from(splitHexahedra(h, true, 2, 1).subarray(0, 4))).to.deep.equal([1, 9, 12, 0]);
  });

  it("the output container may come after the mapping: it gets its elements at the mapping's init and keeps them", () => {
    const root = tetraScene({ min: '0 0 0', max: '1 1 1', n: '3 3 3' }, 'true', false);
    const tets = objectNamed<TetrahedronSetTopologyContainer>(root, 'Tetra_topo');
    expect(tets.tetrahedra.value.length / 4).to.equal(48);
    expect(tets.triangles.value.length).to.be.greaterThan(0);
    expect(tets.nbPoints.value).to.equal(27);
  });

  it('Tetra2Triangle gives the boundary triangles, oriented outwards', () => {
    const child = el('Node', { name: 'surf' }, [
      el('TriangleSetTopologyContainer', { name: 'tri' }),
      el('TriangleSetTopologyModifier', {}),
      el('Tetra2TriangleTopologicalMapping', { input: '@../Tetra_topo', output: '@tri' }),
    ]);
    const root2 = initScene(
      el('Node', { name: 'root' }, [
        el('RegularGridTopology', { name: 'grid', min: '0 0 0', max: '3 3 3', n: '4 4 4' }),
        el('TetrahedronSetTopologyContainer', { name: 'Tetra_topo' }),
        el('TetrahedronSetTopologyModifier', {}),
        el('Hexa2TetraTopologicalMapping', { input: '@grid', output: '@Tetra_topo', swapping: 'true' }),
        child,
      ]),
    );
    const p = objectNamed<RegularGridTopology>(root2, 'grid').getPositions()!;
    const tri = objectNamed<TriangleSetTopologyContainer>(root2.children[0], 'tri').getTriangles();
    expect(tri.length / 3).to.equal(12 * 9);
    let area = 0;
    for (let t = 0; t < tri.length; t += 3) {
      const [a, b, c] = [pt(p, tri[t]), pt(p, tri[t + 1]), pt(p, tri[t + 2])];
      const n = cross(sub(b, a), sub(c, a));
      const centre: V = [(a[0] + b[0] + c[0]) / 3 - 1.5, (a[1] + b[1] + c[1]) / 3 - 1.5, (a[2] + b[2] + c[2]) / 3 - 1.5];
      expect(dot(n, centre)).to.be.greaterThan(0);
      area += Math.hypot(...n) / 2;
    }
    expect(area).to.be.closeTo(6 * 9, 1e-12);
  });

  it("Hexa2Quad gives the 6n² boundary quads of an n×n×n grid, in the grid's order and orientation", () => {
    const root = initScene(
      el('Node', { name: 'root' }, [
        el('RegularGridTopology', {
          name: 'grid',
          nx: '5',
          ny: '5',
          nz: '5',
          xmin: '0',
          xmax: '4',
          ymin: '0',
          ymax: '4',
          zmin: '0',
          zmax: '4',
        }),
        el('Node', { name: 'visual' }, [
          el('QuadSetTopologyContainer', { name: 'Container' }),
          el('QuadSetTopologyModifier', {}),
          el('Hexa2QuadTopologicalMapping', { input: '@../grid', output: '@Container' }),
        ]),
      ]),
    );
    const quads = objectNamed<QuadSetTopologyContainer>(root.children[0], 'Container');
    expect(quads.getQuads().length / 4).to.equal(6 * 16);
    expect(Array.from(quads.getQuads().subarray(0, 4))).to.deep.equal([0, 1, 6, 5]);
    expect(quads.getNbPoints()).to.equal(125);
    // a closed surface: every edge belongs to two quads
    const around = quads.getQuadsAroundEdge();
    for (let e = 0; e < quads.getEdges().length / 2; e++) expect(listAt(around, e).length).to.equal(2);
  });

  it('Hexa2Quad of a hexahedron container gives outward quads; flipNormals reverses them', () => {
    const hexa = '0 1 4 3 9 10 13 12  1 2 5 4 10 11 14 13';
    const make = (flip: string): Uint32Array =>
      objectNamed<QuadSetTopologyContainer>(
        initScene(
          el('Node', {}, [
            el('HexahedronSetTopologyContainer', { name: 'h', hexahedra: hexa }),
            el('QuadSetTopologyContainer', { name: 'q' }),
            el('QuadSetTopologyModifier', {}),
            el('Hexa2QuadTopologicalMapping', { input: '@h', output: '@q', flipNormals: flip }),
          ]),
        ),
        'q',
      ).getQuads();
    const q = make('0');
    expect(q.length / 4).to.equal(10);
    expect(Array.from(q.subarray(0, 4))).to.deep.equal([0, 3, 4, 1]);
    expect(Array.from(make('1').subarray(0, 4))).to.deep.equal([1, 4, 3, 0]);
  });

  it('reports a missing modifier next to the output container, and a wrong output class', () => {
    const noModifier = el('Node', {}, [
      el('RegularGridTopology', { name: 'grid' }),
      el('TetrahedronSetTopologyContainer', { name: 't' }),
      el('Hexa2TetraTopologicalMapping', { input: '@grid', output: '@t' }),
    ]);
    expect(() => initScene(noModifier)).to.throw(SofaError, /no TetrahedronSetTopologyModifier in the node of the output topology/);
    const wrong = el('Node', {}, [
      el('RegularGridTopology', { name: 'grid' }),
      el('TriangleSetTopologyContainer', { name: 't' }),
      el('TetrahedronSetTopologyModifier', {}),
      el('Hexa2TetraTopologicalMapping', { input: '@grid', output: '@t' }),
    ]);
    expect(() => initScene(wrong)).to.throw(SofaError, /is not a TetrahedronSetTopologyContainer/);
  });
});
