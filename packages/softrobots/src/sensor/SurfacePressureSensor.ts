import {
  contextStateLink,
  AnimateEndEvent,
  BaseObject,
  Bool,
  IndexArray,
  Real,
  contextMeshTopology,
  sofaComponent,
  type BaseMechanicalState,
  type SofaEvent,
} from '@sofa-ts/core';
import { cavityMaxIndex, cavityVolume } from '../constraint/surface-pressure-geometry.js';

/**
 * A cavity volume sensor (SoftRobots' SurfacePressureSensor, as a plain measuring component): the
 * volume |V| enclosed by `triangles` and `quads` of a Vec3 state (by default the faces of the
 * context topology), V as in surface-pressure-geometry.ts, measured at init and at the end of
 * every step (AnimateEndEvent), and its growth |V| − V₀. It adds no constraint row and no force.
 * Data names are those of SoftRobots' surface pressure model (cavityVolume, initialCavityVolume,
 * volumeGrowth).
 */
@sofaComponent({
  name: 'SurfacePressureSensor',
  category: 'SoftRobots',
  module: 'SoftRobots',
  description: 'Measures the volume of a cavity (closed surface of triangles and quads) at the end of each step.',
  templates: ['Vec3d'],
})
export class SurfacePressureSensor extends BaseObject {
  readonly triangles = this.initData({
    name: 'triangles',
    type: IndexArray(3, 'vector<Triangle>'),
    default: new Uint32Array(0),
    help: 'triangles of the cavity surface (with quads empty too: the faces of the context topology)',
  });
  readonly quads = this.initData({
    name: 'quads',
    type: IndexArray(4, 'vector<Quad>'),
    default: new Uint32Array(0),
    help: 'quads of the cavity surface (with triangles empty too: the faces of the context topology)',
  });
  readonly flipNormal = this.initData({
    name: 'flipNormal',
    type: Bool,
    default: false,
    help: 'the faces point into the cavity (no effect on the measured |V|)',
  });

  readonly initialCavityVolume = this.initData({
    name: 'initialCavityVolume',
    type: Real,
    default: 0,
    help: 'cavity volume V₀ at init',
    output: true,
  });
  readonly cavityVolume = this.initData({
    name: 'cavityVolume',
    type: Real,
    default: 1,
    help: 'cavity volume |V| at the end of the last step',
    output: true,
  });
  readonly volumeGrowth = this.initData({
    name: 'volumeGrowth',
    type: Real,
    default: 0,
    help: 'volume growth |V| − V₀ at the end of the last step',
    output: true,
  });

  readonly mstate = this.initLink<BaseMechanicalState>(
    contextStateLink(
      'the Vec3 state of the cavity surface (default: the one of its node, else of the nearest ancestor that has one)',
      'a MechanicalObject (Vec3d)',
    ),
  );

  private state: BaseMechanicalState | undefined;

  override init(): void {
    const s = this.mstate.require();
    if (s.stateType.name !== 'Vec3d') throw this.error(`a Vec3d state is needed (got ${s.stateType.name})`);
    this.template = 'Vec3d';
    if (this.triangles.value.length === 0 && this.quads.value.length === 0) {
      const topo = contextMeshTopology(this.context);
      if (!topo) throw this.error('no faces: give triangles and/or quads, or put a topology with the cavity surface in this node or above');
      this.triangles.setValue(topo.getTriangles().slice());
      this.quads.setValue(topo.getQuads().slice());
      if (this.triangles.value.length === 0 && this.quads.value.length === 0)
        throw this.error(`the topology ${topo.describe()} has no triangles nor quads: give the cavity surface (triangles, quads)`);
    }
    const m = cavityMaxIndex(this.triangles.value, this.quads.value);
    if (m >= s.size) throw this.error(`the faces use point ${m}, out of range (${s.describe()} has ${s.size} points)`);
    this.state = s;
    this.measureInitial();
  }

  /** Measured again once the mappings are initialised (a mapped cavity state). */
  override bwdInit(): void {
    if (this.state) this.measureInitial();
  }

  override reset(): void {
    this.cavityVolume.setValue(this.initialCavityVolume.value);
    this.volumeGrowth.setValue(0);
  }

  private measureInitial(): void {
    const V = cavityVolume(this.state!.x, this.triangles.value, this.quads.value);
    this.initialCavityVolume.setValue(V);
    this.cavityVolume.setValue(V);
    this.volumeGrowth.setValue(0);
  }

  override handleEvent(event: SofaEvent): void {
    if (!(event instanceof AnimateEndEvent) || !this.state) return;
    const V = cavityVolume(this.state.x, this.triangles.value, this.quads.value);
    this.cavityVolume.setValue(V);
    this.volumeGrowth.setValue(V - this.initialCavityVolume.value);
  }
}
