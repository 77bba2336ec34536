import { Bool, Int, nonNegative, Real, requireDataFile, sofaComponent, Str, UInt, Vec3, type GridDescription } from '@sofa-ts/core';
import { MeshTopology } from '../container/MeshTopology.js';
import { NO_ELEMENTS, type ElementKind } from '../container/topology-container.js';
import { Vec3i } from './grid-data.js';
import { readObjSurface } from './obj-surface.js';
import { checkGridSize } from './grid-size.js';
import { BOUNDARY, INSIDE, gridCoord, voxelGrid, voxelizeSurface, type VoxelGrid } from './sparse-voxelizer.js';
import { coarserSparseLevel, type SparseGridLevel } from './sparse-grid-levels.js';

/** What the sparse grid is built to (cells of a regular grid kept by voxelising a surface). */
export interface SparseGrid {
  readonly grid: VoxelGrid;
  /** Positions of the sparse grid's points (nP × 3). */
  readonly positions: Float64Array;
  /** (nH × 8) hexahedra in SOFA's vertex order. */
  readonly hexahedra: Uint32Array;
  /** Per hexahedron: 1 for a BOUNDARY cell (crossed by the surface), 0 for an INSIDE cell. */
  readonly boundary: Uint8Array;
  /** Per cell of the regular grid: its hexahedron, or −1. */
  readonly cellToHexahedron: Int32Array;
}

/**
 * SOFA's SparseGridTopology (finest level, no virtual finer levels): the cells of a regular grid of
 * n points spanning [min, max] (default: the bounding box of the surface grown by 1% on each side)
 * that a closed surface crosses (BOUNDARY) or encloses (INSIDE), voxelised as sparse-voxelizer.ts
 * describes. Hexahedra list the BOUNDARY cells, then the INSIDE cells, each in regular-grid order; the
 * points are the corners of these cells sorted by position (x, then y, then z), as SOFA's map of corner
 * positions orders them. The surface is the OBJ file `fileTopology`, or `position` with `triangles`
 * and `quads`. Stiffness and mass coefficients are 0.5 for BOUNDARY cells when fillWeighted, else 1.
 * Like SOFA, the sparse grid lists no edges, triangles or quads of its own.
 */
@sofaComponent({
  name: 'SparseGridTopology',
  aliases: ['SparseGrid'],
  category: 'Topology',
  module: 'Sofa.Component.Topology.Container.Grid',
  description: 'Sparse grid in 3D: the cells of a regular grid inside or crossing a closed surface.',
})
export class SparseGridTopology extends MeshTopology {
  readonly fillWeighted = this.initData({
    name: 'fillWeighted',
    type: Bool,
    default: true,
    help: 'weight the stiffness and mass of a cell by its filling (0.5 for boundary cells, 1 inside)',
  });
  readonly onlyInsideCells = this.initData({
    name: 'onlyInsideCells',
    type: Bool,
    default: false,
    help: 'keep only the cells inside the surface (not the boundary cells)',
  });
  readonly n = this.initData({
    name: 'n',
    type: Vec3i,
    default: Int32Array.of(2, 2, 2),
    help: 'resolution of the regular grid: number of points along x, y, z (at least 2)',
  });
  readonly min = this.initData({
    name: 'min',
    type: Vec3,
    default: Float64Array.of(0, 0, 0),
    help: 'min corner of the grid (default, with max: the surface bounding box grown by 1%)',
  });
  readonly max = this.initData({ name: 'max', type: Vec3, default: Float64Array.of(0, 0, 0), help: 'max corner of the grid' });
  readonly cellWidth = this.initData({
    name: 'cellWidth',
    type: Real,
    default: 0,
    range: nonNegative,
    help: 'if > 0, cell size: the resolution is computed from min, max and this width',
  });
  readonly nbVirtualFinerLevels = this.initData({
    name: 'nbVirtualFinerLevels',
    type: Int,
    default: 0,
    range: nonNegative,
    help: 'number of virtual finer grids: the surface is voxelised on a grid 2^L times finer and the cells coarsened L times (NonUniformHexahedronFEMForceFieldAndMass condenses its matrices from them)',
  });
  readonly dataResolution = this.initData({
    name: 'dataResolution',
    type: Vec3i,
    default: Int32Array.of(0, 0, 0),
    help: 'dimension of a voxel file (voxel files are not supported)',
  });
  readonly voxelSize = this.initData({
    name: 'voxelSize',
    type: Vec3,
    default: Float64Array.of(1, 1, 1),
    help: 'dimension of one voxel (voxel files are not supported)',
  });
  readonly marchingCubeStep = this.initData({
    name: 'marchingCubeStep',
    type: UInt,
    default: 1,
    help: 'step of the marching cubes (voxel files are not supported)',
  });
  readonly convolutionSize = this.initData({
    name: 'convolutionSize',
    type: UInt,
    default: 0,
    help: 'convolution kernel size smoothing the voxels (voxel files are not supported)',
  });
  readonly facets = this.initData({
    name: 'facets',
    type: Str,
    default: '',
    help: 'input polygons (not supported: give triangles and quads)',
  });

