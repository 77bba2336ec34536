import { expect } from 'chai';
import { el, find, initScene } from '../scene-test-support.js';
import { arr, close, CUBE, one } from '../engine-test-support.js';
import type { ExtrudeSurface } from './ExtrudeSurface.js';
import type { GenerateCylinder } from './GenerateCylinder.js';
import type { GenerateGrid } from './GenerateGrid.js';
import type { GenerateRigidMass } from './GenerateRigidMass.js';
import type { MergeMeshes } from './MergeMeshes.js';
import type { MergePoints } from './MergePoints.js';
import type { MergeVectors } from './MergeVectors.js';
import type { MeshClosingEngine } from './MeshClosingEngine.js';
import type { NormEngine } from './NormEngine.js';
import type { RandomPointDistributionInSurface } from './RandomPointDistributionInSurface.js';
import type { Spiral } from './Spiral.js';
import { surfaceVolume, type VolumeFromTriangles } from './VolumeFromTriangles.js';
import { tetraVolume, type VolumeFromVolumetricElements } from './VolumeFromVolumetricElements.js';

/** Σ of the signed tetrahedron volumes. */
function tetraMeshVolume(x: Float64Array, t: Uint32Array): { total: number; min: number } {
  let total = 0,
    min = Infinity;
  for (let e = 0; e < t.length; e += 4) {
    const v = tetraVolume(x, t[e], t[e + 1], t[e + 2], t[e + 3]);
    total += v;
    min = Math.min(min, v);
  }
  return { total, min };
}

