import { BaseCompliance, type BaseMechanicalState, type MatrixAccumulator } from '@sofa-ts/core';
import { mstateLink } from '../state-link.js';

/**
 * Shared base of the Compliant plugin's diagonal compliances and stiffnesses: one scalar per dof i
 *   stiffness k_i (K = −diag k, f = −k_i·x_i), compliance c_i (C = diag c), damping d_i (B = −diag d)
 * filled by the subclass from its Data. As a compliance (see BaseCompliance) it gives C and B, no
 * force and no K; as a stiffness it gives f, K and B. Arrays are (size × derivSize), rebuilt when
 * the state's size changes.
 */
export abstract class DiagonalForceField extends BaseCompliance {
  readonly mstate = this.initLink(mstateLink());
  /** (size × derivSize) k_i, c_i, d_i */
  protected k: Float64Array = new Float64Array(0);
  protected c: Float64Array = new Float64Array(0);
  protected d: Float64Array = new Float64Array(0);
  protected hasDamping = false;

  /** Fills k, c, d (already sized to the state's dofs) from the Data. */
  protected abstract fill(): void;

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return [this.mstate.require()];
  }

  override init(): void {
    const s = this.mstate.require();
    if (!this.template) this.template = s.stateType.name;
    if (s.stateType.coordSize !== s.stateType.derivSize)
      throw this.error(`needs a state of scalar dofs (Vec templates), got ${s.stateType.name}`);
    this.reinit();
  }

  /** Recomputes the diagonals from the Data (also when the state was resized). */
  reinit(): void {
    const s = this.mstate.require();
    const n = s.size * s.stateType.derivSize;
    if (this.k.length !== n) {
      this.k = new Float64Array(n);
      this.c = new Float64Array(n);
      this.d = new Float64Array(n);
    }
    this.fill();
    this.hasDamping = this.d.some((v) => v !== 0);
  }

  private checkSize(len: number): void {
    if (len !== this.k.length) this.reinit();
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], _v?: readonly Float64Array[]): void {
    if (this.actsAsCompliance) return;
    const fo = f[0],
      xo = x[0];
    this.checkSize(fo.length);
    const k = this.k;
    // f = K·x = −k_i·x_i
    for (let i = 0; i < k.length; i++) fo[i] -= k[i] * xo[i];
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const o = df[0],
      v = dx[0];
    this.checkSize(o.length);
    const k = this.k,
      d = this.d;
    // df += kFactor·K·dx + bFactor·B·dx
    if (!this.actsAsCompliance && kFactor !== 0) for (let i = 0; i < k.length; i++) o[i] -= kFactor * k[i] * v[i];
    if (this.hasDamping && bFactor !== 0) for (let i = 0; i < d.length; i++) o[i] -= bFactor * d[i] * v[i];
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    if (this.actsAsCompliance) return;
    const k = this.k;
    for (let i = 0; i < k.length; i++) acc.add(i, i, -kFactor * k[i]);
  }

  override addBToMatrix(acc: MatrixAccumulator, bFactor: number): void {
    if (!this.hasDamping) return;
    const d = this.d;
    for (let i = 0; i < d.length; i++) acc.add(i, i, -bFactor * d[i]);
  }

  addComplianceToMatrix(acc: MatrixAccumulator, cFactor: number): void {
    this.checkSize(this.mstate.require().size * this.mstate.require().stateType.derivSize);
    const c = this.c;
    for (let i = 0; i < c.length; i++) acc.add(i, i, cFactor * c[i]);
  }

  /** ½·Σ k_i·x_i² */
  override getPotentialEnergy(x: readonly Float64Array[]): number {
    const xo = x[0],
      k = this.k;
    let e = 0;
    for (let i = 0; i < k.length; i++) e += 0.5 * k[i] * xo[i] * xo[i];
    return e;
  }
}

/** Stiffness of a compliance c as SOFA clamps it: 1/max(c, ε) (ε the double precision epsilon). */
export function stiffnessOfCompliance(c: number): number {
  return 1 / Math.max(c, Number.EPSILON);
}

/** Compliance of a stiffness k: 1/k, or 1e100 (no constraint force) for k = 0, as SOFA does. */
export function complianceOfStiffness(k: number): number {
  return k !== 0 ? 1 / k : 1e100;
}
