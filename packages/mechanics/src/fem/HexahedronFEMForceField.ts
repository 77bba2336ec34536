import {
  BaseForceField,
  Bool,
  Enum,
  Real,
  RealArray,
  Str,
  isTopology,
  sofaComponent,
  inHalfOpen,
  nonNegative,
  orReset,
  type BaseMechanicalState,
  type BaseMeshTopology,
  type MatrixAccumulator,
} from '@sofa-ts/core';
import { emitElementMatrix, rotatedElementStiffness } from './element-matrix.js';
import { sameElements } from './corotational-tetrahedra.js';
import { polarDecomposition } from './polar-decomposition.js';
import {
  DEFAULT_POISSON_RATIO,
  DEFAULT_YOUNG_MODULUS,
  initLinearElasticVolume,
  isotropicHooke,
  valueInElement,
} from './volume-elasticity.js';

/** Corner signs (ξ, η, ζ) of SOFA's hexahedron: 0-1-2-3 the face ζ = −1 counter-clockwise, 4-7 above. */
const CORNER = [
  [-1, -1, -1], [1, -1, -1], [1, 1, -1], [-1, 1, -1],
  [-1, -1, 1], [1, -1, 1], [1, 1, 1], [-1, 1, 1],
] as const;

/** Optional per-element stiffness coefficients of sparse grids (fraction of the cell inside). */
interface StiffnessCoefficients {
  getStiffnessCoef(element: number): number;
}

function hasStiffnessCoefficients(t: unknown): t is StiffnessCoefficients {
  return typeof (t as { getStiffnessCoef?: unknown }).getStiffnessCoef === 'function';
}

/**
 * SOFA's HexahedronFEMForceField: trilinear hexahedra (8 nodes, SOFA's vertex order) with linear
 * elasticity, corotational ('large': frame of the mean edges, x̂ ∥ mean of the 4 x-edges,
 * ẑ ∥ x̂ × mean of the 4 y-edges, ŷ = ẑ × x̂; 'polar': orthogonal factor of the mean-edge matrix) or
 * with small displacements.
 *   K_e (24×24) = Σ over the 2×2×2 Gauss points (±1/√3) of Bᵀ·D·B·det J, computed in the rest frame
 *     (B from ∂N/∂X = J⁻¹·∂N/∂ξ; J constant when the element is a parallelepiped), D Hooke's matrix
 *     in SOFA's Voigt order (εxx, εyy, εzz, γxy, γyz, γzx);
 *   f_node += Rᵀ·(K_e·(R₀·X − R·x))_node;  df = −k·Rᵀ·K_e·R·dx (rotations of the last addForce,
 *     no derivative of R).
 * Elements of the same rest shape and material share one K_e (regular grids store a single matrix).
 */
@sofaComponent({
  name: 'HexahedronFEMForceField',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.FEM.Elastic',
  description: 'Linear elastic hexahedra, corotational (large, polar) or small displacements.',
  templates: ['Vec3d'],
})
export class HexahedronFEMForceField extends BaseForceField {
  readonly youngModulus = this.initData({ name: 'youngModulus', type: RealArray(1), default: Float64Array.of(DEFAULT_YOUNG_MODULUS), unit: 'Pa', range: orReset(nonNegative, DEFAULT_YOUNG_MODULUS), help: "Young's modulus of Hooke's law: one value, or one per element" });
  readonly poissonRatio = this.initData({ name: 'poissonRatio', type: RealArray(1), default: Float64Array.of(DEFAULT_POISSON_RATIO), range: orReset(inHalfOpen(0, 0.5), DEFAULT_POISSON_RATIO), help: "Poisson's ratio of Hooke's law, in [0, 0.5): one value, or one per element" });
  readonly method = this.initData({ name: 'method', type: Enum(['large', 'polar', 'small'] as const), default: 'large', help: "'large' (frame of the mean edges), 'polar' or 'small' displacements" });
  readonly updateStiffnessMatrix = this.initData({ name: 'updateStiffnessMatrix', type: Bool, default: false, help: 'recompute the element stiffness from the deformed element at every force evaluation' });
  readonly gatherPt = this.initData({ name: 'gatherPt', type: Str, default: ' ', help: 'points accumulated per thread in the gather operation (GPU versions only; accepted)' });
  readonly gatherBsize = this.initData({ name: 'gatherBsize', type: Str, default: ' ', help: 'block size of the gather operation (GPU versions only; accepted)' });
  readonly drawing = this.initData({ name: 'drawing', type: Bool, default: true, help: 'draw the force field', group: 'Visualization' });
  readonly drawPercentageOffset = this.initData({ name: 'drawPercentageOffset', type: Real, default: 0.15, help: 'shrink of the drawn hexahedra', group: 'Visualization' });
  readonly initialPoints = this.initData({ name: 'initialPoints', type: RealArray(3, 'vector<Vec3d>'), default: new Float64Array(0), help: 'rest positions the elements were initialised from (output)' });

