import { Bool, Int, Real, RealArray, sofaComponent, Str, type BaseMeshTopology } from '@sofa-ts/core';
import { mat3Invert } from '@sofa-ts/linalg';
import { CollisionModel, type ElementKind } from '../model/CollisionModel.js';
import type { DistanceGrid } from './distance-grid.js';
import { loadDistanceGrid } from './load-distance-grid.js';

/** SOFA's float constants of the FFD tests (single precision literals widened to double). */
const ERR_CONVERGED = Math.fround(0.005),
  INSIDE_LOW = Math.fround(0.001),
  INSIDE_HIGH = Math.fround(0.999);

/**
 * SOFA's FFDDistanceGridCollisionModel (plugin SofaDistanceGrid): the distance grid φ of an OBJ
 * mesh (see distance-grid.ts) deformed by a free-form deformation, the hexahedra ("cubes") of the
 * RegularGridTopology or SparseGridTopology of its Vec3 state. One element per hexahedron: a point
 * of the cube at cube coordinates b ∈ [0, 1]³ is, undeformed, at q = P0 + ΔP∘b (P0, ΔP the corner
 * C000 and the diagonal C111 − C000 of the rest cube), and deformed at the trilinear combination
 * of the current corners C_ijk (i, j, k ∈ {0, 1}):
 *   x(b) = C000 + Dx·b0 + Dy·b1 + Dz·b2 + Dxy·b0b1 + Dxz·b0b2 + Dyz·b1b2 + Dxyz·b0b1b2
 * (Dx = C100 − C000, Dxy = C110 − C010 − Dx, ..., SOFA's factors). The distance of a deformed
 * point x is φ(q(b)) with b solving x(b) = x (SOFA's Newton iterations, see ffdLocate).
 * Its element boxes are the boxes of the current corners, not enlarged by contactDistance (as in
 * SOFA). Contact points are the trilinear combinations of the cube's 8 corners at the cube
 * coordinates of the undeformed contact point (cubeWeights: SOFA's barycentric contact mapper).
 */
@sofaComponent({
  name: 'FFDDistanceGridCollisionModel',
  aliases: ['FFDDistanceGrid'],
  category: 'CollisionModel',
  module: 'SofaDistanceGrid',
  description: 'Grid-based deformable distance field: a distance grid deformed by the hexahedra of a grid topology.',
})
export class FFDDistanceGridCollisionModel extends CollisionModel {
  readonly filename = this.initData({
    name: 'filename',
    type: Str,
    default: '',
    aliases: ['fileFFDDistanceGrid'],
    help: 'Load distance grid from specified file (an OBJ mesh)',
  });
  readonly scale = this.initData({ name: 'scale', type: Real, default: 1, help: 'scaling factor for input file' });
  readonly sampling = this.initData({
    name: 'sampling',
    type: Real,
    default: 0,
    help: 'if not zero: sample the surface with points approximately separated by the given sampling distance (sofa-ts: only 0, the mesh vertices)',
  });
  readonly box = this.initData({
    name: 'box',
    type: RealArray(6),
    default: new Float64Array(6),
    help: "Field bounding box defined by xmin,ymin,zmin, xmax,ymax,zmax (as in SOFA, used only when xmin > xmax, to enlarge the mesh's box)",
  });
  readonly nx = this.initData({ name: 'nx', type: Int, default: 64, help: 'number of values on X axis' });
  readonly ny = this.initData({ name: 'ny', type: Int, default: 64, help: 'number of values on Y axis' });
  readonly nz = this.initData({ name: 'nz', type: Int, default: 64, help: 'number of values on Z axis' });
  readonly dumpfilename = this.initData({
    name: 'dumpfilename',
    type: Str,
    default: '',
    help: 'write distance grid to specified file (sofa-ts: not written, a warning says so)',
  });
  readonly usePoints = this.initData({
    name: 'usePoints',
    type: Bool,
    default: true,
    help: 'use mesh vertices for collision detection (against another distance grid: not provided by sofa-ts)',
  });
  readonly singleContact = this.initData({
    name: 'singleContact',
    type: Bool,
    default: false,
    help: 'keep only the deepest contact in each cell (of the tests against another distance grid: not provided by sofa-ts)',
  });

  grid: DistanceGrid | undefined;
  /** Number of cubes (the topology's hexahedra). */
  private nCubes = 0;
  /** Per cube: its hexahedron (index in the topology) and its 8 state indices in corner order C000, C100, C010, C110, C001, C101, C011, C111. */
  hexahedron = new Uint32Array(0);
  corners = new Uint32Array(0);
  /** Per cube (3 each): rest corner P0, diagonal ΔP and its inverse 1/ΔP (componentwise). */
  initP0 = new Float64Array(0);
  initDP = new Float64Array(0);
  invDP = new Float64Array(0);
  /** Per cube (24): C000, Dx, Dy, Dz, Dxy, Dxz, Dyz, Dxyz at the current positions. */
  deformation = new Float64Array(0);
  /** Per cube (24): the planes (n, w) of its faces FX0, FX1, FY0, FY1, FZ0, FZ1, n·x + w = 0. */
  faces = new Float64Array(0);