describe('Engine.Generate', () => {
  describe('merges', () => {
    it('MergeMeshes concatenates points in mesh order and shifts the elements of mesh k by the points before it', () => {
      const m = one<MergeMeshes>('MergeMeshes', {
        nbMeshes: '3',
        position1: '0 0 0  1 0 0',
        edges1: '0 1',
        position2: '5 5 5',
        position3: '7 7 7  8 8 8',
        edges3: '1 0',
        triangles2: '0 0 0',
      });
      expect(arr(m.position.value)).to.deep.equal([0, 0, 0, 1, 0, 0, 5, 5, 5, 7, 7, 7, 8, 8, 8]);
      expect(m.npoints.value).to.equal(5);
      expect(arr(m.edges.value)).to.deep.equal([0, 1, 4, 3]);
      expect(arr(m.triangles.value)).to.deep.equal([2, 2, 2]);
    });

    it('MergeVectors concatenates nbInputs vectors; MergePoints adds or injects', () => {
      const v = one<MergeVectors>('MergeVectors', { template: 'Data<double>', nbInputs: '3', input1: '1 2', input2: '', input3: '3' });
      expect(arr(v.output.value)).to.deep.equal([1, 2, 3]);
      const add = one<MergePoints>('MergePoints', { position1: '0 0 0  1 1 1', position2: '2 2 2' });
      expect(arr(add.points.value)).to.deep.equal([0, 0, 0, 1, 1, 1, 2, 2, 2]);
      expect(arr(add.indices1.value)).to.deep.equal([0, 1]);
      expect(arr(add.indices2.value)).to.deep.equal([2]);
      const inj = one<MergePoints>('MergePoints', { position1: '0 0 0  1 1 1  2 2 2', position2: '9 9 9  8 8 8', mappingX2: '2 0' });
      expect(arr(inj.points.value)).to.deep.equal([8, 8, 8, 1, 1, 1, 9, 9, 9]);
      expect(arr(inj.indices1.value)).to.deep.equal([1]);
      expect(arr(inj.indices2.value)).to.deep.equal([0, 2]);
    });

    it('NormEngine gives the l-norm of each vector', () => {
      const input = '3 -4 0  1 1 1';
      expect(arr(one<NormEngine>('NormEngine', { input }).output.value)).to.deep.equal([5, Math.sqrt(3)]);
      expect(arr(one<NormEngine>('NormEngine', { input, normType: '1' }).output.value)).to.deep.equal([7, 3]);
      expect(arr(one<NormEngine>('NormEngine', { input, normType: '-1' }).output.value)).to.deep.equal([4, 1]);
      expect(arr(one<NormEngine>('NormEngine', { input, normType: '0' }).output.value)).to.deep.equal([2, 3]);
    });
  });

  describe('generators', () => {
    it('GenerateGrid: (nx+1)(ny+1)(nz+1) points, nx·ny·nz hexahedra and 6 positive tetrahedra each, filling the box', () => {
      const g = one<GenerateGrid>('GenerateGrid', { min: '0 0 0', max: '0.5 1.5 1', resolution: '5 3 4' });
      const x = g.outputPosition.value;
      expect(x.length / 3).to.equal(6 * 4 * 5);
      expect(g.hexahedra.value.length / 8).to.equal(60);
      expect(g.tetrahedra.value.length / 4).to.equal(360);
      const { total, min } = tetraMeshVolume(x, g.tetrahedra.value);
      expect(total).to.be.closeTo(0.75, 1e-12);
      expect(min).to.be.closeTo(0.75 / 360, 1e-12);
      // first hexahedron in SOFA's order: (0,0,0) (1,0,0) (1,1,0) (0,1,0) then z + 1
      expect(arr(g.hexahedra.value.subarray(0, 8))).to.deep.equal([0, 1, 7, 6, 24, 25, 31, 30]);
      const flat = one<GenerateGrid>('GenerateGrid', { min: '0 0 0', max: '2 1 0', resolution: '2 1 0' });
      expect(arr(flat.quads.value)).to.deep.equal([0, 1, 4, 3, 1, 2, 5, 4]);
      expect(arr(flat.triangles.value)).to.deep.equal([0, 1, 3, 3, 1, 4, 1, 2, 4, 4, 2, 5]);
    });

    it('GenerateCylinder: counts, the volume of the inscribed prism and an outward closed surface', () => {
      const [nT, nR, nZ, R, H] = [7, 3, 7, 0.2, 1];
      const c = one<GenerateCylinder>('GenerateCylinder', {
        radius: `${R}`,
        height: `${H}`,
        resHeight: `${nZ}`,
        resCircumferential: `${nT}`,
        resRadial: `${nR}`,
        openSurface: '0',
      });
      const x = c.outputTetrahedraPosition.value;
      expect(x.length / 3).to.equal((nT * nR + 1) * nZ);
      expect(c.tetrahedra.value.length / 4).to.equal(3 * nT * (nZ - 1) + 6 * (nR - 1) * nT * (nZ - 1));
      // prism on the regular nθ-gon of radius R: (nθ/2)·R²·sin(2π/nθ)·H
      const prism = (nT / 2) * R * R * Math.sin((2 * Math.PI) / nT) * H;
      const { total, min } = tetraMeshVolume(x, c.tetrahedra.value);
      expect(total).to.be.closeTo(prism, 1e-12);
      expect(min).to.be.above(0);
      const s = c.outputTrianglesPosition.value,
        t = c.triangles.value;
      expect(s.length / 3).to.equal(nT * (nZ + 2 * (nR - 1)) + 2);
      expect(t.length / 3).to.equal(2 * nT * (nZ - 1) + 2 * nT + 4 * (nR - 1) * nT);
      expect(surfaceVolume(s, t)).to.be.closeTo(prism, 1e-12);
      const open = one<GenerateCylinder>('GenerateCylinder', { radius: `${R}`, resCircumferential: `${nT}` });
      expect(open.triangles.value.length / 3).to.equal(2 * nT * 4);
    });

    it('GenerateRigidMass of a unit cube: m = ρ, centre (½ ½ ½), inertia per unit mass diag(1/6)', () => {
      const g = one<GenerateRigidMass>('GenerateRigidMass', { density: '1000', position: CUBE.points, quads: CUBE.quads });
      expect(g.volume.value).to.be.closeTo(1, 1e-14);
      expect(g.mass.value).to.be.closeTo(1000, 1e-11);
      expect(close(g.massCenter.value, [0.5, 0.5, 0.5], 1e-14)).to.equal(true);
      expect(close(g.centerToOrigin.value, [-0.5, -0.5, -0.5], 1e-14)).to.equal(true);
      expect(close(g.inertiaMatrix.value, [1 / 6, 0, 0, 0, 1 / 6, 0, 0, 0, 1 / 6], 1e-14)).to.equal(true);
      expect(close(g.rigidMass.value, [1000, 1, 1 / 6, 0, 0, 0, 1 / 6, 0, 0, 0, 1 / 6], 1e-11)).to.equal(true);
      // a 2 × 1 × 1 box: J = diag((1+1)/12, (4+1)/12, (4+1)/12)
      const box = CUBE.points
        .split(/\s+/)
        .map(Number)
        .map((v, i) => (i % 3 === 0 ? 2 * v : v))
        .join(' ');
      const b = one<GenerateRigidMass>('GenerateRigidMass', { density: '1', position: box, triangles: CUBE.triangles });
      expect(close(b.inertiaMatrix.value, [2 / 12, 0, 0, 0, 5 / 12, 0, 0, 0, 5 / 12], 1e-14)).to.equal(true);
    });

    it('Spiral rolls the strip: arc length along the spiral equals |x0|, radius A·t', () => {
      const s = one<Spiral>('Spiral', { rest_position: '3 0 0.5  -2 0 0', curvature: '0.2' });
      const p = s.position.value;
      for (const [i, x0, sign] of [
        [0, 3, 1],
        [1, 2, -1],
      ] as const) {
        const r = Math.hypot(p[3 * i], p[3 * i + 1]);
        const t = r / 0.2;
        expect((0.2 / 2) * (t * Math.sqrt(1 + t * t) + Math.asinh(t))).to.be.closeTo(x0, 1e-9);
        // the point is on the ray of angle t (x0 > 0) or the opposite one
        expect(p[3 * i] * sign).to.be.closeTo(r * Math.cos(t), 1e-12);
      }
      expect(p[2]).to.equal(0.5);
    });

    it('VolumeFromTriangles and VolumeFromVolumetricElements give the volumes of a cube', () => {
      const t = one<VolumeFromTriangles>('VolumeFromTriangles', { position: CUBE.points, triangles: CUBE.triangles });
      expect(t.volume.value).to.be.closeTo(1, 1e-15);
      expect(one<VolumeFromTriangles>('VolumeFromTriangles', { position: CUBE.points, quads: CUBE.quads }).volume.value).to.be.closeTo(
        1,
        1e-15,
      );
      const h = one<VolumeFromVolumetricElements>('VolumeFromVolumetricElements', {
        position: '0 0 0  2 0 0  2 3 0  0 3 0  0 0 4  2 0 4  2 3 4  0 3 4',
        hexas: '0 1 2 3 4 5 6 7',
        tetras: '0 1 3 4',
      });
      expect(h.volume.value).to.be.closeTo(24 + 4, 1e-12);
    });

    it('ExtrudeSurface closes a flat patch extruded along its normal: volume = area · height', () => {
      // square [0,1]² at z = 0, normal +z, two triangles
      const e = one<ExtrudeSurface>('ExtrudeSurface', {
        surfaceVertices: '0 0 0  1 0 0  1 1 0  0 1 0',
        triangles: '0 1 2  0 2 3',
        surfaceTriangles: '0 1',
        heightFactor: '0.5',
      });
      const x = e.extrusionVertices.value,
        t = e.extrusionTriangles.value;
      expect(x.length / 3).to.equal(8);
      // 2 bottom + 2 top + 2 per border edge (4)
      expect(t.length / 3).to.equal(12);
      expect(arr(x.subarray(0, 6))).to.deep.equal([0, 0, 0, 0, 0, 0.5]);
      // bottom flipped, top kept: the shell is oriented inwards (SOFA's orientation), |V| = 0.5
      expect(Math.abs(surfaceVolume(x, t))).to.be.closeTo(0.5, 1e-15);
    });

    it('MeshClosingEngine caps the holes: an open cube closed by a fan on its missing face', () => {
      // the top face (triangles 4 5 6 and 4 6 7) removed
      const open = CUBE.triangles.split(/\s+/).slice(0, 6).concat(CUBE.triangles.split(/\s+/).slice(12)).join(' ');
      const c = one<MeshClosingEngine>('MeshClosingEngine', { inputPosition: CUBE.points, inputTriangles: open });
      expect(c.position.value.length / 3).to.equal(9);
      expect(arr(c.position.value.subarray(24))).to.deep.equal([0.5, 0.5, 1]);
      expect(c.triangles.value.length / 3).to.equal(10 + 4);
      expect(surfaceVolume(c.position.value, c.triangles.value)).to.be.closeTo(1, 1e-15);
      // the loop runs along the border as the faces around the hole orient it, then its centroid
      expect(c.indices.value).to.deep.equal([[4, 7, 6, 5, 8]]);
      expect(c.closingTriangles.value.length / 3).to.equal(4);
    });

    it('RandomPointDistributionInSurface: the requested number of points, inside, apart, reproducible from the seed', () => {
      const attrs = {
        vertices: CUBE.points,
        triangles: CUBE.triangles,
        numberOfInPoints: '20',
        minDistanceBetweenPoints: '0.1',
        randomSeed: '11',
      };
      const r = one<RandomPointDistributionInSurface>('RandomPointDistributionInSurface', attrs);
      const p = r.inPoints.value;
      expect(p.length / 3).to.equal(20);
      for (const v of p) expect(v).to.be.within(0, 1);
      for (let i = 0; i < p.length; i += 3)
        for (let j = i + 3; j < p.length; j += 3)
          expect(Math.hypot(p[i] - p[j], p[i + 1] - p[j + 1], p[i + 2] - p[j + 2])).to.be.at.least(0.1);
      expect(arr(one<RandomPointDistributionInSurface>('RandomPointDistributionInSurface', attrs).inPoints.value)).to.deep.equal(arr(p));
      // a cube with one face removed is not closed: a ray through the hole finds no triangle
      const openCube = CUBE.triangles.split(/\s+/).slice(6).join(' ');
      const o = one<RandomPointDistributionInSurface>('RandomPointDistributionInSurface', {
        ...attrs,
        triangles: openCube,
        numberOfInPoints: '3',
        numberOfTests: '7',
      });
      expect(o.inPoints.value.length).to.be.at.most(9);
    });
  });

  it('generators follow their inputs lazily', () => {
    const root = initScene([
      el('GenerateGrid', { name: 'g', max: '1 1 1', resolution: '1 1 1' }),
      el('VolumeFromVolumetricElements', { name: 'v', position: '@g.output_position', tetras: '@g.tetrahedra', update: '1' }),
    ]);
    const g = find<GenerateGrid>(root, 'g');
    const v = find<VolumeFromVolumetricElements>(root, 'v');
    expect(v.volume.value).to.be.closeTo(1, 1e-14);
    g.max.read('2 1 1');
    expect(g.outputPosition.value[3]).to.equal(2);
    expect(v.volume.value).to.be.closeTo(2, 1e-14);
  });
});

