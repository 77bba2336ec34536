import { expect } from 'chai';
import { SofaError } from '@sofa-ts/core';
import type { PointSetTopologyContainer } from '../container/PointSetTopologyContainer.js';
import type { EdgeSetTopologyContainer } from '../container/EdgeSetTopologyContainer.js';
import { el, initScene, objectNamed } from '../container/container-test-support.js';

/** The unit tetrahedron o, x, y, z and its mesh with the output point set beside it. */
const TETRA = '0 0 0  1 0 0  0 1 0  0 0 1';

function mapped(input: SceneElementLike, mappingAttrs: Record<string, string>, output = 'PointSetTopologyContainer'): Float64Array {
  return outputOf(input, mappingAttrs, output).getPositions()!;
}

type SceneElementLike = ReturnType<typeof el>;

function outputOf(
  input: SceneElementLike,
  mappingAttrs: Record<string, string>,
  output = 'PointSetTopologyContainer',
): PointSetTopologyContainer {
  const root = initScene(
    el('Node', { name: 'root' }, [
      input,
      el('Node', { name: 'points' }, [
        el(output, { name: 'out' }),
        el('Mesh2PointTopologicalMapping', { input: '@../in', output: '@out', ...mappingAttrs }),
      ]),
    ]),
  );
  return objectNamed<PointSetTopologyContainer>(root.children[0], 'out');
}

const tetraMesh = () => el('TetrahedronSetTopologyContainer', { name: 'in', position: TETRA, tetrahedra: '0 1 2 3' });

function expectPoints(actual: Float64Array, expected: number[][]): void {
  expect(actual.length).to.equal(3 * expected.length);
  expected.forEach((p, i) => p.forEach((v, k) => expect(actual[3 * i + k]).to.be.closeTo(v, 1e-15, `point ${i}[${k}]`)));
}

describe('topology: Mesh2PointTopologicalMapping', () => {
  it('points: each input point moved by each offset, points in input order', () => {
    const out = mapped(tetraMesh(), { pointBaryCoords: '0 0 0  0.5 0 -1' });
    expectPoints(out, [
      [0, 0, 0],
      [0.5, 0, -1],
      [1, 0, 0],
      [1.5, 0, -1],
      [0, 1, 0],
      [0.5, 1, -1],
      [0, 0, 1],
      [0.5, 0, 0],
    ]);
  });

  it('edges: p0·(1 − fx) + p1·fx on each of the 6 edges of a tetrahedron, after the points', () => {
    const input = el('TetrahedronSetTopologyContainer', { name: 'in', position: TETRA, tetrahedra: '0 1 2 3' });
    const to = outputOf(input, { pointBaryCoords: '0 0 0', edgeBaryCoords: '0.25 0 0' });
    const p = to.getPositions()!;
    expect(to.getNbPoints()).to.equal(4 + 6);
    // every edge point lies a quarter of the way from its first to its second vertex: check against
    // the input's own edge list (whatever its order)
    const from = objectNamed<EdgeSetTopologyContainer>(to.context.parent!, 'in');
    const edges = from.getEdges();
    expect(edges.length / 2).to.equal(6);
    const pos = from.getPositions()!;
    for (let e = 0; e < 6; e++) {
      for (let k = 0; k < 3; k++) {
        const a = pos[3 * edges[2 * e] + k],
          b = pos[3 * edges[2 * e + 1] + k];
        expect(p[3 * (4 + e) + k]).to.be.closeTo(0.75 * a + 0.25 * b, 1e-15);
      }
    }
  });

  it('triangles, tetrahedra: barycentric points (a face centroid, the centroid, a vertex)', () => {
    const tri = el('TriangleSetTopologyContainer', { name: 'in', position: '0 0 0  3 0 0  0 3 0', triangles: '0 1 2' });
    expectPoints(mapped(tri, { triangleBaryCoords: '0.3333333333333333 0.3333333333333333 0  1 0 0' }), [
      [1, 1, 0],
      [3, 0, 0],
    ]);
    expectPoints(mapped(tetraMesh(), { tetraBaryCoords: '0.25 0.25 0.25  0 0 1' }), [
      [0.25, 0.25, 0.25],
      [0, 0, 1],
    ]);
  });

  it('quads: SOFA’s bilinear rule (third vertex at (0, 1)); hexahedra: trilinear on the unit cube gives the coordinates back', () => {
    const quad = el('QuadSetTopologyContainer', { name: 'in', position: '0 0 0  1 0 0  1 1 0  0 1 0', quads: '0 1 2 3' });
    // (fx, fy) = (0.25, 0.5): 0.375·p0 + 0.125·p1 + 0.375·p2 + 0.125·p3
    expectPoints(mapped(quad, { quadBaryCoords: '0.25 0.5 0' }), [[0.5, 0.5, 0]]);
    const cube = el('HexahedronSetTopologyContainer', {
      name: 'in',
      position: '0 0 0  1 0 0  1 1 0  0 1 0  0 0 1  1 0 1  1 1 1  0 1 1',
      hexahedra: '0 1 2 3 4 5 6 7',
    });
    expectPoints(mapped(cube, { hexaBaryCoords: '0.2 0.7 0.4  1 1 1  0 1 0' }), [
      [0.2, 0.7, 0.4],
      [1, 1, 1],
      [0, 1, 0],
    ]);
  });

  it('copyEdges / copyTetrahedra: the input elements on the first point made from each vertex', () => {
    const to = outputOf(tetraMesh(), { pointBaryCoords: '0 0 0  0 0 1', copyTetrahedra: 'true' }, 'TetrahedronSetTopologyContainer');
    expect(Array.from(to.getTetrahedra())).to.deep.equal([0, 2, 4, 6]);
    expect(to.getNbPoints()).to.equal(8);
  });

  it('a copy without pointBaryCoords is refused with SOFA’s message and nothing is copied', () => {
    const to = outputOf(tetraMesh(), { edgeBaryCoords: '0.5 0 0', copyEdges: 'true' }, 'EdgeSetTopologyContainer');
    expect(to.getNbPoints()).to.equal(6);
    expect(to.getEdges().length).to.equal(0);
  });

  it('an output that is not a point set container is a located error', () => {
    expect(() => outputOf(tetraMesh(), { pointBaryCoords: '0 0 0' }, 'MeshTopology')).to.throw(
      SofaError,
      /not a PointSetTopologyContainer/,
    );
  });
});
