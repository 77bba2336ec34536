/**
 * Minimal test components for the ODE solver specs (not registered by the package): a state of
 * points, a mass (diagonal, or consistent and non-diagonal), a spring of every scalar dof to an
 * anchor with optional cubic hardening and damping, and a fixed-dof projection. Each one states its
 * closed form, so the specs can derive the exact answers independently of the solvers.
 */
import {
  contextStateLink,
  BaseForceField,
  BaseMass,
  BaseMechanicalState,
  BaseProjectiveConstraint,
  Bool,
  ComponentRegistry,
  Indices,
  Real,
  RealArray,
  Simulation,
  buildScene,
  componentModule,
  sofaComponent,
  stateTypeOf,
  type BaseMechanicalState as State,
  type MatrixAccumulator,
  type Node,
  type SceneElement,
  type StateType,
} from '@sofa-ts/core';
import solversModule from '../module.js';

const mstate = () => contextStateLink('state', 'a state');

/** Points with position and velocity given in the scene (template Vec1d by default, or Vec3d). */
@sofaComponent({
  name: 'TestPoints',
  category: 'StateContainer',
  description: 'test state',
  templates: ['Vec1d', 'Vec3d'],
  defaultTemplate: 'Vec1d',
})
export class TestPoints extends BaseMechanicalState {
  readonly position = this.initData({ name: 'position', type: RealArray(0), default: new Float64Array(0), help: 'positions' });
  readonly velocity = this.initData({ name: 'velocity', type: RealArray(0), default: new Float64Array(0), help: 'velocities' });
  private _x: Float64Array = new Float64Array(0);
  private _v: Float64Array = new Float64Array(0);
  private _f: Float64Array = new Float64Array(0);
  private _dx: Float64Array = new Float64Array(0);
  private _x0: Float64Array = new Float64Array(0);
  get stateType(): StateType {
    return stateTypeOf(this.template || 'Vec1d')!;
  }
  get size(): number {
    return this._x.length / this.stateType.coordSize;
  }
  get x(): Float64Array {
    return this._x;
  }
  get v(): Float64Array {
    return this._v;
  }
  get f(): Float64Array {
    return this._f;
  }
  get dx(): Float64Array {
    return this._dx;
  }
  get x0(): Float64Array {
    return this._x0;
  }
  override init(): void {
    const n = this.position.value.length;
    this._x = this.position.value.slice();
    this._x0 = this._x.slice();
    this._v = new Float64Array(n);
    this._v.set(this.velocity.value.subarray(0, n));
    this._f = new Float64Array(n);
    this._dx = new Float64Array(n);
  }
  bindStorage(s: { x: Float64Array; v: Float64Array; f: Float64Array; dx: Float64Array }): void {
    s.x.set(this._x);
    s.v.set(this._v);
    s.f.set(this._f);
    s.dx.set(this._dx);
    this._x = s.x;
    this._v = s.v;
    this._f = s.f;
    this._dx = s.dx;
  }
  touch(): void {}
}

/**
 * Mass m per scalar dof. consistent = true: points taken in pairs (0,1), (2,3)... share the
 * consistent matrix m·[2/3 1/3; 1/3 2/3] per axis (non-diagonal); an unpaired last point keeps m.
 * Gravity force f = M·g.
 */
@sofaComponent({ name: 'TestMass', category: 'Mass', description: 'test mass' })
export class TestMass extends BaseMass {
  readonly mass = this.initData({ name: 'mass', type: Real, default: 1, help: 'mass per point' });
  readonly consistent = this.initData({ name: 'consistent', type: Bool, default: false, help: 'pairwise consistent (non-diagonal) mass' });
  readonly mstate = this.initLink(mstate());
  getMechanicalState(): State {
    return this.mstate.require();
  }
  get isDiagonal(): boolean {
    return !this.consistent.value;
  }
  /** Calls fn(i, j, M_ij) for every nonzero of M (scalar dofs), in a fixed order. */
  private each(fn: (i: number, j: number, m: number) => void): void {
    const s = this.getMechanicalState();
    const d = s.stateType.derivSize;
    const n = s.size;
    const m = this.mass.value;
    for (let p = 0; p < n; p++) {
      const q = p ^ 1;
      const paired = this.consistent.value && q < n;
      for (let k = 0; k < d; k++) {
        fn(p * d + k, p * d + k, paired ? (2 / 3) * m : m);
        if (paired) fn(p * d + k, q * d + k, m / 3);
      }
    }
  }
  addMDx(out: Float64Array, dx: Float64Array, factor: number): void {
    this.each((i, j, m) => (out[i] = out[i] + factor * m * dx[j]));
  }
  addMToMatrix(acc: MatrixAccumulator, mFactor: number): void {
    this.each((i, j, m) => acc.add(i, j, mFactor * m));
  }
  addForce(f: Float64Array): void {
    const g = this.context.getGravity();
    const d = this.getMechanicalState().stateType.derivSize;
    this.each((i, j, m) => (f[i] = f[i] + m * g[j % d]));
  }
  accFromF(a: Float64Array, f: Float64Array): void {
    for (let i = 0; i < a.length; i++) a[i] = f[i] / this.mass.value;
  }
  getKineticEnergy(v: Float64Array): number {
    let e = 0;
    this.each((i, j, m) => (e += 0.5 * v[i] * m * v[j]));
    return e;
  }
  getPotentialEnergy(x: Float64Array): number {
    const g = this.context.getGravity();
    const d = this.getMechanicalState().stateType.derivSize;
    let e = 0;
    this.each((i, j, m) => (e -= x[i] * m * g[j % d]));
    return e;
  }
}

