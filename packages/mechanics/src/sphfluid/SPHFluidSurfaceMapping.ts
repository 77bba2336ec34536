import { IndexArray, Real, isMechanicalState, positive, sofaComponent, type Data, type SparseMatrixLike } from '@sofa-ts/core';
import { createCsr } from '@sofa-ts/linalg';
import { MappingComponent } from '@sofa-ts/mapping';
import { IsoSurface, marchingCubes } from './marching-cubes.js';
import { SPHFluidForceField } from './SPHFluidForceField.js';

/** Largest number of grid vertices sampled (the surface is left empty beyond, with a warning). */
const MAX_GRID_VERTICES = 1 << 23;

/**
 * SOFA's SPHFluidSurfaceMapping (SofaSphFluid): the surface of the fluid of its input particles,
 * as a triangle mesh in its output visual model (position, triangles, normal). The colour field
 *   F(p) = Σi (1 − |p − xi|²/R²)³/ρi     over the particles closer than R = radius,
 * ρi the density of the SPHFluidForceField of the input's node at its last force evaluation
 * (without such a force field, F = Σi (1 − |p − xi|²/R²)³), is sampled at the grid points
 * (i, j, k)·step and the surface F = isoValue extracted by marching cubes (marching-cubes.ts).
 * With the SPH force field, isoValue 0.5 (the default, as in SOFA: only that value) is divided by
 * m·315/(64πR³), so that the surface is where the normalised colour field Σ m/ρi·W(p − xi) is 1/2.
 * Normals are −∇F (central differences on the grid), interpolated along the edge (trilinearly in
 * the cube for the polygons' centroids, marching-cubes.ts) and normalised.
 * Approximations against SOFA: the grid here spans the particles' bounding box (SOFA's covers
 * the 8³-point blocks around the particles, the same values where R ≤ 8·step); the triangulation
 * of the cubes with an ambiguous face may differ from SOFA's table (same vertices); the vertex and
 * triangle order differ. The mapping carries no motion or force back (it has no Jacobian, as SOFA's
 * applyJ and applyJT do nothing): its output is a visual model, rebuilt at each update.
 */
@sofaComponent({
  name: 'SPHFluidSurfaceMapping',
  category: 'Mapping',
  module: 'SofaSphFluid',
  description: 'Iso-surface of the colour field of SPH particles (marching cubes), into a visual model.',
  templates: ['Vec3d,Vec3d'],
})
export class SPHFluidSurfaceMapping extends MappingComponent {
  readonly step = this.initData({ name: 'step', type: Real, default: 0.5, range: positive, unit: 'm', help: 'grid step' });
  readonly radius = this.initData({
    name: 'radius',
    type: Real,
    default: 2,
    range: positive,
    unit: 'm',
    help: 'radius of the particle field',
  });
  readonly isoValue = this.initData({ name: 'isoValue', type: Real, default: 0.5, help: 'iso value' });
  readonly triangles = this.initData({
    name: 'triangles',
    type: IndexArray(3),
    default: new Uint32Array(0),
    help: 'triangles of the surface (SOFA: the mapping is the mesh topology of its output)',
    output: true,
  });

  private sph?: SPHFluidForceField;
  private iso = 0.5;
  private readonly surface = new IsoSurface();
  private field = new Float64Array(0);
  private edgeVertex = new Int32Array(0);
  private warnedSize = false;
  private readonly emptyJ = createCsr(0, 0, new Int32Array(1), new Int32Array(0));

  override init(): void {
    this.resolveEnds();
    if (isMechanicalState(this.to))
      throw this.error(
        `output ${this.to.describe()} is a mechanical state: the surface's vertices change at every step, map it to a visual model (OglModel)`,
      );
    this.checkTemplates(['Vec3d,Vec3d']);
    this.sph = this.from.context.getObject((o): o is SPHFluidForceField => o instanceof SPHFluidForceField, 'local');
    this.iso = this.isoValue.value;
    if (this.sph && this.iso === 0.5) this.iso = 0.5 / this.sph.particleFieldConstant(this.radius.value);
    this.apply();
  }