  get kind(): ElementKind {
    return 'ffddistancegrid';
  }

  get size(): number {
    return this.nCubes;
  }

  override init(): void {
    super.init();
    const s = this.mstate!;
    if (s.stateType.name !== 'Vec3d') throw this.error(`needs a Vec3d mechanical state, got ${s.stateType.name}`);
    let topo: BaseMeshTopology | undefined = this.topology.get();
    if (!topo) {
      topo = this.resolveTopology();
      this.warn(
        'no topology link: the topology of the context is used',
        "set topology to the RegularGridTopology or SparseGridTopology of the cubes (topology='@grid')",
      );
    }
    if (!topo || !topo.getGrid())
      throw this.error(
        'requires a Vec3-based deformable model with an associated RegularGridTopology or SparseGridTopology',
        'link topology to the grid whose hexahedra deform the distance grid',
      );
    if (this.sampling.value !== 0)
      throw this.error('surface sampling is not supported by sofa-ts', 'leave sampling at 0: the mesh vertices are the collision points');
    if (this.dumpfilename.value.trim() !== '')
      this.warnAbout(this.dumpfilename, 'the distance grid is not written by sofa-ts (dumpfilename is ignored)');
    const name = this.filename.value.trim();
    if (name === '') throw this.error('requires an input filename', "give the OBJ mesh of the object in 'filename'");
    const b = this.box.value;
    this.grid = loadDistanceGrid(
      this,
      name,
      this.scale.value,
      [this.nx.value, this.ny.value, this.nz.value],
      [b.subarray(0, 3), b.subarray(3, 6)],
    );
    this.placeCubes(topo);
  }

  /** The cubes of the topology's hexahedra: corner indices and rest geometry. */
  private placeCubes(topo: BaseMeshTopology): void {
    const hexa = topo.getHexahedra();
    const rest = topo.getPositions();
    const n = hexa.length / 8;
    const nPoints = this.mstate!.size;
    if (!rest || rest.length / 3 < topo.getNbPoints()) throw this.error('the grid topology has no point positions');
    this.nCubes = n;
    this.hexahedron = Uint32Array.from({ length: n }, (_, e) => e);
    this.corners = new Uint32Array(8 * n);
    this.initP0 = new Float64Array(3 * n);
    this.initDP = new Float64Array(3 * n);
    this.invDP = new Float64Array(3 * n);
    this.deformation = new Float64Array(24 * n);
    this.faces = new Float64Array(24 * n);
    // SOFA's hexahedron order 0-1-2-3 runs around the bottom face: corner bits (x, y, z) swap 2↔3 and 6↔7.
    const order = [0, 1, 3, 2, 4, 5, 7, 6];
    for (let e = 0; e < n; e++) {
      for (let j = 0; j < 8; j++) {
        const v = hexa[8 * e + order[j]];
        if (v >= nPoints) throw this.error(`hexahedron ${e} uses point ${v}, the state has ${nPoints} points`);
        this.corners[8 * e + j] = v;
      }
      const a = this.corners[8 * e],
        z = this.corners[8 * e + 7];
      for (let c = 0; c < 3; c++) {
        this.initP0[3 * e + c] = rest[3 * a + c];
        this.initDP[3 * e + c] = rest[3 * z + c] - rest[3 * a + c];
        this.invDP[3 * e + c] = 1 / this.initDP[3 * e + c];
      }
    }
  }

  /** SOFA's updateGrid: the deformation factors and face planes of every cube at the current positions. */
  updateGrid(): void {
    const x = this.x;
    const cs = this.corners,
      D = this.deformation;
    for (let e = 0; e < this.nCubes; e++) {
      const o = 24 * e,
        k = 8 * e;
      for (let c = 0; c < 3; c++) {
        const p = (j: number): number => x[3 * cs[k + j] + c];
        const dx = p(1) - p(0),
          dy = p(2) - p(0),
          dz = p(4) - p(0);
        const dxy = p(3) - p(2) - dx;
        D[o + c] = p(0);
        D[o + 3 + c] = dx;
        D[o + 6 + c] = dy;
        D[o + 9 + c] = dz;
        D[o + 12 + c] = dxy;
        D[o + 15 + c] = p(5) - p(4) - dx;
        D[o + 18 + c] = p(6) - p(4) - dy;
        D[o + 21 + c] = p(7) - p(5) - p(6) + p(4) - dxy;
      }
      this.plane(e, 0, 0, 2, 4, 6);
      this.plane(e, 1, 1, 5, 3, 7);
      this.plane(e, 2, 0, 4, 1, 5);
      this.plane(e, 3, 2, 3, 6, 7);
      this.plane(e, 4, 0, 1, 2, 3);
      this.plane(e, 5, 4, 6, 5, 7);
    }
  }

