import { expect } from 'chai';
import { create, all } from 'mathjs';
import {
  BaseMapping,
  BaseForceField,
  MechanicalSystem,
  createScene,
  addObject,
  sofaComponent,
  componentModule,
  Simulation,
  type BaseMechanicalState,
  type MatrixAccumulator,
  type SparseMatrixLike,
  mechanics,
} from 'sofa-ts';
import { csrFromTriplets, csrToDense, type CsrMatrix } from '@sofa-ts/linalg';

const math = create(all);

/** Deterministic pseudo-random numbers for reproducible fixtures. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
}

/**
 * A test mapping x_out = A·x_in with a fixed dense A (a linear multi-mapping when given several
 * inputs: x_out = Σ A_i·x_in_i). It exercises the engine's Jacobian chain without depending on any
 * mapping component.
 */
@sofaComponent({ name: 'LinearTestMapping', category: 'Mapping', description: 'test mapping x_out = Σ A_i x_in_i' })
class LinearTestMapping extends BaseMapping {
  inputs: BaseMechanicalState[] = [];
  out!: BaseMechanicalState;
  A: number[][][] = [];
  J: CsrMatrix[] = [];
  getFrom() {
    return this.inputs;
  }
  getTo() {
    return this.out;
  }
  setup(inputs: BaseMechanicalState[], out: BaseMechanicalState, seed: number): void {
    this.inputs = inputs;
    this.out = out;
    const r = rng(seed);
    const m = out.size * 3;
    this.A = inputs.map((s) => Array.from({ length: m }, () => Array.from({ length: s.size * 3 }, () => (r() > 0.3 ? r() : 0))));
    this.J = this.A.map((a) => {
      const rows: number[] = [],
        cols: number[] = [],
        vals: number[] = [];
      a.forEach((row, i) =>
        row.forEach((v, j) => {
          if (v !== 0) {
            rows.push(i);
            cols.push(j);
            vals.push(v);
          }
        }),
      );
      return csrFromTriplets(a.length, a[0].length, rows, cols, vals);
    });
  }
  apply(): void {
    const o = this.out.x;
    o.fill(0);
    this.inputs.forEach((s, k) => this.A[k].forEach((row, i) => row.forEach((v, j) => (o[i] += v * s.x[j]))));
  }
  applyJ(out: Float64Array, ins: readonly Float64Array[]): void {
    out.fill(0);
    ins.forEach((x, k) => this.A[k].forEach((row, i) => row.forEach((v, j) => (out[i] += v * x[j]))));
  }
  applyJT(ins: readonly Float64Array[], out: Float64Array): void {
    ins.forEach((x, k) => this.A[k].forEach((row, i) => row.forEach((v, j) => (x[j] += v * out[i]))));
  }
  getJ(i: number): SparseMatrixLike {
    return this.J[i];
  }
  get isLinear() {
    return true;
  }
}

/** A test force field f = K·(x − x0) with a fixed symmetric K on one or two states (linear). */
@sofaComponent({ name: 'LinearTestForceField', category: 'ForceField', description: 'test force field f = K (x - x0)' })
class LinearTestForceField extends BaseForceField {
  states: BaseMechanicalState[] = [];
  K: number[][] = [];
  getMechanicalStates() {
    return this.states;
  }
  setup(states: BaseMechanicalState[], seed: number): void {
    this.states = states;
    const n = states.reduce((a, s) => a + 3 * s.size, 0);
    const r = rng(seed);
    const B = Array.from({ length: n }, () => Array.from({ length: n }, () => r()));
    // K = −Bᵀ·B: symmetric negative semi-definite, like an elastic stiffness.
    this.K = B.map((_, i) => B.map((_, j) => -B.reduce((a, row) => a + row[i] * row[j], 0)));
  }
  private cat(arrs: readonly Float64Array[]): number[] {
    return arrs.flatMap((a) => Array.from(a));
  }
  addForce(f: readonly Float64Array[], x: readonly Float64Array[]): void {
    const x0 = this.cat(this.states.map((s) => s.x0));
    const xv = this.cat(x).map((v, i) => v - x0[i]);
    this.addProduct(f, xv, 1);
  }
  private addProduct(out: readonly Float64Array[], v: number[], k: number): void {
    let off = 0;
    for (const o of out) {
      for (let i = 0; i < o.length; i++) o[i] += k * this.K[off + i].reduce((a, kij, j) => a + kij * v[j], 0);
      off += o.length;
    }
  }
  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number): void {
    this.addProduct(df, this.cat(dx), kFactor);
  }
  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    this.K.forEach((row, i) => row.forEach((v, j) => acc.add(i, j, kFactor * v)));
  }
}

