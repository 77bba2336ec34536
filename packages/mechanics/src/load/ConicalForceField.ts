import { Real, RealArray, sofaComponent, type MatrixAccumulator, SingleStateForceField } from '@sofa-ts/core';

/**
 * SOFA's ConicalForceField: a penalty cone with apex `coneCenter`, axis and height `coneHeight`
 * (H = |coneHeight|, n its direction) and half-angle `coneAngle` (degrees); a point is inside when
 * |p − c| ≤ H and the angle between p − c and n is at most coneAngle (the cone is capped by the
 * sphere of radius H). Points outside are pulled back, with q = p − c:
 *   beyond the cap (|q| > H):   f = −k·(|q| − H)·q/|q| + c_d·(|q| − H)·v
 *   beside the cone (q·n > 0):  f = k·(g·(g·q) − q) − c_d·(d̂·v)·d̂,  g the generator of the cone in
 *                               the plane of n and q (its projection p′ on the cone's side),
 *                               d̂ = (p′ − p)/|p′ − p|
 *   behind the apex (q·n ≤ 0):  f = −k·q − c_d·(d̂·v)·d̂,  d̂ = −q/|q|
 * K is the exact derivative of the stiffness term (SOFA keeps only −k·d̂·d̂ᵀ):
 *   cap: −k·(d̂d̂ᵀ + (1 − H/|q|)(I − d̂d̂ᵀ));  side: k·(g·gᵀ + (L·sin α/ρ)(I − e·eᵀ − n·nᵀ) − I) with
 *   e the unit part of q orthogonal to n, ρ = |q − (q·n)n|, L = g·q;  apex: −k·I.
 */
@sofaComponent({
  name: 'ConicalForceField',
  category: 'ForceField',
  module: 'Sofa.Component.MechanicalLoad',
  description: 'Keeps the points inside a cone (capped by a sphere) by a penalty force.',
  templates: ['Vec3d'],
})
export class ConicalForceField extends SingleStateForceField {
  readonly coneCenter = this.initData({
    name: 'coneCenter',
    type: RealArray(0, 'Coord'),
    default: Float64Array.of(0, 0, 0),
    unit: 'm',
    help: 'cone center (apex)',
  });
  readonly coneHeight = this.initData({
    name: 'coneHeight',
    type: RealArray(0, 'Deriv'),
    default: Float64Array.of(0, 0, 0),
    unit: 'm',
    help: 'cone height (axis vector)',
  });
  readonly coneAngle = this.initData({ name: 'coneAngle', type: Real, default: 10, unit: 'deg', help: 'cone half-angle' });
  readonly stiffness = this.initData({ name: 'stiffness', type: Real, default: 500, unit: 'N/m', help: 'force stiffness' });
  readonly damping = this.initData({ name: 'damping', type: Real, default: 5, help: 'force damping' });
  readonly color = this.initData({
    name: 'color',
    type: RealArray(0, 'RGBAColor'),
    default: Float64Array.of(0, 0, 1, 1),
    help: 'cone color',
    group: 'Visualization',
  });

  /** Points outside at the last addForce and their 3×3 blocks ∂f/∂x, (size) and (size × 9). */
  private contacts = new Uint32Array(0);
  private blocks = new Float64Array(0);
  private count = 0;
  private readonly n = new Float64Array(3);
  private readonly q = new Float64Array(3);
  private readonly g = new Float64Array(3);
  private readonly e = new Float64Array(3);

