import { Bool, Int, Real, Vec3, sofaComponent } from '@sofa-ts/core';
import { MeshTopology } from './MeshTopology.js';
import { checkGridSize } from '../grid/grid-size.js';

/**
 * SOFA's CubeTopology: the surface of a box [min, max] sampled by an nx × ny × nz grid, as a
 * constant mesh (points, edges, quads), in SOFA's numbering:
 *  - default (no internal points, nx, ny, nz > 1): the grid points of the faces z = 0 (x + nx·y),
 *    then z = nz − 1, then per inner layer z the ring y = 0 (nx points), y = ny − 1 (nx), x = 0
 *    (ny − 2), x = nx − 1 (ny − 2);
 *  - internalPoints (or a flat box): every grid point, x + nx·(y + ny·z);
 *  - splitNormals: each face has its own points (corners and edges repeated), face by face
 *    x = 0, y = 0, z = 0, x = nx − 1, y = ny − 1, z = nz − 1.
 * Edges: the grid lines on the surface (along x, then y, then z at each point in x-fastest order);
 * quads: the faces z = 0, z = max, y = 0, y = max, x = 0, x = max, oriented outwards as SOFA does.
 * The old attributes xmin … zmax (single precision, times `scale`) replace min and max when all six
 * are given.
 */
@sofaComponent({
  name: 'CubeTopology',
  category: 'Topology',
  module: 'Sofa.Component.Topology.Container.Constant',
  description: 'Surface of a box sampled by a grid: points, edges and quads.',
})
export class CubeTopology extends MeshTopology {
  readonly nx = this.initData({ name: 'nx', type: Int, default: 0, help: 'x grid resolution' });
  readonly ny = this.initData({ name: 'ny', type: Int, default: 0, help: 'y grid resolution' });
  readonly nz = this.initData({ name: 'nz', type: Int, default: 0, help: 'z grid resolution' });
  readonly internalPoints = this.initData({
    name: 'internalPoints',
    type: Bool,
    default: false,
    help: 'include the internal points (one-to-one with a RegularGridTopology of the same resolution)',
  });
  readonly splitNormals = this.initData({
    name: 'splitNormals',
    type: Bool,
    default: false,
    help: 'split the corner and edge points so that each face has its own (planar normals)',
  });
  readonly min = this.initData({ name: 'min', type: Vec3, default: Float64Array.of(0, 0, 0), help: 'min corner' });
  readonly max = this.initData({ name: 'max', type: Vec3, default: Float64Array.of(1, 1, 1), help: 'max corner' });
  readonly xmin = this.initData({
    name: 'xmin',
    type: Real,
    default: 0,
    help: 'old attribute: min x (used when xmin … zmax are all given)',
  });
  readonly ymin = this.initData({ name: 'ymin', type: Real, default: 0, help: 'old attribute: min y' });
  readonly zmin = this.initData({ name: 'zmin', type: Real, default: 0, help: 'old attribute: min z' });
  readonly xmax = this.initData({ name: 'xmax', type: Real, default: 1, help: 'old attribute: max x' });
  readonly ymax = this.initData({ name: 'ymax', type: Real, default: 1, help: 'old attribute: max y' });
  readonly zmax = this.initData({ name: 'zmax', type: Real, default: 1, help: 'old attribute: max z' });
  readonly scale = this.initData({ name: 'scale', type: Real, default: 1, help: 'old attribute: factor applied to xmin … zmax' });

