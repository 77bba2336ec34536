import type { BaseObject } from '@sofa-ts/core';

/**
 * The strain polynomials of SOFA's PolynomialSpringsForceField and
 * PolynomialRestShapeSpringsForceField: spring i uses polynomial p_i(s) = Σ_{k=1..d_i} c_{i,k}·s^k,
 * whose coefficients are consecutive in `polynomialStiffness`, d_i given by `polynomialDegree`.
 * When there is not one degree per spring, every spring uses the first polynomial (SOFA's rule,
 * with a warning).
 */
export class StrainPolynomials {
  /** First coefficient and degree of each polynomial. */
  private start = new Uint32Array(0);
  private degree = new Uint32Array(0);
  private coefs = new Float64Array(0);
  private perSpring = false;

  /** Reads the Data; `springs` is the number of springs. */
  set(owner: BaseObject, stiffness: Float64Array, degrees: Uint32Array, springs: number): void {
    const deg = degrees.length > 0 ? degrees : Uint32Array.of(1);
    const coefs = stiffness.length > 0 ? stiffness : Float64Array.of(100);
    this.degree = Uint32Array.from(deg);
    this.start = new Uint32Array(deg.length);
    let k = 0;
    deg.forEach((d, i) => {
      this.start[i] = k;
      k += d;
    });
    if (k > coefs.length)
      throw owner.error(`'polynomialStiffness' has ${coefs.length} coefficients, the degrees ${Array.from(deg).join(' ')} need ${k}`);
    this.coefs = Float64Array.from(coefs);
    this.perSpring = deg.length === springs;
    if (!this.perSpring && springs > 0 && deg.length > 1)
      owner.warn(`${deg.length} polynomial degrees for ${springs} springs: the first polynomial is used for every spring`);
  }

  /** p_i(s) and p_i′(s), as [value, derivative] into out. */
  eval(i: number, s: number, out: Float64Array): void {
    const p = this.perSpring ? i : 0,
      c0 = this.start[p],
      d = this.degree[p];
    let v = 0,
      dv = 0,
      sk = 1;
    for (let k = 1; k <= d; k++) {
      dv += k * this.coefs[c0 + k - 1] * sk;
      sk *= s;
      v += this.coefs[c0 + k - 1] * sk;
    }
    out[0] = v;
    out[1] = dv;
  }
}
