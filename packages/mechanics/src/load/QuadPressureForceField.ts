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
import { quadArea } from '../mass/element-geometry.js';
import { selectAlongPlane } from './pressure-selection.js';

/**
 * SOFA's QuadPressureForceField: a constant pressure vector on quads, times their area at rest
 * A_q (the two triangles (q0, q1, q2) and (q0, q2, q3)), shared by the four vertices:
 *   f_v += pressure·A_q / 4      (K = 0)
 * The quads are those of `quadList`, else, when dmin ≠ dmax, those whose four vertices satisfy
 * dmin < x0·normal < dmax at rest. A new `pressure` applies from the next step.
 */
@sofaComponent({
  name: 'QuadPressureForceField',
  category: 'ForceField',
  module: 'Sofa.Component.MechanicalLoad',
  description: 'Pressure applied on a set of quads (constant force per unit area at rest).',
  templates: ['Vec3d'],
})
export class QuadPressureForceField extends SingleStateForceField {
  readonly pressure = this.initData({
    name: 'pressure',
    type: RealArray(0, 'Deriv'),
    default: new Float64Array(0),
    unit: 'Pa',
    help: 'pressure force per unit area (a vector)',
  });
  readonly quadList = this.initData({
    name: 'quadList',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the quads the pressure is applied to',
  });
  readonly normal = this.initData({
    name: 'normal',
    type: RealArray(0, 'Coord'),
    default: new Float64Array(0),
    help: 'normal direction for the plane selection of quads',
  });
  readonly dmin = this.initData({
    name: 'dmin',
    type: Real,
    default: 0,
    unit: 'm',
    help: 'minimum distance from the origin along the normal direction',
  });
  readonly dmax = this.initData({
    name: 'dmax',
    type: Real,
    default: 0,
    unit: 'm',
    help: 'maximum distance from the origin along the normal direction',
  });
  readonly showForces = this.initData({
    name: 'showForces',
    type: Bool,
    default: false,
    help: 'draw the quads which have a given pressure',
    group: 'Visualization',
  });

  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'link to the topology container (default: the topology of the context)',
    accepts: isTopology,
    expected: 'a topology',
  });

  /** Loaded quads' vertices, (m × 4), and rest areas, (m). */
  private quads = new Uint32Array(0);
  private areas = new Float64Array(0);

  override init(): void {
    super.init();
    const s = this.states[0];
    if (!this.template) this.template = s.stateType.name;
    if (s.stateType.name !== 'Vec3d')
      throw this.error(`QuadPressureForceField needs a Vec3d state, ${s.describe()} is ${s.stateType.name}`);
    const topo = this.topology.get() ?? contextMeshTopology(this.context);
    if (!topo) throw this.error('no topology: add a quad topology in this node or above, or set topology="@path"');
    this.topology.set(topo);
    if (this.pressure.value.length !== 3) throw this.error(`'pressure' needs 3 numbers, got ${this.pressure.value.length}`);
    const all = topo.getQuads();
    let list: ArrayLike<number> = this.quadList.value;
    if (list.length === 0 && this.dmin.value !== this.dmax.value)
      list = selectAlongPlane(this, all, 4, s.x0, this.normal.value, this.dmin.value, this.dmax.value);
    if (list.length === 0) this.warn('no quad selected: the pressure acts on nothing', 'give quadList, or normal with dmin < dmax');
    this.quads = new Uint32Array(list.length * 4);
    this.areas = new Float64Array(list.length);
    const x0 = s.x0;
    for (let i = 0; i < list.length; i++) {
      const q = list[i];
      if (4 * q + 4 > all.length) throw this.error(`quad ${q} is out of range: ${topo.describe()} has ${all.length / 4} quads`);
      for (let k = 0; k < 4; k++) {
        const v = all[4 * q + k];
        if (v >= s.size) throw this.error(`quad ${q} names point ${v}, but ${s.describe()} has ${s.size} points`);
        this.quads[4 * i + k] = v;
      }
      const [a, b, c, d] = [this.quads[4 * i], this.quads[4 * i + 1], this.quads[4 * i + 2], this.quads[4 * i + 3]];
      this.areas[i] = quadArea(x0, a, b, c, d);
    }
  }

  addForce(f: readonly Float64Array[], _x: readonly Float64Array[], _v: readonly Float64Array[]): void {
    const out = f[0],
      p = this.pressure.value;
    for (let i = 0; i < this.areas.length; i++) {
      const s = this.areas[i] / 4;
      for (let j = 0; j < 4; j++) {
        const o = this.quads[4 * i + j] * 3;
        for (let k = 0; k < 3; k++) out[o + k] += p[k] * s;
      }
    }
  }

  /** A constant force: K = 0. */
  addDForce(_df: readonly Float64Array[], _dx: readonly Float64Array[], _kFactor: number, _bFactor: number): void {}

  addKToMatrix(_acc: MatrixAccumulator, _kFactor: number): void {}

  /** The rest area of each loaded quad. */
  get restAreas(): Float64Array {
    return this.areas;
  }
}
