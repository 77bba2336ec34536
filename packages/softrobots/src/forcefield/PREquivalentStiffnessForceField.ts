import {
  BaseForceField,
  Real,
  Str,
  UInt,
  contextStateLink,
  findDataFile,
  host,
  sofaComponent,
  type BaseMechanicalState,
  type MatrixAccumulator,
} from '@sofa-ts/core';
import { RigidPairScratch, addRigidPairForce, rigidPairRest, type RigidPairRest } from './rigid-pair-spring.js';

/**
 * SoftRobots' PREquivalentStiffnessForceField: a pseudo-rigid chain of Rigid3d frames, each pair of
 * consecutive frames (from `startIndex` on) held by an equivalent 6×6 stiffness K = C⁻¹, C the
 * compliance of the pair read from `complianceFile` (36 numbers per pair, row by row; brackets and
 * commas allowed, as SOFA reads a Mat66). The k-th matrix of the file serves the pair
 * (startIndex + k, startIndex + k + 1), as in SoftRobots. The link's force acts on the relative pose
 * of the second frame seen from the first, from the rest positions (rigid-pair-spring.ts), scaled by
 * `coefForce`:
 *
 *   E = coefForce · ½ uᵀ K u,   u = [R_iᵀ(p_j − p_i) − d₀ ; log(R_iᵀR_j Q₀ᵀ)]
 *
 * The tangent stiffness is ∂f/∂x of these forces, by central differences of the link's force over
 * its 12 coordinates at each addForce (exact to about 1e-9 relative; no allocation). Only K's
 * symmetric part enters E: an asymmetric C is told. Departure from SoftRobots, whose component
 * turns itself invalid at the end of its init and so never acts: this one does its physics, with
 * the equations above (SoftRobots' stiffness is assembled apart from its force, not derived from it).
 */
@sofaComponent({
  name: 'PREquivalentStiffnessForceField',
  category: 'ForceField',
  module: 'SoftRobots',
  description: 'Equivalent 6×6 stiffness between consecutive rigid frames of a pseudo-rigid chain, from their compliance matrices.',
  templates: ['Rigid3d'],
  defaultTemplate: 'Rigid3d',
})
export class PREquivalentStiffnessForceField extends BaseForceField {
  readonly complianceFile = this.initData({
    name: 'complianceFile',
    type: Str,
    default: '',
    help: 'file of the 6×6 compliance matrices of consecutive frames (36 numbers each, row by row)',
  });
  readonly coefForce = this.initData({ name: 'coefForce', type: Real, default: 1, help: 'factor on the forces and the stiffness' });
  readonly startIndex = this.initData({ name: 'startIndex', type: UInt, default: 0, help: 'frames below this index are not linked' });

  readonly mstate = this.initLink<BaseMechanicalState>(
    contextStateLink(
      'the Rigid3d state of the frames (default: the one of its node, else of the nearest ancestor that has one)',
      'a MechanicalObject (Rigid3d)',
    ),
  );

