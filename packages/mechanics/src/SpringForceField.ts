import {
  BaseForceField,
  Int,
  Real,
  RealArray,
  Indices,
  Str,
  isMechanicalState,
  sofaComponent,
  type BaseMechanicalState,
  type DataType,
  type MatrixAccumulator,
} from '@sofa-ts/core';

/** Springs as SOFA writes them: "i j ks kd restLength" per spring. */
const Springs: DataType<Float64Array> = RealArray(5, 'vector<LinearSpring>');

const BoolList: DataType<Uint8Array> = {
  name: 'vector<bool>',
  parse: (t) => Uint8Array.from(Indices.parse(t.replace(/\btrue\b/gi, '1').replace(/\bfalse\b/gi, '0')), (x) => (x ? 1 : 0)),
  print: (v) => Array.from(v, String).join(' '),
  clone: (v) => Uint8Array.from(v),
};

/**
 * SOFA's SpringForceField: linear springs between points of object1 and object2 (the same state
 * by default). For a spring (a, b) with u = p_b − p_a, d = |u|, û = u/d:
 *   f = ks·(d − L) + kd·û·(v_b − v_a),   F_a += f·û,  F_b −= f·û
 *   ∂F_a/∂p_b = (ks − f/d)·û·ûᵀ + (f/d)·I  =: m,   K = [−m  m; m  −m]
 * Damping enters the force only, not the matrices (as in SOFA). Springs shorter than 1e-9, disabled
 * springs and, with elongationOnly, compressed springs exert nothing.
 */
@sofaComponent({
  name: 'SpringForceField',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.Spring',
  description: 'Springs between pairs of points, with stiffness, damping and rest length.',
  templates: ['Vec3d', 'Vec2d', 'Vec1d'],
})
export class SpringForceField extends BaseForceField {
  readonly spring = this.initData({ name: 'spring', type: Springs, default: new Float64Array(0), help: 'pairs of indices, stiffness, damping, rest length' });
  readonly stiffness = this.initData({ name: 'stiffness', type: RealArray(0), default: Float64Array.of(100), unit: 'N/m', help: 'uniform stiffness for all the springs (or one per spring, with indices1/indices2)' });
  readonly damping = this.initData({ name: 'damping', type: RealArray(0), default: Float64Array.of(5), unit: 'N·s/m', help: 'uniform damping for all the springs (or one per spring)' });
  readonly indices1 = this.initData({ name: 'indices1', type: Indices, default: new Uint32Array(0), help: 'indices of the first points of the springs (in object1)' });
  readonly indices2 = this.initData({ name: 'indices2', type: Indices, default: new Uint32Array(0), help: 'indices of the second points of the springs (in object2)' });
  readonly lengths = this.initData({ name: 'lengths', type: RealArray(0), default: new Float64Array(0), help: 'rest lengths of the springs built from indices1/indices2 (one value applies to all; empty: 0)', aliases: ['length'] });
  readonly elongationOnly = this.initData({ name: 'elongationOnly', type: BoolList, default: Uint8Array.of(0), help: 'springs that only act when elongated (one value applies to all)' });
  readonly enabled = this.initData({ name: 'enabled', type: BoolList, default: Uint8Array.of(1), help: 'springs that are enabled (one value applies to all)' });
  readonly fileSprings = this.initData({ name: 'fileSprings', type: Str, default: '', help: 'file describing the springs (.xs3)', aliases: ['filename'] });
  readonly showArrowSize = this.initData({ name: 'showArrowSize', type: Real, default: 0.01, help: 'size of the axis', group: 'Visualization' });
  readonly drawMode = this.initData({ name: 'drawMode', type: Int, default: 0, help: 'the way springs will be drawn: 0 line, 1 cylinder, 2 arrow', group: 'Visualization' });

  readonly object1 = this.initLink({ name: 'object1', help: 'first object in interaction (default: the state of this node)', accepts: isMechanicalState, expected: 'a MechanicalObject', aliases: ['mstate1'] });
  readonly object2 = this.initLink({ name: 'object2', help: 'second object in interaction (default: object1)', accepts: isMechanicalState, expected: 'a MechanicalObject', aliases: ['mstate2'] });

