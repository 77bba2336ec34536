import {
  BaseForceField,
  BaseObject,
  Bool,
  Real,
  positive,
  sofaComponent,
  type BaseMechanicalState,
  type MatrixAccumulator,
} from '@sofa-ts/core';
import { beamStiffness, type BeamSection } from '../fem/beam/beam-kernels.js';
import { SplineScratch, localEndVector, quatToMatrix } from './beam-frames.js';
import { LeverScratch, emitLeveredMatrix, leveredAddGlobal, leveredToLocal } from './beam-dof-lever.js';
import { centreLineLength, middleFrameOfEnds } from './beam-middle-frame.js';
import { isBeamSet, type BeamSet } from './beam-set.js';
import { BeamMass, beamMassMatrix, emitTurnedMatrix, type BeamMassSource } from './beam-mass.js';

/**
 * SOFA's AdaptiveBeamForceFieldAndMass (BeamAdapter plugin): the elastic forces and the mass of the
 * beams of a BeamInterpolation or a WireBeamInterpolation (the node's, or `interpolation`),
 * corotational in the frame each beam's centre line interpolates at its middle. The end frames are
 * the state's, turned by a wire's DOF-to-node twist; the local matrices are rebuilt whenever the
 * interpolation's beams change (an instrument controller rewrites a wire's beams at each step), with
 * each beam's section, material and density (the wire's rest shape at the beam's end abscissa, as
 * BeamAdapter; massDensity where the interpolation gives none). Per beam (frames 0, 1; rest length L; beam frame (p_m, R_m)):
 *   u_e = (R_mᵀ(p_e − p_m), rotation vector of q_m⁻¹q_e) − its rest value, e = 0, 1 (local, 12);
 *   k (12×12) = the Timoshenko beam of beam-kernels.ts (no shear areas: Euler–Bernoulli), E and ν
 *     of the beam, the section of the interpolation;
 *   f_e −= R_m·(k·u)_e (forces then torques, world axes);
 *   K = −T·k·Tᵀ, T = diag(R_m ×4) of the last addForce: the local stiffness turned with the beam
 *     frame, exact at rest and under rigid motions (no derivative of the frame, as BeamAdapter).
 * With computeMass, the consistent beam mass of density massDensity (beam-mass.ts) is the
 * companion BeamMass this component adds to its node, which also applies gravity as M·(g, 0).
 * reinforceLength replaces the axial displacements by ∓(ℓ − L)/2, ℓ the current arc length.
 * Beams with DOF-to-node transformations (a BeamInterpolation with dofsAndBeamsAligned="false"):
 * the ends are the transformed frames, and T above becomes BeamAdapter's adjoint A_e of each end,
 * which moves the end's force to its frame by the lever arm r_e = M(q_e)·t_e (beam-dof-lever.ts).
 */
@sofaComponent({
  name: 'AdaptiveBeamForceFieldAndMass',
  category: 'ForceField',
  module: 'BeamAdapter',
  description: 'Corotational 3D beams between Rigid3d frames (BeamInterpolation) and their consistent mass, gravity included.',
  templates: ['Rigid3d'],
})
export class AdaptiveBeamForceFieldAndMass extends BaseForceField implements BeamMassSource {
  readonly computeMass = this.initData({
    name: 'computeMass',
    type: Bool,
    default: true,
    help: 'if false, only the elastic forces (no mass, no gravity)',
  });
  readonly massDensity = this.initData({
    name: 'massDensity',
    type: Real,
    default: 1,
    unit: 'kg/m³',
    range: positive,
    help: 'density of the beams',
  });
  readonly shearStressComputation = this.initData({
    name: 'shearStressComputation',
    type: Bool,
    default: true,
    help: 'if false, BeamAdapter replaces the axial and twist displacements by a sampled stretch and twist: not implemented (an error)',
  });
  readonly reinforceLength = this.initData({
    name: 'reinforceLength',
    type: Bool,
    default: false,
    help: 'if true, the axial displacements are ∓(ℓ − L)/2 with ℓ the current arc length of the centre line',
  });
  readonly instrumentParameters = this.initLink<BaseObject>({
    name: 'instrumentParameters',
    help: 'the WireRestShape giving sections and materials along an instrument: not implemented (an error when set)',
    accepts: (o): o is BaseObject => o instanceof BaseObject,
    expected: 'a WireRestShape',
    search: 'none',
  });
  readonly interpolation = this.initLink<BeamSet & BaseObject>({
    name: 'interpolation',
    help: 'the BeamInterpolation or WireBeamInterpolation of the beams (default: the first one of this node)',
    accepts: (o): o is BeamSet & BaseObject => isBeamSet(o) && o instanceof BaseObject,
    expected: 'a BeamInterpolation or a WireBeamInterpolation',
    search: 'local',
  });

