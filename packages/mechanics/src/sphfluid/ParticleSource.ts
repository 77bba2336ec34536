import {
  Bool,
  Indices,
  MAX_POINTS,
  Real,
  RealArray,
  SingleStateProjectiveConstraint,
  Vec3,
  positive,
  sofaComponent,
  type BaseMechanicalState,
  type BaseObject,
  type SofaEvent,
} from '@sofa-ts/core';

/** A point-set topology modifier of the node (PointSetTopologyModifier and its subclasses), seen through what ParticleSource calls. */
interface PointModifier extends BaseObject {
  addPoints(n: number, ancestors?: undefined, coefs?: undefined, addDOF?: boolean): void;
  getContainer(): { getNbPoints(): number };
}
function isPointModifier(o: BaseObject): o is PointModifier {
  const m = o as Partial<PointModifier>;
  return typeof m.addPoints === 'function' && typeof m.getContainer === 'function';
}

/**
 * SOFA's ParticleSource (SofaSphFluid): emits particles into its state over time. Its N source
 * points are p_s = center_s·scale + translation (+ radius_c·u per axis with addNoise, u uniform in
 * [0, 1), else + radius). With t0 = max(0, start − delay), at each step's start of time t in
 * [start, stop] it creates ⌊(t − t0)/delay⌋ groups of N particles; for each group t0 += delay, and
 * the particles are created at p_s + velocity·(t − t0) with the velocity `velocity`. A state of one
 * point (the MechanicalObject's default) has that point replaced by the first particle.
 * The state grows by the node's point-set topology modifier when there is one (its container
 * following the state), else by resizing the state, as SOFA does.
 * While t is in [start, stop] the last particles (the last group, and half of the previous ones,
 * SOFA's bookkeeping) are held on their emission path: x = lastpos + velocity·(t − t0) (lastpos
 * advancing by velocity·delay per group), v = velocity, dx = 0.
 * The noise is drawn from sofa-ts's seeded generator (SOFA's rand() sequence is not reproduced).
 */
@sofaComponent({
  name: 'ParticleSource',
  category: 'ProjectiveConstraintSet',
  module: 'SofaSphFluid',
  description: 'Emits particles into its state over time.',
  templates: ['Vec3d'],
})
export class ParticleSource extends SingleStateProjectiveConstraint {
  readonly translation = this.initData({
    name: 'translation',
    type: Vec3,
    default: Float64Array.of(0, 0, 0),
    help: 'translation applied to center(s)',
  });
  readonly scale = this.initData({ name: 'scale', type: Real, default: 1, help: 'scale applied to center(s)' });
  readonly center = this.initData({
    name: 'center',
    type: RealArray(3, 'vector<Vec3d>'),
    default: Float64Array.of(0, 0, 0),
    help: 'source center(s)',
  });
  readonly radius = this.initData({ name: 'radius', type: Vec3, default: Float64Array.of(0, 0, 0), help: 'source radius (per axis)' });
  readonly velocity = this.initData({ name: 'velocity', type: Vec3, default: Float64Array.of(0, 0, 0), help: 'particle initial velocity' });
  readonly delay = this.initData({
    name: 'delay',
    type: Real,
    default: 0.01,
    range: positive,
    unit: 's',
    help: 'delay between particles creation',
  });
  readonly start = this.initData({ name: 'start', type: Real, default: 0, unit: 's', help: 'source starting time' });
  readonly stop = this.initData({ name: 'stop', type: Real, default: 1e10, unit: 's', help: 'source stopping time' });
  readonly addNoise = this.initData({
    name: 'addNoise',
    type: Bool,
    default: true,
    help: "add a random value in [0, radius) per axis to the new particles' positions (else add radius)",
  });
  readonly lastparticles = this.initData({
    name: 'lastparticles',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the last particles created (held on their emission path)',
    output: true,
  });

  private state!: BaseMechanicalState;
  /** Time of the last group created (SOFA's m_lastTime). */
  private lastTime = 0;
  /** The held particles and where they were emitted (3 per particle). */
  private last: number[] = [];
  private lastPos: number[] = [];
  private seed = 1;
  private warnedContainer = false;

  constructor() {
    super();
    this.listening.value = true;
  }

  override init(): void {
    this.state = this.getMechanicalState();
    if (!this.template) this.template = this.state.stateType.name;
    if (this.state.stateType.name !== 'Vec3d') throw this.error(`ParticleSource emits Vec3d particles, got ${this.state.stateType.name}`);
    if (this.center.value.length === 0) throw this.dataError(this.center, 'center is empty: give at least one source point');
    this.resetSource();
  }

  private resetSource(): void {
    this.lastTime = Math.max(0, this.start.value - this.delay.value);
    this.last.length = 0;
    this.lastPos.length = 0;
    this.seed = 1;
    this.lastparticles.value = new Uint32Array(0);
  }

  override reset(): void {
    this.resize(1);
    this.resetSource();
  }

  override handleEvent(event: SofaEvent): void {
    if (event.type === 'AnimateBeginEvent') this.animateBegin(this.context.getTime());
  }