  private built: SparseGrid | undefined;
  private building = false;
  /** With nbVirtualFinerLevels L > 0: the L + 1 levels, finest first, the last this grid's. */
  private virtualLevels: SparseGridLevel[] = [];

  /** SOFA's sparse grid does not read its file into its own lists: the file is the surface to voxelise. */
  protected override loadFile(): void {}

  protected override deriveElements(_kind: ElementKind): Uint32Array {
    return NO_ELEMENTS;
  }

  protected override countPoints(): number {
    return this.build().positions.length / 3;
  }

  override getPositions(): Float64Array {
    return this.build().positions;
  }

  override getHexahedra(): Uint32Array {
    this.build();
    return super.getHexahedra();
  }

  /** Stiffness coefficient of a hexahedron (0.5 for a boundary cell with fillWeighted, else 1). */
  getStiffnessCoef(hexahedron: number): number {
    return this.build().boundary[hexahedron] && this.fillWeighted.value ? 0.5 : 1;
  }

  /** Mass coefficient of a hexahedron (same rule as the stiffness coefficient). */
  getMassCoef(hexahedron: number): number {
    return this.getStiffnessCoef(hexahedron);
  }

  override getGrid(): GridDescription {
    const s = this.build();
    return { n: s.grid.n, min: s.grid.min, max: s.grid.max, cellToHexahedron: s.cellToHexahedron, boundaryHexahedra: s.boundary };
  }

  protected override initContainer(): void {
    this.build();
    super.initContainer();
  }

  /** Builds the grid once (at init, or when a component asks for it first). */
  private build(): SparseGrid {
    if (this.built) return this.built;
    if (this.building) throw this.error('the sparse grid was needed while it was being built');
    this.building = true;
    try {
      this.built = this.buildFromSurface();
    } finally {
      this.building = false;
    }
    // the results become the Data of the topology (SOFA writes them in position, hexahedra, n, min, max)
    const g = this.built.grid;
    this.n.value = Int32Array.from(g.n);
    this.min.value = Float64Array.from(g.min);
    this.max.value = Float64Array.from(g.max);
    this.position.value = this.built.positions;
    this.hexahedra.value = this.built.hexahedra;
    return this.built;
  }

  protected buildFromSurface(): SparseGrid {
    const { vertices, facets } = this.surface();
    const grid = this.regularGrid(vertices);
    const L = this.nbVirtualFinerLevels.value;
    if (L === 0) return this.assemble(grid, voxelizeSurface(grid, vertices, facets));
    // SOFA's virtual finer levels: the finest grid of (n − 1)·2^L + 1 points, coarsened L times
    checkGridSize(this, grid.n.map((v) => (v - 1) * 2 ** L + 1) as [number, number, number], this.nbVirtualFinerLevels);
    const finest = voxelGrid(grid.n.map((v) => (v - 1) * 2 ** L + 1) as [number, number, number], grid.min, grid.max);
    let level: SparseGridLevel = { grid: finest, types: voxelizeSurface(finest, vertices, facets) };
    this.virtualLevels = [level];
    for (let i = 0; i < L; i++) this.virtualLevels.push((level = coarserSparseLevel(level)));
    return this.assemble(level.grid, level.types);
  }

  /**
   * The hierarchy of virtual finer levels (finest first, the last this grid's cells), empty when
   * nbVirtualFinerLevels is 0. Cells are the regular grids' (see getGrid's cellToHexahedron).
   */
  getVirtualLevels(): readonly SparseGridLevel[] {
    this.build();
    return this.virtualLevels;
  }

  /** The regular grid: n (or cellWidth), min and max, by default the surface's box grown by 1% per side. */
  protected regularGrid(vertices: Float64Array): VoxelGrid {
    if (vertices.length === 0) throw this.error('no surface to voxelise: give fileTopology (an OBJ file) or position and triangles');

    const nGiven = this.n.value;
    let n: [number, number, number] = [Math.max(2, nGiven[0]), Math.max(2, nGiven[1]), Math.max(2, nGiven[2])];
    let min = Array.from(this.min.value) as [number, number, number];
    let max = Array.from(this.max.value) as [number, number, number];
    if (min.every((x) => x === 0) && max.every((x) => x === 0)) {
      // bounding box of the surface, grown by 1% of its size on each side
      const lo = [vertices[0], vertices[1], vertices[2]];
      const hi = [vertices[0], vertices[1], vertices[2]];
      for (let i = 3; i < vertices.length; i += 3) {
        for (let k = 0; k < 3; k++) {
          const x = vertices[i + k];
          if (x > hi[k]) hi[k] = x;
          else if (x < lo[k]) lo[k] = x;
        }
      }
      const diff = [0, 1, 2].map((k) => (hi[k] - lo[k]) / 100);
      min = [lo[0] - diff[0], lo[1] - diff[1], lo[2] - diff[2]];
      max = [hi[0] + diff[0], hi[1] + diff[1], hi[2] + diff[2]];
    }
    const w = this.cellWidth.value;
    if (w) n = [0, 1, 2].map((k) => Math.ceil((max[k] - min[k]) / w) + 1) as [number, number, number];
    checkGridSize(this, n, w ? this.cellWidth : this.n);
    return voxelGrid(n, min, max);
  }