  override init(): void {
    const nx = this.nx.value,
      ny = this.ny.value,
      nz = this.nz.value;
    if (nx < 0 || ny < 0 || nz < 0) throw this.error(`nx, ny, nz must be ≥ 0 (got ${nx} ${ny} ${nz})`);
    checkGridSize(this, [nx, ny, nz], this.nx);
    const { min, max } = this.box();
    const d = [0, 1, 2].map((k) => ([nx, ny, nz][k] > 1 ? (max[k] - min[k]) / ([nx, ny, nz][k] - 1) : 0));
    const split = this.splitNormals.value;
    const surfaceOnly = !this.internalPoints.value && nx > 1 && ny > 1 && nz > 1;
    const count = split
      ? nx * ny * (nz > 1 ? 2 : 1) + ny * nz * (nx > 1 ? 2 : 1) + nz * nx * (ny > 1 ? 2 : 1)
      : surfaceOnly
        ? nx * ny * 2 + (nz - 2) * (2 * nx + 2 * ny - 4)
        : nx * ny * nz;
    const pos = new Float64Array(3 * count);
    for (let i = 0; i < count; i++) {
      const [x, y, z] = this.gridOf(i);
      pos[3 * i] = min[0] + d[0] * x;
      pos[3 * i + 1] = min[1] + d[1] * y;
      pos[3 * i + 2] = min[2] + d[2] * z;
    }
    const edges: number[] = [];
    for (let z = 0; z < nz; z++)
      for (let y = 0; y < ny; y++)
        for (let x = 0; x < nx; x++) {
          if (x < nx - 1 && (y === 0 || y === ny - 1 || z === 0 || z === nz - 1)) edges.push(this.point(x, y, z), this.point(x + 1, y, z));
          if (y < ny - 1 && (x === 0 || x === nx - 1 || z === 0 || z === nz - 1)) edges.push(this.point(x, y, z), this.point(x, y + 1, z));
          if (z < nz - 1 && (x === 0 || x === nx - 1 || y === 0 || y === ny - 1)) edges.push(this.point(x, y, z), this.point(x, y, z + 1));
        }
    const quads: number[] = [];
    const P = (x: number, y: number, z: number, plane: Plane): number => this.point(x, y, z, plane);
    for (let y = 0; y < ny - 1; y++)
      for (let x = 0; x < nx - 1; x++) quads.push(P(x, y, 0, 'z0'), P(x, y + 1, 0, 'z0'), P(x + 1, y + 1, 0, 'z0'), P(x + 1, y, 0, 'z0'));
    if (nz > 1)
      for (let y = 0; y < ny - 1; y++)
        for (let x = 0; x < nx - 1; x++)
          quads.push(P(x, y, nz - 1, 'z1'), P(x + 1, y, nz - 1, 'z1'), P(x + 1, y + 1, nz - 1, 'z1'), P(x, y + 1, nz - 1, 'z1'));
    for (let z = 0; z < nz - 1; z++)
      for (let x = 0; x < nx - 1; x++) quads.push(P(x, 0, z, 'y0'), P(x + 1, 0, z, 'y0'), P(x + 1, 0, z + 1, 'y0'), P(x, 0, z + 1, 'y0'));
    if (ny > 1)
      for (let z = 0; z < nz - 1; z++)
        for (let x = 0; x < nx - 1; x++)
          quads.push(P(x, ny - 1, z, 'y1'), P(x, ny - 1, z + 1, 'y1'), P(x + 1, ny - 1, z + 1, 'y1'), P(x + 1, ny - 1, z, 'y1'));
    for (let z = 0; z < nz - 1; z++)
      for (let y = 0; y < ny - 1; y++) quads.push(P(0, y, z, 'x0'), P(0, y, z + 1, 'x0'), P(0, y + 1, z + 1, 'x0'), P(0, y + 1, z, 'x0'));
    if (nx > 1)
      for (let z = 0; z < nz - 1; z++)
        for (let y = 0; y < ny - 1; y++)
          quads.push(P(nx - 1, y, z, 'x1'), P(nx - 1, y + 1, z, 'x1'), P(nx - 1, y + 1, z + 1, 'x1'), P(nx - 1, y, z + 1, 'x1'));
    this.position.value = pos;
    this.edges.value = Uint32Array.from(edges);
    this.quads.value = Uint32Array.from(quads);
    super.init();
  }