describe('Engine.Generate: MeshBarycentricMapperEngine', () => {
  it('finds the tetrahedron of each point and its barycentric coordinates: x = p0 + Σ b_k (p_k − p0)', async () => {
    const { one: make } = await import('../engine-test-support.js');
    const { el: e } = await import('../scene-test-support.js');
    const pts = '0 0 0  1 0 0  0 1 0  0 0 1  1 1 1';
    const m = make<import('./MeshBarycentricMapperEngine.js').MeshBarycentricMapperEngine>(
      'MeshBarycentricMapperEngine',
      { inputPositions: pts, mappedPointPositions: '0.1 0.2 0.3  0.6 0.6 0.6  3 3 3', topology: '@topo', computeLinearInterpolation: '1' },
      [e('TestTopology', { name: 'topo', position: pts, tetrahedra: '0 1 2 3  1 2 3 4' })],
    );
    expect(arr(m.tableElements.value)).to.deep.equal([0, 1, 1]);
    expect(close(m.barycentricPositions.value.subarray(0, 3), [0.1, 0.2, 0.3], 1e-15)).to.equal(true);
    // (0.6 0.6 0.6) in (1 2 3 4): p1 + b0 (p2 − p1) + b1 (p3 − p1) + b2 (p4 − p1)
    const b = m.barycentricPositions.value.subarray(3, 6);
    // p1 = (1 0 0), p2 − p1 = (−1 1 0), p3 − p1 = (−1 0 1), p4 − p1 = (0 1 1)
    expect(close([1 - b[0] - b[1], b[0] + b[2], b[1] + b[2]], [0.6, 0.6, 0.6], 1e-12)).to.equal(true);
    expect(m.linearInterpolationIndices.value[0]).to.deep.equal([0, 1, 2, 3]);
    expect(close(m.linearInterpolationValues.value.subarray(0, 4), [0.4, 0.1, 0.2, 0.3], 1e-15)).to.equal(true);
  });
});

