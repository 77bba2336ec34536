import {
  AnimateBeginEvent,
  contextMeshTopology,
  isTopology,
  Real,
  RealArray,
  sofaComponent,
  type BaseMeshTopology,
  type MatrixAccumulator,
  type SofaEvent,
  SingleStateForceField,
} from '@sofa-ts/core';
import { addBlock3 } from '@sofa-ts/core';
import { FollowerTriangles } from './follower-triangles.js';

/**
 * SOFA's TaitSurfacePressureForceField: the pressure of a fluid enclosed by a closed surface of
 * triangles and quads (a quad (q0, q1, q2, q3) as (q0, q1, q2) and (q2, q3, q0)), from Tait's law
 *   P(V) = p0 − B·((V/V0)^γ − 1),   V0 = initialVolume + currentInjectedVolume
 * (γ = 1: ideal gas; B = 0 or γ = 0: the constant pressure p0). V is the enclosed volume
 * Σ (a − c)×(b − c)·(c_t − c)/6 over the triangles (c the centroid of the points), and
 *   f_i = P·∇V_i,   ∇V_i = Σ_{t ∋ i} n_t / 6,   n_t = (x_b − x_a) × (x_c − x_a).
 * K = ∂f/∂x = dP/dV·∇V⊗∇V + P·∂∇V/∂x: a dense rank-one block over the surface points plus the
 * triangles' blocks (follower-triangles.ts); SOFA assembles the same.
 * injectedVolume moves currentInjectedVolume towards it at maxInjectionRate (volume per second),
 * at each AnimateBeginEvent. The results (currentVolume, currentPressure, currentStiffness = dP/dV,
 * areas) are written at each force evaluation.
 */
