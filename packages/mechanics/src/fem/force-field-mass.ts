import { BaseMass, type BaseForceField, type BaseMechanicalState, type MatrixAccumulator } from '@sofa-ts/core';
import { emitElementMatrix, matVec } from './element-matrix.js';

/**
 * The mass half of SOFA's "…ForceFieldAndMass" components (HexahedronFEMForceFieldAndMass,
 * HexahedralFEMForceFieldAndMass), which are a force field and a mass in one object. Here the force
 * field stays a force field and adds this companion mass to its node at init (named after it with
 * `_mass`), so that every solver, visitor and energy report sees an ordinary mass. The force field
 * fills the arrays:
 *   M = Σ_e M_e, M_e the (3n × 3n) element matrices of `elements` (n nodes each), or, when
 *   `lumped` is set, M = diag(lumped) (one value per dof);
 *   gravity f_i += m_i·g with the point masses `gravityMasses` (SOFA adds gravity with lumped
 *   particle masses even when M is consistent).
 */
export class ForceFieldMass extends BaseMass {
  /** Node indices of the elements (nElem × n). */
  elements = new Uint32Array(0);
  /** Element mass matrices, row-major (nElem × (3n)²), kg. */
  elementMatrices = new Float64Array(0);
  /** Diagonal (lumped) mass per dof (size × 3), kg; used instead of the element matrices when set. */
  lumped: Float64Array | undefined;
  /** Mass per point for gravity (size), kg. */
  gravityMasses = new Float64Array(0);
  private readonly blk = new Float64Array(9);
  private xe = new Float64Array(0);
  private fe = new Float64Array(0);

  constructor(
    private readonly owner: BaseForceField,
    private readonly state: BaseMechanicalState,
    readonly nodesPerElement: number,
  ) {
    super();
    this.name.value = `${owner.getName()}_mass`;
    this.template = state.stateType.name;
    this.xe = new Float64Array(3 * nodesPerElement);
    this.fe = new Float64Array(3 * nodesPerElement);
  }

  override init(): void {}

  getMechanicalState(): BaseMechanicalState {
    return this.state;
  }

  get isDiagonal(): boolean {
    return this.lumped !== undefined;
  }

  addMDx(out: Float64Array, dx: Float64Array, factor: number): void {
    if (this.lumped) {
      const m = this.lumped;
      for (let i = 0; i < m.length; i++) out[i] += factor * m[i] * dx[i];
      return;
    }
    const n = this.nodesPerElement,
      s = 3 * n,
      el = this.elements,
      M = this.elementMatrices,
      xe = this.xe,
      fe = this.fe;
    const count = el.length / n;
    for (let e = 0; e < count; e++) {
      for (let a = 0; a < n; a++) {
        const q = 3 * el[n * e + a];
        xe[3 * a] = dx[q];
        xe[3 * a + 1] = dx[q + 1];
        xe[3 * a + 2] = dx[q + 2];
      }
      matVec(fe, M, s * s * e, xe, s, factor);
      for (let a = 0; a < n; a++) {
        const q = 3 * el[n * e + a];
        out[q] += fe[3 * a];
        out[q + 1] += fe[3 * a + 1];
        out[q + 2] += fe[3 * a + 2];
      }
    }
  }

  addMToMatrix(acc: MatrixAccumulator, mFactor: number): void {
    if (this.lumped) {
      const m = this.lumped;
      for (let i = 0; i < m.length; i++) acc.add(i, i, mFactor * m[i]);
      return;
    }
    const n = this.nodesPerElement,
      s = 3 * n,
      count = this.elements.length / n;
    for (let e = 0; e < count; e++)
      emitElementMatrix(acc, this.elementMatrices.subarray(s * s * e, s * s * (e + 1)), this.elements, e, n, mFactor, this.blk);
  }

  addForce(f: Float64Array, _x: Float64Array, _v: Float64Array): void {
    const g = this.context.getGravity(),
      m = this.gravityMasses;
    for (let i = 0; i < m.length; i++) {
      f[3 * i] += g[0] * m[i];
      f[3 * i + 1] += g[1] * m[i];
      f[3 * i + 2] += g[2] * m[i];
    }
  }

  accFromF(a: Float64Array, f: Float64Array): void {
    if (!this.lumped)
      throw this.owner.error(
        'a = M⁻¹·f needs a lumped mass (set lumpedMass="true"), as in SOFA, where accFromF is not implemented for the consistent mass',
      );
    for (let i = 0; i < a.length; i++) a[i] = f[i] / this.lumped[i];
  }

  getKineticEnergy(v: Float64Array): number {
    const mv = new Float64Array(v.length);
    this.addMDx(mv, v, 1);
    let e = 0;
    for (let i = 0; i < v.length; i++) e += v[i] * mv[i];
    return e / 2;
  }

  getPotentialEnergy(x: Float64Array): number {
    const g = this.context.getGravity(),
      m = this.gravityMasses;
    let e = 0;
    for (let i = 0; i < m.length; i++) e -= m[i] * (g[0] * x[3 * i] + g[1] * x[3 * i + 1] + g[2] * x[3 * i + 2]);
    return e;
  }
}
