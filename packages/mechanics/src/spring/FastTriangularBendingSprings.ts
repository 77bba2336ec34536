import {
  contextMeshTopology,
  isTopology,
  Real,
  sofaComponent,
  type BaseMeshTopology,
  type MatrixAccumulator,
  SingleStateForceField,
} from '@sofa-ts/core';

/**
 * SOFA's FastTriangularBendingSprings (Volino and Magnenat-Thalmann, "Simple linear bending
 * stiffness in particle systems", 2006): one linear bending element per edge (C, D) shared by
 * exactly two triangles, with A and B the vertices opposite the edge in the two triangles (A in
 * the triangle of lower index). With the rest positions, N_X the area vectors
 *   N_A = (A − C)×(A − D),  N_B = (B − D)×(B − C),  N_C = (C − B)×(C − A),  N_D = (D − A)×(D − B),
 * the weights α = (|N_B|, |N_A|)/(|N_A| + |N_B|) for A, B and −(|N_D|, |N_C|)/(|N_C| + |N_D|) for
 * C, D, and the stiffness λ = (2/3)·(h_A + h_B)/(h_A²·h_B²)·|C − D|·bendingStiffness (h_X the
 * distance from X to the line CD), the bending vector and the forces are
 *   R = Σ_X α_X·x_X,   f_X = −λ·α_X·R,   E = ½·λ·|R|²,   K = −λ·α·αᵀ ⊗ I   (exact, constant).
 * R vanishes for a flat pair of triangles: the rest shape is flat (SOFA's law; a curved rest
 * shape is pulled flat). Elements whose rest |B − A| or |D − C| is below minDistValidity are left
 * out. Elements are kept in the order of the topology's edges.
 */