@sofaComponent({
  name: 'TaitSurfacePressureForceField',
  category: 'ForceField',
  module: 'Sofa.Component.MechanicalLoad',
  description: "Pressure of an enclosed fluid on a closed surface, from Tait's equation P = p0 − B((V/V0)^γ − 1).",
  templates: ['Vec3d'],
})
export class TaitSurfacePressureForceField extends SingleStateForceField {
  readonly p0 = this.initData({ name: 'p0', type: Real, default: 0, unit: 'Pa', help: 'rest pressure when V = V0', group: 'Controls' });
  readonly B = this.initData({
    name: 'B',
    type: Real,
    default: 0,
    unit: 'Pa',
    help: 'bulk modulus (resistance to uniform compression)',
    group: 'Controls',
  });
  readonly gamma = this.initData({
    name: 'gamma',
    type: Real,
    default: 0,
    help: 'exponent of the law (1: ideal gas, 7: water)',
    group: 'Controls',
  });
  readonly injectedVolume = this.initData({
    name: 'injectedVolume',
    type: Real,
    default: 0,
    unit: 'm^3',
    help: 'injected (or extracted) volume since the start of the simulation',
    group: 'Controls',
  });
  readonly maxInjectionRate = this.initData({
    name: 'maxInjectionRate',
    type: Real,
    default: 1000,
    unit: 'm^3/s',
    help: 'maximum injection rate',
    group: 'Controls',
  });
  readonly initialVolume = this.initData({
    name: 'initialVolume',
    type: Real,
    default: 0,
    unit: 'm^3',
    help: 'OUT: initial volume, from the surface rest position',
    group: 'Results',
    output: true,
  });
  readonly currentInjectedVolume = this.initData({
    name: 'currentInjectedVolume',
    type: Real,
    default: 0,
    unit: 'm^3',
    help: 'current injected (or extracted) volume (taking into account maxInjectionRate)',
    group: 'Results',
  });
  readonly v0 = this.initData({
    name: 'v0',
    type: Real,
    default: 0,
    unit: 'm^3',
    help: 'OUT: rest volume (initialVolume + currentInjectedVolume)',
    group: 'Results',
    output: true,
  });
  readonly currentVolume = this.initData({
    name: 'currentVolume',
    type: Real,
    default: 0,
    unit: 'm^3',
    help: 'OUT: current volume, from the last surface position',
    group: 'Results',
    output: true,
  });
  readonly currentPressure = this.initData({
    name: 'currentPressure',
    type: Real,
    default: 0,
    unit: 'Pa',
    help: 'OUT: current pressure',
    group: 'Results',
    output: true,
  });
  readonly currentStiffness = this.initData({
    name: 'currentStiffness',
    type: Real,
    default: 0,
    unit: 'Pa/m^3',
    help: 'OUT: dP/dV at the current volume and pressure',
    group: 'Results',
    output: true,
  });
  readonly initialSurfaceArea = this.initData({
    name: 'initialSurfaceArea',
    type: Real,
    default: 0,
    unit: 'm^2',
    help: 'OUT: initial surface area',
    group: 'Stats',
    output: true,
  });
  readonly currentSurfaceArea = this.initData({
    name: 'currentSurfaceArea',
    type: Real,
    default: 0,
    unit: 'm^2',
    help: 'OUT: current surface area',
    group: 'Stats',
    output: true,
  });
  readonly drawForceScale = this.initData({
    name: 'drawForceScale',
    type: Real,
    default: 0.001,
    help: 'scale used to draw the force vectors',
    group: 'Visualization',
  });
  readonly drawForceColor = this.initData({
    name: 'drawForceColor',
    type: RealArray(0, 'RGBAColor'),
    default: Float64Array.of(0, 1, 1, 1),
    help: 'color used to draw the force vectors',
    group: 'Visualization',
  });

  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'link to the topology container (default: the topology of the context)',
    accepts: isTopology,
    expected: 'a topology',
  });

  private readonly surface = new FollowerTriangles();
  /** ∇V at the last addForce, (n × 3). */
  private gradV = new Float64Array(0);
  /** The points of the surface (where ∇V may be nonzero), (m). */
  private surfacePoints = new Uint32Array(0);
  private readonly M = new Float64Array(9);
  private resetInjected = { injected: 0, current: 0 };
  private warnedVariation = false;
  /** Checkpoint: the warning about the volume is given once per run, resumed runs included. */
  readonly checkpointFields = ['warnedVariation'] as const;

  override init(): void {
    this.listening.value = true;
    super.init();
    const s = this.states[0];
    if (!this.template) this.template = s.stateType.name;
    if (s.stateType.name !== 'Vec3d')
      throw this.error(`TaitSurfacePressureForceField needs a Vec3d state, ${s.describe()} is ${s.stateType.name}`);
    const topo = this.topology.get() ?? contextMeshTopology(this.context);
    if (!topo) throw this.error('no topology: add a closed triangle or quad surface in this node or above, or set topology="@path"');
    this.topology.set(topo);
    const tris: number[] = Array.from(topo.getTriangles());
    const quads = topo.getQuads();
    for (let q = 0; q + 4 <= quads.length; q += 4) tris.push(quads[q], quads[q + 1], quads[q + 2], quads[q + 2], quads[q + 3], quads[q]);
    for (const v of tris) if (v >= s.size) throw this.error(`the surface names point ${v}, but ${s.describe()} has ${s.size} points`);
    if (tris.length === 0) this.warn(`${topo.describe()} has no triangle or quad: no pressure`);
    this.surface.setTriangles(Uint32Array.from(tris));
    this.surfacePoints = Uint32Array.from(new Set(tris)).sort();
    this.gradV = new Float64Array(3 * s.size);
    const [v, a] = this.volumeAndArea(s.x0);
    this.initialVolume.value = v;
    this.initialSurfaceArea.value = a;
    this.resetInjected = { injected: this.injectedVolume.value, current: this.currentInjectedVolume.value };
    this.v0.value = this.initialVolume.value + this.currentInjectedVolume.value;
    const [vc, ac] = this.volumeAndArea(s.x);
    this.currentVolume.value = vc;
    this.currentSurfaceArea.value = ac;
    this.updatePressure(vc);
  }

  override reset(): void {
    this.injectedVolume.value = this.resetInjected.injected;
    this.currentInjectedVolume.value = this.resetInjected.current;
    this.v0.value = this.initialVolume.value + this.currentInjectedVolume.value;
  }

  /** currentInjectedVolume moves towards injectedVolume by at most maxInjectionRate·dt. */
  override handleEvent(event: SofaEvent): void {
    if (!(event instanceof AnimateBeginEvent)) return;
    const inj = this.injectedVolume.value;
    let cur = this.currentInjectedVolume.value;
    if (inj === cur) return;
    const step = this.maxInjectionRate.value * event.dt;
    if (Math.abs(inj - cur) <= step) cur = inj;
    else cur += inj < cur ? -step : step;
    this.currentInjectedVolume.value = cur;
    this.v0.value = this.initialVolume.value + cur;
  }

  /** The enclosed volume (about the centroid of the points) and the surface area. */
  volumeAndArea(x: Float64Array): [number, number] {
    const n = x.length / 3;
    if (n === 0) return [0, 0];
    let cx = 0,
      cy = 0,
      cz = 0;
    for (let i = 0; i < n; i++) {
      cx += x[3 * i];
      cy += x[3 * i + 1];
      cz += x[3 * i + 2];
    }
    cx /= n;
    cy /= n;
    cz /= n;
    const T = this.surface.tris;
    let v6 = 0,
      a2 = 0;
    for (let t = 0; t < T.length / 3; t++) {
      const ia = 3 * T[3 * t],
        ib = 3 * T[3 * t + 1],
        ic = 3 * T[3 * t + 2];
      const ax = x[ia] - cx,
        ay = x[ia + 1] - cy,
        az = x[ia + 2] - cz;
      const bx = x[ib] - cx,
        by = x[ib + 1] - cy,
        bz = x[ib + 2] - cz;
      const qx = x[ic] - cx,
        qy = x[ic + 1] - cy,
        qz = x[ic + 2] - cz;
      v6 += (ay * bz - az * by) * qx + (az * bx - ax * bz) * qy + (ax * by - ay * bx) * qz;
      const n = this.surface.normal(t, x, 3);
      a2 += Math.hypot(n[0], n[1], n[2]);
    }
    return [v6 / 6, a2 / 2];
  }

  /** P and dP/dV from Tait's law at volume V (SOFA's computePressureAndStiffness). */
  private updatePressure(V: number): void {
    const v0 = this.v0.value,
      B = this.B.value,
      g = this.gamma.value,
      p0 = this.p0.value;
    if ((V > 10 * v0 || 10 * V < v0) && !this.warnedVariation) {
      this.warnedVariation = true;
      this.warn(`the volume varies too much: V = ${V}, V0 = ${v0}`);
    }
    let p: number, k: number;
    if (B === 0 || g === 0 || v0 === 0) {
      k = 0;
      p = p0;
    } else if (g === 1) {
      k = -B / v0;
      p = p0 - B * (V / v0 - 1);
    } else {
      const r = Math.pow(V / v0, g);
      k = V === 0 ? 0 : (-B * g * r) / V;
      p = p0 - B * (r - 1);
    }
    this.currentPressure.value = p;
    this.currentStiffness.value = k;
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], _v: readonly Float64Array[]): void {
    const xs = x[0],
      out = f[0];
    const [V, A] = this.volumeAndArea(xs);
    this.currentVolume.value = V;
    this.currentSurfaceArea.value = A;
    this.updatePressure(V);
    const p = this.currentPressure.value;
    // ∇V_i = Σ n_t/6, accumulated through the kernel with M = I/6, then f = P·∇V
    const g = this.gradV;
    g.fill(0);
    const M = this.M;
    M.fill(0);
    M[0] = M[4] = M[8] = 1 / 6;
    for (let t = 0; t < this.surface.count; t++) {
      this.surface.normal(t, xs, 3);
      this.surface.apply(t, M, g, xs, 3, 3);
    }
    for (let i = 0; i < g.length; i++) out[i] += p * g[i];
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const k = this.kFactorWithRayleigh(kFactor, bFactor);
    const out = df[0],
      d = dx[0],
      g = this.gradV;
    // df = k·(dP/dV·(∇V·dx)·∇V + P·∂∇V/∂x·dx)
    let dV = 0;
    for (const i of this.surfacePoints) dV += g[3 * i] * d[3 * i] + g[3 * i + 1] * d[3 * i + 1] + g[3 * i + 2] * d[3 * i + 2];
    const s1 = k * this.currentStiffness.value * dV;
    for (const i of this.surfacePoints) for (let c = 0; c < 3; c++) out[3 * i + c] += s1 * g[3 * i + c];
    this.surface.addDForce(out, d, k * this.currentPressure.value, 3);
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    const g = this.gradV,
      pts = this.surfacePoints,
      s = kFactor * this.currentStiffness.value;
    const block = this.M;
    for (const i of pts) {
      for (const j of pts) {
        for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) block[3 * r + c] = g[3 * i + r] * g[3 * j + c];
        addBlock3(acc, 3 * i, 3 * j, block, 0, s);
      }
    }
    this.surface.addKToMatrix(acc, kFactor * this.currentPressure.value, 3);
  }
}
