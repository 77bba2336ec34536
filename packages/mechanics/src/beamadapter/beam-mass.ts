import { BaseMass, addBlock3, type BaseForceField, type BaseMechanicalState, type MatrixAccumulator } from '@sofa-ts/core';
import { LeverScratch, emitLeveredMatrix, leveredAddGlobal, leveredToLocal } from './beam-dof-lever.js';
import type { BeamSection } from '../fem/beam/beam-kernels.js';

/**
 * The consistent mass matrix (12×12, row-major at out[o..o+144)) of a 3D beam of density ρ, length
 * L and section s (BeamAdapter's computeMass): the cubic Hermite mass ρAL·(...) with the rotary
 * inertia of the section (the terms in I/A), local dofs per node (u_x, u_y, u_z, θ_x, θ_y, θ_z):
 *   axial ρAL·[1/3 1/6], torsion ρJL·[1/3 1/6],
 *   bending (u_y, θ_z) with r = I_z/A (and (u_z, θ_y) with I_y, the signs of θ_y opposite):
 *     u·u 13/35 + 6r/(5L²) | 9/70 − 6r/(5L²);  θ·θ L²/105 + 2r/15 | −L²/140 − r/30;
 *     u_a·θ_a 11L/210 + r/(10L);  u_b·θ_a 13L/420 − r/(10L)  (times ρAL).
 */
export function beamMassMatrix(out: Float64Array, o: number, rho: number, L: number, s: BeamSection): Float64Array {
  const m = rho * s.A * L,
    L2 = L * L,
    ry = s.Iy / s.A,
    rz = s.Iz / s.A;
  const k = (r: number, c: number, v: number): void => {
    out[o + 12 * r + c] = m * v;
    out[o + 12 * c + r] = m * v;
  };
  out.fill(0, o, o + 144);
  for (const a of [0, 6]) {
    k(a, a, 1 / 3);
    k(a + 1, a + 1, 13 / 35 + (6 * rz) / (5 * L2));
    k(a + 2, a + 2, 13 / 35 + (6 * ry) / (5 * L2));
    k(a + 3, a + 3, s.J / (3 * s.A));
    k(a + 4, a + 4, L2 / 105 + (2 * ry) / 15);
    k(a + 5, a + 5, L2 / 105 + (2 * rz) / 15);
  }
  const cy = (11 * L) / 210 + rz / (10 * L),
    cz = (11 * L) / 210 + ry / (10 * L);
  k(5, 1, cy);
  k(4, 2, -cz);
  k(11, 7, -cy);
  k(10, 8, cz);
  k(6, 0, 1 / 6);
  k(7, 1, 9 / 70 - (6 * rz) / (5 * L2));
  k(8, 2, 9 / 70 - (6 * ry) / (5 * L2));
  k(9, 3, s.J / (6 * s.A));
  k(10, 4, -L2 / 140 - ry / 30);
  k(11, 5, -L2 / 140 - rz / 30);
  const dy = (13 * L) / 420 - rz / (10 * L),
    dz = (13 * L) / 420 - ry / (10 * L);
  k(7, 5, dy);
  k(11, 1, -dy);
  k(8, 4, -dz);
  k(10, 2, dz);
  return out;
}

/** What BeamMass reads from its force field: the beams, their frames at the last update and local mass matrices. */
export interface BeamMassSource {
  /** Beams in use. */
  readonly beamCount: number;
  /** End frames of each beam (2 per beam, room for more). */
  readonly beamNodes: Uint32Array;
  /** Local mass matrices (nB × 144, row-major 12×12). */
  readonly massMatrices: Float64Array;
  /** Beam frame rotations R_m (nB × 9, row-major, local → world) of the last update. */
  readonly frameRotations: Float64Array;
  /** World lever arms of the beam ends from their frames (nB × 6), undefined without DOF-to-node transformations. */
  readonly levers: Float64Array | undefined;
  /** Recomputes the beam frames at positions x (Rigid3d coordinates). */
  updateFrames(x: Float64Array): void;
}

/**
 * The mass half of AdaptiveBeamForceFieldAndMass, added by it to its node (named after it with
 * `_mass`), on the Rigid3d frames: per beam, M_g = T·M_loc·Tᵀ with T = diag(R_m, R_m, R_m, R_m),
 * R_m the beam frame's rotation at the last force evaluation (as BeamAdapter turns its local
 * matrices with the frame of its last addForce);
 *   gravity: f += M_g·(g, 0, g, 0) per beam, the consistent load (forces and end moments).
 * BeamAdapter's own addMDx adds M·(g, 0) whatever dx; this one is M·dx (the two agree on the scene
 * path, where the mass factor of the right-hand side is 0). With DOF-to-node transformations T
 * becomes the ends' adjoints A_e with their lever arms, as for the stiffness (beam-dof-lever.ts).
 */
