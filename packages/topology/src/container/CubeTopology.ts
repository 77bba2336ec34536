import { Bool, Int, Real, Vec3, sofaComponent, type Data } from '@sofa-ts/core';
import { MeshTopology } from './MeshTopology.js';
import type { ElementKind } from './topology-container.js';
import { checkGridSize } from '../grid/grid-size.js';

/** The faces of the cube a point of a split-normals CubeTopology belongs to. */
type Plane = 'x0' | 'x1' | 'y0' | 'y1' | 'z0' | 'z1' | undefined;

/**
 * SOFA's CubeTopology: the surface of a box [min, max] meshed by a grid of nx × ny × nz points —
 * its boundary quads (each face's, oriented outwards) and boundary grid lines, on the points
 *  - of the boundary only (default): the nx·ny points of z = 0, then of z = nz−1, then for each
 *    inner slice the ring y = 0, y = ny−1, x = 0, x = nx−1 (nx·ny·2 + (nz−2)(2nx + 2ny − 4) points);
 *  - of the whole grid with internalPoints (index x + nx·(y + ny·z), as RegularGridTopology);
 *  - duplicated per face with splitNormals (each face has its own points, for flat normals).
 * Point (x, y, z) is at min + (x·dx, y·dy, z·dz), d = (max − min)/(n − 1) (0 along a single-point axis).
 * The old attributes xmin … zmax (all six, times `scale`) give min and max.
 */
@sofaComponent({
  name: 'CubeTopology',
  category: 'Topology',
  module: 'Sofa.Component.Topology.Container.Constant',
  description: 'Surface of a cube in 3D.',
})
export class CubeTopology extends MeshTopology {
  readonly nx = this.initData({ name: 'nx', type: Int, default: 0, help: 'x grid resolution' });
  readonly ny = this.initData({ name: 'ny', type: Int, default: 0, help: 'y grid resolution' });
  readonly nz = this.initData({ name: 'nz', type: Int, default: 0, help: 'z grid resolution' });
  readonly internalPoints = this.initData({ name: 'internalPoints', type: Bool, default: false, help: 'include the internal points (a one-to-one mapping with a RegularGridTopology of the same size)' });
  readonly splitNormals = this.initData({ name: 'splitNormals', type: Bool, default: false, help: 'split the edge and corner points so that each face has planar normals' });
  readonly min = this.initData({ name: 'min', type: Vec3, default: new Float64Array(3), help: 'min corner' });
  readonly max = this.initData({ name: 'max', type: Vec3, default: Float64Array.of(1, 1, 1), help: 'max corner' });
  readonly xmin = this.initData({ name: 'xmin', type: Real, default: 0, help: 'old attribute: min x (used when xmin … zmax are all given)' });
  readonly ymin = this.initData({ name: 'ymin', type: Real, default: 0, help: 'old attribute: min y' });
  readonly zmin = this.initData({ name: 'zmin', type: Real, default: 0, help: 'old attribute: min z' });
  readonly xmax = this.initData({ name: 'xmax', type: Real, default: 1, help: 'old attribute: max x' });
  readonly ymax = this.initData({ name: 'ymax', type: Real, default: 1, help: 'old attribute: max y' });
  readonly zmax = this.initData({ name: 'zmax', type: Real, default: 1, help: 'old attribute: max z' });
  readonly scale = this.initData({ name: 'scale', type: Real, default: 1, help: 'old attribute: factor applied to xmin … zmax' });

  protected override extraInputs(): readonly Data<unknown>[] {
    return [this.nx, this.ny, this.nz, this.internalPoints, this.splitNormals, this.min, this.max] as Data<unknown>[];
  }

  private size(): [number, number, number] {
    return [this.nx.value, this.ny.value, this.nz.value];
  }

  protected override alwaysDerived(kind: ElementKind): boolean {
    return kind === 'edge' || kind === 'quad';
  }

  protected override countPoints(): number {
    const [nx, ny, nz] = this.size();
    if (this.splitNormals.value) return nx * ny * (nz > 1 ? 2 : 1) + ny * nz * (nx > 1 ? 2 : 1) + nz * nx * (ny > 1 ? 2 : 1);
    if (!this.internalPoints.value && nx > 1 && ny > 1 && nz > 1) return nx * ny * 2 + (nz - 2) * (2 * nx + 2 * ny - 4);
    return nx * ny * nz;
  }

