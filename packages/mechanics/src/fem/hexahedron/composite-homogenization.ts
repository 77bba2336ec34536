import { hexahedronStiffness } from '../hexahedron-kernels.js';
import { isotropicHooke } from '../volume-elasticity.js';

/**
 * The homogenization of SOFA's HexahedronCompositeFEMForceFieldAndMass, as plain numerics.
 *
 * A coarse hexahedron of a sparse grid covers 8 children of the next finer level (slots w, bit 0 =
 * x, bit 1 = y, bit 2 = z), whose corners sit on the 3 × 3 × 3 lattice of positions
 * p = x + 3y + 9z (x, y, z ∈ {0, 1, 2}); the 8 lattice corners are the coarse nodes. Level by level,
 * from the finest level used (classical element matrices, scaled by the cell's coefficient) up:
 *  1. assemble the children's matrices on their points (a ramified grid may hold several points at
 *     one position); an empty slot gets a "rigid void" element (the unit cube's stiffness with
 *     E = 1.02e12, ν = 0: SOFA's constant RIGID_STIFFNESS) on the first point of each of its
 *     positions (a fictitious point where none is), in the matrix K_s used for the weights only;
 *  2. static condensation: the free points minimise the energy of K_s with the coarse nodes given,
 *     u_f = −K_ff⁻¹·K_fc·u_c: the weights W (3n × 24) of the coarse nodes' displacements;
 *  3. mechanical weights: W keeps, per point and component, only the same component of the coarse
 *     nodes of the edge, face or cell its position lies on (the trilinear weights' support) and each
 *     row is normalised to sum 1 (translations are reproduced);
 *  4. K = Wᵀ·K_real·W, M = Wᵀ·M_real·W (the children's own matrices, no void).
 * Each child's 24 × 24 weights (W, or with completeInterpolation the raw condensation weights) are
 * kept; their products down the levels give each finest cell's weights relative to its coarse cell
 * (HexahedronCompositeFEMMapping interpolates with them). With finestToCoarse, one lattice of
 * 2^L + 1 points per axis holds the finest cells of the coarse cell, with no rigid void, and its
 * weights are the finest cells' directly.
 */

/** One level of the hierarchy, as the homogenization reads it. */
export interface CompositeLevel {
  /** (nH × 8) corners in SOFA's order. */
  readonly hexahedra: Uint32Array;
  /** (nP × 3) rest positions. */
  readonly positions: Float64Array;
  /** Per hexahedron: the stiffness coefficient of the sparse grid. */
  readonly stiffnessCoefs: Float64Array;
  /** Per hexahedron h: its children in the next finer level, entries childPtr[h] .. childPtr[h + 1]. */
  readonly childPtr: Int32Array;
  readonly childSlot: Uint8Array;
  readonly childHexa: Int32Array;
}

export interface HomogenizationInput {
  /** Levels, finest used first, the last one the coarse elements'. At least two. */
  readonly levels: readonly CompositeLevel[];
  readonly youngModulus: number;
  readonly poissonRatio: number;
  readonly density: number;
  /** Keep the raw condensation weights for the interpolation (the element matrices use the masked ones). */
  readonly completeInterpolation: boolean;
  /** One condensation from the finest level straight to the coarse cell (SOFA's finestToCoarse: no rigid void). */
  readonly finestToCoarse?: boolean;
}

export interface Homogenization {
  /** Per coarse element, K (24 × 24, N/m) and M (24 × 24, kg). */
  readonly stiffness: Float64Array;
  readonly mass: Float64Array;
  /** Per hexahedron of the finest level used: its coarse element and its 24 × 24 weights (fine corner dofs ← coarse corner dofs). */
  readonly coarseOf: Int32Array;
  readonly weights: Float64Array;
  /** Cells whose free points could not be condensed (a singular K_ff): their weights are trilinear. */
  readonly singularCells: number;
  /** Weight rows whose masked sum was 0 (left trilinear). */
  readonly degenerateRows: number;
}

/** Corner offsets of SOFA's hexahedron order. */
const CORNERS = [
  [0, 0, 0],
  [1, 0, 0],
  [1, 1, 0],
  [0, 1, 0],
  [0, 0, 1],
  [1, 0, 1],
  [1, 1, 1],
  [0, 1, 1],
] as const;