  // Springs, struct of arrays: (nSprings)
  protected a = new Uint32Array(0);
  protected b = new Uint32Array(0);
  protected ks = new Float64Array(0);
  protected kd = new Float64Array(0);
  protected rest = new Float64Array(0);
  protected elongOnly = new Uint8Array(0);
  protected active = new Uint8Array(0);
  /** ∂F_a/∂p_b per spring, at the last addForce: (nSprings × N × N), row-major. */
  protected dfdx = new Float64Array(0);
  /** Spatial dimension N of the points (1, 2 or 3). */
  protected N = 3;
  private states: BaseMechanicalState[] = [];

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  override init(): void {
    const s1 = this.object1.get() ?? this.context.getObject(isMechanicalState);
    if (!s1) throw this.error('no mechanical state: set object1 or put a MechanicalObject in the node');
    const s2 = this.object2.get() ?? s1;
    this.object1.set(s1);
    this.object2.set(s2);
    this.states = s1 === s2 ? [s1] : [s1, s2];
    if (!this.template) this.template = s1.stateType.name;
    if (s1.stateType.isRigid || s2.stateType.isRigid) throw this.error('rigid templates are not supported by SpringForceField');
    this.N = s1.stateType.derivSize;
    if (this.fileSprings.value) throw this.error(`spring files are not supported yet (fileSprings='${this.fileSprings.value}')`);
    this.buildSprings();
    for (let i = 0; i < this.a.length; i++) {
      if (this.a[i]! >= s1.size) throw this.error(`spring ${i}: index ${this.a[i]} is out of range (${s1.describe()} has ${s1.size} points)`);
      if (this.b[i]! >= s2.size) throw this.error(`spring ${i}: index ${this.b[i]} is out of range (${s2.describe()} has ${s2.size} points)`);
    }
  }

  /** Springs from `spring`, else from indices1/indices2 with per-spring or uniform parameters. */
  protected buildSprings(): void {
    const sp = this.spring.value;
    if (sp.length > 0) {
      const n = sp.length / 5;
      this.allocate(n);
      for (let i = 0; i < n; i++) {
        this.a[i] = sp[5 * i]!;
        this.b[i] = sp[5 * i + 1]!;
        this.ks[i] = sp[5 * i + 2]!;
        this.kd[i] = sp[5 * i + 3]!;
        this.rest[i] = sp[5 * i + 4]!;
      }
      this.elongOnly.fill(0);
      this.active.fill(1);
      return;
    }
    const i1 = this.indices1.value;
    const i2 = this.indices2.value;
    if (i1.length !== i2.length) throw this.error(`indices1 (${i1.length}) and indices2 (${i2.length}) must have the same size`);
    const n = i1.length;
    this.allocate(n);
    const pick = <T extends ArrayLike<number>>(v: T, i: number, dflt: number): number => (v.length === 0 ? dflt : v[Math.min(i, v.length - 1)]!);
    for (let i = 0; i < n; i++) {
      this.a[i] = i1[i]!;
      this.b[i] = i2[i]!;
      this.ks[i] = pick(this.stiffness.value, i, 100);
      this.kd[i] = pick(this.damping.value, i, 5);
      this.rest[i] = pick(this.lengths.value, i, 0);
      this.elongOnly[i] = pick(this.elongationOnly.value, i, 0);
      this.active[i] = pick(this.enabled.value, i, 1);
    }
  }

  protected allocate(n: number): void {
    this.a = new Uint32Array(n);
    this.b = new Uint32Array(n);
    this.ks = new Float64Array(n);
    this.kd = new Float64Array(n);
    this.rest = new Float64Array(n);
    this.elongOnly = new Uint8Array(n);
    this.active = new Uint8Array(n);
    this.dfdx = new Float64Array(n * this.N * this.N);
  }

