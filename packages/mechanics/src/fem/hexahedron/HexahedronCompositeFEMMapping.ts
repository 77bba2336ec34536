import { BaseObject, sofaComponent, type SparseMatrixLike } from '@sofa-ts/core';
import { createCsr, type CsrMatrix } from '@sofa-ts/linalg';
import { MappingComponent } from '@sofa-ts/mapping';
import { HexahedronCompositeFEMForceFieldAndMass, type RamifiedLevelView } from './HexahedronCompositeFEMForceFieldAndMass.js';

const templates = ['Vec3d,Vec3d'];
const BOUNDARY = 2;

function isComposite(o: BaseObject): o is HexahedronCompositeFEMForceFieldAndMass {
  return o instanceof HexahedronCompositeFEMForceFieldAndMass;
}

/**
 * SOFA's HexahedronCompositeFEMMapping: points embedded in the sparse grid of a
 * HexahedronCompositeFEMForceFieldAndMass move with the homogenization's weights. Each fine node f
 * (a point of the finest level the force field used) takes, per coarse element e it belongs to, the
 * weight rows W_fe (3 × 24) of the last finest cell of e holding it; with R_e the force field's
 * rotation of e (rows = element frame) and u_e = R_e·x_e − x_e⁰ the element's displacement in its
 * frame (x⁰ the coarse positions at init: the grid is axis-aligned, SOFA assumes no rest rotation),
 *   q_f = (1/|E_f|)·Σ_{e ∈ E_f} R_eᵀ·(q_f⁰ + W_fe·u_e),   q_f⁰ = grid position + (x⁰_0 − grid point 0);
 * an output point, in the finest cell of its rest position (else the nearest boundary cell, by
 * centre, as SOFA's findNearestCube), is the trilinear interpolation of that cell's q_f:
 *   y_i = Σ_e R_eᵀ·(P_ie + M_ie·u_e),  J_i = Σ_e R_eᵀ·M_ie·R̂_e  (rotations held, as SOFA's applyJ),
 * with P_ie, M_ie the trilinear weights b_w/|E_f| summed over the cell's corners. Rotations are
 * those of the force field's last addForce.
 */
@sofaComponent({
  name: 'HexahedronCompositeFEMMapping',
  category: 'Mapping',
  module: 'Sofa.Component.SolidMechanics.FEM.NonUniform',
  description: 'Maps points embedded in a HexahedronCompositeFEMForceFieldAndMass sparse grid with its homogenization weights.',
  templates,
})
export class HexahedronCompositeFEMMapping extends MappingComponent {
  private ff!: HexahedronCompositeFEMForceFieldAndMass;
  /** Coarse hexahedra (nE × 8) and their points' positions at init (x⁰). */
  private coarse = new Uint32Array(0);
  private x0 = new Float64Array(0);
  /** Per output point its entries ptr[i] .. ptr[i + 1]: element, P (3 each), M (72 each). */
  private ptr = new Int32Array(1);
  private elemOf = new Int32Array(0);
  private P = new Float64Array(0);
  private M = new Float64Array(0);
  /** Per entry and corner k of its element: the offset of the 3 columns of that node in J's first row of the point. */
  private slot = new Int32Array(0);
  private J: CsrMatrix = createCsr(0, 0, new Int32Array(1), new Int32Array(0));
  /** Per coarse element: rotation (9) and displacement in its frame (24), refreshed by apply. */
  private rot = new Float64Array(0);
  private u = new Float64Array(0);
  private readonly Rtmp = new Float64Array(9);

  get isLinear(): boolean {
    return false;
  }

