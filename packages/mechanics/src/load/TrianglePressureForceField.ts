import {
  BaseForceField,
  Bool,
  Indices,
  RealArray,
  contextMeshTopology,
  followElementIndices,
  isTopology,
  sofaComponent,
  type BaseMechanicalState,
  type BaseMeshTopology,
  type MatrixAccumulator,
} from '@sofa-ts/core';
import { mstateLink } from '../state-link.js';

/**
 * SOFA's TrianglePressureForceField: a pressure on the triangles of `triangleList`.
 *   useConstantForce (default): each triangle t gets F_t = pressure·A_t (pressure a force per unit
 *     area, a vector; A_t the triangle's area at rest), a third on each vertex;
 *   otherwise: each vertex of t gets σ·(x1 − x0)×(x2 − x0)/6 = σ·n_t·A_t/3 with σ = cauchyStress
 *     (symmetric, given as xx xy yy xz yz zz) and the current positions.
 * K = 0 (as in SOFA: the force is not differentiated). The triangle list follows the topology's
 * changes (a removed triangle leaves it, the moved last one is renamed), as SOFA's
 * TopologySubsetData.
 */
@sofaComponent({
  name: 'TrianglePressureForceField',
  category: 'ForceField',
  module: 'Sofa.Component.MechanicalLoad',
  description: 'Pressure (a force per unit area) on given triangles.',
  templates: ['Vec3d'],
})
export class TrianglePressureForceField extends BaseForceField {
  readonly pressure = this.initData({ name: 'pressure', type: RealArray(3, 'Deriv'), default: new Float64Array(3), unit: 'N/m²', help: 'pressure force per unit area (a vector)' });
  readonly cauchyStress = this.initData({ name: 'cauchyStress', type: RealArray(6, 'MatSym3'), default: new Float64Array(6), unit: 'Pa', help: 'Cauchy stress (xx xy yy xz yz zz) applied on the normal of each triangle, when useConstantForce is false' });
  readonly triangleList = this.initData({ name: 'triangleList', type: Indices, default: new Uint32Array(0), help: 'indices of the triangles the pressure is applied to' });
  readonly showForces = this.initData({ name: 'showForces', type: Bool, default: false, help: 'draw the triangles which have a given pressure', group: 'Visualization' });
  readonly useConstantForce = this.initData({ name: 'useConstantForce', type: Bool, default: true, help: 'the force is the pressure vector times the area at rest' });

  readonly mstate = this.initLink(mstateLink());
  readonly topology = this.initLink<BaseMeshTopology>({ name: 'topology', help: 'link to the topology container (default: the one of this node or above)', accepts: isTopology, expected: 'a topology container' });

  private states: BaseMechanicalState[] = [];
  /** Rest area of each listed triangle, (nList), for the Data counters and revision below. */
  private areas = new Float64Array(0);
  private builtFor = { list: -1, revision: -1 };

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  override init(): void {
    const s = this.mstate.require();
    this.states = [s];
    if (!this.template) this.template = s.stateType.name;
    if (s.stateType.derivSize !== 3 || s.stateType.isRigid) throw this.error(`TrianglePressureForceField acts on Vec3 points (the state is ${s.stateType.name})`);
    const topo = this.topology.get() ?? contextMeshTopology(this.context);
    if (!topo) throw this.error('no topology: the pressure needs the triangles of a topology in its node or above (or topology="@path")');
    this.topology.set(topo);
    followElementIndices(topo, 'triangle', this.triangleList);
    this.build();
  }

  /** Rest areas of the listed triangles (again after a change of the list or of the topology). */
  private build(): void {
    const topo = this.topology.require();
    const list = this.triangleList.value;
    const tri = topo.getTriangles();
    const x0 = this.mstate.require().x0;
    const areas = new Float64Array(list.length);
    for (let i = 0; i < list.length; i++) {
      const t = list[i]!;
      if (3 * t + 2 >= tri.length) throw this.error(`triangle ${t} of triangleList does not exist (the topology has ${tri.length / 3} triangles)`);
      const a = 3 * tri[3 * t]!, b = 3 * tri[3 * t + 1]!, c = 3 * tri[3 * t + 2]!;
      const ux = x0[b]! - x0[a]!, uy = x0[b + 1]! - x0[a + 1]!, uz = x0[b + 2]! - x0[a + 2]!;
      const vx = x0[c]! - x0[a]!, vy = x0[c + 1]! - x0[a + 1]!, vz = x0[c + 2]! - x0[a + 2]!;
      areas[i] = 0.5 * Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx);
    }
    this.areas = areas;
    this.builtFor = { list: this.triangleList.counter, revision: topo.changeRevision };
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], _v: readonly Float64Array[]): void {
    const topo = this.topology.require();
    if (this.triangleList.counter !== this.builtFor.list || topo.changeRevision !== this.builtFor.revision) this.build();
    const ff = f[0]!, p = x[0]!;
    const list = this.triangleList.value;
    const tri = topo.getTriangles();
    if (this.useConstantForce.value) {
      const P = this.pressure.value;
      for (let i = 0; i < list.length; i++) {
        // F_t / 3 on each vertex, F_t = pressure·A_t
        const s = this.areas[i]! / 3;
        for (let j = 0; j < 3; j++) {
          const o = 3 * tri[3 * list[i]! + j]!;
          ff[o] += P[0]! * s;
          ff[o + 1] += P[1]! * s;
          ff[o + 2] += P[2]! * s;
        }
      }
      return;
    }
    const S = this.cauchyStress.value;
    for (let i = 0; i < list.length; i++) {
      const t = 3 * list[i]!;
      const a = 3 * tri[t]!, b = 3 * tri[t + 1]!, c = 3 * tri[t + 2]!;
      const ux = p[b]! - p[a]!, uy = p[b + 1]! - p[a + 1]!, uz = p[b + 2]! - p[a + 2]!;
      const vx = p[c]! - p[a]!, vy = p[c + 1]! - p[a + 1]!, vz = p[c + 2]! - p[a + 2]!;
      // area vector (x1 − x0)×(x2 − x0)/6, then σ·it on each vertex (σ stored xx xy yy xz yz zz)
      const nx = (uy * vz - uz * vy) / 6, ny = (uz * vx - ux * vz) / 6, nz = (ux * vy - uy * vx) / 6;
      const fx = S[0]! * nx + S[1]! * ny + S[3]! * nz;
      const fy = S[1]! * nx + S[2]! * ny + S[4]! * nz;
      const fz = S[3]! * nx + S[4]! * ny + S[5]! * nz;
      for (let j = 0; j < 3; j++) {
        const o = 3 * tri[t + j]!;
        ff[o] += fx;
        ff[o + 1] += fy;
        ff[o + 2] += fz;
      }
    }
  }

  addDForce(_df: readonly Float64Array[], _dx: readonly Float64Array[], _kFactor: number, _bFactor: number): void {}

  addKToMatrix(_acc: MatrixAccumulator, _kFactor: number): void {}
}