export class BeamMass extends BaseMass {
  private readonly blk = new Float64Array(9);
  private readonly local = new Float64Array(12);
  private readonly res = new Float64Array(12);
  /** (g, 0, g, 0): gravity on the 12 dofs of a beam. */
  private readonly gravity = new Float64Array(12);
  private readonly lever = new LeverScratch();

  constructor(
    private readonly owner: BaseForceField,
    private readonly state: BaseMechanicalState,
    private readonly src: BeamMassSource,
  ) {
    super();
    this.name.value = `${owner.getName()}_mass`;
    this.template = 'Rigid3d';
  }

  override init(): void {}

  getMechanicalState(): BaseMechanicalState {
    return this.state;
  }

  get isDiagonal(): boolean {
    return false;
  }

  /** out[12 values of beam b] += factor·M_g·v where v gathers the 12 dofs of the beam from `vec` (or `vec` itself when `gathered`). */
  private applyBeam(out: Float64Array, vec: ArrayLike<number>, b: number, factor: number, gathered: boolean): void {
    const src = this.src,
      R = src.frameRotations,
      M = src.massMatrices,
      loc = this.local,
      res = this.res;
    const ro = 9 * b,
      n0 = src.beamNodes[2 * b],
      n1 = src.beamNodes[2 * b + 1],
      lev = src.levers;
    if (lev) {
      leveredToLocal(loc, vec, gathered ? 0 : 6 * n0, gathered ? 6 : 6 * n1, R, ro, lev, 6 * b);
      for (let r = 0; r < 12; r++) {
        let s = 0;
        for (let c = 0; c < 12; c++) s += M[144 * b + 12 * r + c] * loc[c];
        res[r] = s;
      }
      leveredAddGlobal(out, 6 * n0, 6 * n1, R, ro, lev, 6 * b, res, factor);
      return;
    }
    // loc = Tᵀ·v
    for (let blk = 0; blk < 4; blk++) {
      const o = gathered ? 3 * blk : (blk < 2 ? 6 * n0 : 6 * n1) + 3 * (blk % 2);
      for (let c = 0; c < 3; c++) loc[3 * blk + c] = R[ro + c] * vec[o] + R[ro + 3 + c] * vec[o + 1] + R[ro + 6 + c] * vec[o + 2];
    }
    for (let r = 0; r < 12; r++) {
      let s = 0;
      for (let c = 0; c < 12; c++) s += M[144 * b + 12 * r + c] * loc[c];
      res[r] = s;
    }
    // out += factor·T·res
    for (let blk = 0; blk < 4; blk++) {
      const o = (blk < 2 ? 6 * n0 : 6 * n1) + 3 * (blk % 2),
        fo = 3 * blk;
      for (let r = 0; r < 3; r++)
        out[o + r] += factor * (R[ro + 3 * r] * res[fo] + R[ro + 3 * r + 1] * res[fo + 1] + R[ro + 3 * r + 2] * res[fo + 2]);
    }
  }

  addMDx(out: Float64Array, dx: Float64Array, factor: number): void {
    if (factor === 0) return;
    const n = this.src.beamCount;
    for (let b = 0; b < n; b++) this.applyBeam(out, dx, b, factor, false);
  }

  addMToMatrix(acc: MatrixAccumulator, mFactor: number): void {
    const src = this.src,
      n = src.beamCount,
      lev = src.levers;
    for (let b = 0; b < n; b++)
      if (lev)
        emitLeveredMatrix(
          acc,
          src.massMatrices,
          144 * b,
          src.frameRotations,
          9 * b,
          lev,
          6 * b,
          src.beamNodes[2 * b],
          src.beamNodes[2 * b + 1],
          mFactor,
          this.lever,
        );
      else
        emitTurnedMatrix(
          acc,
          src.massMatrices,
          144 * b,
          src.frameRotations,
          9 * b,
          src.beamNodes[2 * b],
          src.beamNodes[2 * b + 1],
          mFactor,
          this.blk,
        );
  }