/** Lattice position of corner k of the child in slot w. */
const CHILD_CORNER_POSITION: readonly (readonly number[])[] = Array.from({ length: 8 }, (_, w) =>
  CORNERS.map((c) => c[0] + (w & 1) + 3 * (c[1] + ((w >> 1) & 1)) + 9 * (c[2] + ((w >> 2) & 1))),
);

/** SOFA's rigid void: the stiffness of the unit cube with E = 1.02e12 Pa, ν = 0 (its constant table). */
const RIGID_VOID: Float64Array = (() => {
  const h = isotropicHooke(new Float64Array(3), 1.02e12, 0);
  const X = Float64Array.from(CORNERS.flat());
  return hexahedronStiffness(new Float64Array(576), h[0], h[1], h[2], X);
})();

/** Solves A·X = B in place (A n × n, B n × m, row-major) by Gaussian elimination with partial pivoting; false when singular. */
export function solveDense(A: Float64Array, B: Float64Array, n: number, m: number): boolean {
  let scale = 0;
  for (let i = 0; i < n * n; i++) scale = Math.max(scale, Math.abs(A[i]));
  const tiny = scale * 1e-300 || 1e-300;
  for (let c = 0; c < n; c++) {
    let piv = c,
      best = Math.abs(A[c * n + c]);
    for (let r = c + 1; r < n; r++) {
      const v = Math.abs(A[r * n + c]);
      if (v > best) {
        best = v;
        piv = r;
      }
    }
    if (!(best > tiny)) return false;
    if (piv !== c) {
      for (let k = 0; k < n; k++) {
        const t = A[c * n + k];
        A[c * n + k] = A[piv * n + k];
        A[piv * n + k] = t;
      }
      for (let k = 0; k < m; k++) {
        const t = B[c * m + k];
        B[c * m + k] = B[piv * m + k];
        B[piv * m + k] = t;
      }
    }
    const inv = 1 / A[c * n + c];
    for (let r = c + 1; r < n; r++) {
      const f = A[r * n + c] * inv;
      if (f === 0) continue;
      for (let k = c; k < n; k++) A[r * n + k] -= f * A[c * n + k];
      for (let k = 0; k < m; k++) B[r * m + k] -= f * B[c * m + k];
    }
  }
  for (let c = n - 1; c >= 0; c--) {
    const inv = 1 / A[c * n + c];
    for (let k = 0; k < m; k++) {
      let s = B[c * m + k];
      for (let j = c + 1; j < n; j++) s -= A[c * n + j] * B[j * m + k];
      B[c * m + k] = s * inv;
    }
  }
  return true;
}

/** out (24 × 24) = Wᵀ·A·W for A (d × d) and W (d × 24). */
function congruence(out: Float64Array, A: Float64Array, W: Float64Array, d: number): void {
  const T = new Float64Array(d * 24);
  for (let i = 0; i < d; i++)
    for (let k = 0; k < d; k++) {
      const a = A[i * d + k];
      if (a === 0) continue;
      for (let j = 0; j < 24; j++) T[i * 24 + j] += a * W[k * 24 + j];
    }
  out.fill(0);
  for (let k = 0; k < d; k++)
    for (let i = 0; i < 24; i++) {
      const w = W[k * 24 + i];
      if (w === 0) continue;
      for (let j = 0; j < 24; j++) out[i * 24 + j] += w * T[k * 24 + j];
    }
}

/** The classical matrices of hexahedron h of a level: HexahedronFEMForceFieldAndMass's, times the cell's coefficient. */
function classicalMatrices(K: Float64Array, M: Float64Array, level: CompositeLevel, h: number, hooke: Float64Array, rho: number): void {
  const X = new Float64Array(24);
  for (let k = 0; k < 8; k++) {
    const p = 3 * level.hexahedra[8 * h + k];
    for (let d = 0; d < 3; d++) X[3 * k + d] = level.positions[p + d];
  }
  const coef = level.stiffnessCoefs[h];
  hexahedronStiffness(K, hooke[0], hooke[1], hooke[2], X);
  for (let i = 0; i < 576; i++) K[i] *= coef;
  // (8/27)·ρ·V·I in every block; SOFA scales the mass by the stiffness coefficient too (its
  // computeClassicalMechanicalMatrices reads getStiffnessCoef for both)
  const len = (k: number) => Math.hypot(X[3 * k] - X[0], X[3 * k + 1] - X[1], X[3 * k + 2] - X[2]);
  const m = ((len(1) * len(3) * len(4) * 8) / 27) * rho * coef;
  M.fill(0);
  for (let i = 0; i < 8; i++) for (let j = 0; j < 8; j++) for (let d = 0; d < 3; d++) M[24 * (3 * i + d) + 3 * j + d] = m;
}