  /** Uniform in [0, 1) (a 32-bit linear congruential generator, seeded at init and reset). */
  private rand(): number {
    this.seed = (Math.imul(this.seed, 1664525) + 1013904223) >>> 0;
    return this.seed / 4294967296;
  }

  private active(t: number): boolean {
    return this.last.length > 0 && !(t < this.start.value || t > this.stop.value);
  }

  /** SOFA's animateBegin: the groups due at time t. */
  animateBegin(t: number): void {
    if (t < this.start.value || t > this.stop.value) return;
    let i0 = this.state.size;
    if (i0 === 1) i0 = 0; // the state's lone default point is replaced
    const delay = this.delay.value;
    const groups = Math.trunc((t - this.lastTime) / delay);
    if (!(groups > 0)) return;
    const v0 = this.velocity.value,
      c = this.center.value,
      sc = this.scale.value,
      tr = this.translation.value,
      rad = this.radius.value;
    const N = c.length / 3;
    if (i0 + groups * N > MAX_POINTS)
      throw this.error(
        `${groups} groups of ${N} particles are due at t = ${t}: the state would exceed ${MAX_POINTS} points`,
        'increase delay, or shorten [start, stop]',
      );
    const noise = this.addNoise.value;
    const newX: number[] = [];
    for (let g = 0; g < groups; g++) {
      this.lastTime += delay;
      // keep the newer half of the held particles, moved along by one delay
      const held = this.last.length;
      const lp0 = held === 0 ? 0 : Math.trunc(held / 2);
      const shift = held - lp0;
      for (let s = 0; s < lp0; s++) {
        this.last[s] = this.last[s + shift];
        for (let a = 0; a < 3; a++) this.lastPos[3 * s + a] = this.lastPos[3 * (s + shift) + a] + v0[a] * delay;
      }
      this.last.length = lp0;
      this.lastPos.length = 3 * lp0;
      for (let s = 0; s < N; s++) {
        const p = [0, 0, 0];
        for (let a = 0; a < 3; a++) p[a] = c[3 * s + a] * sc + tr[a] + (noise ? rad[a] * this.rand() : rad[a]);
        this.lastPos.push(p[0], p[1], p[2]);
        this.last.push(i0 + newX.length / 3);
        // x = p + v0·(t − t0): the particle's motion since its emission time
        for (let a = 0; a < 3; a++) newX.push(p[a] + v0[a] * (t - this.lastTime));
      }
    }
    const created = newX.length / 3;
    this.grow(i0 + created, i0);
    const x = this.state.x,
      v = this.state.v;
    for (let s = 0; s < created; s++)
      for (let a = 0; a < 3; a++) {
        x[3 * (i0 + s) + a] = newX[3 * s + a];
        v[3 * (i0 + s) + a] = v0[a];
      }
    this.state.touch();
    this.lastparticles.value = Uint32Array.from(this.last);
  }

  /** Makes the state n points long, by the node's point modifier when it has one, else by resizing it. */
  private grow(n: number, i0: number): void {
    const mod = this.context.getObject(isPointModifier, 'local');
    if (mod) {
      const topo = mod.getContainer();
      // SOFA first sets the container's count to the state's (its lone default point)
      const nb = topo.getNbPoints();
      if (nb < this.state.size && i0 === 0) mod.addPoints(this.state.size - nb, undefined, undefined, false);
      if (topo.getNbPoints() === this.state.size && n > this.state.size) mod.addPoints(n - this.state.size);
      if (this.state.size === n) return;
      if (!this.warnedContainer) {
        this.warnedContainer = true;
        this.warn(
          `the topology container has ${topo.getNbPoints()} points and the state ${this.state.size}: the state is resized directly, the container does not follow (reported once)`,
        );
      }
    }
    this.resize(n);
  }

  private resize(n: number): void {
    const s = this.state as BaseMechanicalState & { resize?: (n: number) => void };
    if (s.size === n) return;
    if (typeof s.resize !== 'function') throw this.error(`${s.describe()} cannot be resized: ParticleSource needs a MechanicalObject`);
    s.resize(n);
    s.context.topologyChanged();
  }

  projectResponse(dx: Float64Array): void {
    if (!this.active(this.context.getTime())) return;
    for (const p of this.last) if (3 * p + 3 <= dx.length) dx.fill(0, 3 * p, 3 * p + 3);
  }

  projectVelocity(v: Float64Array): void {
    if (!this.active(this.context.getTime())) return;
    const v0 = this.velocity.value;
    for (const p of this.last) if (3 * p + 3 <= v.length) v.set(v0, 3 * p);
  }

  projectPosition(x: Float64Array): void {
    const t = this.context.getTime();
    if (!this.active(t)) return;
    const v0 = this.velocity.value;
    const dt = t - this.lastTime;
    this.last.forEach((p, s) => {
      if (3 * p + 3 > x.length) return;
      for (let a = 0; a < 3; a++) x[3 * p + a] = this.lastPos[3 * s + a] + v0[a] * dt;
    });
  }

  projectedDofs(out: number[]): void {
    if (!this.active(this.context.getTime())) return;
    for (const p of this.last) out.push(3 * p, 3 * p + 1, 3 * p + 2);
  }

  override get projectsByZeroing(): boolean {
    return true;
  }
}
