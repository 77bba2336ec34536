import type { BaseMechanicalState } from '@sofa-ts/core';
import type { BeamSection } from '../fem/beam/beam-kernels.js';

/**
 * What AdaptiveBeamForceFieldAndMass and AdaptiveBeamMapping read from a beam interpolation
 * (BeamAdapter's BaseBeamInterpolation): the beams between frames of a Rigid3d state, their rest
 * lengths, sections, materials and rest shapes. BeamInterpolation's beams are fixed at init;
 * WireBeamInterpolation's are rewritten by an InterventionalRadiologyController at each step, and
 * `revision` tells the force field when to rebuild its local matrices.
 */
export interface BeamSet {
  /** Beams in use (the arrays below may hold more room). */
  readonly beamCount: number;
  /** End frames of each beam, indices into the state (2 per beam). */
  readonly nodes: Uint32Array;
  /** Rest length of each beam. */
  readonly lengths: Float64Array;
  /** Young modulus and Poisson ratio of each beam. */
  readonly young: Float64Array;
  readonly poisson: Float64Array;
  /** Rest local end vectors of each beam (12 per beam: node 0 translation, rotation vector, then node 1). */
  readonly restLocal: Float64Array;
  /** Density of each beam, NaN where the force field's massDensity applies. */
  readonly densities: Float64Array;
  /** Rest length of the whole instrument (the beams' sum for a BeamInterpolation). */
  readonly restTotalLength: number;
  /**
   * The DOF-to-node transformations of each beam (14 per beam: translation t_0, quaternion q_0, then
   * t_1, q_1, in the DOF's frame), undefined when the beam ends are the frames themselves
   * (beam-dof-lever.ts: how forces and stiffness then reach the frames).
   */
  readonly dofToNode: Float64Array | undefined;
  /** Bumped whenever the beams (count, nodes, lengths, sections, materials, rest shapes) change. */
  readonly revision: number;
  /** Section of beam b (A, Iy, Iz, J; no shear areas). */
  sectionOf(b: number, out: BeamSection): BeamSection;
  /** Reads what it needs (once; callers may come before the interpolation's init). */
  prepare(): void;
  /** The Rigid3d state of the beam frames, valid after prepare(). */
  getState(): BaseMechanicalState;
  /**
   * The two end frames of beam b at positions x, E[0..7) and E[7..14) (p, q each): the frames of the
   * state, turned by the beam's DOF-to-node transformation when it has one.
   */
  endFrames(E: Float64Array, x: ArrayLike<number>, b: number): void;
}

/** A beam set, for the links of the force field and the mappings. */
export function isBeamSet(o: unknown): o is BeamSet {
  return typeof o === 'object' && o !== null && typeof (o as BeamSet).endFrames === 'function' && 'restLocal' in o;
}