  private states: BaseMechanicalState[] = [];
  private interp: BeamSet | undefined;
  /** The interpolation's revision the local matrices were built for. */
  private builtRevision = -1;
  private readonly sec: BeamSection = { A: 0, Iy: 0, Iz: 0, J: 0, Asy: 0, Asz: 0 };
  private readonly ends = new Float64Array(14);
  private readonly w = new SplineScratch();
  /** The mass part, added to the node at init when computeMass. */
  massPart: BeamMass | undefined;
  beamNodes: Uint32Array = new Uint32Array(0);
  /** Local stiffness per beam (nB × 144, row-major 12×12). */
  stiffnessMatrices = new Float64Array(0);
  massMatrices = new Float64Array(0);
  /** Beam frames of the last update: rotations (nB × 9, local → world), middle points (nB × 3), quaternions (nB × 4). */
  frameRotations = new Float64Array(0);
  private framePoints = new Float64Array(0);
  private frameQuats = new Float64Array(0);
  /**
   * World lever arms of the beam ends from their frames at the last update (nB × 6: r_0, r_1),
   * undefined when the interpolation has no DOF-to-node transformations.
   */
  levers: Float64Array | undefined;
  private readonly lever = new LeverScratch();
  private readonly M = new Float64Array(9);
  /** Local displacements of the last update (nB × 12). */
  private displacements = new Float64Array(0);
  private readonly tmp = new Float64Array(8);
  private readonly local = new Float64Array(12);
  private readonly res = new Float64Array(12);
  private readonly blk = new Float64Array(9);

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  get beamCount(): number {
    return this.interp?.beamCount ?? 0;
  }

  override init(): void {
    if (this.instrumentParameters.linkPath || this.instrumentParameters.get())
      throw this.error(
        'instrumentParameters: instrument parameters (WireRestShape) are not implemented in sofa-ts: the section and material come from the BeamInterpolation',
      );
    if (!this.shearStressComputation.value)
      throw this.dataError(
        this.shearStressComputation,
        'shearStressComputation="false" (sampled stretch and twist) is not implemented in sofa-ts',
      );
    let interp = this.interpolation.get();
    if (!interp) {
      interp = this.context.getObjects((o): o is BeamSet & BaseObject => isBeamSet(o) && o instanceof BaseObject)[0];
      if (!interp)
        throw this.error(
          'no BeamInterpolation or WireBeamInterpolation in this node (BeamAdapter needs one beside the force field, or interpolation="@path")',
        );
      this.interpolation.set(interp);
    }
    interp.prepare();
    this.interp = interp;
    const state = interp.getState();
    this.states = [state];
    if (!this.template) this.template = 'Rigid3d';
    const n = interp.nodes.length / 2;
    this.beamNodes = interp.nodes;
    this.stiffnessMatrices = new Float64Array(144 * n);
    this.massMatrices = new Float64Array(144 * n);
    this.frameRotations = new Float64Array(9 * n);
    this.framePoints = new Float64Array(3 * n);
    this.frameQuats = new Float64Array(4 * n);
    this.displacements = new Float64Array(12 * n);
    this.levers = interp.dofToNode ? new Float64Array(6 * n) : undefined;
    this.builtRevision = -1;
    this.updateFrames(state.x);
    if (this.computeMass.value && !this.massPart) {
      this.massPart = new BeamMass(this, state, this);
      this.context.addObject(this.massPart);
    }
  }

