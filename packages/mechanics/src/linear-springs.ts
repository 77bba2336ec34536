import type { MatrixAccumulator } from '@sofa-ts/core';

/**
 * A set of linear springs between points a (first state) and b (second state, possibly the same),
 * struct of arrays, with the law SOFA's spring force fields share. For u = p_b − p_a, d = |u|,
 * û = u/d:
 *   f = ks·(d − L) + kd·û·(v_b − v_a),   F_a += f·û,  F_b −= f·û
 *   ∂F_a/∂p_b = (ks − f/d)·û·ûᵀ + (f/d)·I  =: m,   K = [−m  m; m  −m]
 * Damping enters the force only, not the matrices (as in SOFA). A spring shorter than
 * `minLength`, disabled, or compressed while elongation-only exerts nothing.
 * Points are the first N scalars of each coordinate (stride `cs`) and derivative (stride `ds`):
 * both N for Vec states; for Rigid3 frames the centre (cs 7, ds 6), the rotation left alone.
 */
export class LinearSprings {
  a = new Uint32Array(0);
  b = new Uint32Array(0);
  ks = new Float64Array(0);
  kd = new Float64Array(0);
  rest = new Float64Array(0);
  elongOnly = new Uint8Array(0);
  active = new Uint8Array(0);
  /** m per spring at the last addForce: (n × N × N), row-major. */
  dfdx = new Float64Array(0);
  private readonly u = new Float64Array(6);

  /** Strides of a point's coordinates and derivatives (see setLayout); N by default. */
  cs: number;
  ds: number;

  /** N: spatial dimension of the points (1, 2 or 3); minLength: shortest spring that acts. */
  constructor(
    public N = 3,
    public minLength = 1e-9,
  ) {
    this.cs = N;
    this.ds = N;
  }

  /** N scalars per point, read from coordinates of cs scalars and derivatives of ds scalars. */
  setLayout(N: number, cs = N, ds = N): void {
    this.N = N;
    this.cs = cs;
    this.ds = ds;
  }

  get count(): number {
    return this.a.length;
  }

  /** n springs, all enabled and two-sided, parameters zero. */
  allocate(n: number): void {
    this.a = new Uint32Array(n);
    this.b = new Uint32Array(n);
    this.ks = new Float64Array(n);
    this.kd = new Float64Array(n);
    this.rest = new Float64Array(n);
    this.elongOnly = new Uint8Array(n);
    this.active = new Uint8Array(n).fill(1);
    this.dfdx = new Float64Array(n * this.N * this.N);
  }

  addForce(f1: Float64Array, f2: Float64Array, x1: Float64Array, x2: Float64Array, v1: Float64Array, v2: Float64Array): void {
    const N = this.N,
      NN = N * N,
      u = this.u,
      dfdx = this.dfdx,
      cs = this.cs,
      ds = this.ds;
    for (let s = 0; s < this.a.length; s++) {
      const xa = this.a[s] * cs,
        xb = this.b[s] * cs;
      const pa = this.a[s] * ds;
      const pb = this.b[s] * ds;
      let d2 = 0;
      for (let k = 0; k < N; k++) {
        u[k] = x2[xb + k] - x1[xa + k];
        d2 += u[k] * u[k];
      }
      const d = Math.sqrt(d2);
      const m0 = s * NN;
      if (!this.active[s] || !(d > this.minLength) || (this.elongOnly[s] && !(d > this.rest[s]))) {
        dfdx.fill(0, m0, m0 + NN);
        continue;
      }
      const inv = 1 / d;
      let elongVel = 0;
      for (let k = 0; k < N; k++) {
        u[k] *= inv;
        elongVel += u[k] * (v2[pb + k] - v1[pa + k]);
      }
      const fi = this.ks[s] * (d - this.rest[s]) + this.kd[s] * elongVel;
      for (let k = 0; k < N; k++) {
        f1[pa + k] += u[k] * fi;
        f2[pb + k] -= u[k] * fi;
      }
      const tgt = fi * inv;
      for (let j = 0; j < N; j++) {
        for (let k = 0; k < N; k++) dfdx[m0 + j * N + k] = (this.ks[s] - tgt) * u[j] * u[k];
        dfdx[m0 + j * N + j] += tgt;
      }
    }
  }

  /** df += k·K·dx with K at the last addForce: dF_a = k·m·(dx_b − dx_a), dF_b = −dF_a. */
  addDForce(df1: Float64Array, df2: Float64Array, dx1: Float64Array, dx2: Float64Array, k: number): void {
    const N = this.N,
      NN = N * N,
      dfdx = this.dfdx,
      ds = this.ds;
    for (let s = 0; s < this.a.length; s++) {
      const pa = this.a[s] * ds;
      const pb = this.b[s] * ds;
      const m0 = s * NN;
      for (let j = 0; j < N; j++) {
        let acc = 0;
        for (let c = 0; c < N; c++) acc += dfdx[m0 + j * N + c] * (dx2[pb + c] - dx1[pa + c]);
        df1[pa + j] += k * acc;
        df2[pb + j] -= k * acc;
      }
    }
  }

  /** Emits k·K; the second state's indices start at `offset2` (0 when both ends are on one state). */
  addKToMatrix(acc: MatrixAccumulator, k: number, offset2: number): void {
    const N = this.N,
      NN = N * N,
      ds = this.ds;
    for (let s = 0; s < this.a.length; s++) {
      const p1 = this.a[s] * ds;
      const p2 = offset2 + this.b[s] * ds;
      const m0 = s * NN;
      for (let i = 0; i < N; i++) {
        for (let j = 0; j < N; j++) {
          const v = k * this.dfdx[m0 + i * N + j];
          acc.add(p1 + i, p1 + j, -v);
          acc.add(p1 + i, p2 + j, v);
          acc.add(p2 + i, p1 + j, v);
          acc.add(p2 + i, p2 + j, -v);
        }
      }
    }
  }

  /** ½·Σ ks·(d − L)². */
  potentialEnergy(x1: Float64Array, x2: Float64Array): number {
    const N = this.N,
      cs = this.cs;
    let e = 0;
    for (let s = 0; s < this.a.length; s++) {
      let d2 = 0;
      for (let k = 0; k < N; k++) {
        const u = x2[this.b[s] * cs + k] - x1[this.a[s] * cs + k];
        d2 += u * u;
      }
      const el = Math.sqrt(d2) - this.rest[s];
      e += 0.5 * this.ks[s] * el * el;
    }
    return e;
  }
}