  override init(): void {
    this.resolveEnds();
    this.checkTemplates(templates);
    const ff = this.from.context.getObject(isComposite, 'up');
    if (!ff) throw this.error(`no HexahedronCompositeFEMForceFieldAndMass in the node of ${this.from.describe()} or above`);
    const interp = ff.compositeInterpolation();
    if (!interp)
      throw this.error(
        `${ff.describe()} has no homogenization weights (nbVirtualFinerLevels 0, or its topology is not a ramified sparse grid: see its warning)`,
      );
    this.ff = ff;
    const grid = ff.gridPositions()!;
    const nIn = this.from.size;
    this.coarse = Uint32Array.from(ff.coarseHexahedra());
    const nE = this.coarse.length / 8;
    this.x0 = Float64Array.from(this.from.x.subarray(0, 3 * nIn));
    const t0 = [0, 1, 2].map((d) => this.x0[d] - grid[d]);
    const { finest, coarseOf, weights } = interp;
    // per fine node: (coarse element → offset of its 3 × 24 rows in `weights`), the last cell wins
    const nF = finest.positions.length / 3;
    const rowsOf: Map<number, number>[] = Array.from({ length: nF }, () => new Map());
    const nFH = finest.hexahedra.length / 8;
    for (let h = 0; h < nFH; h++) {
      const e = coarseOf[h];
      if (e < 0) continue;
      for (let w = 0; w < 8; w++) rowsOf[finest.hexahedra[8 * h + w]].set(e, 576 * h + 72 * w);
    }
    // the output points' entries
    const xo = this.outputPositions();
    const n = this.outputSize();
    const ptr = [0],
      elems: number[] = [],
      P: number[] = [],
      M: number[] = [];
    const b = new Float64Array(8);
    for (let i = 0; i < n; i++) {
      const h = this.locate(finest, xo[3 * i], xo[3 * i + 1], xo[3 * i + 2], b);
      const entries = new Map<number, { P: Float64Array; M: Float64Array }>();
      for (let w = 0; w < 8; w++) {
        const f = finest.hexahedra[8 * h + w];
        const rows = rowsOf[f];
        if (rows.size === 0) throw this.error(`fine node ${f} has no homogenization weights (a cell outside every coarse element)`);
        const s = b[w] / rows.size;
        for (const [e, o] of rows) {
          let en = entries.get(e);
          if (!en) entries.set(e, (en = { P: new Float64Array(3), M: new Float64Array(72) }));
          for (let d = 0; d < 3; d++) en.P[d] += s * (finest.positions[3 * f + d] + t0[d]);
          for (let k = 0; k < 72; k++) en.M[k] += s * weights[o + k];
        }
      }
      for (const [e, en] of [...entries].sort((a, c) => a[0] - c[0])) {
        elems.push(e);
        P.push(...en.P);
        M.push(...en.M);
      }
      ptr.push(elems.length);
    }
    this.ptr = Int32Array.from(ptr);
    this.elemOf = Int32Array.from(elems);
    this.P = Float64Array.from(P);
    this.M = Float64Array.from(M);
    this.rot = new Float64Array(9 * nE);
    this.u = new Float64Array(24 * nE);
    this.buildPattern(n, nIn);
    this.resizeOutput(n);
    this.apply();
    const out = this.getTo();
    if (out) this.applyJ(out.v, [this.from.v]);
    if (this.applyRestPosition.value && out) this.map(this.from.x0, out.x0, false);
  }

  /**
   * The finest cell of a rest position and its trilinear weights b (8): the regular cell's first part
   * (SOFA's findCube), else the nearest boundary cell by centre, distances in single precision,
   * with coordinates (p − corner 0)/(corner 6 − corner 0) (SOFA's findNearestCube).
   */
  private locate(level: RamifiedLevelView, x: number, y: number, z: number, b: Float64Array): number {
    const g = level.grid;
    const p = [x, y, z],
      idx = [0, 0, 0],
      f = [0, 0, 0];
    let inside = true;
    for (let k = 0; k < 3; k++) {
      const c = (p[k] - g.min[k]) / g.step[k];
      idx[k] = Math.floor(c);
      f[k] = c - idx[k];
      if (!(idx[k] >= 0 && idx[k] <= g.n[k] - 2)) inside = false;
    }
    let h = -1;
    if (inside) {
      const kept = level.cellIndex[idx[0] + (g.n[0] - 1) * (idx[1] + (g.n[1] - 1) * idx[2])];
      if (kept >= 0) h = level.connexions[kept][0].hexa;
    }
    if (h < 0) {
      let best = Math.fround(99999999.0);
      h = 0;
      const nH = level.hexahedra.length / 8,
        pos = level.positions;
      for (let e = 0; e < nH; e++) {
        if (level.types[e] !== BOUNDARY) continue;
        const a = 3 * level.hexahedra[8 * e],
          c = 3 * level.hexahedra[8 * e + 6];
        const lg = Math.fround(
          Math.hypot(x - 0.5 * (pos[a] + pos[c]), y - 0.5 * (pos[a + 1] + pos[c + 1]), z - 0.5 * (pos[a + 2] + pos[c + 2])),
        );
        if (lg < best) {
          best = lg;
          h = e;
        }
      }
      const a = 3 * level.hexahedra[8 * h],
        c = 3 * level.hexahedra[8 * h + 6];
      for (let k = 0; k < 3; k++) f[k] = (p[k] - pos[a + k]) / (pos[c + k] - pos[a + k]);
    }
    const [fx, fy, fz] = f;
    b[0] = (1 - fx) * (1 - fy) * (1 - fz);
    b[1] = fx * (1 - fy) * (1 - fz);
    b[2] = fx * fy * (1 - fz);
    b[3] = (1 - fx) * fy * (1 - fz);
    b[4] = (1 - fx) * (1 - fy) * fz;
    b[5] = fx * (1 - fy) * fz;
    b[6] = fx * fy * fz;
    b[7] = (1 - fx) * fy * fz;
    return h;
  }