  readonly topology = this.initLink<BaseMeshTopology>({ name: 'topology', help: 'the topology giving the hexahedra (default: the topology of this node)', accepts: isTopology, expected: 'a topology container' });

  private mstate: BaseMechanicalState | undefined;
  private topo: BaseMeshTopology | undefined;
  private topoRevision = -1;
  private methodInUse: 'large' | 'polar' | 'small' = 'large';

  /** Node indices (nElem × 8). */
  private elems = new Uint32Array(0);
  /** Rest positions in the rest frame R₀·X (nElem × 24), m. */
  private rest = new Float64Array(0);
  /** Current rotation R, rows = element frame (nElem × 9); R₀ until the first addForce. */
  private rot = new Float64Array(0);
  /** Hooke's matrix (D00, D01, D33) per element (nElem × 3), Pa. */
  private hooke = new Float64Array(0);
  /** Element stiffness matrices, shared (nK × 576), N/m; kOf[e] indexes them. */
  private kPool = new Float64Array(0);
  private kOf = new Uint32Array(0);
  /** Energy ½·Σ Fᵀ·D at the last addForce (J). */
  private energy = 0;

  private readonly X = new Float64Array(24);
  private readonly F = new Float64Array(24);
  private readonly A = new Float64Array(9);
  private readonly kScratch = new Float64Array(576);
  private readonly blockScratch = new Float64Array(9);

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.mstate ? [this.mstate] : [];
  }

  get elementCount(): number {
    return this.elems.length / 8;
  }

  /** Number of distinct element stiffness matrices stored. */
  get stiffnessMatrixCount(): number {
    return this.kPool.length / 576;
  }

  override init(): void {
    const { state, topology } = initLinearElasticVolume(this, 'hexahedral topology (e.g. RegularGridTopology)');
    this.mstate = state;
    this.topo = topology;
    if (topology.getHexahedra().length === 0) throw this.error(`the topology ${topology.describe()} has no hexahedra`);
    this.reinit();
  }

  /** Recomputes rotations, rest shapes and element stiffness matrices from x0 and the topology. */
  reinit(): void {
    const topo = this.topo!, ms = this.mstate!;
    this.topoRevision = topo.revision;
    this.methodInUse = this.method.value as 'large' | 'polar' | 'small';
    const elems = Uint32Array.from(topo.getHexahedra());
    const n = elems.length / 8;
    for (let i = 0; i < elems.length; i++) {
      if (elems[i]! >= ms.size) throw this.error(`hexahedron ${Math.floor(i / 8)} uses point ${elems[i]}, but ${ms.describe()} has ${ms.size} points`);
    }
    const x0 = ms.x0;
    this.initialPoints.value = Float64Array.from(x0);
    this.elems = elems;
    this.rest = new Float64Array(24 * n);
    this.rot = new Float64Array(9 * n);
    this.hooke = new Float64Array(3 * n);
    this.kOf = new Uint32Array(n);
    const E = this.youngModulus.value, nu = this.poissonRatio.value;
    const coef = hasStiffnessCoefficients(topo) ? topo : undefined;
    const shared = !this.updateStiffnessMatrix.value;
    const keys = new Map<string, number>();
    const pool: Float64Array[] = [];
    const h = new Float64Array(3);
    const nodes = this.X;
    for (let e = 0; e < n; e++) {
      for (let k = 0; k < 8; k++) {
        const p = 3 * elems[8 * e + k]!;
        nodes[3 * k] = x0[p]!;
        nodes[3 * k + 1] = x0[p + 1]!;
        nodes[3 * k + 2] = x0[p + 2]!;
      }
      this.elementRotation(this.rot, 9 * e, nodes);
      const r = 9 * e, R = this.rot;
      for (let k = 0; k < 8; k++) {
        const px = nodes[3 * k]!, py = nodes[3 * k + 1]!, pz = nodes[3 * k + 2]!;
        this.rest[24 * e + 3 * k] = R[r]! * px + R[r + 1]! * py + R[r + 2]! * pz;
        this.rest[24 * e + 3 * k + 1] = R[r + 3]! * px + R[r + 4]! * py + R[r + 5]! * pz;
        this.rest[24 * e + 3 * k + 2] = R[r + 6]! * px + R[r + 7]! * py + R[r + 8]! * pz;
      }
      isotropicHooke(h, valueInElement(E, e, DEFAULT_YOUNG_MODULUS), valueInElement(nu, e, DEFAULT_POISSON_RATIO));
      this.hooke.set(h, 3 * e);
      const factor = coef ? coef.getStiffnessCoef(e) : 1;
      const restShape = this.rest.subarray(24 * e, 24 * e + 24);
      let key = '';
      if (shared) {
        // rest shape relative to node 0, on a grid of 1e-10 of the element size
        let size = 0;
        for (let k = 3; k < 24; k++) size = Math.max(size, Math.abs(restShape[k]! - restShape[k % 3]!));
        const parts = [h[0]!.toPrecision(12), h[1]!.toPrecision(12), h[2]!.toPrecision(12), factor.toPrecision(12), size.toPrecision(10)];
        for (let k = 3; k < 24; k++) parts.push(String(Math.round((restShape[k]! - restShape[k % 3]!) / (size * 1e-10))));
        key = parts.join(' ');
        const found = keys.get(key);
        if (found !== undefined) {
          this.kOf[e] = found;
          continue;
        }
      }
      const K = new Float64Array(576);
      hexahedronStiffness(K, h[0]!, h[1]!, h[2]!, restShape);
      if (factor !== 1) for (let k = 0; k < 576; k++) K[k] = K[k]! * factor;
      if (!K.every(Number.isFinite)) throw this.dataError(this.youngModulus, `the stiffness of hexahedron ${e} is not finite (youngModulus ${valueInElement(E, e, DEFAULT_YOUNG_MODULUS)} overflows, or the element is degenerate)`);
      this.kOf[e] = pool.length;
      if (shared) keys.set(key, pool.length);
      pool.push(K);
    }
    this.kPool = new Float64Array(576 * pool.length);
    pool.forEach((K, i) => this.kPool.set(K, 576 * i));
  }

  /** Rotation of the element whose 8 positions are nodes, into out[o .. o+9). */
  private elementRotation(out: Float64Array, o: number, nodes: Float64Array): void {
    const m = this.methodInUse;
    if (m === 'small') {
      out.fill(0, o, o + 9);
      out[o] = out[o + 4] = out[o + 8] = 1;
      return;
    }
    // mean edges along x (1-0, 2-3, 5-4, 6-7) and y (3-0, 2-1, 7-4, 6-5)
    const A = this.A;
    for (let c = 0; c < 3; c++) {
      A[c] = (nodes[3 + c]! - nodes[c]! + nodes[6 + c]! - nodes[9 + c]! + nodes[15 + c]! - nodes[12 + c]! + nodes[18 + c]! - nodes[21 + c]!) * 0.25;
      A[3 + c] = (nodes[9 + c]! - nodes[c]! + nodes[6 + c]! - nodes[3 + c]! + nodes[21 + c]! - nodes[12 + c]! + nodes[18 + c]! - nodes[15 + c]!) * 0.25;
    }
    if (m === 'large') {
      let ex = A[0]!, ey = A[1]!, ez = A[2]!;
      const inv = 1 / Math.sqrt(ex * ex + ey * ey + ez * ez);
      ex *= inv; ey *= inv; ez *= inv;
      const yx = A[3]!, yy = A[4]!, yz = A[5]!;
      let zx = ey * yz - ez * yy, zy = ez * yx - ex * yz, zz = ex * yy - ey * yx;
      const iz = 1 / Math.sqrt(zx * zx + zy * zy + zz * zz);
      zx *= iz; zy *= iz; zz *= iz;
      out[o] = ex; out[o + 1] = ey; out[o + 2] = ez;
      out[o + 3] = zy * ez - zz * ey; out[o + 4] = zz * ex - zx * ez; out[o + 5] = zx * ey - zy * ex;
      out[o + 6] = zx; out[o + 7] = zy; out[o + 8] = zz;
      return;
    }
    // polar: mean edges along z (4-0, 5-1, 7-3, 6-2) as the third row
    for (let c = 0; c < 3; c++) {
      A[6 + c] = (nodes[12 + c]! - nodes[c]! + nodes[15 + c]! - nodes[3 + c]! + nodes[21 + c]! - nodes[9 + c]! + nodes[18 + c]! - nodes[6 + c]!) * 0.25;
    }
    polarDecomposition(A, A);
    for (let k = 0; k < 9; k++) out[o + k] = A[k]!;
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], _v: readonly Float64Array[]): void {
    if (this.topo && this.topo.revision !== this.topoRevision) {
      // a new topology revision: rebuild only if the hexahedra changed
      if (sameElements(this.topo.getHexahedra(), this.elems)) this.topoRevision = this.topo.revision;
      else this.reinit();
    }
    const ff = f[0]!, p = x[0]!;
    const n = this.elems.length / 8;
    const elems = this.elems, rot = this.rot, rest = this.rest, pool = this.kPool, kOf = this.kOf;
    const X = this.X, F = this.F;
    const update = this.updateStiffnessMatrix.value;
    let energy = 0;
    for (let e = 0; e < n; e++) {
      const r = 9 * e, o = 24 * e;
      for (let k = 0; k < 8; k++) {
        const q = 3 * elems[8 * e + k]!;
        X[3 * k] = p[q]!;
        X[3 * k + 1] = p[q + 1]!;
        X[3 * k + 2] = p[q + 2]!;
      }
      this.elementRotation(rot, r, X);
      const r0 = rot[r]!, r1 = rot[r + 1]!, r2 = rot[r + 2]!, r3 = rot[r + 3]!, r4 = rot[r + 4]!, r5 = rot[r + 5]!, r6 = rot[r + 6]!, r7 = rot[r + 7]!, r8 = rot[r + 8]!;
      // deformed positions in the element frame; D = R₀X − R·x kept in F
      for (let k = 0; k < 8; k++) {
        const px = X[3 * k]!, py = X[3 * k + 1]!, pz = X[3 * k + 2]!;
        X[3 * k] = r0 * px + r1 * py + r2 * pz;
        X[3 * k + 1] = r3 * px + r4 * py + r5 * pz;
        X[3 * k + 2] = r6 * px + r7 * py + r8 * pz;
      }
      const ko = 576 * kOf[e]!;
      if (update) {
        const h = this.hooke;
        hexahedronStiffness(this.kScratch, h[3 * e]!, h[3 * e + 1]!, h[3 * e + 2]!, X);
        pool.set(this.kScratch, ko);
      }
      for (let k = 0; k < 24; k++) F[k] = rest[o + k]! - X[k]!;
      // X = K·D
      matVec24(X, pool, ko, F, 1);
      for (let i = 0; i < 24; i++) energy += X[i]! * F[i]!;
      // f += Rᵀ·(K·D)
      for (let k = 0; k < 8; k++) {
        const q = 3 * elems[8 * e + k]!;
        const fx = X[3 * k]!, fy = X[3 * k + 1]!, fz = X[3 * k + 2]!;
        ff[q] += r0 * fx + r3 * fy + r6 * fz;
        ff[q + 1] += r1 * fx + r4 * fy + r7 * fz;
        ff[q + 2] += r2 * fx + r5 * fy + r8 * fz;
      }
    }
    this.energy = energy / 2;
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const out = df[0]!, v = dx[0]!;
    const k = this.kFactorWithRayleigh(kFactor, bFactor);
    if (k === 0) return;
    const n = this.elems.length / 8;
    const elems = this.elems, rot = this.rot, pool = this.kPool, kOf = this.kOf;
    const X = this.X, F = this.F;
    for (let e = 0; e < n; e++) {
      const r = 9 * e;
      const r0 = rot[r]!, r1 = rot[r + 1]!, r2 = rot[r + 2]!, r3 = rot[r + 3]!, r4 = rot[r + 4]!, r5 = rot[r + 5]!, r6 = rot[r + 6]!, r7 = rot[r + 7]!, r8 = rot[r + 8]!;
      // X = R·dx
      for (let c = 0; c < 8; c++) {
        const q = 3 * elems[8 * e + c]!;
        const px = v[q]!, py = v[q + 1]!, pz = v[q + 2]!;
        X[3 * c] = r0 * px + r1 * py + r2 * pz;
        X[3 * c + 1] = r3 * px + r4 * py + r5 * pz;
        X[3 * c + 2] = r6 * px + r7 * py + r8 * pz;
      }
      // F = −k·K·X
      matVec24(F, pool, 576 * kOf[e]!, X, -k);
      // df += Rᵀ·F
      for (let c = 0; c < 8; c++) {
        const q = 3 * elems[8 * e + c]!;
        const fx = F[3 * c]!, fy = F[3 * c + 1]!, fz = F[3 * c + 2]!;
        out[q] += r0 * fx + r3 * fy + r6 * fz;
        out[q + 1] += r1 * fx + r4 * fy + r7 * fz;
        out[q + 2] += r2 * fx + r5 * fy + r8 * fz;
      }
    }
  }

  /** The 24×24 stiffness −Rᵀ·K_e·R of element e (row-major into out), rotation of the last addForce. */
  elementStiffness(out: Float64Array, e: number): Float64Array {
    return rotatedElementStiffness(out, this.kPool, 576 * this.kOf[e]!, 8, this.rot, 9 * e);
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    this.emitStiffness(acc, kFactor);
  }

  private emitStiffness(acc: MatrixAccumulator, factor: number): void {
    const n = this.elems.length / 8;
    const K = this.kScratch, elems = this.elems, blk = this.blockScratch;
    for (let e = 0; e < n; e++) {
      this.elementStiffness(K, e);
      emitElementMatrix(acc, K, elems, e, 8, factor, blk);
    }
  }

  /** ½·Σ Dᵀ·K_e·D at the last addForce (SOFA's HexahedronFEMForceField reports that value). */
  override getPotentialEnergy(_x: readonly Float64Array[]): number {
    return this.energy;
  }

  /** Rotation R of element e at the last addForce (rows = element frame), copied into out. */
  getElementRotation(out: Float64Array, e: number): Float64Array {
    for (let k = 0; k < 9; k++) out[k] = this.rot[9 * e + k]!;
    return out;
  }
}

