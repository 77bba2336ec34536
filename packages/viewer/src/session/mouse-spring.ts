import {
  BaseForceField,
  Int,
  Real,
  Vec3,
  componentModule,
  sofaComponent,
  type BaseMechanicalState,
  type MatrixAccumulator,
} from '@sofa-ts/core';

/**
 * The viewer's mouse spring (runSofa's shift-drag, SOFA's AttachBodyPerformer): a zero-length
 * spring from point `index` of its node's state to the cursor point `target`,
 *   f_i = k·(target − x_i),   K_ii = −k·I₃ (the other blocks are zero).
 * The viewer adds one, idle (index −1), to every node holding an unmapped Vec3 state before init,
 * so it is part of the compiled system from the start. Idle, it adds nothing to f and zeros to the
 * matrix diagonal (the same entries at every call, as the assembly engine requires): the states
 * are bit for bit those of a run without it.
 */
@sofaComponent({
  name: 'MouseSpringForceField',
  category: 'ForceField',
  module: 'SofaTs.Viewer',
  description: "The viewer's mouse interaction: a spring from a picked point to the cursor (idle when index is -1).",
  templates: ['Vec3d'],
})
export class MouseSpringForceField extends BaseForceField {
  readonly index = this.initData({ name: 'index', type: Int, default: -1, help: 'picked point of the state (-1: idle)' });
  readonly target = this.initData({
    name: 'target',
    type: Vec3,
    default: new Float64Array(3),
    unit: 'm',
    help: 'cursor point the picked point is pulled to',
  });
  readonly stiffness = this.initData({
    name: 'stiffness',
    type: Real,
    default: 1000,
    unit: 'N/m',
    help: "spring stiffness (runSofa's default 1000)",
  });

  private states: BaseMechanicalState[] = [];

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  override init(): void {
    const s = this.context.getObject(
      (o): o is BaseMechanicalState => (o as { isMechanicalState?: boolean }).isMechanicalState === true,
      'local',
    );
    if (!s) throw this.error('no mechanical state in this node');
    if (s.stateType.name !== 'Vec3d') throw this.error(`a Vec3d state is needed, ${s.describe()} is ${s.stateType.name}`);
    this.states = [s];
    this.template = 'Vec3d';
  }

  /** The picked point, or -1 (also when it left the state's range). */
  private active(): number {
    const i = this.index.value;
    return i >= 0 && i < (this.states[0]?.size ?? 0) ? i : -1;
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[]): void {
    const i = this.active();
    if (i < 0) return;
    const k = this.stiffness.value;
    const t = this.target.value;
    // f_i += k·(target − x_i)
    for (let a = 0; a < 3; a++) f[0][3 * i + a] += k * (t[a] - x[0][3 * i + a]);
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number): void {
    const i = this.active();
    if (i < 0) return;
    const c = -this.stiffness.value * kFactor;
    for (let a = 0; a < 3; a++) df[0][3 * i + a] += c * dx[0][3 * i + a];
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    const n = this.states[0]?.size ?? 0;
    const i = this.active();
    const c = -this.stiffness.value * kFactor;
    for (let p = 0; p < n; p++) for (let a = 0; a < 3; a++) acc.add(3 * p + a, 3 * p + a, p === i ? c : 0);
  }

  override getPotentialEnergy(x: readonly Float64Array[]): number {
    const i = this.active();
    if (i < 0) return 0;
    const t = this.target.value;
    let d2 = 0;
    for (let a = 0; a < 3; a++) d2 += (t[a] - x[0][3 * i + a]) ** 2;
    return 0.5 * this.stiffness.value * d2;
  }
}

export const viewerComponents = [MouseSpringForceField] as const;
export const viewerModule = componentModule('@sofa-ts/viewer', viewerComponents);