  /** J's pattern: per point, the coarse nodes of its elements (sorted), 3 columns each, in each of its 3 rows. */
  private buildPattern(n: number, nIn: number): void {
    const rowPtr = new Int32Array(3 * n + 1);
    const cols: number[] = [];
    this.slot = new Int32Array(8 * this.elemOf.length);
    for (let i = 0; i < n; i++) {
      const nodes = new Set<number>();
      for (let q = this.ptr[i]; q < this.ptr[i + 1]; q++) for (let k = 0; k < 8; k++) nodes.add(this.coarse[8 * this.elemOf[q] + k]);
      const sorted = [...nodes].sort((a, c) => a - c);
      for (let q = this.ptr[i]; q < this.ptr[i + 1]; q++)
        for (let k = 0; k < 8; k++) this.slot[8 * q + k] = 3 * sorted.indexOf(this.coarse[8 * this.elemOf[q] + k]);
      for (let r = 0; r < 3; r++) {
        for (const v of sorted) cols.push(3 * v, 3 * v + 1, 3 * v + 2);
        rowPtr[3 * i + r + 1] = cols.length;
      }
    }
    this.J = createCsr(3 * n, 3 * nIn, rowPtr, Int32Array.from(cols));
  }

  apply(): void {
    this.map(this.from.x, this.outputPositions(), true);
    this.touchOutput();
  }

  /** out = the mapped positions of the coarse positions x (and J's values, with the same rotations, when fillJ). */
  private map(x: Float64Array, out: Float64Array, fillJ: boolean): void {
    const nE = this.coarse.length / 8;
    const R = this.Rtmp,
      rot = this.rot,
      u = this.u,
      x0 = this.x0;
    // per element: R (the force field's) and u = R·x − x⁰
    for (let e = 0; e < nE; e++) {
      this.ff.getElementRotation(R, e);
      rot.set(R, 9 * e);
      for (let k = 0; k < 8; k++) {
        const p = 3 * this.coarse[8 * e + k];
        for (let d = 0; d < 3; d++) u[24 * e + 3 * k + d] = R[3 * d] * x[p] + R[3 * d + 1] * x[p + 1] + R[3 * d + 2] * x[p + 2] - x0[p + d];
      }
    }
    const n = this.ptr.length - 1,
      M = this.M,
      P = this.P,
      J = this.J.values,
      rp = this.J.rowPtr;
    if (fillJ) J.fill(0);
    for (let i = 0; i < n; i++) {
      let yx = 0,
        yy = 0,
        yz = 0;
      for (let q = this.ptr[i]; q < this.ptr[i + 1]; q++) {
        const e = this.elemOf[q],
          r = 9 * e,
          m = 72 * q;
        // local = P + M·u_e, y += Rᵀ·local
        let l0 = P[3 * q],
          l1 = P[3 * q + 1],
          l2 = P[3 * q + 2];
        for (let j = 0; j < 24; j++) {
          const uj = u[24 * e + j];
          l0 += M[m + j] * uj;
          l1 += M[m + 24 + j] * uj;
          l2 += M[m + 48 + j] * uj;
        }
        yx += rot[r] * l0 + rot[r + 3] * l1 + rot[r + 6] * l2;
        yy += rot[r + 1] * l0 + rot[r + 4] * l1 + rot[r + 7] * l2;
        yz += rot[r + 2] * l0 + rot[r + 5] * l1 + rot[r + 8] * l2;
        // J block (point i, node k of e) += Rᵀ·M[:, 3k..3k+3]·R
        if (fillJ)
          for (let k = 0; k < 8; k++) {
            const c = this.slot[8 * q + k];
            for (let a = 0; a < 3; a++) {
              // row a of Rᵀ·M_k: Σ_d R[d][a]·M[d][3k + ·]
              const t0 = rot[r + a] * M[m + 3 * k] + rot[r + 3 + a] * M[m + 24 + 3 * k] + rot[r + 6 + a] * M[m + 48 + 3 * k];
              const t1 = rot[r + a] * M[m + 3 * k + 1] + rot[r + 3 + a] * M[m + 24 + 3 * k + 1] + rot[r + 6 + a] * M[m + 48 + 3 * k + 1];
              const t2 = rot[r + a] * M[m + 3 * k + 2] + rot[r + 3 + a] * M[m + 24 + 3 * k + 2] + rot[r + 6 + a] * M[m + 48 + 3 * k + 2];
              const o = rp[3 * i + a] + c;
              for (let b = 0; b < 3; b++) J[o + b] += t0 * rot[r + b] + t1 * rot[r + 3 + b] + t2 * rot[r + 6 + b];
            }
          }
      }
      out[3 * i] = yx;
      out[3 * i + 1] = yy;
      out[3 * i + 2] = yz;
    }
  }

  applyJ(out: Float64Array, ins: readonly Float64Array[]): void {
    const v = ins[0],
      { rowPtr, colInd, values } = this.J;
    for (let r = 0; r < this.J.rows; r++) {
      let s = 0;
      for (let k = rowPtr[r]; k < rowPtr[r + 1]; k++) s += values[k] * v[colInd[k]];
      out[r] = s;
    }
  }

  applyJT(ins: readonly Float64Array[], out: Float64Array): void {
    const f = ins[0],
      { rowPtr, colInd, values } = this.J;
    for (let r = 0; r < this.J.rows; r++) {
      const w = out[r];
      if (w === 0) continue;
      for (let k = rowPtr[r]; k < rowPtr[r + 1]; k++) f[colInd[k]] += values[k] * w;
    }
  }

  getJ(_input: number): SparseMatrixLike {
    return this.J;
  }
}