  addForce(f: Float64Array, x: Float64Array, _v: Float64Array): void {
    this.src.updateFrames(x);
    this.addGravity(f);
  }

  /** f += M_g·(g, 0, g, 0) per beam, with the frames of the last update. */
  private addGravity(f: Float64Array): void {
    const g = this.context.getGravity(),
      G = this.gravity;
    G.set(g, 0);
    G.set(g, 6);
    const n = this.src.beamCount;
    for (let b = 0; b < n; b++) this.applyBeam(f, G, b, 1, true);
  }

  accFromF(_a: Float64Array, _f: Float64Array): void {
    throw this.owner.error(
      'a = M⁻¹·f is not available for the consistent beam mass (as in BeamAdapter): use an implicit solver with a linear solver',
    );
  }

  getKineticEnergy(v: Float64Array): number {
    const mv = new Float64Array(v.length);
    this.addMDx(mv, v, 1);
    let e = 0;
    for (let i = 0; i < v.length; i++) e += v[i] * mv[i];
    return e / 2;
  }

  /**
   * −Σ f_g·c over the frame centres c, f_g the consistent gravity forces (the moments do no work on
   * translations); with DOF-to-node transformations, over the beam ends (frame + lever arm) instead,
   * each beam's loads taken at its own ends.
   */
  getPotentialEnergy(x: Float64Array): number {
    const lev = this.src.levers;
    if (lev) return this.leveredGravityEnergy(x, lev);
    const f = new Float64Array(6 * this.state.size);
    this.addGravity(f);
    let e = 0;
    for (let i = 0; i < this.state.size; i++) e -= f[6 * i] * x[7 * i] + f[6 * i + 1] * x[7 * i + 1] + f[6 * i + 2] * x[7 * i + 2];
    return e;
  }

  private leveredGravityEnergy(x: Float64Array, lev: Float64Array): number {
    const g = this.context.getGravity(),
      G = this.gravity,
      src = this.src,
      R = src.frameRotations,
      M = src.massMatrices,
      loc = this.local,
      res = this.res,
      zero = new Float64Array(6),
      f = new Float64Array(12);
    G.set(g, 0);
    G.set(g, 6);
    let e = 0;
    for (let b = 0; b < src.beamCount; b++) {
      // the consistent loads of beam b at its ends, without the lever (R_m·(M_loc·R_mᵀ·g)), against the ends' positions
      leveredToLocal(loc, G, 0, 6, R, 9 * b, zero, 0);
      for (let r = 0; r < 12; r++) {
        let s = 0;
        for (let c = 0; c < 12; c++) s += M[144 * b + 12 * r + c] * loc[c];
        res[r] = s;
      }
      f.fill(0);
      leveredAddGlobal(f, 0, 6, R, 9 * b, zero, 0, res, 1);
      for (let k = 0; k < 2; k++) {
        const xo = 7 * src.beamNodes[2 * b + k],
          lo = 6 * b + 3 * k;
        for (let c = 0; c < 3; c++) e -= f[6 * k + c] * (x[xo + c] + lev[lo + c]);
      }
    }
    return e;
  }
}

/**
 * Emits factor·T·A_loc·Tᵀ of one beam (A_loc 12×12 at A[ao..], T = diag(R, R, R, R), R at R[ro..])
 * as 16 blocks 3×3 on the dofs of frames n0, n1 (6 per frame), in a fixed order.
 */
export function emitTurnedMatrix(
  acc: MatrixAccumulator,
  A: Float64Array,
  ao: number,
  R: Float64Array,
  ro: number,
  n0: number,
  n1: number,
  factor: number,
  blk: Float64Array,
): void {
  for (let bi = 0; bi < 4; bi++)
    for (let bj = 0; bj < 4; bj++) {
      for (let r = 0; r < 3; r++)
        for (let c = 0; c < 3; c++) {
          let s = 0;
          for (let p = 0; p < 3; p++) {
            const Rrp = R[ro + 3 * r + p];
            if (Rrp === 0) continue;
            for (let q = 0; q < 3; q++) s += Rrp * A[ao + 12 * (3 * bi + p) + 3 * bj + q] * R[ro + 3 * c + q];
          }
          blk[3 * r + c] = s;
        }
      const row = (bi < 2 ? 6 * n0 : 6 * n1) + 3 * (bi % 2),
        col = (bj < 2 ? 6 * n0 : 6 * n1) + 3 * (bj % 2);
      addBlock3(acc, row, col, blk, 0, factor);
    }
}