  get isLinear(): boolean {
    return true;
  }

  applyJ(_out: Float64Array, _ins: readonly Float64Array[]): void {}

  applyJT(_ins: readonly Float64Array[], _out: Float64Array): void {}

  getJ(_input: number): SparseMatrixLike {
    return this.emptyJ;
  }

  apply(): void {
    const x = this.from.x,
      n = this.from.size;
    const surf = this.surface;
    surf.clear();
    const R = this.radius.value,
      h = this.step.value;
    const box = bounds(x, n);
    if (box) {
      // grid points (i0 + i)·h around the particles, one step beyond their reach
      const i0 = Math.floor((box[0] - R) / h) - 1,
        j0 = Math.floor((box[1] - R) / h) - 1,
        k0 = Math.floor((box[2] - R) / h) - 1;
      const nx = Math.ceil((box[3] + R) / h) + 2 - i0,
        ny = Math.ceil((box[4] + R) / h) + 2 - j0,
        nz = Math.ceil((box[5] + R) / h) + 2 - k0;
      const nv = nx * ny * nz;
      if (!(nv <= MAX_GRID_VERTICES)) {
        if (!this.warnedSize) {
          this.warnedSize = true;
          this.warn(
            `the particles span ${nx}×${ny}×${nz} grid points (more than ${MAX_GRID_VERTICES}): the surface is left empty (reported once)`,
            'increase step',
          );
        }
      } else {
        this.sample(x, n, R, h, i0, j0, k0, nx, ny, nz);
        if (this.edgeVertex.length < 3 * nv) this.edgeVertex = new Int32Array(3 * nv);
        marchingCubes(this.field, nx, ny, nz, this.iso, surf, this.edgeVertex);
        this.write(i0, j0, k0, nx, ny, nz, h);
        return;
      }
    }
    this.write(0, 0, 0, 1, 1, 1, h);
  }

  /** F at the grid points: Σ over the particles within R of (1 − r²/R²)³ (/ρi with the SPH field). */
  private sample(
    x: Float64Array,
    n: number,
    R: number,
    h: number,
    i0: number,
    j0: number,
    k0: number,
    nx: number,
    ny: number,
    nz: number,
  ): void {
    const nv = nx * ny * nz;
    if (this.field.length < nv) this.field = new Float64Array(nv);
    const F = this.field;
    F.fill(0, 0, nv);
    const R2 = R * R;
    const sph = this.sph;
    for (let p = 0; p < n; p++) {
      const px = x[3 * p],
        py = x[3 * p + 1],
        pz = x[3 * p + 2];
      if (!Number.isFinite(px + py + pz)) continue;
      const w = sph ? 1 / sph.particleDensity(p) : 1;
      const ia = Math.max(0, Math.ceil((px - R) / h) - i0),
        ib = Math.min(nx - 1, Math.floor((px + R) / h) - i0);
      const ja = Math.max(0, Math.ceil((py - R) / h) - j0),
        jb = Math.min(ny - 1, Math.floor((py + R) / h) - j0);
      const ka = Math.max(0, Math.ceil((pz - R) / h) - k0),
        kb = Math.min(nz - 1, Math.floor((pz + R) / h) - k0);
      for (let k = ka; k <= kb; k++) {
        const dz = (k0 + k) * h - pz;
        for (let j = ja; j <= jb; j++) {
          const dy = (j0 + j) * h - py;
          const row = nx * (j + ny * k);
          for (let i = ia; i <= ib; i++) {
            const dx = (i0 + i) * h - px;
            const r2 = dx * dx + dy * dy + dz * dz;
            if (r2 >= R2) continue;
            const a = 1 - r2 / R2;
            F[row + i] += a * a * a * w;
          }
        }
      }
    }
  }