  /** The surface to voxelise: the OBJ file, else the position, triangles and quads Data. */
  protected surface(): { vertices: Float64Array; facets: number[][] } {
    const name = this.filename.value.trim();
    if (name !== '') {
      if (/\.(raw|voxel)$/i.test(name)) throw this.error(`voxel files ('${name}') are not supported: give a surface mesh (OBJ)`);
      if (!/\.obj$/i.test(name)) throw this.error(`cannot read '${name}': SparseGridTopology reads OBJ surfaces`);
      const s = readObjSurface(requireDataFile(this, name, 'surface file'));
      return { vertices: s.vertices, facets: s.facets.map((f) => [...f]) };
    }
    const facets: number[][] = [];
    const t = this.triangles.value;
    for (let i = 0; i < t.length; i += 3) facets.push([t[i], t[i + 1], t[i + 2]]);
    const q = this.quads.value;
    for (let i = 0; i < q.length; i += 4) facets.push([q[i], q[i + 1], q[i + 2], q[i + 3]]);
    return { vertices: Float64Array.from(this.position.value), facets };
  }

  /** Hexahedra of the kept cells (BOUNDARY first, then INSIDE) and their corners sorted by position. */
  private assemble(grid: VoxelGrid, types: Uint8Array): SparseGrid {
    const [nx, ny] = grid.n;
    const cx = nx - 1;
    const cy = ny - 1;
    const cells: number[] = [];
    if (!this.onlyInsideCells.value) for (let c = 0; c < types.length; c++) if (types[c] === BOUNDARY) cells.push(c);
    const nBoundary = cells.length;
    for (let c = 0; c < types.length; c++) if (types[c] === INSIDE) cells.push(c);

    // corners of each kept cell, as grid point indices, in SOFA's hexahedron order
    const offsets = [
      [0, 0, 0],
      [1, 0, 0],
      [1, 1, 0],
      [0, 1, 0],
      [0, 0, 1],
      [1, 0, 1],
      [1, 1, 1],
      [0, 1, 1],
    ] as const;
    const corners = new Uint32Array(cells.length * 8);
    cells.forEach((c, h) => {
      const i = c % cx;
      const j = Math.floor(c / cx) % cy;
      const k = Math.floor(c / (cx * cy));
      for (let v = 0; v < 8; v++) {
        const o = offsets[v];
        corners[h * 8 + v] = i + o[0] + nx * (j + o[1] + ny * (k + o[2]));
      }
    });

    // distinct corners sorted by position (x, then y, then z); equal positions are one point
    const used = Array.from(new Set(corners));
    const pos = (p: number, axis: number): number => {
      const i = p % nx;
      const j = Math.floor(p / nx) % ny;
      const k = Math.floor(p / (nx * ny));
      return gridCoord(grid, axis, axis === 0 ? i : axis === 1 ? j : k);
    };
    used.sort((a, b) => pos(a, 0) - pos(b, 0) || pos(a, 1) - pos(b, 1) || pos(a, 2) - pos(b, 2));
    const pointOf = new Map<number, number>();
    const positions: number[] = [];
    for (const p of used) {
      const x = pos(p, 0);
      const y = pos(p, 1);
      const z = pos(p, 2);
      const m = positions.length;
      if (m > 0 && positions[m - 3] === x && positions[m - 2] === y && positions[m - 1] === z) {
        pointOf.set(p, m / 3 - 1);
        continue;
      }
      pointOf.set(p, m / 3);
      positions.push(x, y, z);
    }
    const hexahedra = Uint32Array.from(corners, (p) => pointOf.get(p)!);
    const boundary = new Uint8Array(cells.length);
    boundary.fill(1, 0, nBoundary);
    const cellToHexahedron = new Int32Array(types.length).fill(-1);
    cells.forEach((c, h) => (cellToHexahedron[c] = h));
    return { grid, positions: Float64Array.from(positions), hexahedra, boundary, cellToHexahedron };
  }
}
