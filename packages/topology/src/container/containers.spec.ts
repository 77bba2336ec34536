import { expect } from 'chai';
import { listAt } from './adjacency.js';
import type { MeshTopology } from './MeshTopology.js';
import type { PointSetTopologyContainer } from './PointSetTopologyContainer.js';
import type { TetrahedronSetTopologyContainer } from './TetrahedronSetTopologyContainer.js';
import type { TriangleSetTopologyContainer } from './TriangleSetTopologyContainer.js';
import type { HexahedronSetTopologyContainer } from './HexahedronSetTopologyContainer.js';
import { el, initScene, objectNamed } from './container-test-support.js';
import { INVALID_INDEX } from './topology-container.js';

/** Two tetrahedra sharing the face 1-2-3, both positively oriented. */
const TWO_TETS = { position: '0 0 0  1 0 0  0 1 0  0 0 1  1 1 1', tetrahedra: '0 1 2 3  1 2 3 4' };

describe('topology: containers', () => {
  it('MeshTopology derives edges and faces of its tetrahedra, counts points, finds elements', () => {
    const root = initScene(el('Node', { name: 'root' }, [el('MeshTopology', { name: 'mesh', ...TWO_TETS })]));
    const mesh = objectNamed<MeshTopology>(root, 'mesh');
    expect(mesh.getNbPoints()).to.equal(5);
    expect(mesh.getEdges().length / 2).to.equal(9);
    expect(mesh.getTriangles().length / 3).to.equal(7);
    expect(mesh.getTopologyType()).to.equal('tetrahedron');
    // derived lists are written in the Data, as SOFA's init does
    expect(mesh.edges.value.length).to.equal(18);
    expect(mesh.getEdgeIndex(3, 0)).to.equal(2);
    expect(mesh.getEdgeIndex(0, 4)).to.equal(INVALID_INDEX);
    expect(mesh.getTriangleIndex(3, 1, 2)).to.equal(0);
    const tat = mesh.getTetrahedraAroundTriangle();
    expect(Array.from(listAt(tat, 0))).to.deep.equal([0, 1]);
    expect(listAt(tat, 1).length).to.equal(1);
    // edges in tetrahedron j join SOFA's local pairs
    const eit = mesh.getEdgesInTetrahedron();
    const edges = mesh.getEdges();
    expect([edges[2 * eit[6 + 5]], edges[2 * eit[6 + 5] + 1]]).to.deep.equal([3, 4]);
  });

  it('MeshTopology of a surface takes the triangle edges with their orientation, then sorted quad edges', () => {
    const root = initScene(el('Node', {}, [el('MeshTopology', { name: 'm', triangles: '0 1 2  0 2 3', quads: '3 2 4 5' })]));
    const m = objectNamed<MeshTopology>(root, 'm');
    expect(Array.from(m.getEdges())).to.deep.equal([1, 2, 2, 0, 0, 1, 2, 3, 3, 0, 2, 4, 4, 5, 3, 5]);
    expect(m.getNbPoints()).to.equal(6);
  });

  it('a given edge list is kept; triangles around an edge list the one on its left first', () => {
    const root = initScene(el('Node', {}, [el('TriangleSetTopologyContainer', { name: 't', triangles: '0 1 2  0 2 3' })]));
    const t = objectNamed<TriangleSetTopologyContainer>(root, 't');
    expect(Array.from(t.getEdges())).to.deep.equal([1, 2, 2, 0, 0, 1, 2, 3, 3, 0]);
    expect(t.nbPoints.value).to.equal(4);
    // edge 1 is (2, 0): triangle 0 runs 2→0 along it (its left), triangle 1 runs 0→2
    expect(Array.from(listAt(t.getTrianglesAroundEdge(), 1))).to.deep.equal([0, 1]);
    expect(Array.from(t.getEdgesInTriangle())).to.deep.equal([0, 1, 2, 3, 4, 1]);
  });

  it('a tetrahedron container derives its edges and triangles from the tetrahedra at init', () => {
    const root = initScene(el('Node', {}, [el('TetrahedronSetTopologyContainer', { name: 'c', ...TWO_TETS })]));
    const c = objectNamed<TetrahedronSetTopologyContainer>(root, 'c');
    expect(c.triangles.value.length / 3).to.equal(7);
    expect(Array.from(c.edges.value.subarray(0, 6))).to.deep.equal([0, 1, 0, 2, 0, 3]);
    expect(c.nbPoints.value).to.equal(5);
    expect(c.getTopologyType()).to.equal('tetrahedron');
    const tit = c.getTrianglesInTetrahedron();
    // face j of a tetrahedron is opposite its vertex j: the shared face 1-2-3 is face 0 of the first, 3 of the second
    expect(tit[0]).to.equal(tit[4 + 3]);
  });

  it('a hexahedron container gives the outer faces of two cells once each', () => {
    const root = initScene(
      el('Node', {}, [el('HexahedronSetTopologyContainer', { name: 'h', hexahedra: '0 1 4 3 6 7 10 9  1 2 5 4 7 8 11 10' })]),
    );
    const h = objectNamed<HexahedronSetTopologyContainer>(root, 'h');
    expect(h.getQuads().length / 4).to.equal(11);
    expect(h.getEdges().length / 2).to.equal(20);
    const around = h.getHexahedraAroundQuad();
    let shared = 0;
    for (let q = 0; q < 11; q++) if (listAt(around, q).length === 2) shared++;
    expect(shared).to.equal(1);
    expect(h.getNbPoints()).to.equal(12);
  });

  it('follows the Data of a source through src (positions and elements), and their changes', () => {
    const root = initScene(
      el('Node', {}, [
        el('MeshTopology', { name: 'src', position: '0 0 0 1 0 0 0 1 0', triangles: '0 1 2' }),
        el('PointSetTopologyContainer', { name: 'p', src: '@src' }),
        el('TriangleSetTopologyContainer', { name: 't', src: '@src' }),
      ]),
    );
    const p = objectNamed<PointSetTopologyContainer>(root, 'p');
    expect(p.getNbPoints()).to.equal(3);
    expect(Array.from(p.getPositions()!)).to.deep.equal([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    const t = objectNamed<TriangleSetTopologyContainer>(root, 't');
    expect(t.getEdges().length).to.equal(6);
    const rev = t.revision;
    objectNamed<MeshTopology>(root, 'src').triangles.value = Uint32Array.of(0, 1, 2, 2, 1, 3);
    objectNamed<MeshTopology>(root, 'src').position.value = Float64Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0);
    expect(t.getTriangles().length / 3).to.equal(2);
    expect(t.getNbPoints()).to.equal(4);
    expect(t.revision).to.be.greaterThan(rev);
  });

  it('setElements replaces everything, as a topological mapping does', () => {
    const root = initScene(el('Node', {}, [el('TetrahedronSetTopologyContainer', { name: 'c', ...TWO_TETS })]));
    const c = objectNamed<TetrahedronSetTopologyContainer>(root, 'c');
    c.setElements({ nbPoints: 10, tetrahedra: Uint32Array.of(0, 1, 2, 3) });
    expect(c.getTriangles().length / 3).to.equal(4);
    expect(c.getEdges().length / 2).to.equal(6);
    expect(c.getNbPoints()).to.equal(10);
    expect(c.getPositions()).to.equal(undefined);
  });
});