/** out = scale·K·x for the 24×24 matrix K stored row-major at K[ko ..]. */
function matVec24(out: Float64Array, K: Float64Array, ko: number, x: Float64Array, scale: number): void {
  const x0 = x[0]!, x1 = x[1]!, x2 = x[2]!, x3 = x[3]!, x4 = x[4]!, x5 = x[5]!, x6 = x[6]!, x7 = x[7]!;
  const x8 = x[8]!, x9 = x[9]!, x10 = x[10]!, x11 = x[11]!, x12 = x[12]!, x13 = x[13]!, x14 = x[14]!, x15 = x[15]!;
  const x16 = x[16]!, x17 = x[17]!, x18 = x[18]!, x19 = x[19]!, x20 = x[20]!, x21 = x[21]!, x22 = x[22]!, x23 = x[23]!;
  for (let i = 0, row = ko; i < 24; i++, row += 24) {
    const s =
      K[row]! * x0 + K[row + 1]! * x1 + K[row + 2]! * x2 + K[row + 3]! * x3 + K[row + 4]! * x4 + K[row + 5]! * x5 +
      K[row + 6]! * x6 + K[row + 7]! * x7 + K[row + 8]! * x8 + K[row + 9]! * x9 + K[row + 10]! * x10 + K[row + 11]! * x11 +
      K[row + 12]! * x12 + K[row + 13]! * x13 + K[row + 14]! * x14 + K[row + 15]! * x15 + K[row + 16]! * x16 + K[row + 17]! * x17 +
      K[row + 18]! * x18 + K[row + 19]! * x19 + K[row + 20]! * x20 + K[row + 21]! * x21 + K[row + 22]! * x22 + K[row + 23]! * x23;
    out[i] = scale * s;
  }
}