  /** Local stiffness and mass of each beam, when the interpolation's beams changed. */
  private buildLocalMatrices(): void {
    const interp = this.interp!;
    if (this.builtRevision === interp.revision) return;
    this.builtRevision = interp.revision;
    this.beamNodes = interp.nodes;
    const s = this.sec;
    for (let b = 0; b < interp.beamCount; b++) {
      const L = interp.lengths[b],
        rho = interp.densities[b];
      interp.sectionOf(b, s);
      beamStiffness(this.stiffnessMatrices, 144 * b, interp.young[b], interp.poisson[b], L, s);
      beamMassMatrix(this.massMatrices, 144 * b, Number.isNaN(rho) ? this.massDensity.value : rho, L, s);
    }
  }

  /** Beam frames and local displacements at positions x (Rigid3d coordinates, size × 7). */
  updateFrames(x: Float64Array): void {
    this.buildLocalMatrices();
    const interp = this.interp!,
      n = this.beamCount,
      u = this.displacements,
      rest = interp.restLocal,
      E = this.ends;
    const pm = this.framePoints,
      qm = this.frameQuats,
      Rm = this.frameRotations;
    const T = interp.dofToNode,
      lev = this.levers;
    for (let b = 0; b < n; b++) {
      interp.endFrames(E, x, b);
      if (T && lev) this.updateLevers(lev, T, x, b);
      const L = interp.lengths[b];
      middleFrameOfEnds(pm, 3 * b, qm, 4 * b, Rm, 9 * b, E, L, this.w);
      localEndVector(u, 12 * b, E, 0, pm, 3 * b, qm, 4 * b, this.tmp);
      localEndVector(u, 12 * b + 6, E, 7, pm, 3 * b, qm, 4 * b, this.tmp);
      for (let i = 0; i < 12; i++) u[12 * b + i] -= rest[12 * b + i];
      if (this.reinforceLength.value) {
        // axial displacements from the stretch of the centre line
        const d = centreLineLength(E, L, this.w) - L;
        u[12 * b] = -d / 2;
        u[12 * b + 6] = d / 2;
      }
    }
  }