function dense(A: CsrMatrix): number[][] {
  return csrToDense(A);
}

describe('assembly engine: mapped states (Compliant block assembly)', () => {
  /**
   * Masters a (3 points) and d (2 points); b = A_ba·a (2 points) carries a mass; c = A_cb·b (1 point)
   * carries a force field; e = A_ea·a + A_ed·d (2 points, a multi-mapping) carries a force field
   * coupling it with d. The assembled A must equal the explicit sums of products
   *   m·(M_a + J_baᵀ M_b J_ba + M_d) + k·(J_caᵀ K_c J_ca + [J_ea; J_dd]ᵀ K_ed [J_ea; J_dd])
   * with J_ca = A_cb·A_ba, computed densely with mathjs.
   */
  async function build() {
    const scene = createScene({ gravity: '0 0 0' });
    scene.registry.load('assembly-test', componentModule('assembly-test', [LinearTestMapping, LinearTestForceField]));
    addObject(scene, scene.root, 'DefaultAnimationLoop');
    const r = rng(7);
    const pts = (n: number) => Array.from({ length: 3 * n }, () => r().toFixed(3)).join(' ');
    const na = scene.root.createChild('a');
    const a = addObject(scene, na, 'MechanicalObject', { position: pts(3) }) as mechanics.MechanicalObject;
    addObject(scene, na, 'UniformMass', { vertexMass: '2' });
    const nd = scene.root.createChild('d');
    const d = addObject(scene, nd, 'MechanicalObject', { position: pts(2) }) as mechanics.MechanicalObject;
    addObject(scene, nd, 'UniformMass', { vertexMass: '3' });
    const nb = na.createChild('b');
    const b = addObject(scene, nb, 'MechanicalObject', { position: pts(2) }) as mechanics.MechanicalObject;
    const mapB = addObject(scene, nb, 'LinearTestMapping') as LinearTestMapping;
    addObject(scene, nb, 'UniformMass', { vertexMass: '0.5' });
    const nc = nb.createChild('c');
    const c = addObject(scene, nc, 'MechanicalObject', { position: pts(1) }) as mechanics.MechanicalObject;
    const mapC = addObject(scene, nc, 'LinearTestMapping') as LinearTestMapping;
    const ffC = addObject(scene, nc, 'LinearTestForceField') as LinearTestForceField;
    const ne = nd.createChild('e');
    const e = addObject(scene, ne, 'MechanicalObject', { position: pts(2) }) as mechanics.MechanicalObject;
    const mapE = addObject(scene, ne, 'LinearTestMapping') as LinearTestMapping;
    const ffE = addObject(scene, ne, 'LinearTestForceField') as LinearTestForceField;
    new Simulation(scene.root).init();
    mapB.setup([a], b, 1);
    mapC.setup([b], c, 2);
    mapE.setup([a, d], e, 3);
    ffC.setup([c], 4);
    ffE.setup([e, d], 5);
    const sys = MechanicalSystem.compile(scene.root);
    return { sys, a, b, c, d, e, mapB, mapC, mapE, ffC, ffE };
  }

  it('orders masters and mapped states and places masters in the global vectors', async () => {
    const { sys, a, d } = await build();
    expect(sys.masters.map((m) => m.state)).to.deep.equal([a, d]);
    expect(sys.masters.map((m) => m.offset)).to.deep.equal([0, 9]);
    expect(sys.mappedStates.map((m) => m.state.getName())).to.have.length(3);
    expect(sys.size).to.equal(15);
  });

  it('assembles A = Σ J_g0ᵀ H_g J_g0 exactly as the dense sums of products', async () => {
    const { sys, mapB, mapC, mapE, ffC, ffE } = await build();
    const m = 1.5,
      k = -0.25;
    const A = dense(sys.assembleMBK({ m, b: 0, k }));
    const Aba = mapB.A[0],
      Acb = mapC.A[0],
      Aea = mapE.A[0],
      Aed = mapE.A[1];
    const I = (n: number) => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
    const Z = (r: number, c: number) => Array.from({ length: r }, () => new Array<number>(c).fill(0));
    const cat = (l: number[][], rgt: number[][]) => l.map((row, i) => [...row, ...rgt[i]]);
    // Shift of the masters: a = [I9 0], d = [0 I6]
    const Ja = cat(I(9), Z(9, 6));
    const Jd = cat(Z(6, 9), I(6));
    const Jb = math.multiply(Aba, Ja) as number[][];
    const Jc = math.multiply(Acb, Jb) as number[][];
    const Je = math.add(math.multiply(Aea, Ja), math.multiply(Aed, Jd)) as number[][];
    const Mx = (n: number, v: number) => math.multiply(v, I(n)) as number[][];
    const JtHJ = (J: number[][], H: number[][]) => math.multiply(math.multiply(math.transpose(J), H), J) as number[][];
    let expected = math.multiply(m, math.add(math.add(JtHJ(Ja, Mx(9, 2)), JtHJ(Jd, Mx(6, 3))), JtHJ(Jb, Mx(6, 0.5)))) as number[][];
    expected = math.add(expected, math.multiply(k, JtHJ(Jc, ffC.K))) as number[][];
    expected = math.add(expected, math.multiply(k, JtHJ([...Je, ...Jd], ffE.K))) as number[][];
    for (let i = 0; i < 15; i++)
      for (let j = 0; j < 15; j++) expect(A[i][j]).to.be.closeTo(expected[i][j], 1e-9 * (1 + Math.abs(expected[i][j])));
    // Refill with other factors reuses the pattern.
    const version = sys.matrixPatternVersion;
    const A2 = dense(sys.assembleMBK({ m: 1, b: 0, k: 0 }));
    expect(sys.matrixPatternVersion).to.equal(version);
    const M = math.add(math.add(JtHJ(Ja, Mx(9, 2)), JtHJ(Jd, Mx(6, 3))), JtHJ(Jb, Mx(6, 0.5))) as number[][];
    for (let i = 0; i < 15; i++) for (let j = 0; j < 15; j++) expect(A2[i][j]).to.be.closeTo(M[i][j], 1e-12);
  });

  it('gives the same operator matrix-free (propagate down, local products, accumulate up)', async () => {
    const { sys } = await build();
    const f = { m: 0.7, b: 0, k: -0.3 };
    const A = sys.assembleMBK(f);
    const r = rng(11);
    const vec = Float64Array.from({ length: 15 }, () => r());
    const out = new Float64Array(15);
    sys.applyMBK(out, f, vec);
    const ref = dense(A).map((row) => row.reduce((a, v, j) => a + v * vec[j], 0));
    for (let i = 0; i < 15; i++) expect(out[i]).to.be.closeTo(ref[i], 1e-10);
  });

  it('maps forces up: f_master = Σ J_c0ᵀ f_c', async () => {
    const { sys, c, e, mapB, mapC, mapE, ffC, ffE } = await build();
    sys.propagatePositionsAndVelocities();
    // Move the masters away from rest so the force fields pull.
    for (let i = 0; i < sys.x.length; i++) sys.x[i] += 0.01 * (i + 1);
    sys.propagatePositionsAndVelocities();
    sys.computeForce();
    const fc = Array.from(c.f),
      fe = Array.from(e.f);
    expect(fc.some((v) => v !== 0)).to.equal(true);
    // Expected: a gets A_baᵀ A_cbᵀ f_c + A_eaᵀ f_e, d gets A_edᵀ f_e + its own share of ffE.
    const tr = (M: number[][], v: number[]) => math.multiply(math.transpose(M), v) as number[];
    const fa = math.add(tr(mapB.A[0], tr(mapC.A[0], fc)), tr(mapE.A[0], fe)) as number[];
    for (let i = 0; i < 9; i++) expect(sys.f[i]).to.be.closeTo(fa[i], 1e-10);
    void ffC;
    void ffE;
  });
});