  /** Face f of cube e through corners (c00, c10, c01, c11): n = (c11 − c00) × (c01 − c10) normalised, w = −n·(Σ corners)/4. */
  private plane(e: number, f: number, c00: number, c10: number, c01: number, c11: number): void {
    const x = this.x,
      k = 8 * e,
      cs = this.corners;
    const a = 3 * cs[k + c00],
      b = 3 * cs[k + c10],
      c = 3 * cs[k + c01],
      d = 3 * cs[k + c11];
    const ux = x[d] - x[a],
      uy = x[d + 1] - x[a + 1],
      uz = x[d + 2] - x[a + 2];
    const vx = x[c] - x[b],
      vy = x[c + 1] - x[b + 1],
      vz = x[c + 2] - x[b + 2];
    let nx = uy * vz - uz * vy,
      ny = uz * vx - ux * vz,
      nz = ux * vy - uy * vx;
    const r = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (r > Number.EPSILON) ((nx /= r), (ny /= r), (nz /= r));
    const sx = x[a] + x[b] + x[c] + x[d],
      sy = x[a + 1] + x[b + 1] + x[c + 1] + x[d + 1],
      sz = x[a + 2] + x[b + 2] + x[c + 2] + x[d + 2];
    const o = 24 * e + 4 * f;
    this.faces[o] = nx;
    this.faces[o + 1] = ny;
    this.faces[o + 2] = nz;
    this.faces[o + 3] = (nx * sx + ny * sy + nz * sz) * -0.25;
  }

  /** out = x(b) of cube e, the deformed point at cube coordinates b. */
  deform(e: number, b: ArrayLike<number>, out: Float64Array): void {
    const D = this.deformation,
      o = 24 * e;
    for (let c = 0; c < 3; c++)
      out[c] =
        D[o + c] +
        D[o + 3 + c] * b[0] +
        (D[o + 6 + c] + D[o + 12 + c] * b[0]) * b[1] +
        (D[o + 9 + c] + D[o + 15 + c] * b[0] + (D[o + 18 + c] + D[o + 21 + c] * b[0]) * b[1]) * b[2];
  }

  /** m (row-major 3×3) = ∂x/∂b of cube e at b. */
  jacobian(e: number, b: ArrayLike<number>, m: Float64Array): void {
    const D = this.deformation,
      o = 24 * e;
    for (let i = 0; i < 3; i++) {
      m[3 * i] = D[o + 3 + i] + D[o + 12 + i] * b[1] + (D[o + 15 + i] + D[o + 21 + i] * b[1]) * b[2];
      m[3 * i + 1] = D[o + 6 + i] + D[o + 12 + i] * b[0] + (D[o + 18 + i] + D[o + 21 + i] * b[0]) * b[2];
      m[3 * i + 2] = D[o + 9 + i] + D[o + 15 + i] * b[0] + (D[o + 18 + i] + D[o + 21 + i] * b[0]) * b[1];
    }
  }

  /** SOFA's undeform0: the first estimate of b, b_a = β0/(β0 + β1) from the distances to the two faces across axis a. */
  undeform0(e: number, p: ArrayLike<number>, po: number, b: Float64Array): void {
    const F = this.faces,
      o = 24 * e;
    for (let a = 0; a < 3; a++) {
      const f0 = o + 8 * a,
        f1 = f0 + 4;
      const b0 = F[f0] * p[po] + F[f0 + 1] * p[po + 1] + F[f0 + 2] * p[po + 2] + F[f0 + 3];
      const b1 = F[f1] * p[po] + F[f1 + 1] * p[po + 1] + F[f1 + 2] * p[po + 2] + F[f1 + 3];
      b[a] = b0 / (b0 + b1);
    }
  }

  /** q = P0 + ΔP∘b, the undeformed (grid) point of cube e at b. */
  initPos(e: number, b: ArrayLike<number>, q: Float64Array): void {
    for (let c = 0; c < 3; c++) q[c] = this.initP0[3 * e + c] + this.initDP[3 * e + c] * b[c];
  }

  /** b = (q − P0)/ΔP, the cube coordinates of the undeformed point q. */
  baryCoords(e: number, q: ArrayLike<number>, qo: number, b: Float64Array): void {
    for (let c = 0; c < 3; c++) b[c] = (q[qo + c] - this.initP0[3 * e + c]) * this.invDP[3 * e + c];
  }