describe('Engine.Generate: MeshTetraStuffing', () => {
  it('stuffs a cube: with split tetrahedra the mesh fills it exactly, every tetrahedron positive', async () => {
    const { one: make } = await import('../engine-test-support.js');
    const attrs = { inputPoints: CUBE.points, inputTriangles: CUBE.triangles, size: '-6' };
    const variants: Array<Record<string, string>> = [{ splitTetras: '1' }, { splitTetras: '1', snapPoints: '1' }];
    for (const extra of variants) {
      const s = make<import('./MeshTetraStuffing.js').MeshTetraStuffing>('MeshTetraStuffing', { ...attrs, ...extra });
      const x = s.outputPoints.value,
        t = s.outputTetrahedra.value;
      const { total, min } = tetraMeshVolume(x, t);
      expect(total).to.be.closeTo(1, 1e-12);
      expect(min).to.be.above(0);
      for (const v of x) expect(v).to.be.within(-1e-12, 1 + 1e-12);
    }
    // whole lattice tetrahedra with an inside vertex: a superset of the cube, within one cell
    const whole = make<import('./MeshTetraStuffing.js').MeshTetraStuffing>('MeshTetraStuffing', attrs);
    const { total } = tetraMeshVolume(whole.outputPoints.value, whole.outputTetrahedra.value);
    expect(total)
      .to.be.above(1)
      .and.below((1 + 2 * (1.02 / 6)) ** 3);
    expect(arr(whole.vbbox.value)).to.deep.equal([-0.01, -0.01, -0.01, 1.01, 1.01, 1.01]);
  });
});
