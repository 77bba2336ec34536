import { expect } from 'chai';
import { el, find, initScene } from '../scene-test-support.js';
import type { TestIndicesUser, TestState } from '../scene-test-support.js';
import { arr, CUBE, gridPoints, one } from '../engine-test-support.js';
import type { MeshBoundaryROI } from './MeshBoundaryROI.js';
import type { MeshROI } from './MeshROI.js';
import type { MeshSampler } from './MeshSampler.js';
import type { MeshSplittingEngine } from './MeshSplittingEngine.js';
import type { MeshSubsetEngine } from './MeshSubsetEngine.js';
import type { NearestPointROI } from './NearestPointROI.js';
import type { PairBoxROI } from './PairBoxROI.js';
import type { PlaneROI } from './PlaneROI.js';
import type { PointsFromIndices } from './PointsFromIndices.js';
import type { ProximityROI } from './ProximityROI.js';
import type { SphereROI } from './SphereROI.js';
import type { SubsetTopology } from './SubsetTopology.js';
import type { ValuesFromIndices } from './ValuesFromIndices.js';
import type { ValuesFromPositions } from './ValuesFromPositions.js';

/** 4×4×4 grid of spacing 1: point (i, j, k) has index i + 4·(j + 4·k). */
const grid4 = gridPoints(4);
const id4 = (i: number, j: number, k: number): number => i + 4 * (j + 4 * k);
/** The grid points p for which pred(p) holds, by index. */
function where(pred: (x: number, y: number, z: number) => boolean): number[] {
  const out: number[] = [];
  for (let k = 0; k < 4; k++) for (let j = 0; j < 4; j++) for (let i = 0; i < 4; i++) if (pred(i, j, k)) out.push(id4(i, j, k));
  return out.sort((a, b) => a - b);
}