  /** The index of grid point (x, y, z) (on face `p` when points are split per face). */
  private point(x: number, y: number, z: number, p?: Plane): number {
    const [nx, ny, nz] = this.size();
    if (this.splitNormals.value) {
      if (p === undefined) p = x === 0 ? 'x0' : x === nx - 1 ? 'x1' : y === 0 ? 'y0' : y === ny - 1 ? 'y1' : z === 0 ? 'z0' : 'z1';
      const A = ny * nz, B = nx * nz, C = nx * ny;
      switch (p) {
        case 'x0': return y + ny * z;
        case 'x1': return A + B + C + y + ny * z;
        case 'y0': return A + x + nx * z;
        case 'y1': return 2 * A + B + C + x + nx * z;
        case 'z0': return A + B + x + nx * y;
        default: return 2 * A + 2 * B + C + x + nx * y;
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

  protected override deriveElements(kind: ElementKind): Uint32Array {
    const [nx, ny, nz] = this.size();
    const P = (x: number, y: number, z: number, p?: Plane): number => this.point(x, y, z, p);
    if (kind === 'edge') {
      const e: number[] = [];
      for (let z = 0; z < nz; z++) {
        for (let y = 0; y < ny; y++) {
          for (let x = 0; x < nx; x++) {
            if (x < nx - 1 && (y === 0 || y === ny - 1 || z === 0 || z === nz - 1)) e.push(P(x, y, z), P(x + 1, y, z));
            if (y < ny - 1 && (x === 0 || x === nx - 1 || z === 0 || z === nz - 1)) e.push(P(x, y, z), P(x, y + 1, z));
            if (z < nz - 1 && (x === 0 || x === nx - 1 || y === 0 || y === ny - 1)) e.push(P(x, y, z), P(x, y, z + 1));
          }
        }
      }
      return Uint32Array.from(e);
    }
    if (kind === 'quad') {
      const q: number[] = [];
      for (let y = 0; y < ny - 1; y++) for (let x = 0; x < nx - 1; x++) q.push(P(x, y, 0, 'z0'), P(x, y + 1, 0, 'z0'), P(x + 1, y + 1, 0, 'z0'), P(x + 1, y, 0, 'z0'));
      if (nz > 1) for (let y = 0, z = nz - 1; y < ny - 1; y++) for (let x = 0; x < nx - 1; x++) q.push(P(x, y, z, 'z1'), P(x + 1, y, z, 'z1'), P(x + 1, y + 1, z, 'z1'), P(x, y + 1, z, 'z1'));
      for (let z = 0; z < nz - 1; z++) for (let x = 0; x < nx - 1; x++) q.push(P(x, 0, z, 'y0'), P(x + 1, 0, z, 'y0'), P(x + 1, 0, z + 1, 'y0'), P(x, 0, z + 1, 'y0'));
      if (ny > 1) for (let z = 0, y = ny - 1; z < nz - 1; z++) for (let x = 0; x < nx - 1; x++) q.push(P(x, y, z, 'y1'), P(x, y, z + 1, 'y1'), P(x + 1, y, z + 1, 'y1'), P(x + 1, y, z, 'y1'));
      for (let z = 0; z < nz - 1; z++) for (let y = 0; y < ny - 1; y++) q.push(P(0, y, z, 'x0'), P(0, y, z + 1, 'x0'), P(0, y + 1, z + 1, 'x0'), P(0, y + 1, z, 'x0'));
      if (nx > 1) for (let z = 0, x = nx - 1; z < nz - 1; z++) for (let y = 0; y < ny - 1; y++) q.push(P(x, y, z, 'x1'), P(x, y + 1, z, 'x1'), P(x, y + 1, z + 1, 'x1'), P(x, y, z + 1, 'x1'));
      return Uint32Array.from(q);
    }
    return super.deriveElements(kind);
  }

  /** The grid coordinates (x, y, z) of every point, in index order. */
  private pointCoordinates(): Array<[number, number, number]> {
    const [nx, ny, nz] = this.size();
    const n = this.countPoints();
    const out: Array<[number, number, number]> = new Array(n);
    for (let z = 0; z < nz; z++) {
      for (let y = 0; y < ny; y++) {
        for (let x = 0; x < nx; x++) {
          if (this.splitNormals.value) {
            const planes: Plane[] = [];
            if (x === 0) planes.push('x0');
            if (x === nx - 1) planes.push('x1');
            if (y === 0) planes.push('y0');
            if (y === ny - 1) planes.push('y1');
            if (z === 0) planes.push('z0');
            if (z === nz - 1) planes.push('z1');
            for (const p of planes) out[this.point(x, y, z, p)] = [x, y, z];
          } else {
            const onSurface = x === 0 || y === 0 || z === 0 || x === nx - 1 || y === ny - 1 || z === nz - 1;
            if (onSurface || this.internalPoints.value || !(nx > 1 && ny > 1 && nz > 1)) out[this.point(x, y, z)] = [x, y, z];
          }
        }
      }
    }
    return out;
  }

  protected override initContainer(): void {
    const legacy = [this.xmin, this.ymin, this.zmin, this.xmax, this.ymax, this.zmax];
    if (legacy.every((d) => d.isSet)) {
      const s = Math.fround(this.scale.value);
      const f = (d: Data<number>): number => Math.fround(d.value) * s;
      this.min.value = Float64Array.of(f(this.xmin), f(this.ymin), f(this.zmin));
      this.max.value = Float64Array.of(f(this.xmax), f(this.ymax), f(this.zmax));
    }
    const [nx, ny, nz] = this.size();
    if (nx < 1 || ny < 1 || nz < 1) throw this.error(`resolution ${nx} ${ny} ${nz}: give nx, ny and nz (at least 1 each)`);
    checkGridSize(this, [nx, ny, nz], this.nx);
    if (!this.position.isSet) {
      const a = this.min.value, b = this.max.value;
      const n = [nx, ny, nz];
      const d = [0, 1, 2].map((k) => (n[k]! > 1 ? (b[k]! - a[k]!) / (n[k]! - 1) : 0));
      const coords = this.pointCoordinates();
      const pos = new Float64Array(3 * coords.length);
      coords.forEach((c, i) => {
        for (let k = 0; k < 3; k++) pos[3 * i + k] = a[k]! + c[k]! * d[k]!;
      });
      this.position.value = pos;
    }
    super.initContainer();
  }
}