  private states: BaseMechanicalState[] = [];
  private stiffness: Float64Array[] = [];
  private rests: RigidPairRest[] = [];
  /** ∂f/∂x of each link, 12×12 row-major (frames i then j), at the last addForce. */
  private tangents: Float64Array[] = [];
  private readonly scratch = new RigidPairScratch();
  private readonly pair = new Float64Array(14);
  private readonly fPlus = new Float64Array(12);
  private readonly fMinus = new Float64Array(12);

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  override init(): void {
    const s = this.mstate.require();
    if (s.stateType.name !== 'Rigid3d') throw this.error(`a Rigid3d state is needed (${s.describe()} is ${s.stateType.name})`);
    this.template = 'Rigid3d';
    this.states = [s];
    const start = this.startIndex.value;
    const links = s.size - 1 - start;
    if (links < 1) throw this.error(`no pair of frames to link: ${s.describe()} has ${s.size} frames and startIndex is ${start}`);
    const name = this.complianceFile.value.trim();
    if (name === '')
      throw this.dataError(
        this.complianceFile,
        'no compliance file given',
        'complianceFile="compliance.txt": 36 numbers per pair of consecutive frames',
      );
    const file = findDataFile(this, name);
    if (!file)
      throw this.dataError(
        this.complianceFile,
        `compliance file '${name}' not found`,
        'relative names are looked up beside the scene, then in the data paths',
      );
    const tokens = host()
      .readText(file)
      .replace(/[[\],]/g, ' ')
      .trim()
      .split(/\s+/)
      .filter((t) => t !== '');
    const numbers = tokens.map(Number);
    const bad = numbers.findIndex((v) => !Number.isFinite(v));
    if (bad >= 0) throw this.dataError(this.complianceFile, `${file}: '${tokens[bad]}' (number ${bad + 1}) is not a finite number`);
    if (numbers.length < 36 * links)
      throw this.dataError(
        this.complianceFile,
        `${file} holds ${numbers.length} numbers, ${links} pairs of frames need ${36 * links} (36 each)`,
      );
    if (numbers.length !== 36 * links && numbers.length !== 36 * (s.size - 1))
      this.warnAbout(this.complianceFile, `${file} holds ${numbers.length} numbers: the first ${36 * links} are used (${links} pairs)`);
    this.stiffness = [];
    this.rests = [];
    this.tangents = [];
    const x0 = s.x0;
    for (let k = 0; k < links; k++) {
      const C = Float64Array.from(numbers.slice(36 * k, 36 * k + 36));
      let asym = 0,
        scale = 0;
      for (let a = 0; a < 6; a++)
        for (let b = 0; b < 6; b++) {
          asym = Math.max(asym, Math.abs(C[6 * a + b] - C[6 * b + a]));
          scale = Math.max(scale, Math.abs(C[6 * a + b]));
        }
      if (asym > 1e-9 * scale)
        this.warnAbout(
          this.complianceFile,
          `the compliance of frames ${start + k} and ${start + k + 1} is not symmetric (|C − Cᵀ| up to ${asym}): the symmetric part of its inverse is used`,
        );
      const K = invert6(C);
      if (!K) throw this.dataError(this.complianceFile, `the compliance of frames ${start + k} and ${start + k + 1} is singular`);
      for (let a = 0; a < 6; a++)
        for (let b = a + 1; b < 6; b++) {
          const m = 0.5 * (K[6 * a + b] + K[6 * b + a]);
          K[6 * a + b] = m;
          K[6 * b + a] = m;
        }
      this.stiffness.push(K);
      this.rests.push(rigidPairRest(x0, 7 * (start + k), 7 * (start + k + 1)));
      this.tangents.push(new Float64Array(144));
    }
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], _v: readonly Float64Array[]): void {
    const X = x[0],
      F = f[0],
      start = this.startIndex.value,
      coef = this.coefForce.value;
    for (let k = 0; k < this.stiffness.length; k++) {
      const i = start + k,
        j = i + 1;
      addRigidPairForce(X, 7 * i, 7 * j, this.rests[k], this.stiffness[k], coef, F, 6 * i, 6 * j, this.scratch);
      this.updateTangent(X, k, i, j, coef);
    }
  }

  /** Central differences of the link's force over its 12 coordinates (translations, then world rotations). */
  private updateTangent(X: Float64Array, k: number, i: number, j: number, coef: number): void {
    const p = this.pair,
      T = this.tangents[k],
      rest = this.rests[k],
      K = this.stiffness[k];
    const ht = 1e-6 * Math.max(Math.hypot(rest.d0[0], rest.d0[1], rest.d0[2]), 1e-3);
    const hr = 1e-6;
    for (let c = 0; c < 12; c++) {
      const frame = c < 6 ? 0 : 1,
        comp = c % 6,
        h = comp < 3 ? ht : hr;
      for (let side = 0; side < 2; side++) {
        const out = side === 0 ? this.fPlus : this.fMinus;
        p.set(X.subarray(7 * i, 7 * i + 7), 0);
        p.set(X.subarray(7 * j, 7 * j + 7), 7);
        displace(p, 7 * frame, comp, side === 0 ? h : -h);
        out.fill(0);
        addRigidPairForce(p, 0, 7, rest, K, coef, out, 0, 6, this.scratch);
      }
      for (let r = 0; r < 12; r++) T[12 * r + c] = (this.fPlus[r] - this.fMinus[r]) / (2 * h);
    }
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const D = df[0],
      X = dx[0],
      kf = this.kFactorWithRayleigh(kFactor, bFactor),
      start = this.startIndex.value;
    for (let k = 0; k < this.tangents.length; k++) {
      const T = this.tangents[k],
        i = start + k;
      for (let r = 0; r < 12; r++) {
        let s = 0;
        for (let c = 0; c < 12; c++) s += T[12 * r + c] * X[6 * i + c];
        D[6 * i + r] += kf * s;
      }
    }
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    const start = this.startIndex.value;
    for (let k = 0; k < this.tangents.length; k++) {
      const T = this.tangents[k],
        o = 6 * (start + k);
      for (let r = 0; r < 12; r++) for (let c = 0; c < 12; c++) acc.add(o + r, o + c, kFactor * T[12 * r + c]);
    }
  }

  override getPotentialEnergy(x: readonly Float64Array[]): number {
    const X = x[0],
      start = this.startIndex.value,
      coef = this.coefForce.value;
    let e = 0;
    for (let k = 0; k < this.stiffness.length; k++)
      e += addRigidPairForce(
        X,
        7 * (start + k),
        7 * (start + k + 1),
        this.rests[k],
        this.stiffness[k],
        coef,
        this.fPlus,
        0,
        6,
        this.scratch,
      );
    return e;
  }
}