describe('Engine.Select', () => {
  describe('SphereROI', () => {
    it('selects exactly the points with |p − c| ≤ r of any sphere, one radius for all centers', () => {
      const s = one<SphereROI>('SphereROI', { position: grid4, centers: '0 0 0  3 3 3', radii: '1.5' });
      const expected = where((x, y, z) => Math.hypot(x, y, z) <= 1.5 || Math.hypot(x - 3, y - 3, z - 3) <= 1.5);
      expect(arr(s.indices.value)).to.deep.equal(expected);
      expect(s.nbIndices.value).to.equal(expected.length);
      expect(s.indicesOut.value.length).to.equal(64 - expected.length);
      // the boundary is inside: (1 1 1) is at distance √3 > 1.5, (1 1 0) at √2 < 1.5, (1 0 0) at 1
      expect(expected)
        .to.include(id4(1, 1, 0))
        .and.not.include(id4(1, 1, 1));
    });

    it('keeps an edge or triangle when all its points are in one sphere, within the angle conditions', () => {
      const base = { position: '0 0 0  1 0 0  0 1 0  0 0 1  5 0 0', centers: '0 0 0', radii: '1' };
      const e = one<SphereROI>('SphereROI', { ...base, edges: '0 1  0 2  0 4  1 2' });
      expect(arr(e.edgeIndices.value)).to.deep.equal([0, 1, 3]);
      // direction x within 10°: only (0 1)
      const ea = one<SphereROI>('SphereROI', { ...base, edges: '0 1  0 2  1 2', direction: '1 0 0', edgeAngle: '10' });
      expect(arr(ea.edgeIndices.value)).to.deep.equal([0]);
      // SOFA's orientation: n = (c − a) × (b − a); (0 1 2) has n = (0,1,0)×(1,0,0) = (0,0,−1)
      const t = one<SphereROI>('SphereROI', { ...base, triangles: '0 1 2  0 2 1  0 1 4', normal: '0 0 -1', triAngle: '5' });
      expect(arr(t.triangleIndices.value)).to.deep.equal([0]);
    });

    it('refuses a radius count that matches neither one nor the number of centers (selection empty, warned)', () => {
      const s = one<SphereROI>('SphereROI', { position: grid4, centers: '0 0 0  1 1 1  2 2 2', radii: '1 2' });
      expect(s.indices.value.length).to.equal(0);
    });
  });

  describe('PlaneROI', () => {
    it('selects the points of the slab: in the parallelogram p0 p1 p2 p3 and within depth/2 of its plane', () => {
      // parallelogram (0,0,z) (3,0,z) (3,2,z) at z = 1 thickened by 1: 0 ≤ x ≤ 3, 0 ≤ y ≤ 2, 0.5 ≤ z ≤ 1.5
      const s = one<PlaneROI>('PlaneROI', { position: grid4, plane: '0 0 1  3 0 1  3 2 1  1' });
      expect(arr(s.indices.value)).to.deep.equal(where((_x, y, z) => y <= 2 && z === 1));
    });

    it('with depth 0 selects the points of the plane through p0 (SOFA)', () => {
      const s = one<PlaneROI>('PlaneROI', { position: grid4, plane: '0.3 0 0  0 0 0  0 0.3 0  0' });
      expect(arr(s.indices.value)).to.deep.equal(where((_x, _y, z) => z === 0));
    });

    it('keeps the elements whose points are all in one slab', () => {
      const s = one<PlaneROI>('PlaneROI', {
        position: grid4,
        plane: '0 0 0  3 0 0  3 3 0  0.5',
        triangles: `${id4(0, 0, 0)} ${id4(1, 0, 0)} ${id4(0, 1, 0)}  ${id4(0, 0, 0)} ${id4(1, 0, 0)} ${id4(0, 0, 1)}`,
        edges: `${id4(3, 3, 0)} ${id4(0, 0, 0)}`,
      });
      expect(arr(s.triangleIndices.value)).to.deep.equal([0]);
      expect(arr(s.edgeIndices.value)).to.deep.equal([0]);
    });
  });

  describe('PairBoxROI', () => {
    it('selects the points in the inclusive box and not in the included one', () => {
      const s = one<PairBoxROI>('PairBoxROI', {
        position: grid4,
        inclusiveBox: '-0.5 -0.5 -0.5 3.5 3.5 0.5',
        includedBox: '0.5 0.5 -1 2.5 2.5 1',
      });
      expect(arr(s.indices.value)).to.deep.equal(where((x, y, z) => z === 0 && (x === 0 || x === 3 || y === 0 || y === 3)));
      expect(s.pointsInROI.value.length).to.equal(3 * 12);
    });
  });

  describe('SubsetTopology', () => {
    const tri = '0 1 3  1 4 3  1 2 4  2 5 4';
    // 3×2 points on a line of squares: x = 0 1 2, y = 0 1
    const pts = '0 0 0  1 0 0  2 0 0  0 1 0  1 1 0  2 1 0';

    it('splits triangles into those inside the box and the others, with global indices', () => {
      const s = one<SubsetTopology>('SubsetTopology', { rest_position: pts, triangles: tri, box: '-0.5 -0.5 -1  1.5 1.5 1' });
      expect(arr(s.indices.value)).to.deep.equal([0, 1, 3, 4]);
      expect(arr(s.triangleIndices.value)).to.deep.equal([0, 1]);
      expect(arr(s.trianglesInROI.value)).to.deep.equal([0, 1, 3, 1, 4, 3]);
      expect(arr(s.trianglesOutROI.value)).to.deep.equal([1, 2, 4, 2, 5, 4]);
      expect(s.pointsOutROI.value.length).to.equal(6);
    });

    it('with localIndices renumbers each part, the border points first in both', () => {
      const s = one<SubsetTopology>('SubsetTopology', {
        rest_position: pts,
        triangles: tri,
        box: '-0.5 -0.5 -1  1.5 1.5 1',
        localIndices: '1',
      });
      // border: inside points of triangles that have an outside point: 1 and 4
      expect(s.nbrborder.value).to.equal(2);
      expect(arr(s.indices.value)).to.deep.equal([1, 4, 0, 3]);
      expect(arr(s.pointsInROI.value)).to.deep.equal([1, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1, 0]);
      expect(arr(s.pointsOutROI.value)).to.deep.equal([1, 0, 0, 1, 1, 0, 2, 0, 0, 2, 1, 0]);
      // inside: 0→2, 1→0, 3→3, 4→1; outside: 1→0, 4→1, 2→2, 5→3
      expect(arr(s.trianglesInROI.value)).to.deep.equal([2, 0, 3, 0, 1, 3]);
      expect(arr(s.trianglesOutROI.value)).to.deep.equal([0, 2, 1, 2, 3, 1]);
    });

    it('uses spheres when centers are given, and tetrahedraInput instead of a region when given', () => {
      const s = one<SubsetTopology>('SubsetTopology', { rest_position: grid4, centers: '0 0 0', radii: '1.1' });
      expect(arr(s.indices.value)).to.deep.equal(where((x, y, z) => Math.hypot(x, y, z) <= 1.1));
      const t = one<SubsetTopology>('SubsetTopology', {
        rest_position: '0 0 0 1 0 0 0 1 0 0 0 1 1 1 1',
        tetrahedra: '0 1 2 3  1 2 3 4',
        tetrahedraInput: '1',
        localIndices: '1',
      });
      expect(arr(t.tetrahedronIndices.value)).to.deep.equal([1]);
      expect(arr(t.tetrahedraInROI.value)).to.deep.equal([0, 1, 2, 3]);
      expect(arr(t.indices.value)).to.deep.equal([1, 2, 3, 4]);
      expect(arr(t.tetrahedraOutROI.value)).to.deep.equal([0, 1, 2, 3]);
    });
  });

  describe('selection and mesh engines', () => {
    it('PointsFromIndices gives the coordinates of the indices, each distinct point once', () => {
      const p = one<PointsFromIndices>('PointsFromIndices', { position: '0 0 0  1 2 3  4 5 6', indices: '2 1 2' });
      expect(arr(p.indicesPosition.value)).to.deep.equal([4, 5, 6, 1, 2, 3]);
    });

    it('ValuesFromIndices picks values of the template size', () => {
      const v = one<ValuesFromIndices>('ValuesFromIndices', { template: 'Vec3', in: '0 0 0  1 2 3  4 5 6', indices: '2 0 2' });
      expect(arr(v.out.value)).to.deep.equal([4, 5, 6, 0, 0, 0, 4, 5, 6]);
      expect(v.outStr.value).to.equal('4 5 6 0 0 0 4 5 6');
      expect(() => one('ValuesFromIndices', { template: 'Vec3', in: '0 0 0', indices: '1' })).to.throw(/index 1/);
    });

    it('ValuesFromPositions interpolates the values along the direction, or gives the direction as vectors', () => {
      // x from 0 to 3, values 10 at x = 0 and 40 at x = 3 (bmin, bmax: the x extent)
      const v = one<ValuesFromPositions>('ValuesFromPositions', {
        position: '0 0 0  1 0 0  3 0 0',
        inputValues: '10 40',
        direction: '1 0 0',
        edges: '0 1',
      });
      expect(arr(v.values.value)).to.deep.equal([10, 20, 40]);
      expect(arr(v.edgeValues.value)).to.deep.equal([15]);
      const w = one<ValuesFromPositions>('ValuesFromPositions', {
        position: '0 0 0  1 0 0',
        direction: '1 1 0',
        fieldType: 'Vector',
        edges: '0 1',
      });
      expect(arr(w.pointVectors.value)).to.deep.equal([1, 1, 0, 1, 1, 0]);
      expect(arr(w.edgeVectors.value)).to.deep.equal([1, 1, 0]);
    });

    it('MeshBoundaryROI lists the end points of the edges used by one face', () => {
      // 3×3 points, 4 quads: every point but the centre (4) is on the boundary
      const q = '0 1 4 3  1 2 5 4  3 4 7 6  4 5 8 7';
      expect(arr(one<MeshBoundaryROI>('MeshBoundaryROI', { quads: q }).indices.value)).to.deep.equal([0, 1, 2, 3, 5, 6, 7, 8]);
      // restricted to the faces within inputROI (the first quad)
      expect(arr(one<MeshBoundaryROI>('MeshBoundaryROI', { quads: q, inputROI: '0 1 3 4' }).indices.value)).to.deep.equal([0, 1, 3, 4]);
    });

    it('MeshSubsetEngine keeps the elements whose vertices are selected, renumbered', () => {
      const m = one<MeshSubsetEngine>('MeshSubsetEngine', {
        inputPosition: '0 0 0  1 0 0  0 1 0  1 1 0',
        inputTriangles: '0 1 2  1 3 2',
        indices: '3 1 2',
      });
      expect(arr(m.position.value)).to.deep.equal([1, 1, 0, 1, 0, 0, 0, 1, 0]);
      expect(arr(m.triangles.value)).to.deep.equal([1, 0, 2]);
    });

    it('MeshSplittingEngine gives each vertex to the first list that claims it, the rest to the last sub-mesh', () => {
      const m = one<MeshSplittingEngine>('MeshSplittingEngine', {
        position: '0 0 0  1 0 0  2 0 0  3 0 0  4 0 0',
        edges: '1 2  2 3',
        nbInputs: '2',
        indices1: '0',
        edgeIndices1: '1',
        indices2: '2 4',
      });
      // vertex 0 and edge 1 (2 3) → sub-mesh 0; 4 → 1 (2 taken by 0); 1 → the remainder (2)
      expect(arr(m.indexPairs.value)).to.deep.equal([0, 0, 2, 0, 0, 1, 0, 2, 1, 0]);
      expect(arr(m.findData('position1')!.value as Float64Array)).to.deep.equal([0, 0, 0, 2, 0, 0, 3, 0, 0]);
      expect(arr(m.findData('position2')!.value as Float64Array)).to.deep.equal([4, 0, 0]);
      expect(arr(m.findData('position3')!.value as Float64Array)).to.deep.equal([1, 0, 0]);
    });

    it('MeshROI selects the points inside a closed surface (odd crossings)', () => {
      const m = one<MeshROI>('MeshROI', {
        ROIposition: CUBE.points,
        ROItriangles: CUBE.triangles,
        position: '0.45 0.55 0.5  0.2 0.9 0.1  1.5 0.5 0.5  0.5 -0.1 0.5  0.3 0.6 0.7',
        edges: '0 1  0 2',
      });
      expect(arr(m.indices.value)).to.deep.equal([0, 1, 4]);
      expect(arr(m.box.value)).to.deep.equal([0, 0, 0, 1, 1, 1]);
      // strict is false by default for MeshROI: the edge (0 2) is in as its centre (0.975, 0.525, 0.5) is
      expect(arr(m.edgeIndices.value)).to.deep.equal([0, 1]);
    });

    it("MeshROI's points on the surface: in on a face (its crossing at d = 0 counts), out on a triangle's shared edge (counted twice), as SOFA's ray test", () => {
      // CUBE's bottom face is the triangles 0 2 1 and 0 3 2, which share the diagonal (0 0 0)–(1 1 0)
      const m = one<MeshROI>('MeshROI', {
        ROIposition: CUBE.points,
        ROItriangles: CUBE.triangles,
        position: '0 0.5 0.3  1 0.5 0.3  0.25 0.5 0  0.5 0.5 0  0.5 0.5 1.0000001',
      });
      // the last point is just outside the bounding box, never tested against the triangles
      expect(arr(m.indices.value)).to.deep.equal([0, 1, 2]);
    });

    it('MeshSampler picks far apart points: farthest point sampling on a line gives its ends and middle', () => {
      const pts = Array.from({ length: 11 }, (_, i) => `${i} 0 0`).join('  ');
      const m = one<MeshSampler>('MeshSampler', { position: pts, number: '3', maxIter: '0' });
      expect(arr(m.outputIndices.value)).to.deep.equal([0, 10, 5]);
      // geodesic along a chain of edges: the same on a straight line
      const edges = Array.from({ length: 10 }, (_, i) => `${i} ${i + 1}`).join('  ');
      expect(arr(one<MeshSampler>('MeshSampler', { position: pts, edges, number: '3', maxIter: '0' }).outputIndices.value)).to.deep.equal([
        0, 10, 5,
      ]);
      // Lloyd moves the first sample to the centre of its region 0 … 2
      const l = one<MeshSampler>('MeshSampler', { position: pts, number: '3', maxIter: '10' });
      expect(arr(l.outputIndices.value).sort((a, b) => a - b)).to.deep.equal([1, 5, 9]);
    });

    it('ProximityROI keeps the N points nearest to a center within its radius', () => {
      const p = one<ProximityROI>('ProximityROI', {
        position: '0 0 0  0.1 0 0  0.5 0 0  0.3 0 0  2 0 0',
        centers: '0 0 0',
        radii: '1',
        N: '2',
      });
      expect(arr(p.indices.value)).to.deep.equal([0, 1]);
      expect(arr(p.distance.value)).to.deep.equal([0, 0.1]);
      expect(arr(p.indicesOut.value)).to.deep.equal([2, 3, 4]);
    });

    it('NearestPointROI pairs each point of object2 with its nearest point of object1 within the radius', () => {
      const root = initScene([
        el('TestState', { name: 'a', position: '0 0 0  1 0 0  2 0 0' }),
        el('TestState', { name: 'b', position: '1.1 0 0  5 0 0  -0.05 0 0' }),
        el('NearestPointROI', { name: 'np', object1: '@a', object2: '@b', radius: '0.5' }),
      ]);
      const np = find<NearestPointROI>(root, 'np');
      expect(arr(np.indices1.value)).to.deep.equal([1, 0]);
      expect(arr(np.indices2.value)).to.deep.equal([0, 2]);
      expect(arr(np.indexPairs.value)).to.deep.equal([0, 1, 1, 0, 0, 0, 1, 2]);
      expect(arr(np.edges.value)).to.deep.equal([0, 1, 4, 5]);
      expect(np.distances.value[0]).to.be.closeTo(0.1, 1e-12);
    });
  });

  it('ROIs update lazily: a changed input gives a new selection at the next read', () => {
    const root = initScene([
      el('TestState', { name: 'dofs', position: grid4 }),
      el('SphereROI', { name: 's', centers: '0 0 0', radii: '0.5' }),
      el('TestIndicesUser', { name: 'user', indices: '@s.indices' }),
    ]);
    const user = find<TestIndicesUser>(root, 'user');
    expect(arr(user.indices.value)).to.deep.equal([0]);
    find<SphereROI>(root, 's').radii.read('1');
    expect(arr(user.indices.value)).to.deep.equal([0, 1, 4, 16]);
    find<TestState>(root, 'dofs').restPosition.value = Float64Array.of(5, 5, 5, 0.5, 0, 0);
    expect(arr(user.indices.value)).to.deep.equal([1]);
  });
});