/** An element on the lattice of a coarse cell: its points, their lattice positions, its matrices. */
interface LatticeElement {
  readonly points: ArrayLike<number>;
  readonly at: ArrayLike<number>;
  readonly K: Float64Array;
  readonly M: Float64Array;
}

/** The interpolation of one coarse cell: per point its 3 × 24 weight rows. */
interface CellWeights {
  rows(point: number): Float64Array;
}

/**
 * Steps 1 to 4 on the lattice of s points per axis of one coarse cell (positions p = x + s·y + s²·z):
 * the elements' points assembled, void elements (lattice positions of their corners) rigid in
 * K_s, the static condensation on the 8 corner positions, the masked and normalised weights,
 * K = Wᵀ·K·W and M = Wᵀ·M·W into K and M. Returns the weights kept (raw or masked) per point.
 */
function condenseLattice(
  s: number,
  elements: readonly LatticeElement[],
  voids: readonly (readonly number[])[],
  complete: boolean,
  K: Float64Array,
  M: Float64Array,
  stats: { singularCells: number; degenerateRows: number },
): CellWeights {
  const t = s - 1;
  const coords = (p: number) => [p % s, Math.floor(p / s) % s, Math.floor(p / (s * s))];
  // the points at each lattice position (sorted), a fictitious one (negative) where a void needs one
  const atPosition = new Map<number, number[]>();
  for (const el of elements)
    for (let k = 0; k < 8; k++) {
      let list = atPosition.get(el.at[k]);
      if (!list) atPosition.set(el.at[k], (list = []));
      if (!list.includes(el.points[k])) list.push(el.points[k]);
    }
  for (const v of voids) for (const p of v) if (!atPosition.has(p)) atPosition.set(p, [-1 - p]);
  const index = new Map<number, number>();
  const positionOf: number[] = [];
  for (const p of [...atPosition.keys()].sort((a, b) => a - b)) {
    const list = atPosition.get(p)!.sort((a, b) => a - b);
    for (const pt of list) {
      index.set(pt, positionOf.length);
      positionOf.push(p);
    }
  }
  const n = positionOf.length,
    d = 3 * n;
  const Kr = new Float64Array(d * d),
    Ks = new Float64Array(d * d),
    Mr = new Float64Array(d * d);
  const scatter = (targets: Float64Array[], src: Float64Array, nodes: number[]) => {
    for (let a = 0; a < 8; a++)
      for (let b = 0; b < 8; b++)
        for (let p = 0; p < 3; p++)
          for (let q = 0; q < 3; q++) {
            const v = src[(3 * a + p) * 24 + 3 * b + q];
            if (v === 0) continue;
            for (const T of targets) T[(3 * nodes[a] + p) * d + 3 * nodes[b] + q] += v;
          }
  };
  for (const el of elements) {
    const nodes = Array.from({ length: 8 }, (_, k) => index.get(el.points[k])!);
    scatter([Kr, Ks], el.K, nodes);
    scatter([Mr], el.M, nodes);
  }
  for (const v of voids)
    scatter(
      [Ks],
      RIGID_VOID,
      v.map((p) => index.get(atPosition.get(p)![0])!),
    );
  // per point: its coarse corner (or −1) and the trilinear weights of the 8 corners at its position
  const corner = new Int8Array(n).fill(-1);
  const tri = new Float64Array(8 * n);
  for (let i = 0; i < n; i++) {
    const c = coords(positionOf[i]);
    if (c.every((v) => v === 0 || v === t)) corner[i] = CORNERS.findIndex((k) => k.every((b, a) => b * t === c[a]));
    for (let k = 0; k < 8; k++) {
      let N = 1;
      for (let a = 0; a < 3; a++) N *= CORNERS[k][a] ? c[a] / t : 1 - c[a] / t;
      tri[8 * i + k] = N;
    }
  }
  // static condensation: K_ff·W_f = −K_fc·H (H: each point at a corner position → that corner)
  const free: number[] = [];
  for (let i = 0; i < n; i++) if (corner[i] < 0) free.push(i);
  const nf = 3 * free.length;
  const A = new Float64Array(nf * nf),
    B = new Float64Array(nf * 24);
  for (let r = 0; r < nf; r++) {
    const row = 3 * free[(r / 3) | 0] + (r % 3);
    for (let c = 0; c < nf; c++) A[r * nf + c] = Ks[row * d + 3 * free[(c / 3) | 0] + (c % 3)];
    for (let i = 0; i < n; i++) {
      const j = corner[i];
      if (j < 0) continue;
      for (let q = 0; q < 3; q++) B[r * 24 + 3 * j + q] -= Ks[row * d + 3 * i + q];
    }
  }
  const WB = new Float64Array(d * 24);
  const solved = solveDense(A, B, nf, 24);
  if (!solved) stats.singularCells++;
  for (let i = 0; i < n; i++) if (corner[i] >= 0) for (let q = 0; q < 3; q++) WB[(3 * i + q) * 24 + 3 * corner[i] + q] = 1;
  free.forEach((i, f) => {
    for (let q = 0; q < 3; q++)
      for (let j = 0; j < 24; j++)
        WB[(3 * i + q) * 24 + j] = solved ? B[(3 * f + q) * 24 + j] : j % 3 === q ? tri[8 * i + ((j / 3) | 0)] : 0;
  });
  // the mechanical weights: same component, corners of the position's edge / face / cell, rows summing to 1
  const Wm = new Float64Array(d * 24);
  for (let i = 0; i < n; i++)
    for (let q = 0; q < 3; q++) {
      const r = (3 * i + q) * 24;
      let sum = 0;
      for (let k = 0; k < 8; k++) if (tri[8 * i + k] !== 0) sum += WB[r + 3 * k + q];
      if (sum === 0 || !Number.isFinite(sum)) {
        stats.degenerateRows++;
        for (let k = 0; k < 8; k++) Wm[r + 3 * k + q] = tri[8 * i + k];
        continue;
      }
      for (let k = 0; k < 8; k++) if (tri[8 * i + k] !== 0) Wm[r + 3 * k + q] = WB[r + 3 * k + q] / sum;
    }
  congruence(K, Kr, Wm, d);
  congruence(M, Mr, Wm, d);
  const kept = complete ? WB : Wm;
  return { rows: (point) => kept.subarray(72 * index.get(point)!, 72 * index.get(point)! + 72) };
}