  /** The surface into the visual model: positions (i0 + i)·step, triangles, normals −∇F. */
  private write(i0: number, j0: number, k0: number, nx: number, ny: number, nz: number, h: number): void {
    const s = this.surface,
      nvert = s.vertexCount;
    const pos = new Float64Array(3 * nvert),
      nor = new Float64Array(3 * nvert);
    const F = this.field;
    const at = (i: number, j: number, k: number): number =>
      i < 0 || j < 0 || k < 0 || i >= nx || j >= ny || k >= nz ? 0 : F[i + nx * (j + ny * k)];
    const grad = (i: number, j: number, k: number, g: number[]): void => {
      g[0] = at(i + 1, j, k) - at(i - 1, j, k);
      g[1] = at(i, j + 1, k) - at(i, j - 1, k);
      g[2] = at(i, j, k + 1) - at(i, j, k - 1);
    };
    const g0 = [0, 0, 0],
      g1 = [0, 0, 0],
      acc = [0, 0, 0];
    for (let v = 0; v < nvert; v++) {
      const gx = s.vertices[3 * v],
        gy = s.vertices[3 * v + 1],
        gz = s.vertices[3 * v + 2];
      pos[3 * v] = (i0 + gx) * h;
      pos[3 * v + 1] = (j0 + gy) * h;
      pos[3 * v + 2] = (k0 + gz) * h;
      const e = s.vertexEdge[v];
      if (e < 0) {
        // a polygon's centroid inside cube −1 − e: the corners' gradients, trilinearly
        const p = -1 - e;
        const i = p % nx,
          j = Math.floor(p / nx) % ny,
          k = Math.floor(p / (nx * ny));
        const u = [gx - i, gy - j, gz - k];
        acc.fill(0);
        for (let c = 0; c < 8; c++) {
          const w = (c & 1 ? u[0] : 1 - u[0]) * (c & 2 ? u[1] : 1 - u[1]) * (c & 4 ? u[2] : 1 - u[2]);
          grad(i + (c & 1), j + ((c >> 1) & 1), k + ((c >> 2) & 1), g0);
          for (let a = 0; a < 3; a++) acc[a] -= w * g0[a];
        }
      } else {
        const axis = e % 3,
          p = (e - axis) / 3;
        const i = p % nx,
          j = Math.floor(p / nx) % ny,
          k = Math.floor(p / (nx * ny));
        const t = axis === 0 ? gx - i : axis === 1 ? gy - j : gz - k;
        grad(i, j, k, g0);
        grad(i + (axis === 0 ? 1 : 0), j + (axis === 1 ? 1 : 0), k + (axis === 2 ? 1 : 0), g1);
        for (let a = 0; a < 3; a++) acc[a] = -(g0[a] + (g1[a] - g0[a]) * t);
      }
      let len = 0;
      for (let c = 0; c < 3; c++) {
        nor[3 * v + c] = acc[c];
        len += acc[c] * acc[c];
      }
      len = Math.sqrt(len);
      if (len > 0) for (let c = 0; c < 3; c++) nor[3 * v + c] /= len;
    }
    const tris = s.triangles.slice(0, 3 * s.triangleCount);
    this.triangles.value = tris;
    const out = this.to;
    (out.findData('position') as Data<Float64Array>).value = pos;
    const tri = out.findData('triangles') as Data<Uint32Array> | undefined;
    if (tri) tri.value = tris;
    const nd = out.findData('normal') as Data<Float64Array> | undefined;
    if (nd) nd.value = nor;
    this.touchOutput();
  }
}

/** (min x, y, z, max x, y, z) of the finite points, or undefined when there is none. */
function bounds(x: Float64Array, n: number): number[] | undefined {
  const b = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
  let any = false;
  for (let p = 0; p < n; p++) {
    const px = x[3 * p],
      py = x[3 * p + 1],
      pz = x[3 * p + 2];
    if (!Number.isFinite(px + py + pz)) continue;
    any = true;
    b[0] = Math.min(b[0], px);
    b[1] = Math.min(b[1], py);
    b[2] = Math.min(b[2], pz);
    b[3] = Math.max(b[3], px);
    b[4] = Math.max(b[4], py);
    b[5] = Math.max(b[5], pz);
  }
  return any ? b : undefined;
}
