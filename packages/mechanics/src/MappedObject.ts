import {
  BaseObject,
  RealArray,
  contextMechanicalState,
  sofaComponent,
  stateTypeOf,
  type BaseState,
  type DataType,
  type StateType,
} from '@sofa-ts/core';

const Coords: DataType<Float64Array> = RealArray(0, 'vector<Coord>');
const Derivs: DataType<Float64Array> = RealArray(0, 'vector<Deriv>');

/**
 * SOFA's MappedObject: a state container holding only positions and velocities (core::State, not
 * a mechanical state), the output of a mapping that places a surface (visual or collision):
 *   position (n × coordSize) = φ(x_in),   velocity (n × derivSize) = J·v_in,
 * written by the mapping at its init and at the end of every step. No solver sees it: it has no
 * forces, no mass, and is not part of the mechanical system.
 * At init, an empty position takes the points of the context's mechanical state (the nearest one
 * of this node or its ancestors, as SOFA's getContext()->getMechanicalState()): each point's x, y, z
 * (the centre of a frame) in the coordinates this template has, the rest neutral (identity
 * orientation); velocities are then sized to the points, zero where not given.
 */
@sofaComponent({
  name: 'MappedObject',
  category: 'StateContainer',
  module: 'Sofa.Component.StateContainer',
  description: 'Mapped state vectors',
  templates: ['Vec3d', 'Vec1d', 'Vec2d', 'Vec6d', 'Rigid3d', 'Rigid2d'],
  defaultTemplate: 'Vec3d',
})
export class MappedObject extends BaseObject implements BaseState {
  readonly isState = true;
  readonly position = this.initData({ name: 'position', type: Coords, default: new Float64Array(0), help: 'position vector' });
  readonly velocity = this.initData({ name: 'velocity', type: Derivs, default: new Float64Array(0), help: 'velocity vector' });

  private _type: StateType | undefined;

  get stateType(): StateType {
    if (!this._type) {
      const t = stateTypeOf(this.template || 'Vec3d');
      if (!t) throw this.error(`template '${this.template}' is not a state template`);
      this._type = t;
    }
    return this._type;
  }

  get size(): number {
    return Math.floor(this.position.value.length / this.stateType.coordSize);
  }
  get x(): Float64Array {
    return this.position.value;
  }
  get v(): Float64Array {
    return this.velocity.value;
  }

  override init(): void {
    const t = this.stateType;
    this.template = t.name;
    if (this.position.value.length % t.coordSize !== 0)
      throw this.dataError(this.position, `${this.position.value.length} numbers are not points of ${t.coordSize} coordinates (${t.name})`);
    if (this.size === 0) this.takeContextPoints();
    const n = this.size;
    const v = this.velocity.value;
    if (v.length !== n * t.derivSize) {
      if (v.length > n * t.derivSize || v.length % t.derivSize !== 0)
        throw this.dataError(this.velocity, `${v.length} numbers for ${n} points of ${t.derivSize} derivatives (${t.name})`);
      const w = new Float64Array(n * t.derivSize);
      w.set(v);
      this.velocity.value = w;
    }
  }

  /** SOFA's init: x[i] = (px, py, pz) of point i of the context's mechanical state. */
  private takeContextPoints(): void {
    const ms = contextMechanicalState(this.context);
    if (!ms || ms.size === 0) return;
    const t = this.stateType,
      s = ms.stateType;
    const n = ms.size;
    const x = new Float64Array(n * t.coordSize);
    const d = Math.min(t.spatialDimensions, s.spatialDimensions);
    const src = ms.x;
    for (let i = 0; i < n; i++) {
      t.setDefaultCoord(x, i);
      for (let k = 0; k < d; k++) x[i * t.coordSize + k] = src[i * s.coordSize + k];
    }
    this.position.value = x;
  }

  resize(n: number): void {
    const t = this.stateType;
    const m = this.size;
    const x = new Float64Array(n * t.coordSize);
    x.set(this.position.value.subarray(0, Math.min(m, n) * t.coordSize));
    for (let i = m; i < n; i++) t.setDefaultCoord(x, i);
    const v = new Float64Array(n * t.derivSize);
    v.set(this.velocity.value.subarray(0, Math.min(this.velocity.value.length, v.length)));
    this.position.value = x;
    this.velocity.value = v;
  }

  touch(): void {
    this.position.touch();
    this.velocity.touch();
  }
}