/**
 * Every scalar dof tied to its anchor a (default 0): with u = x − a,
 *   f = −k·u − c·u³ − d·v,   K = ∂f/∂x = −k − 3c·u²,   B = ∂f/∂v = −d,   E = ½k·u² + ¼c·u⁴.
 */
@sofaComponent({ name: 'TestSpring', category: 'ForceField', description: 'test spring' })
export class TestSpring extends BaseForceField {
  readonly stiffness = this.initData({ name: 'stiffness', type: Real, default: 1, help: 'k' });
  readonly cubic = this.initData({ name: 'cubic', type: Real, default: 0, help: 'c' });
  readonly damping = this.initData({ name: 'damping', type: Real, default: 0, help: 'd' });
  readonly anchor = this.initData({
    name: 'anchor',
    type: RealArray(0),
    default: new Float64Array(0),
    help: 'anchor per scalar dof (default 0)',
  });
  readonly mstate = this.initLink(mstate());
  private u: Float64Array = new Float64Array(0);
  getMechanicalStates(): readonly State[] {
    return [this.mstate.require()];
  }
  private a(i: number): number {
    return this.anchor.value[i] ?? 0;
  }
  addForce(f: readonly Float64Array[], x: readonly Float64Array[], v: readonly Float64Array[]): void {
    const n = x[0].length;
    if (this.u.length !== n) this.u = new Float64Array(n);
    const k = this.stiffness.value;
    const c = this.cubic.value;
    const d = this.damping.value;
    for (let i = 0; i < n; i++) {
      const u = x[0][i] - this.a(i);
      this.u[i] = u;
      f[0][i] = f[0][i] - k * u - c * u * u * u - d * v[0][i];
    }
  }
  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const k = this.stiffness.value;
    const c = this.cubic.value;
    const d = this.damping.value;
    for (let i = 0; i < dx[0].length; i++) df[0][i] = df[0][i] + (kFactor * (-k - 3 * c * this.u[i] ** 2) + bFactor * -d) * dx[0][i];
  }
  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    for (let i = 0; i < this.u.length; i++) acc.add(i, i, kFactor * (-this.stiffness.value - 3 * this.cubic.value * this.u[i] ** 2));
  }
  override addBToMatrix(acc: MatrixAccumulator, bFactor: number): void {
    for (let i = 0; i < this.u.length; i++) acc.add(i, i, -bFactor * this.damping.value);
  }
  override getPotentialEnergy(x: readonly Float64Array[]): number {
    let e = 0;
    for (let i = 0; i < x[0].length; i++) {
      const u = x[0][i] - this.a(i);
      e += 0.5 * this.stiffness.value * u * u + 0.25 * this.cubic.value * u ** 4;
    }
    return e;
  }
}

/** Fixes the listed scalar dofs (P zeroes them). */
@sofaComponent({ name: 'TestFixed', category: 'ProjectiveConstraintSet', description: 'test projection' })
export class TestFixed extends BaseProjectiveConstraint {
  readonly indices = this.initData({ name: 'indices', type: Indices, default: new Uint32Array(0), help: 'scalar dofs' });
  readonly mstate = this.initLink(mstate());
  getMechanicalState(): State {
    return this.mstate.require();
  }
  projectResponse(dx: Float64Array): void {
    for (const i of this.indices.value) dx[i] = 0;
  }
  /** Velocities are left as they are, as SOFA's FixedProjectiveConstraint does by default. */
  projectVelocity(_v: Float64Array): void {}
  projectPosition(): void {}
  projectedDofs(out: number[]): void {
    for (const i of this.indices.value) out.push(i);
  }
}

/** An element of a scene tree (attributes as strings). */
export function el(tag: string, attrs: Record<string, string | number | boolean> = {}, children: SceneElement[] = []): SceneElement {
  const loc = { file: 'test.scn', line: 1, column: 1 };
  return {
    tag,
    attributes: Object.entries(attrs).map(([name, value]) => ({ name, value: String(value), loc })),
    children,
    loc,
    file: 'test.scn',
  };
}

let registry: ComponentRegistry | undefined;

/** Builds and initialises a scene with the solvers and the test components. */
export function scene(root: SceneElement): { sim: Simulation; root: Node; get<T>(path: string): T } {
  if (!registry) {
    registry = new ComponentRegistry();
    registry.load('@sofa-ts/solvers', solversModule);
    registry.load('test', componentModule('test', [TestPoints, TestMass, TestSpring, TestFixed]));
  }
  const node = buildScene(root, registry);
  const sim = new Simulation(node);
  sim.init();
  return {
    sim,
    root: node,
    get<T>(path: string): T {
      const [nodeName, objName] = path.split('/');
      const n = nodeName === '' ? node : node.children.find((c) => c.getName() === nodeName)!;
      return n.objects.find((o) => o.getName() === objName) as T;
    },
  };
}

/** A root with gravity g (along the first axis) and dt, holding one child node `body`. */
export function oneBody(dt: number, g: number, body: SceneElement[]): SceneElement {
  return el('Node', { name: 'root', dt, gravity: `${g} 0 0` }, [el('DefaultAnimationLoop'), el('Node', { name: 'body' }, body)]);
}