  /** |1/ΔP|, SOFA's "cube size" that turns a distance into cube coordinates. */
  cubeSize(e: number): number {
    const v = this.invDP;
    return Math.sqrt(v[3 * e] * v[3 * e] + v[3 * e + 1] * v[3 * e + 1] + v[3 * e + 2] * v[3 * e + 2]);
  }

  /**
   * The contact point of cube e at undeformed point q (p at po): idx[o..o+8) its corners (C000 …
   * C111), w[o..o+8) their trilinear weights at b = (q − P0)/ΔP (not clamped: a point a hair outside
   * the cube is extrapolated, as SOFA's addPointInCube keeps the coordinates it is given).
   */
  cubeWeights(e: number, q: ArrayLike<number>, qo: number, idx: Uint32Array, w: Float64Array, o: number): void {
    const b = scratchB;
    this.baryCoords(e, q, qo, b);
    const fx = b[0],
      fy = b[1],
      fz = b[2];
    for (let j = 0; j < 8; j++) {
      idx[o + j] = this.corners[8 * e + j];
      w[o + j] = (j & 1 ? fx : 1 - fx) * (j & 2 ? fy : 1 - fy) * (j & 4 ? fz : 1 - fz);
    }
  }

  /**
   * SOFA's search of the undeformed point of world point p in cube e (the loop of its FFD tests):
   * from undeform0, at most 5 Newton steps b += (∂x/∂b)⁻¹·(p − x(b)), stopping
   *   - when b leaves the cube by more than min(0.5, |p − x(b)|·cubeSize) (far from the cube): −1;
   *   - when |p − x(b)| < 0.005: b found; 1 when it is inside the cube (0.001 < b < 0.999), else −1;
   *   - when φ(q(b))/2 − |p − x(b)| > margin (too far from the object): −1.
   * Returns 1 with b, else −1 (also after 5 steps, when it reports the failure inside the cube).
   */
  locate(e: number, p: ArrayLike<number>, po: number, margin: number, b: Float64Array): number {
    const grid = this.grid!;
    const cubesize = this.cubeSize(e);
    const xd = scratchX,
      q = scratchQ,
      m = scratchM,
      mi = scratchMi;
    this.undeform0(e, p, po, b);
    for (let iter = 0; iter < 5; iter++) {
      this.deform(e, b, xd);
      const dx = p[po] - xd[0],
        dy = p[po + 1] - xd[1],
        dz = p[po + 2] - xd[2];
      const err = Math.sqrt(dx * dx + dy * dy + dz * dz);
      let berr = err * cubesize;
      if (berr > 0.5) berr = 0.5;
      if (b[0] < -berr || b[0] > 1 + berr || b[1] < -berr || b[1] > 1 + berr || b[2] < -berr || b[2] > 1 + berr) return -1;
      if (err < ERR_CONVERGED) return insideCube(b) ? 1 : -1;
      this.initPos(e, b, q);
      const d = grid.interp(q);
      if (d * 0.5 - err > margin) return -1;
      this.jacobian(e, b, m);
      if (mat3Invert(mi, m) === 0) {
        this.warn(`the deformation of cube ${e} is singular (a non-invertible Jacobian): a point is not tested against it`);
        return -1;
      }
      b[0] += mi[0] * dx + mi[1] * dy + mi[2] * dz;
      b[1] += mi[3] * dx + mi[4] * dy + mi[5] * dz;
      b[2] += mi[6] * dx + mi[7] * dy + mi[8] * dz;
    }
    if (insideCube(b))
      this.warn(
        `FFD collision failed to converge to the undeformed point of a point in cube ${e} (5 Newton steps): the point is not tested`,
        'the cube may be too deformed',
      );
    return -1;
  }

  protected computeElementBoxes(boxes: Float64Array): void {
    this.updateGrid();
    const x = this.x,
      cs = this.corners;
    for (let e = 0; e < this.nCubes; e++) {
      for (let j = 0; j < 8; j++) {
        const v = 3 * cs[8 * e + j];
        for (let c = 0; c < 3; c++) {
          const w = x[v + c];
          if (j === 0) boxes[6 * e + c] = boxes[6 * e + 3 + c] = w;
          else if (w < boxes[6 * e + c]) boxes[6 * e + c] = w;
          else if (w > boxes[6 * e + 3 + c]) boxes[6 * e + 3 + c] = w;
        }
      }
    }
  }
}

function insideCube(b: Float64Array): boolean {
  return b[0] > INSIDE_LOW && b[0] < INSIDE_HIGH && b[1] > INSIDE_LOW && b[1] < INSIDE_HIGH && b[2] > INSIDE_LOW && b[2] < INSIDE_HIGH;
}

const scratchB = new Float64Array(3),
  scratchX = new Float64Array(3),
  scratchQ = new Float64Array(3),
  scratchM = new Float64Array(9),
  scratchMi = new Float64Array(9);