  get springCount(): number {
    return this.a.length;
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], v: readonly Float64Array[]): void {
    const f1 = f[0]!, f2 = f[f.length - 1]!, x1 = x[0]!, x2 = x[x.length - 1]!, v1 = v[0]!, v2 = v[v.length - 1]!;
    const N = this.N;
    const NN = N * N;
    const u = [0, 0, 0];
    for (let s = 0; s < this.a.length; s++) {
      const pa = this.a[s]! * N;
      const pb = this.b[s]! * N;
      let d2 = 0;
      for (let k = 0; k < N; k++) {
        u[k] = x2[pb + k]! - x1[pa + k]!;
        d2 += u[k]! * u[k]!;
      }
      const d = Math.sqrt(d2);
      const m0 = s * NN;
      if (!this.active[s] || !(d > 1e-9) || (this.elongOnly[s] && !(d > this.rest[s]!))) {
        this.dfdx.fill(0, m0, m0 + NN);
        continue;
      }
      const inv = 1 / d;
      let elongVel = 0;
      for (let k = 0; k < N; k++) {
        u[k]! *= inv;
        elongVel += u[k]! * (v2[pb + k]! - v1[pa + k]!);
      }
      // f = ks·(d − L) + kd·(û·Δv)
      const fi = this.ks[s]! * (d - this.rest[s]!) + this.kd[s]! * elongVel;
      for (let k = 0; k < N; k++) {
        f1[pa + k] += u[k]! * fi;
        f2[pb + k] -= u[k]! * fi;
      }
      // m = (ks − f/d)·û·ûᵀ + (f/d)·I
      const tgt = fi * inv;
      for (let j = 0; j < N; j++) {
        for (let k = 0; k < N; k++) this.dfdx[m0 + j * N + k] = (this.ks[s]! - tgt) * u[j]! * u[k]!;
        this.dfdx[m0 + j * N + j] += tgt;
      }
    }
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const df1 = df[0]!, df2 = df[df.length - 1]!, dx1 = dx[0]!, dx2 = dx[dx.length - 1]!;
    const k = this.kFactorWithRayleigh(kFactor, bFactor);
    const N = this.N;
    const NN = N * N;
    for (let s = 0; s < this.a.length; s++) {
      const pa = this.a[s]! * N;
      const pb = this.b[s]! * N;
      const m0 = s * NN;
      // dF_a = k·m·(dx_b − dx_a),  dF_b = −dF_a
      for (let j = 0; j < N; j++) {
        let acc = 0;
        for (let c = 0; c < N; c++) acc += this.dfdx[m0 + j * N + c]! * (dx2[pb + c]! - dx1[pa + c]!);
        df1[pa + j] += k * acc;
        df2[pb + j] -= k * acc;
      }
    }
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    const k = kFactor;
    const N = this.N;
    const NN = N * N;
    const off2 = this.states.length === 2 ? this.states[0]!.size * N : 0;
    for (let s = 0; s < this.a.length; s++) {
      const p1 = this.a[s]! * N;
      const p2 = off2 + this.b[s]! * N;
      const m0 = s * NN;
      for (let i = 0; i < N; i++) {
        for (let j = 0; j < N; j++) {
          const v = k * this.dfdx[m0 + i * N + j]!;
          acc.add(p1 + i, p1 + j, -v);
          acc.add(p1 + i, p2 + j, v);
          acc.add(p2 + i, p1 + j, v);
          acc.add(p2 + i, p2 + j, -v);
        }
      }
    }
  }

  override getPotentialEnergy(x: readonly Float64Array[]): number {
    const x1 = x[0]!, x2 = x[x.length - 1]!;
    const N = this.N;
    let e = 0;
    for (let s = 0; s < this.a.length; s++) {
      let d2 = 0;
      for (let k = 0; k < N; k++) {
        const u = x2[this.b[s]! * N + k]! - x1[this.a[s]! * N + k]!;
        d2 += u * u;
      }
      const el = Math.sqrt(d2) - this.rest[s]!;
      e += 0.5 * this.ks[s]! * el * el;
    }
    return e;
  }
}

/**
 * SOFA's StiffSpringForceField: the same springs as SpringForceField (whose stiffness matrix SOFA
 * now computes too), kept under its historical name with its own defaults.
 */
@sofaComponent({
  name: 'StiffSpringForceField',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.Spring',
  description: 'Springs between pairs of points, with the full stiffness matrix (implicit integration).',
  templates: ['Vec3d', 'Vec2d', 'Vec1d'],
})
export class StiffSpringForceField extends SpringForceField {}