/**
 * K (24×24, row-major, node-major rows) = Σ_gauss Bᵀ·D·B·det J of a trilinear hexahedron with
 * positions nodes (24 numbers, SOFA's vertex order) and Hooke's matrix (u = D00, v = D01, w = D33),
 * as SOFA's HexahedronFEMForceField::computeElementStiffness (2×2×2 Gauss points ±1/√3, J constant
 * for parallelepipeds).
 */
export function hexahedronStiffness(K: Float64Array, u: number, v: number, w: number, nodes: ArrayLike<number>): Float64Array {
  K.fill(0);
  const J = new Float64Array(9);
  const Ji = new Float64Array(9);
  let detJ = 1;
  const node = (k: number, c: number): number => nodes[3 * k + c]!;
  // parallelepiped: opposite edges equal within 0.1 %
  const lx = [node(1, 0) - node(0, 0), node(1, 1) - node(0, 1), node(1, 2) - node(0, 2)];
  const ly = [node(3, 0) - node(0, 0), node(3, 1) - node(0, 1), node(3, 2) - node(0, 2)];
  const lz = [node(4, 0) - node(0, 0), node(4, 1) - node(0, 1), node(4, 2) - node(0, 2)];
  const norm = (a: number[]): number => Math.hypot(a[0]!, a[1]!, a[2]!);
  const off = (p: number, q: number, l: number[]): number =>
    Math.hypot(node(p, 0) + l[0]! - node(q, 0), node(p, 1) + l[1]! - node(q, 1), node(p, 2) + l[2]! - node(q, 2));
  const nx = norm(lx), nz = norm(lz);
  const isParallel =
    off(3, 2, lx) < nx * 0.001 && off(0, 4, lz) < nz * 0.001 && off(1, 5, lz) < nz * 0.001 && off(2, 6, lz) < nz * 0.001 && off(3, 7, lz) < nz * 0.001;
  const invert = (): void => {
    detJ = J[0]! * (J[4]! * J[8]! - J[5]! * J[7]!) - J[1]! * (J[3]! * J[8]! - J[5]! * J[6]!) + J[2]! * (J[3]! * J[7]! - J[4]! * J[6]!);
    const id = 1 / detJ;
    Ji[0] = (J[4]! * J[8]! - J[5]! * J[7]!) * id;
    Ji[1] = (J[2]! * J[7]! - J[1]! * J[8]!) * id;
    Ji[2] = (J[1]! * J[5]! - J[2]! * J[4]!) * id;
    Ji[3] = (J[5]! * J[6]! - J[3]! * J[8]!) * id;
    Ji[4] = (J[0]! * J[8]! - J[2]! * J[6]!) * id;
    Ji[5] = (J[2]! * J[3]! - J[0]! * J[5]!) * id;
    Ji[6] = (J[3]! * J[7]! - J[4]! * J[6]!) * id;
    Ji[7] = (J[1]! * J[6]! - J[0]! * J[7]!) * id;
    Ji[8] = (J[0]! * J[4]! - J[1]! * J[3]!) * id;
  };
  if (isParallel) {
    for (let c = 0; c < 3; c++) {
      J[3 * c] = lx[c]! / 2;
      J[3 * c + 1] = ly[c]! / 2;
      J[3 * c + 2] = lz[c]! / 2;
    }
    invert();
  }
  const qx = new Float64Array(8), qy = new Float64Array(8), qz = new Float64Array(8);
  const g = 1 / Math.sqrt(3);
  for (let g1 = -1; g1 <= 1; g1 += 2) {
    for (let g2 = -1; g2 <= 1; g2 += 2) {
      for (let g3 = -1; g3 <= 1; g3 += 2) {
        const x1 = g1 * g, x2 = g2 * g, x3 = g3 * g;
        if (!isParallel) {
          // J[c][·] = ∂X_c/∂(ξ, η, ζ)
          for (let c = 0; c < 3; c++) {
            J[3 * c] =
              ((node(1, c) - node(0, c)) * (1 - x2) * (1 - x3)) / 8 + ((node(2, c) - node(3, c)) * (1 + x2) * (1 - x3)) / 8 +
              ((node(5, c) - node(4, c)) * (1 - x2) * (1 + x3)) / 8 + ((node(6, c) - node(7, c)) * (1 + x2) * (1 + x3)) / 8;
            J[3 * c + 1] =
              ((node(3, c) - node(0, c)) * (1 - x1) * (1 - x3)) / 8 + ((node(2, c) - node(1, c)) * (1 + x1) * (1 - x3)) / 8 +
              ((node(7, c) - node(4, c)) * (1 - x1) * (1 + x3)) / 8 + ((node(6, c) - node(5, c)) * (1 + x1) * (1 + x3)) / 8;
            J[3 * c + 2] =
              ((node(4, c) - node(0, c)) * (1 - x1) * (1 - x2)) / 8 + ((node(5, c) - node(1, c)) * (1 + x1) * (1 - x2)) / 8 +
              ((node(6, c) - node(2, c)) * (1 + x1) * (1 + x2)) / 8 + ((node(7, c) - node(3, c)) * (1 - x1) * (1 + x2)) / 8;
          }
          invert();
        }
        // ∂N_i/∂X = J⁻ᵀ·∂N_i/∂ξ
        for (let i = 0; i < 8; i++) {
          const s = CORNER[i]!;
          const d1 = (s[0] * (1 + s[1] * x2) * (1 + s[2] * x3)) / 8;
          const d2 = ((1 + s[0] * x1) * s[1] * (1 + s[2] * x3)) / 8;
          const d3 = ((1 + s[0] * x1) * (1 + s[1] * x2) * s[2]) / 8;
          qx[i] = d1 * Ji[0]! + d2 * Ji[3]! + d3 * Ji[6]!;
          qy[i] = d1 * Ji[1]! + d2 * Ji[4]! + d3 * Ji[7]!;
          qz[i] = d1 * Ji[2]! + d2 * Ji[5]! + d3 * Ji[8]!;
        }
        for (let i = 0; i < 8; i++) {
          // D·B_i (6×3)
          const ax = qx[i]!, ay = qy[i]!, az = qz[i]!;
          const m00 = u * ax, m01 = v * ay, m02 = v * az;
          const m10 = v * ax, m11 = u * ay, m12 = v * az;
          const m20 = v * ax, m21 = v * ay, m22 = u * az;
          const m30 = w * ay, m31 = w * ax;
          const m41 = w * az, m42 = w * ay;
          const m50 = w * az, m52 = w * ax;
          for (let j = i; j < 8; j++) {
            // k = B_jᵀ·D·B_i; K[3i + m][3j + l] += k[l][m]·det J
            const bx = qx[j]!, by = qy[j]!, bz = qz[j]!;
            const k00 = bx * m00 + by * m30 + bz * m50;
            const k01 = bx * m01 + by * m31;
            const k02 = bx * m02 + bz * m52;
            const k10 = by * m10 + bx * m30;
            const k11 = by * m11 + bx * m31 + bz * m41;
            const k12 = by * m12 + bz * m42;
            const k20 = bz * m20 + bx * m50;
            const k21 = bz * m21 + by * m41;
            const k22 = bz * m22 + by * m42 + bx * m52;
            const base = 24 * 3 * i + 3 * j;
            K[base] += k00 * detJ; K[base + 1] += k10 * detJ; K[base + 2] += k20 * detJ;
            K[base + 24] += k01 * detJ; K[base + 25] += k11 * detJ; K[base + 26] += k21 * detJ;
            K[base + 48] += k02 * detJ; K[base + 49] += k12 * detJ; K[base + 50] += k22 * detJ;
          }
        }
      }
    }
  }
  // lower triangle from the upper one
  for (let i = 0; i < 24; i++) for (let j = i + 1; j < 24; j++) K[24 * j + i] = K[24 * i + j]!;
  return K;
}
