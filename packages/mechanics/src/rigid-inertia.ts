import { RealArray, type DataType, type MatrixAccumulator } from '@sofa-ts/core';
import { mat3Invert } from '@sofa-ts/linalg';

const numbers = RealArray(0);

/**
 * A mass value as SOFA's RigidMass reads it: "m volume J", the 3x3 matrix J written plain
 * ("1 0 0 0 1 0 0 0 1") or bracketed with its rows separated by commas ("[1 0 0,0 1 0,0 0 1]");
 * a Vec template's mass is one number. A list of such values (DiagonalMass) reads the same way.
 */
export const MassText: DataType<Float64Array> = {
  ...numbers,
  name: 'MassType',
  parse: (t) => numbers.parse(t.replace(/[[\]]/g, ' ')),
};

/**
 * The mass of a rigid frame as SOFA's RigidMass holds it: mass m, volume, and the inertia per unit
 * mass J (3x3 for Rigid3, a scalar for Rigid2). The frame's mass matrix on its derivative
 * (v, ω) is diag(m·I, m·J), applied in world axes as SOFA does.
 * vertexMass text: "m", "m volume" or "m volume J" (J: 9 values for Rigid3, 1 for Rigid2).
 */
export class RigidInertia {
  /** m·J row-major (dim 3: 9 values; dim 2: 1 value). */
  readonly inertiaMass: Float64Array;
  /** (m·J)⁻¹, same layout. */
  readonly invInertiaMass: Float64Array;

  private constructor(
    readonly dim: 2 | 3,
    readonly mass: number,
    readonly volume: number,
    readonly unitInertia: Float64Array,
  ) {
    const n = unitInertia.length;
    this.inertiaMass = unitInertia.map((x) => x * mass);
    this.invInertiaMass = new Float64Array(n);
    if (n === 1) this.invInertiaMass[0] = this.inertiaMass[0] !== 0 ? 1 / this.inertiaMass[0] : 0;
    else if (mat3Invert(this.invInertiaMass, this.inertiaMass) === 0) this.invInertiaMass.fill(0);
  }

  /** From a vertexMass value (its mass replaced by `mass`, as SOFA does when totalMass is given). */
  static fromVertexMass(dim: 2 | 3, given: Float64Array, mass: number): RigidInertia {
    const nJ = dim === 3 ? 9 : 1;
    if (given.length !== 1 && given.length !== 2 && given.length !== 2 + nJ) {
      throw new Error(
        `vertexMass of a Rigid${dim}d state is "mass", "mass volume" or "mass volume inertia" (${nJ} inertia values); got ${given.length} values`,
      );
    }
    const volume = given.length >= 2 ? given[1] : 1;
    const J =
      given.length === 2 + nJ
        ? Float64Array.from(given.subarray(2))
        : dim === 3
          ? Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1)
          : Float64Array.of(1);
    return new RigidInertia(dim, mass, volume, J);
  }

  /** From its parts: mass m, volume, inertia per unit mass J (9 values for Rigid3, 1 for Rigid2). */
  static of(dim: 2 | 3, mass: number, volume: number, unitInertia: Float64Array): RigidInertia {
    return new RigidInertia(dim, mass, volume, Float64Array.from(unitInertia));
  }

  /** The vertexMass value SOFA prints: mass volume J. */
  toVertexMass(): Float64Array {
    return Float64Array.of(this.mass, this.volume, ...this.unitInertia);
  }

  private get d(): number {
    return this.dim === 3 ? 6 : 3;
  }

  /** out_p += factor·M_p·dx_p for frame p. */
  addMDx(out: Float64Array, dx: Float64Array, p: number, factor: number): void {
    const d = this.d,
      o = p * d,
      t = this.dim,
      m = this.mass * factor;
    for (let k = 0; k < t; k++) out[o + k] += m * dx[o + k];
    if (this.dim === 2) {
      out[o + 2] += factor * this.inertiaMass[0] * dx[o + 2];
      return;
    }
    const I = this.inertiaMass;
    for (let i = 0; i < 3; i++) {
      out[o + 3 + i] += factor * (I[3 * i] * dx[o + 3] + I[3 * i + 1] * dx[o + 4] + I[3 * i + 2] * dx[o + 5]);
    }
  }

  /** Emits factor·M_p: the translation diagonal, then the rotational block (every entry, fixed order). */
  addMToMatrix(acc: MatrixAccumulator, p: number, factor: number): void {
    const d = this.d,
      o = p * d,
      t = this.dim;
    for (let k = 0; k < t; k++) acc.add(o + k, o + k, factor * this.mass);
    if (this.dim === 2) {
      acc.add(o + 2, o + 2, factor * this.inertiaMass[0]);
      return;
    }
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) acc.add(o + 3 + i, o + 3 + j, factor * this.inertiaMass[3 * i + j]);
  }

  /** a_p = M_p⁻¹·f_p. */
  accFromF(a: Float64Array, f: Float64Array, p: number): void {
    const d = this.d,
      o = p * d,
      t = this.dim;
    const inv = this.mass !== 0 ? 1 / this.mass : 0;
    for (let k = 0; k < t; k++) a[o + k] = f[o + k] * inv;
    if (this.dim === 2) {
      a[o + 2] = this.invInertiaMass[0] * f[o + 2];
      return;
    }
    const J = this.invInertiaMass;
    const f3 = f[o + 3],
      f4 = f[o + 4],
      f5 = f[o + 5];
    for (let i = 0; i < 3; i++) a[o + 3 + i] = J[3 * i] * f3 + J[3 * i + 1] * f4 + J[3 * i + 2] * f5;
  }

  /** ½·(m·|v|² + ωᵀ·(m·J)·ω) for frame p. */
  kineticEnergy(v: Float64Array, p: number): number {
    const d = this.d,
      o = p * d;
    let e = 0;
    for (let k = 0; k < this.dim; k++) e += this.mass * v[o + k] * v[o + k];
    if (this.dim === 2) e += this.inertiaMass[0] * v[o + 2] * v[o + 2];
    else {
      const I = this.inertiaMass;
      for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) e += v[o + 3 + i] * I[3 * i + j] * v[o + 3 + j];
    }
    return 0.5 * e;
  }
}
