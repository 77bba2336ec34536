import {
  Bool,
  contextMeshTopology,
  Indices,
  isTopology,
  Real,
  RealArray,
  sofaComponent,
  type BaseMeshTopology,
  type MatrixAccumulator,
  SingleStateForceField,
} from '@sofa-ts/core';
import { FollowerTriangles, splitQuads } from './follower-triangles.js';

/**
 * SOFA's SurfacePressureForceField: a scalar pressure P on a closed (or open) surface, following
 * its current shape. Each triangle (a, b, c), with n = (x_b − x_a) × (x_c − x_a), gives
 *   f_v += P·n / 6   on each of its three vertices
 * (the three sum to P times the area vector: zero in total on a closed surface). A quad
 * (q0, q1, q2, q3) counts as the triangles (q0, q1, q2) and (q0, q2, q3).
 * The elements are `triangleIndices` / `quadIndices`, else every triangle / quad whose vertices
 * are all in the box [min, max] at the current positions (every one when min = max = 0).
 * mainDirection d ≠ 0 scales each triangle's force by |n̂·d| (not the quads', as in SOFA).
 * pulseMode: P goes up and down between pressureLowerBound and `pressure` at pressureSpeed
 * (Pa/s), one dt per force evaluation, as SOFA does. volumeConservationMode: P·V0/V with V the
 * enclosed volume (V0 = defaultVolume, or the volume at the first evaluation).
 * K (useTangentStiffness, SOFA's default) is ∂f/∂x at constant P (follower-triangles.ts), not
 * symmetric; sofa-ts includes the quads and the mainDirection factor in it (SOFA leaves them out)
 * and, like SOFA, leaves out the dependence of P on the volume.
 */