  /** min and max: the old xmin … zmax when all six are given (single precision, times scale), else min, max. */
  private box(): { min: number[]; max: number[] } {
    const legacy = [this.xmin, this.ymin, this.zmin, this.xmax, this.ymax, this.zmax];
    if (legacy.every((d) => d.isSet)) {
      const s = Math.fround(this.scale.value);
      const v = legacy.map((d) => Math.fround(d.value) * s);
      return { min: v.slice(0, 3), max: v.slice(3) };
    }
    return { min: Array.from(this.min.value), max: Array.from(this.max.value) };
  }

  /** Index of grid point (x, y, z) in SOFA's numbering (plane: the face a split point belongs to). */
  private point(x: number, y: number, z: number, plane?: Plane): number {
    const nx = this.nx.value,
      ny = this.ny.value,
      nz = this.nz.value;
    if (this.splitNormals.value) {
      let p = plane;
      if (!p) p = x === 0 ? 'x0' : x === nx - 1 ? 'x1' : y === 0 ? 'y0' : y === ny - 1 ? 'y1' : z === 0 ? 'z0' : 'z1';
      switch (p) {
        case 'x0':
          return y + ny * z;
        case 'x1':
          return ny * nz + nx * nz + nx * ny + y + ny * z;
        case 'y0':
          return ny * nz + x + nx * z;
        case 'y1':
          return 2 * ny * nz + nx * nz + nx * ny + x + nx * z;
        case 'z0':
          return ny * nz + nx * nz + x + nx * y;
        case 'z1':
          return 2 * ny * nz + 2 * nx * nz + nx * ny + x + nx * y;
      }
    }
    if (!this.internalPoints.value && nx > 1 && ny > 1 && nz > 1) {
      if (z === 0) return x + nx * y;
      if (z === nz - 1) return x + nx * (y + ny);
      const base = nx * ny * 2 + (2 * nx + 2 * ny - 4) * (z - 1);
      if (y === 0) return base + x;
      if (y === ny - 1) return base + x + nx;
      if (x === 0) return base + 2 * nx + (y - 1);
      return base + 2 * nx + (ny - 2) + (y - 1);
    }
    return x + nx * (y + ny * z);
  }

  /** Grid coordinates (x, y, z) of point i (the inverse of point()). */
  private gridOf(index: number): [number, number, number] {
    const nx = this.nx.value,
      ny = this.ny.value,
      nz = this.nz.value;
    let i = index;
    if (this.splitNormals.value) {
      let x = 0,
        y = 0,
        z = 0;
      if (i >= ny * nz + nx * nz + nx * ny) {
        i -= ny * nz + nx * nz + nx * ny;
        x = nx - 1;
        y = ny - 1;
        z = nz - 1;
      }
      if (i < ny * nz) return [x, i % ny, Math.floor(i / ny)];
      i -= ny * nz;
      if (i < nx * nz) return [i % nx, y, Math.floor(i / nx)];
      i -= nx * nz;
      return [i % nx, Math.floor(i / nx), z];
    }
    if (!this.internalPoints.value && nx > 1 && ny > 1 && nz > 1) {
      const nxny = nx * ny;
      if (i < nxny) return [i % nx, Math.floor(i / nx), 0];
      if (i < 2 * nxny) return [(i - nxny) % nx, Math.floor((i - nxny) / nx), nz - 1];
      i -= 2 * nxny;
      const ring = 2 * nx + 2 * (ny - 2);
      const z = Math.floor(i / ring) + 1;
      i -= (z - 1) * ring;
      if (i < nx) return [i, 0, z];
      if (i < 2 * nx) return [i - nx, ny - 1, z];
      if (i < 2 * nx + (ny - 2)) return [0, 1 + i - 2 * nx, z];
      return [nx - 1, 1 + i - 2 * nx - (ny - 2), z];
    }
    return [i % nx, Math.floor(i / nx) % ny, Math.floor(i / (nx * ny))];
  }
}

type Plane = 'x0' | 'x1' | 'y0' | 'y1' | 'z0' | 'z1';