  override init(): void {
    super.init();
    const s = this.states[0];
    if (!this.template) this.template = s.stateType.name;
    for (const [d, name] of [
      [this.coneCenter, 'coneCenter'],
      [this.coneHeight, 'coneHeight'],
    ] as const)
      if (d.value.length !== 3) throw this.error(`'${name}' needs 3 numbers, got ${d.value.length}`);
    const h = Math.hypot(...this.coneHeight.value);
    if (!(h > 0)) throw this.error(`'coneHeight' is zero`, 'give the axis of the cone, e.g. coneHeight="0 0 10"');
    this.contacts = new Uint32Array(s.size);
    this.blocks = new Float64Array(9 * s.size);
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], v: readonly Float64Array[]): void {
    const out = f[0],
      xs = x[0],
      vs = v[0],
      np = xs.length / 3;
    if (this.contacts.length < np) {
      this.contacts = new Uint32Array(np);
      this.blocks = new Float64Array(9 * np);
    }
    const c = this.coneCenter.value,
      hv = this.coneHeight.value,
      H = Math.hypot(hv[0], hv[1], hv[2]);
    const n = this.n,
      q = this.q,
      g = this.g,
      e = this.e;
    for (let k = 0; k < 3; k++) n[k] = hv[k] / H;
    const angle = (this.coneAngle.value * Math.PI) / 180,
      ca = Math.cos(angle),
      sa = Math.sin(angle);
    const k = this.stiffness.value,
      cd = this.damping.value,
      B = this.blocks;
    this.count = 0;
    for (let i = 0; i < np; i++) {
      for (let j = 0; j < 3; j++) q[j] = xs[3 * i + j] - c[j];
      const ql = Math.hypot(q[0], q[1], q[2]);
      const qn = q[0] * n[0] + q[1] * n[1] + q[2] * n[2];
      // inside: |q| ≤ H and angle(q, n) ≤ coneAngle (SOFA's isIn)
      if (ql === 0 || (ql <= H && Math.acos(Math.min(1, Math.max(-1, qn / ql))) <= angle)) continue;
      const o = 9 * this.count,
        vo = 3 * i;
      if (ql > H) {
        // cap: f = −k·(|q| − H)·q/|q| + c_d·(|q| − H)·v
        const d = ql - H;
        for (let j = 0; j < 3; j++) out[vo + j] += (-k * d * q[j]) / ql + cd * d * vs[vo + j];
        const a = H / ql;
        for (let r = 0; r < 3; r++)
          for (let s = 0; s < 3; s++) B[o + 3 * r + s] = -k * (((q[r] * q[s]) / (ql * ql)) * a + (r === s ? 1 - a : 0));
      } else if (qn > 0) {
        // side: the generator g = cos α·n + sin α·e in the plane of n and q
        let rho = 0;
        for (let j = 0; j < 3; j++) {
          e[j] = q[j] - qn * n[j];
          rho += e[j] * e[j];
        }
        rho = Math.sqrt(rho);
        for (let j = 0; j < 3; j++) {
          e[j] = e[j] / rho;
          g[j] = ca * n[j] + sa * e[j];
        }
        const L = ca * qn + sa * rho;
        let dl = 0;
        for (let j = 0; j < 3; j++) {
          const dj = L * g[j] - q[j];
          dl += dj * dj;
        }
        dl = Math.sqrt(dl);
        let dv = 0;
        for (let j = 0; j < 3; j++) dv += ((L * g[j] - q[j]) / dl) * vs[vo + j];
        for (let j = 0; j < 3; j++) out[vo + j] += k * (L * g[j] - q[j]) - cd * dv * ((L * g[j] - q[j]) / dl);
        const w = (L * sa) / rho;
        for (let r = 0; r < 3; r++)
          for (let s = 0; s < 3; s++)
            B[o + 3 * r + s] = k * (g[r] * g[s] + w * ((r === s ? 1 : 0) - e[r] * e[s] - n[r] * n[s]) - (r === s ? 1 : 0));
      } else {
        // behind the apex: f = −k·q, pulled back to the apex
        let dv = 0;
        for (let j = 0; j < 3; j++) dv += (-q[j] / ql) * vs[vo + j];
        for (let j = 0; j < 3; j++) out[vo + j] += -k * q[j] - cd * dv * (-q[j] / ql);
        for (let r = 0; r < 3; r++) for (let s = 0; s < 3; s++) B[o + 3 * r + s] = r === s ? -k : 0;
      }
      this.contacts[this.count++] = i;
    }
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const out = df[0],
      d = dx[0],
      kf = this.kFactorWithRayleigh(kFactor, bFactor),
      B = this.blocks;
    for (let q = 0; q < this.count; q++) {
      const o = 3 * this.contacts[q];
      for (let r = 0; r < 3; r++)
        out[o + r] += kf * (B[9 * q + 3 * r] * d[o] + B[9 * q + 3 * r + 1] * d[o + 1] + B[9 * q + 3 * r + 2] * d[o + 2]);
    }
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    const B = this.blocks;
    for (let q = 0; q < this.count; q++) {
      const o = 3 * this.contacts[q];
      for (let r = 0; r < 3; r++) for (let s = 0; s < 3; s++) acc.add(o + r, o + s, kFactor * B[9 * q + 3 * r + s]);
    }
  }

  /** Indices of the points outside the cone at the last addForce. */
  get contactPoints(): number[] {
    return Array.from(this.contacts.subarray(0, this.count));
  }
}