/** Homogenizes every coarse element (the last level's hexahedra) from the finer levels. */
export function homogenize(input: HomogenizationInput): Homogenization {
  const { levels, density, completeInterpolation } = input;
  const L = levels.length - 1;
  if (L < 1) throw new Error('the homogenization needs at least one finer level');
  const hooke = isotropicHooke(new Float64Array(3), input.youngModulus, input.poissonRatio);
  const nCoarse = levels[L].hexahedra.length / 8;
  const finest = levels[0];
  const coarseOf = new Int32Array(finest.hexahedra.length / 8).fill(-1);
  const weights = new Float64Array((finest.hexahedra.length / 8) * 576);
  const stats = { singularCells: 0, degenerateRows: 0 };
  const stiffness = new Float64Array(576 * nCoarse),
    mass = new Float64Array(576 * nCoarse);
  const Ke = (e: number) => stiffness.subarray(576 * e, 576 * e + 576),
    Me = (e: number) => mass.subarray(576 * e, 576 * e + 576);

  if (input.finestToCoarse) {
    // SOFA's computeMechanicalMatricesDirectlyFromTheFinestToCoarse: one lattice of 2^L + 1 points
    // per axis, the finest cells only (no rigid void)
    const s = 2 ** L + 1;
    for (let e = 0; e < nCoarse; e++) {
      const cells: { hexa: number; at: number[] }[] = [];
      const collect = (l: number, h: number, o: number[]) => {
        const level = levels[l];
        for (let c = level.childPtr[h]; c < level.childPtr[h + 1]; c++) {
          const w = level.childSlot[c],
            half = 2 ** (l - 1);
          const oc = [o[0] + (w & 1) * half, o[1] + ((w >> 1) & 1) * half, o[2] + ((w >> 2) & 1) * half];
          if (l - 1 === 0)
            cells.push({ hexa: level.childHexa[c], at: CORNERS.map((k) => oc[0] + k[0] + s * (oc[1] + k[1]) + s * s * (oc[2] + k[2])) });
          else collect(l - 1, level.childHexa[c], oc);
        }
      };
      collect(L, e, [0, 0, 0]);
      const elements = cells.map((c) => {
        const K = new Float64Array(576),
          M = new Float64Array(576);
        classicalMatrices(K, M, finest, c.hexa, hooke, density);
        return { points: finest.hexahedra.subarray(8 * c.hexa, 8 * c.hexa + 8), at: c.at, K, M };
      });
      const W = condenseLattice(s, elements, [], completeInterpolation, Ke(e), Me(e), stats);
      for (const c of cells) {
        coarseOf[c.hexa] = e;
        for (let k = 0; k < 8; k++) weights.set(W.rows(finest.hexahedra[8 * c.hexa + k]), 576 * c.hexa + 72 * k);
      }
    }
    return { stiffness, mass, coarseOf, weights, ...stats };
  }

  // per level l < L: the weights of each of its hexahedra relative to its parent (24 × 24)
  const childWeights = levels.slice(0, L).map((lv) => new Float64Array((lv.hexahedra.length / 8) * 576));
  const condense = (l: number, h: number, K: Float64Array, M: Float64Array): void => {
    if (l === 0) return classicalMatrices(K, M, levels[0], h, hooke, density);
    const level = levels[l],
      finer = levels[l - 1];
    const children: (LatticeElement & { hexa: number })[] = [];
    const filled = new Uint8Array(8);
    for (let c = level.childPtr[h]; c < level.childPtr[h + 1]; c++) {
      const hexa = level.childHexa[c],
        slot = level.childSlot[c];
      const child = {
        hexa,
        points: finer.hexahedra.subarray(8 * hexa, 8 * hexa + 8),
        at: CHILD_CORNER_POSITION[slot],
        K: new Float64Array(576),
        M: new Float64Array(576),
      };
      condense(l - 1, hexa, child.K, child.M);
      children.push(child);
      filled[slot] = 1;
    }
    const voids: (readonly number[])[] = [];
    for (let w = 0; w < 8; w++) if (!filled[w]) voids.push(CHILD_CORNER_POSITION[w]);
    const W = condenseLattice(3, children, voids, completeInterpolation, K, M, stats);
    const out = childWeights[l - 1];
    for (const ch of children) for (let k = 0; k < 8; k++) out.set(W.rows(ch.points[k]), 576 * ch.hexa + 72 * k);
  };
  for (let e = 0; e < nCoarse; e++) condense(L, e, Ke(e), Me(e));

  // final weights: the products of the levels' weights, coarse to finest
  const down = (l: number, h: number, e: number, Aparent: Float64Array): void => {
    const level = levels[l];
    for (let c = level.childPtr[h]; c < level.childPtr[h + 1]; c++) {
      const child = level.childHexa[c];
      const Wc = childWeights[l - 1].subarray(576 * child, 576 * child + 576);
      const Ac = l - 1 === 0 ? weights.subarray(576 * child, 576 * child + 576) : new Float64Array(576);
      Ac.fill(0);
      for (let i = 0; i < 24; i++)
        for (let k = 0; k < 24; k++) {
          const w = Wc[24 * i + k];
          if (w === 0) continue;
          for (let j = 0; j < 24; j++) Ac[24 * i + j] += w * Aparent[24 * k + j];
        }
      if (l - 1 === 0) coarseOf[child] = e;
      else down(l - 1, child, e, Ac);
    }
  };
  const I = new Float64Array(576);
  for (let i = 0; i < 24; i++) I[25 * i] = 1;
  for (let e = 0; e < nCoarse; e++) down(L, e, e, I);
  return { stiffness, mass, coarseOf, weights, ...stats };
}
