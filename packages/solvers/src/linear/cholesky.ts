import { SupernodalLDLT, type CsrMatrix } from '@sofa-ts/linalg';

/**
 * Sparse Cholesky A(p, p) = L̃·L̃ᵀ through the LDLᵀ factorization: L̃ = L·√D exists exactly when
 * every pivot D_k is positive, and L̃⁻ᵀL̃⁻¹ = L⁻ᵀD⁻¹L⁻¹, so the solve is the LDLᵀ one. Throws when
 * A is not positive definite, as a Cholesky factorization does. The LDLᵀ is the supernodal one.
 */
export class SparseCholesky {
  readonly ldlt = new SupernodalLDLT();

  analyze(A: CsrMatrix, perm: Int32Array): void {
    this.ldlt.analyze(A, perm);
  }

  factorize(A: CsrMatrix): void {
    this.ldlt.factorize(A);
    const D = this.ldlt.D;
    for (let k = 0; k < this.ldlt.n; k++) {
      if (!(D[k] > 0)) {
        this.ldlt.factorized = false;
        throw new Error(`the matrix is not positive definite (pivot ${D[k]} at elimination step ${k}, row ${this.ldlt.perm[k]})`);
      }
    }
  }

  solve(out: Float64Array, rhs: Float64Array): void {
    this.ldlt.solve(out, rhs);
  }
}