/** Moves the frame at o of p by h along derivative component comp (0–2 translation, 3–5 world rotation: q ← exp(hω/2)⊗q). */
function displace(p: Float64Array, o: number, comp: number, h: number): void {
  if (comp < 3) {
    p[o + comp] += h;
    return;
  }
  const a = comp - 3,
    half = h / 2,
    sn = Math.sin(half),
    cs = Math.cos(half);
  // e = (sn·e_a, cs) ⊗ q
  const ex = a === 0 ? sn : 0,
    ey = a === 1 ? sn : 0,
    ez = a === 2 ? sn : 0;
  const qx = p[o + 3],
    qy = p[o + 4],
    qz = p[o + 5],
    qw = p[o + 6];
  p[o + 3] = cs * qx + ex * qw + ey * qz - ez * qy;
  p[o + 4] = cs * qy - ex * qz + ey * qw + ez * qx;
  p[o + 5] = cs * qz + ex * qy - ey * qx + ez * qw;
  p[o + 6] = cs * qw - ex * qx - ey * qy - ez * qz;
}

/** The inverse of a 6×6 row-major matrix (Gauss-Jordan with partial pivoting), undefined when singular. */
export function invert6(C: Float64Array): Float64Array | undefined {
  const A = Float64Array.from(C),
    I = new Float64Array(36);
  for (let a = 0; a < 6; a++) I[7 * a] = 1;
  let scale = 0;
  for (const v of A) scale = Math.max(scale, Math.abs(v));
  for (let col = 0; col < 6; col++) {
    let piv = col;
    for (let r = col + 1; r < 6; r++) if (Math.abs(A[6 * r + col]) > Math.abs(A[6 * piv + col])) piv = r;
    const pv = A[6 * piv + col];
    if (!(Math.abs(pv) > 1e-14 * scale)) return undefined;
    if (piv !== col) {
      for (let c = 0; c < 6; c++) {
        [A[6 * col + c], A[6 * piv + c]] = [A[6 * piv + c], A[6 * col + c]];
        [I[6 * col + c], I[6 * piv + c]] = [I[6 * piv + c], I[6 * col + c]];
      }
    }
    for (let c = 0; c < 6; c++) {
      A[6 * col + c] /= pv;
      I[6 * col + c] /= pv;
    }
    for (let r = 0; r < 6; r++) {
      if (r === col) continue;
      const m = A[6 * r + col];
      if (m === 0) continue;
      for (let c = 0; c < 6; c++) {
        A[6 * r + c] -= m * A[6 * col + c];
        I[6 * r + c] -= m * I[6 * col + c];
      }
    }
  }
  return I;
}