@sofaComponent({
  name: 'FastTriangularBendingSprings',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.Spring',
  description: 'Linear bending elements between adjacent triangles (Volino and Magnenat-Thalmann, 2006).',
  templates: ['Vec3d'],
})
export class FastTriangularBendingSprings extends SingleStateForceField {
  readonly bendingStiffness = this.initData({
    name: 'bendingStiffness',
    type: Real,
    default: 1,
    help: 'bending stiffness of the material',
  });
  readonly minDistValidity = this.initData({
    name: 'minDistValidity',
    type: Real,
    default: 1e-6,
    unit: 'm',
    help: 'distance under which a spring is not valid',
  });

  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'the triangle topology (default: the one of this node or an ancestor)',
    accepts: isTopology,
    expected: 'a topology',
  });

  /** Per element: vertices A, B, C, D, (m × 4); weights α, (m × 4); stiffness λ, (m). */
  private vid = new Uint32Array(0);
  private alpha = new Float64Array(0);
  private lambda = new Float64Array(0);
  private topoRevision = -1;
  private energy = 0;

  get elementCount(): number {
    return this.lambda.length;
  }

  /** Vertices (A, B, C, D), weights and stiffness of element i. */
  element(i: number): { vid: number[]; alpha: number[]; lambda: number } {
    return {
      vid: Array.from(this.vid.subarray(4 * i, 4 * i + 4)),
      alpha: Array.from(this.alpha.subarray(4 * i, 4 * i + 4)),
      lambda: this.lambda[i],
    };
  }

  override init(): void {
    super.init();
    const s = this.states[0];
    if (!this.template) this.template = s.stateType.name;
    if (s.stateType.name !== 'Vec3d')
      throw this.error(`FastTriangularBendingSprings needs a Vec3d state, ${s.describe()} is ${s.stateType.name}`);
    const topo = this.topology.get() ?? contextMeshTopology(this.context);
    if (!topo)
      throw this.error('no topology: FastTriangularBendingSprings needs a triangle topology in its node (or set topology="@path")');
    this.topology.set(topo);
    if (topo.getTriangles().length === 0) this.warn(`the topology ${topo.describe()} has no triangles: no bending element`);
    this.build();
  }

  /** The elements from the topology and the rest positions (SOFA's applyTriangleCreation on every triangle). */
  private build(): void {
    const topo = this.topology.require();
    const s = this.states[0];
    this.topoRevision = topo.revision;
    const n = s.size,
      x0 = s.x0;
    const edges = topo.getEdges(),
      tris = topo.getTriangles();
    const nE = edges.length / 2;
    const edgeOf = new Map<number, number>();
    for (let e = 0; e < nE; e++) {
      const p = edges[2 * e],
        q = edges[2 * e + 1];
      edgeOf.set(p < q ? p * n + q : q * n + p, e);
    }
    // Per edge: number of triangles around it and the vertex opposite it in the first two.
    const count = new Uint32Array(nE),
      first = new Int32Array(nE).fill(-1),
      second = new Int32Array(nE).fill(-1);
    for (let t = 0; t + 3 <= tris.length; t += 3) {
      for (let j = 0; j < 3; j++) {
        const p = tris[t + ((j + 1) % 3)],
          q = tris[t + ((j + 2) % 3)];
        if (p >= n || q >= n || tris[t + j] >= n)
          throw this.error(`triangle ${t / 3} names a point beyond the ${n} points of ${s.describe()}`);
        const e = edgeOf.get(p < q ? p * n + q : q * n + p);
        if (e === undefined) throw this.error(`edge (${p}, ${q}) of triangle ${t / 3} is not an edge of ${topo.describe()}`);
        if (count[e] === 0) first[e] = tris[t + j];
        else if (count[e] === 1) second[e] = tris[t + j];
        count[e]++;
      }
    }
    const eps2 = this.minDistValidity.value ** 2;
    const d2 = (a: number, b: number): number =>
      (x0[3 * a] - x0[3 * b]) ** 2 + (x0[3 * a + 1] - x0[3 * b + 1]) ** 2 + (x0[3 * a + 2] - x0[3 * b + 2]) ** 2;
    const keep: number[] = [];
    for (let e = 0; e < nE; e++) {
      if (count[e] !== 2) continue;
      const A = first[e],
        B = second[e],
        C = edges[2 * e],
        D = edges[2 * e + 1];
      if (d2(B, A) > eps2 && d2(D, C) > eps2) keep.push(A, B, C, D);
    }
    const m = keep.length / 4;
    this.vid = Uint32Array.from(keep);
    this.alpha = new Float64Array(4 * m);
    this.lambda = new Float64Array(m);
    const k = this.bendingStiffness.value;
    for (let i = 0; i < m; i++) this.setElement(i, x0, k);
  }

  /** α and λ of element i from the rest positions p (SOFA's setEdgeSpring). */
  private setElement(i: number, p: Float64Array, k: number): void {
    const [A, B, C, D] = [this.vid[4 * i], this.vid[4 * i + 1], this.vid[4 * i + 2], this.vid[4 * i + 3]];
    const sub = (a: number, b: number): number[] => [p[3 * a] - p[3 * b], p[3 * a + 1] - p[3 * b + 1], p[3 * a + 2] - p[3 * b + 2]];
    const crossNorm = (u: number[], v: number[]): number =>
      Math.hypot(u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]);
    const nA = crossNorm(sub(A, C), sub(A, D));
    const nB = crossNorm(sub(B, D), sub(B, C));
    const nC = crossNorm(sub(C, B), sub(C, A));
    const nD = crossNorm(sub(D, A), sub(D, B));
    this.alpha[4 * i] = nB / (nA + nB);
    this.alpha[4 * i + 1] = nA / (nA + nB);
    this.alpha[4 * i + 2] = -nD / (nC + nD);
    this.alpha[4 * i + 3] = -nC / (nC + nD);
    // h_A, h_B: distances of A and B to the line CD
    const cd = sub(C, D),
      l = Math.hypot(...cd);
    const dir = cd.map((v) => v / l);
    const dist = (X: number): number => {
      const u = sub(C, X);
      const t = u[0] * dir[0] + u[1] * dir[1] + u[2] * dir[2];
      return Math.hypot(u[0] - t * dir[0], u[1] - t * dir[1], u[2] - t * dir[2]);
    };
    const ha = dist(A),
      hb = dist(B);
    this.lambda[i] = (2 / 3) * ((ha + hb) / (ha * ha * hb * hb)) * l * k;
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], _v: readonly Float64Array[]): void {
    if (this.topology.require().revision !== this.topoRevision) this.build();
    const out = f[0],
      xs = x[0],
      V = this.vid,
      al = this.alpha;
    let energy = 0;
    for (let i = 0; i < this.lambda.length; i++) {
      // R = Σ α_X x_X;  f_X −= λ α_X R
      let r0 = 0,
        r1 = 0,
        r2 = 0;
      for (let j = 0; j < 4; j++) {
        const o = 3 * V[4 * i + j],
          a = al[4 * i + j];
        r0 += a * xs[o];
        r1 += a * xs[o + 1];
        r2 += a * xs[o + 2];
      }
      const lam = this.lambda[i];
      for (let j = 0; j < 4; j++) {
        const o = 3 * V[4 * i + j],
          s = lam * al[4 * i + j];
        out[o] -= s * r0;
        out[o + 1] -= s * r1;
        out[o + 2] -= s * r2;
      }
      energy += 0.5 * lam * (r0 * r0 + r1 * r1 + r2 * r2);
    }
    this.energy = energy;
  }

  /** df_X −= k·λ·α_X·Σ_Y α_Y·dx_Y. */
  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const out = df[0],
      d = dx[0],
      V = this.vid,
      al = this.alpha,
      k = this.kFactorWithRayleigh(kFactor, bFactor);
    for (let i = 0; i < this.lambda.length; i++) {
      let r0 = 0,
        r1 = 0,
        r2 = 0;
      for (let j = 0; j < 4; j++) {
        const o = 3 * V[4 * i + j],
          a = al[4 * i + j];
        r0 += a * d[o];
        r1 += a * d[o + 1];
        r2 += a * d[o + 2];
      }
      const lam = k * this.lambda[i];
      for (let j = 0; j < 4; j++) {
        const o = 3 * V[4 * i + j],
          s = lam * al[4 * i + j];
        out[o] -= s * r0;
        out[o + 1] -= s * r1;
        out[o + 2] -= s * r2;
      }
    }
  }

  /** The 4×4 grid of diagonal 3×3 blocks −λ·α_j·α_k·I of every element. */
  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    const V = this.vid,
      al = this.alpha;
    for (let i = 0; i < this.lambda.length; i++) {
      const lam = -kFactor * this.lambda[i];
      for (let j = 0; j < 4; j++) {
        for (let k = 0; k < 4; k++) {
          const v = lam * al[4 * i + j] * al[4 * i + k];
          const r = 3 * V[4 * i + j],
            c = 3 * V[4 * i + k];
          for (let q = 0; q < 3; q++) acc.add(r + q, c + q, v);
        }
      }
    }
  }

  /** ½·Σ λ·|R|² at x. */
  override getPotentialEnergy(x: readonly Float64Array[]): number {
    const xs = x[0],
      V = this.vid,
      al = this.alpha;
    let e = 0;
    for (let i = 0; i < this.lambda.length; i++) {
      let r0 = 0,
        r1 = 0,
        r2 = 0;
      for (let j = 0; j < 4; j++) {
        const o = 3 * V[4 * i + j],
          a = al[4 * i + j];
        r0 += a * xs[o];
        r1 += a * xs[o + 1];
        r2 += a * xs[o + 2];
      }
      e += 0.5 * this.lambda[i] * (r0 * r0 + r1 * r1 + r2 * r2);
    }
    return e;
  }

  /** The energy computed by the last addForce. */
  get lastEnergy(): number {
    return this.energy;
  }
}
