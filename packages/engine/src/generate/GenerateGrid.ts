import { DataEngine, IndexArray, sofaComponent, stateTypeOf, Vec3 } from '@sofa-ts/core';
import { Coords } from '../engine-support.js';
import { checkGridSize, Vec3i } from '@sofa-ts/topology';

/**
 * SOFA's GenerateGrid: a grid of resolution (nx, ny, nz) cells between min and max.
 * Points (i, j, k), 0 ≤ i ≤ nx, 0 ≤ j ≤ ny, 0 ≤ k ≤ nz, index i + (nx+1)·(j + (ny+1)·k), at
 * min + (i·Lx/nx, j·Ly/ny, k·Lz/nz). With nz ≥ 1: one hexahedron per cell (SOFA's vertex order) and
 * its 6 tetrahedra (around the diagonal 0–6), cells ordered with k fastest, then j, then i. With
 * nz = 0 a 2D grid: one quad per cell (i, j) (j fastest) and its triangles (0 1 3) (3 1 2).
 * A zero resolution along x or y becomes 1, with a warning (SOFA's error message).
 */
@sofaComponent({
  name: 'GenerateGrid',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Generate',
  description: 'Generate a Grid Tetrahedral or Hexahedral Mesh.',
  templates: ['Vec3d', 'Vec2d'],
  defaultTemplate: 'Vec3d',
})
export class GenerateGrid extends DataEngine {
  readonly outputPosition = this.initData({
    name: 'output_position',
    type: Coords,
    default: new Float64Array(0),
    help: 'output array of points',
    output: true,
    aliases: ['position'],
  });
  readonly tetrahedra = this.initData({
    name: 'tetrahedra',
    type: IndexArray(4, 'vector<Tetrahedron>'),
    default: new Uint32Array(0),
    help: 'output mesh tetrahedra',
    output: true,
  });
  readonly quads = this.initData({
    name: 'quads',
    type: IndexArray(4, 'vector<Quad>'),
    default: new Uint32Array(0),
    help: 'output mesh quads',
    output: true,
  });
  readonly triangles = this.initData({
    name: 'triangles',
    type: IndexArray(3, 'vector<Triangle>'),
    default: new Uint32Array(0),
    help: 'output mesh triangles',
    output: true,
  });
  readonly hexahedra = this.initData({
    name: 'hexahedra',
    type: IndexArray(8, 'vector<Hexahedron>'),
    default: new Uint32Array(0),
    help: 'output mesh hexahedra',
    output: true,
  });
  readonly min = this.initData({ name: 'min', type: Vec3, default: new Float64Array(3), help: 'the 3 coordinates of the minimum corner' });
  readonly max = this.initData({ name: 'max', type: Vec3, default: new Float64Array(3), help: 'the 3 coordinates of the maximum corner' });
  readonly resolution = this.initData({
    name: 'resolution',
    type: Vec3i,
    default: Int32Array.of(3, 3, 3),
    help: 'number of cells along x, y, z (z = 0: a 2D grid)',
  });

  constructor() {
    super();
    this.addInput(this.min, this.max, this.resolution);
    this.addOutput(this.outputPosition, this.tetrahedra, this.hexahedra, this.quads, this.triangles);
  }

  override init(): void {
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const dims = stateTypeOf(this.template || 'Vec3d')?.spatialDimensions ?? 3;
    const r = this.resolution.value;
    let [nx, ny, nz] = [r[0], r[1], r[2]];
    if (nx < 0 || ny < 0 || nz < 0) throw this.error(`resolution ${nx} ${ny} ${nz} has a negative value`);
    if (nx === 0) {
      this.warn('the number of cells along x cannot be 0: 1 is used');
      nx = 1;
    }
    if (ny === 0) {
      this.warn('the number of cells along y cannot be 0: 1 is used');
      ny = 1;
    }
    checkGridSize(this, [nx + 1, ny + 1, nz + 1], this.resolution);
    const a = this.min.value,
      b = this.max.value;
    const step = [(b[0] - a[0]) / nx, (b[1] - a[1]) / ny, nz === 0 ? 0 : (b[2] - a[2]) / nz];
    const pos: number[] = [];
    for (let k = 0; k <= nz; k++) {
      for (let j = 0; j <= ny; j++) {
        for (let i = 0; i <= nx; i++) {
          const p = [i * step[0] + a[0], j * step[1] + a[1], k * step[2] + a[2]];
          for (let c = 0; c < dims; c++) pos.push(p[c]);
        }
      }
    }
    this.outputPosition.value = Float64Array.from(pos);
    const id = (i: number, j: number, k: number): number => i + (nx + 1) * (j + (ny + 1) * k);
    if (nz === 0) {
      const quads: number[] = [],
        tris: number[] = [];
      for (let i = 0; i < nx; i++) {
        for (let j = 0; j < ny; j++) {
          const q = [id(i, j, 0), id(i + 1, j, 0), id(i + 1, j + 1, 0), id(i, j + 1, 0)] as const;
          quads.push(...q);
          tris.push(q[0], q[1], q[3], q[3], q[1], q[2]);
        }
      }
      this.quads.value = Uint32Array.from(quads);
      this.triangles.value = Uint32Array.from(tris);
      this.hexahedra.value = new Uint32Array(0);
      this.tetrahedra.value = new Uint32Array(0);
      return;
    }
    const hexa: number[] = [],
      tets: number[] = [];
    for (let i = 0; i < nx; i++) {
      for (let j = 0; j < ny; j++) {
        for (let k = 0; k < nz; k++) {
          const h = [
            id(i, j, k),
            id(i + 1, j, k),
            id(i + 1, j + 1, k),
            id(i, j + 1, k),
            id(i, j, k + 1),
            id(i + 1, j, k + 1),
            id(i + 1, j + 1, k + 1),
            id(i, j + 1, k + 1),
          ] as const;
          hexa.push(...h);
          tets.push(
            h[0],
            h[5],
            h[1],
            h[6],
            h[0],
            h[1],
            h[3],
            h[6],
            h[1],
            h[3],
            h[6],
            h[2],
            h[6],
            h[3],
            h[0],
            h[7],
            h[6],
            h[7],
            h[0],
            h[5],
            h[7],
            h[5],
            h[4],
            h[0],
          );
        }
      }
    }
    this.hexahedra.value = Uint32Array.from(hexa);
    this.tetrahedra.value = Uint32Array.from(tets);
    this.quads.value = new Uint32Array(0);
    this.triangles.value = new Uint32Array(0);
  }
}