  /** lev[6b..6b+6) = M(q_e)·t_e of the two ends of beam b: the world offsets of its nodes from its frames. */
  private updateLevers(lev: Float64Array, T: Float64Array, x: Float64Array, b: number): void {
    const M = this.M;
    for (let e = 0; e < 2; e++) {
      const xo = 7 * this.beamNodes[2 * b + e],
        to = 14 * b + 7 * e,
        lo = 6 * b + 3 * e;
      quatToMatrix(M, 0, x, xo + 3);
      for (let r = 0; r < 3; r++) lev[lo + r] = M[3 * r] * T[to] + M[3 * r + 1] * T[to + 1] + M[3 * r + 2] * T[to + 2];
    }
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], _v: readonly Float64Array[]): void {
    this.updateFrames(x[0]);
    const ff = f[0],
      n = this.beamCount,
      K = this.stiffnessMatrices,
      u = this.displacements,
      res = this.res;
    for (let b = 0; b < n; b++) {
      // f_loc = k·u
      for (let r = 0; r < 12; r++) {
        let s = 0;
        for (let c = 0; c < 12; c++) s += K[144 * b + 12 * r + c] * u[12 * b + c];
        res[r] = s;
      }
      if (this.levers)
        leveredAddGlobal(
          ff,
          6 * this.beamNodes[2 * b],
          6 * this.beamNodes[2 * b + 1],
          this.frameRotations,
          9 * b,
          this.levers,
          6 * b,
          res,
          -1,
        );
      else this.subtractTurned(ff, b, res, 1);
    }
  }

  /** out −= factor·T·v_loc on the dofs of beam b (T = diag(R_m ×4)). */
  private subtractTurned(out: Float64Array, b: number, vLoc: Float64Array, factor: number): void {
    const R = this.frameRotations,
      ro = 9 * b,
      n0 = this.beamNodes[2 * b],
      n1 = this.beamNodes[2 * b + 1];
    for (let blk = 0; blk < 4; blk++) {
      const o = (blk < 2 ? 6 * n0 : 6 * n1) + 3 * (blk % 2),
        fo = 3 * blk;
      for (let r = 0; r < 3; r++)
        out[o + r] -= factor * (R[ro + 3 * r] * vLoc[fo] + R[ro + 3 * r + 1] * vLoc[fo + 1] + R[ro + 3 * r + 2] * vLoc[fo + 2]);
    }
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const fact = this.kFactorWithRayleigh(kFactor, bFactor);
    if (fact === 0) return;
    const out = df[0],
      d = dx[0],
      n = this.beamCount,
      K = this.stiffnessMatrices,
      R = this.frameRotations,
      loc = this.local,
      res = this.res;
    const lev = this.levers;
    for (let b = 0; b < n; b++) {
      const ro = 9 * b,
        n0 = this.beamNodes[2 * b],
        n1 = this.beamNodes[2 * b + 1];
      // loc = Tᵀ·dx (A·dx with lever arms)
      if (lev) leveredToLocal(loc, d, 6 * n0, 6 * n1, R, ro, lev, 6 * b);
      else
        for (let blk = 0; blk < 4; blk++) {
          const o = (blk < 2 ? 6 * n0 : 6 * n1) + 3 * (blk % 2);
          for (let c = 0; c < 3; c++) loc[3 * blk + c] = R[ro + c] * d[o] + R[ro + 3 + c] * d[o + 1] + R[ro + 6 + c] * d[o + 2];
        }
      for (let r = 0; r < 12; r++) {
        let s = 0;
        for (let c = 0; c < 12; c++) s += K[144 * b + 12 * r + c] * loc[c];
        res[r] = s;
      }
      if (lev) leveredAddGlobal(out, 6 * n0, 6 * n1, R, ro, lev, 6 * b, res, -fact);
      else this.subtractTurned(out, b, res, fact);
    }
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    const n = this.beamCount,
      lev = this.levers;
    for (let b = 0; b < n; b++)
      if (lev)
        emitLeveredMatrix(
          acc,
          this.stiffnessMatrices,
          144 * b,
          this.frameRotations,
          9 * b,
          lev,
          6 * b,
          this.beamNodes[2 * b],
          this.beamNodes[2 * b + 1],
          -kFactor,
          this.lever,
        );
      else
        emitTurnedMatrix(
          acc,
          this.stiffnessMatrices,
          144 * b,
          this.frameRotations,
          9 * b,
          this.beamNodes[2 * b],
          this.beamNodes[2 * b + 1],
          -kFactor,
          this.blk,
        );
  }

  /** ½·uᵀ·k·u summed over the beams, at positions x. */
  override getPotentialEnergy(x: readonly Float64Array[]): number {
    this.updateFrames(x[0]);
    const n = this.beamCount,
      K = this.stiffnessMatrices,
      u = this.displacements;
    let e = 0;
    for (let b = 0; b < n; b++)
      for (let r = 0; r < 12; r++) {
        let s = 0;
        for (let c = 0; c < 12; c++) s += K[144 * b + 12 * r + c] * u[12 * b + c];
        e += 0.5 * u[12 * b + r] * s;
      }
    return e;
  }
}