@sofaComponent({
  name: 'SurfacePressureForceField',
  category: 'ForceField',
  module: 'Sofa.Component.MechanicalLoad',
  description: 'Pressure on a surface of triangles and quads, following its current shape.',
  templates: ['Vec3d'],
})
export class SurfacePressureForceField extends SingleStateForceField {
  readonly pressure = this.initData({ name: 'pressure', type: Real, default: 0, unit: 'Pa', help: 'pressure force per unit area' });
  readonly min = this.initData({
    name: 'min',
    type: RealArray(0, 'Coord'),
    default: Float64Array.of(0, 0, 0),
    unit: 'm',
    help: 'lower bound of the selection box',
  });
  readonly max = this.initData({
    name: 'max',
    type: RealArray(0, 'Coord'),
    default: Float64Array.of(0, 0, 0),
    unit: 'm',
    help: 'upper bound of the selection box',
  });
  readonly triangleIndices = this.initData({
    name: 'triangleIndices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of affected triangles',
  });
  readonly quadIndices = this.initData({
    name: 'quadIndices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of affected quads',
  });
  readonly pulseMode = this.initData({ name: 'pulseMode', type: Bool, default: false, help: 'cyclic pressure application' });
  readonly pressureLowerBound = this.initData({
    name: 'pressureLowerBound',
    type: Real,
    default: 0,
    unit: 'Pa',
    help: 'pressure lower bound (pulse mode)',
  });
  readonly pressureSpeed = this.initData({
    name: 'pressureSpeed',
    type: Real,
    default: 0,
    unit: 'Pa/s',
    help: 'rate of the pressure change in pulse mode (0: |pressure|, with a warning)',
  });
  readonly volumeConservationMode = this.initData({
    name: 'volumeConservationMode',
    type: Bool,
    default: false,
    help: 'the pressure follows the inverse of the volume variation',
  });
  readonly useTangentStiffness = this.initData({
    name: 'useTangentStiffness',
    type: Bool,
    default: true,
    help: 'whether the (non-symmetric) stiffness matrix is used',
  });
  readonly defaultVolume = this.initData({
    name: 'defaultVolume',
    type: Real,
    default: -1,
    unit: 'm^3',
    help: 'reference volume of volumeConservationMode (-1: the volume at the first evaluation)',
  });
  readonly mainDirection = this.initData({
    name: 'mainDirection',
    type: RealArray(0, 'Deriv'),
    default: Float64Array.of(0, 0, 0),
    help: 'main direction of the pressure: each triangle force is scaled by |n·mainDirection|',
  });
  readonly drawForceScale = this.initData({
    name: 'drawForceScale',
    type: Real,
    default: 0,
    help: 'scale used to draw the force vectors',
    group: 'Visualization',
  });

  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'link to the topology container (default: the topology of the context)',
    accepts: isTopology,
    expected: 'a topology',
  });

  /** Candidate triangles (the given ones, or every triangle and split quad), with their kernel. */
  private readonly surface = new FollowerTriangles();
  /** (m) 1 for the triangles that come from a quad (no mainDirection scaling), 1 when all their vertices must be in the box. */
  private fromQuad = new Uint8Array(0);
  private boxed = new Uint8Array(0);
  /** Pulse mode: the current pressure and its direction. */
  private pulse = 0;
  private increasing = true;
  /** Checkpoint: where the pulse is and its direction. */
  readonly checkpointFields = ['pulse', 'increasing'] as const;
  /** M = P/6·(…) for one triangle, (9). */
  private readonly M = new Float64Array(9);

  override init(): void {
    super.init();
    const s = this.states[0];
    if (!this.template) this.template = s.stateType.name;
    if (s.stateType.name !== 'Vec3d')
      throw this.error(`SurfacePressureForceField needs a Vec3d state, ${s.describe()} is ${s.stateType.name}`);
    const topo = this.topology.get() ?? contextMeshTopology(this.context);
    if (!topo) throw this.error('no topology: add a triangle or quad topology in this node or above, or set topology="@path"');
    this.topology.set(topo);
    for (const [d, name] of [
      [this.min, 'min'],
      [this.max, 'max'],
      [this.mainDirection, 'mainDirection'],
    ] as const) {
      if (d.value.length !== 3) throw this.error(`'${name}' needs 3 numbers, got ${d.value.length}`);
    }
    const tris: number[] = [],
      fromQuad: number[] = [],
      boxed: number[] = [];
    const addTris = (all: Uint32Array, list: Uint32Array, quad: boolean): void => {
      const size = quad ? 4 : 3;
      const n = all.length / size;
      const pick = list.length > 0 ? Array.from(list) : Array.from({ length: n }, (_, i) => i);
      for (const e of pick) {
        if (e >= n) throw this.error(`${quad ? 'quad' : 'triangle'} ${e} is out of range: ${topo.describe()} has ${n}`);
        const el = all.subarray(e * size, e * size + size);
        for (const v of el)
          if (v >= s.size)
            throw this.error(`${quad ? 'quad' : 'triangle'} ${e} names point ${v}, but ${s.describe()} has ${s.size} points`);
        const before = tris.length;
        if (quad) splitQuads(el, tris);
        else tris.push(...el);
        for (let t = before / 3; t < tris.length / 3; t++) {
          fromQuad.push(quad ? 1 : 0);
          boxed.push(list.length > 0 ? 0 : 1);
        }
      }
    };
    addTris(topo.getTriangles(), this.triangleIndices.value, false);
    addTris(topo.getQuads(), this.quadIndices.value, true);
    if (tris.length === 0) this.warn('no triangle or quad to apply the pressure to', `${topo.describe()} has none`);
    this.surface.setTriangles(Uint32Array.from(tris));
    this.fromQuad = Uint8Array.from(fromQuad);
    this.boxed = Uint8Array.from(boxed);
    this.reset();
  }

  override reset(): void {
    this.increasing = this.pressure.value > 0;
    this.pulse = 0;
    if (this.pulseMode.value && this.pressureSpeed.value === 0) {
      this.warn('pressureSpeed is 0 in pulse mode: |pressure| per second is used');
      this.pressureSpeed.value = Math.abs(this.pressure.value);
    }
  }

  /** SOFA's computePulseModePressure: one dt up or down between the two bounds. */
  private pulsePressure(): number {
    const dt = this.context.getDt();
    const p = this.pressure.value,
      low = this.pressureLowerBound.value,
      speed = this.pressureSpeed.value;
    if (this.increasing) {
      const upper = p > 0 ? p : low;
      this.pulse += speed * dt;
      if (this.pulse >= upper) {
        this.pulse = upper;
        this.increasing = false;
      }
    } else {
      const lower = p > 0 ? low : p;
      this.pulse -= speed * dt;
      if (this.pulse <= lower) {
        this.pulse = lower;
        this.increasing = true;
      }
    }
    return this.pulse;
  }

  /** The volume enclosed by the candidate elements: Σ (x_a × x_b)·x_c / 6. */
  computeMeshVolume(x: Float64Array): number {
    const T = this.surface.tris;
    let v = 0;
    for (let t = 0; t < T.length / 3; t++) {
      const a = 3 * T[3 * t],
        b = 3 * T[3 * t + 1],
        c = 3 * T[3 * t + 2];
      v +=
        (x[a + 1] * x[b + 2] - x[a + 2] * x[b + 1]) * x[c] +
        (x[a + 2] * x[b] - x[a] * x[b + 2]) * x[c + 1] +
        (x[a] * x[b + 1] - x[a + 1] * x[b]) * x[c + 2];
    }
    return v / 6;
  }

  private inBox(x: Float64Array, v: number): boolean {
    const lo = this.min.value,
      hi = this.max.value;
    if (lo.every((c) => c === 0) && hi.every((c) => c === 0)) return true;
    for (let k = 0; k < 3; k++) if (x[3 * v + k] < lo[k] || x[3 * v + k] > hi[k]) return false;
    return true;
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], _v: readonly Float64Array[]): void {
    const xs = x[0],
      out = f[0];
    let p = this.pulseMode.value ? this.pulsePressure() : this.pressure.value;
    if (this.volumeConservationMode.value) {
      if (this.defaultVolume.value === -1) this.defaultVolume.value = this.computeMeshVolume(xs);
      else if (this.defaultVolume.value !== 0) p *= this.defaultVolume.value / this.computeMeshVolume(xs);
    }
    const d = this.mainDirection.value;
    const directed = d[0] !== 0 || d[1] !== 0 || d[2] !== 0;
    const T = this.surface.tris,
      M = this.M;
    for (let t = 0; t < T.length / 3; t++) {
      if (this.boxed[t] && !(this.inBox(xs, T[3 * t]) && this.inBox(xs, T[3 * t + 1]) && this.inBox(xs, T[3 * t + 2]))) {
        this.surface.clear(t);
        continue;
      }
      const n = this.surface.normal(t, xs, 3);
      M.fill(0);
      if (directed && !this.fromQuad[t]) {
        // p = P/6·g(n)·n, g = |n·d|/|n|:  ∂p/∂n = P/6·(g·I + n·∇gᵀ),  ∇g = s·d/|n| − |n·d|·n/|n|³
        const len = Math.hypot(n[0], n[1], n[2]);
        const nd = n[0] * d[0] + n[1] * d[1] + n[2] * d[2];
        const g = len > 0 ? Math.abs(nd) / len : 0;
        const sgn = Math.sign(nd);
        for (let r = 0; r < 3; r++) {
          for (let c = 0; c < 3; c++) {
            const grad = len > 0 ? (sgn * d[c]) / len - (Math.abs(nd) * n[c]) / (len * len * len) : 0;
            M[3 * r + c] = (p / 6) * ((r === c ? g : 0) + n[r] * grad);
          }
        }
        // the force itself is P/6·g·n (M·n would count the gradient term: n·∇g·n = 0 anyway)
      } else {
        M[0] = M[4] = M[8] = p / 6;
      }
      this.surface.apply(t, M, out, xs, 3, 3);
    }
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    if (!this.useTangentStiffness.value) return;
    this.surface.addDForce(df[0], dx[0], this.kFactorWithRayleigh(kFactor, bFactor), 3);
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    if (!this.useTangentStiffness.value) return;
    this.surface.addKToMatrix(acc, kFactor, 3);
  }
}
