import {
  Bool,
  contextMechanicalState,
  contextMeshTopology,
  DataEngine,
  IndexArray,
  isMechanicalState,
  isTopology,
  Real,
  sofaComponent,
  type BaseMechanicalState,
  type BaseMeshTopology,
  type Data,
} from '@sofa-ts/core';
import { Coords, isGiven } from '../engine-support.js';

/**
 * The shared part of SOFA's VolumeFromTriangles and VolumeFromVolumetricElements: positions follow
 * the context state's position unless given, the element lists are copied from the context
 * topology at init unless given, and the volume is computed at init — then again when the
 * positions change only with `update` (SOFA recomputes it at each step then).
 */
export abstract class VolumeEngine extends DataEngine {
  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'topology of the elements (default: the context topology)',
    accepts: isTopology,
    expected: 'a topology container',
  });
  readonly mechanical = this.initLink<BaseMechanicalState>({
    name: 'mechanical',
    help: 'state of the positions (default: the context state)',
    accepts: isMechanicalState,
    expected: 'a MechanicalObject',
  });
  readonly position = this.initData({
    name: 'position',
    type: Coords,
    default: new Float64Array(0),
    help: 'positions (default: those of the context state)',
    renamedFrom: ['positions'],
  });
  readonly volume = this.initData({
    name: 'volume',
    type: Real,
    default: 0,
    help: 'the volume (meaningful for a closed surface)',
    output: true,
  });
  readonly updateEachStep = this.initData({
    name: 'update',
    type: Bool,
    default: false,
    help: 'if true, the volume follows the positions at each step',
  });

  private computed = false;
  /** Checkpoint: whether the first computation was made (later ones depend on it). */
  readonly checkpointFields = ['computed'] as const;

  /** The element lists: [Data, topology getter name, vertices per element]. */
  protected abstract elementLists(): Array<[Data<Uint32Array>, (t: BaseMeshTopology) => Uint32Array, number]>;
  /** The signed volume of the elements. */
  protected abstract signedVolume(x: Float64Array): number;

  constructor() {
    super();
    this.addInput(this.position);
    this.addOutput(this.volume);
  }

  override init(): void {
    if (!isGiven(this.position)) {
      const s = this.mechanical.get() ?? contextMechanicalState(this.context);
      if (!s) throw this.error('no positions given and no mechanical state in the context');
      this.position.setParent(s.findData('position'));
    }
    const lists = this.elementLists();
    const topo = this.topology.get() ?? contextMeshTopology(this.context);
    if (!topo && !lists.some(([d]) => isGiven(d))) throw this.error('no elements given and no topology in the context');
    for (const [d, get] of lists) {
      this.addInput(d as Data<unknown>);
      if (!isGiven(d) && topo) d.value = Uint32Array.from(get(topo));
    }
    const n = this.position.value.length / 3;
    for (const [d] of lists)
      for (const v of d.value) if (v >= n) throw this.error(`'${d.name}' names point ${v}, but there are ${n} positions`);
    if (lists.every(([d]) => d.value.length === 0)) this.warn('no elements: the volume is 0');
    this.startUpdates();
  }

  protected updateOutputs(): void {
    if (this.computed && !this.updateEachStep.value) return;
    this.volume.value = Math.abs(this.signedVolume(this.position.value));
    this.computed = true;
  }
}

/**
 * SOFA's VolumeFromTriangles: the volume enclosed by a closed triangle (and quad) surface, by the
 * divergence theorem: V = |Σ_faces (x0 + x1 + x2)/6 · ((y1 − y0)(z2 − z0) − (y2 − y0)(z1 − z0))|,
 * quads split into (0 1 2) and (0 2 3).
 */
@sofaComponent({
  name: 'VolumeFromTriangles',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Generate',
  description: 'This class computes the volume of a given closed surfacic mesh.',
  templates: ['Vec3d'],
  defaultTemplate: 'Vec3d',
})
export class VolumeFromTriangles extends VolumeEngine {
  readonly triangles = this.initData({
    name: 'triangles',
    type: IndexArray(3, 'vector<Triangle>'),
    default: new Uint32Array(0),
    help: 'triangles (default: those of the context topology)',
  });
  readonly quads = this.initData({
    name: 'quads',
    type: IndexArray(4, 'vector<Quad>'),
    default: new Uint32Array(0),
    help: 'quads (default: those of the context topology)',
  });

  protected elementLists(): Array<[Data<Uint32Array>, (t: BaseMeshTopology) => Uint32Array, number]> {
    return [
      [this.triangles, (t) => t.getTriangles(), 3],
      [this.quads, (t) => t.getQuads(), 4],
    ];
  }

  protected signedVolume(x: Float64Array): number {
    return surfaceVolume(x, this.triangles.value, this.quads.value);
  }
}

/** Σ over the faces of x̄·n_x/… : the signed volume of a closed surface (triangles, quads as 2 triangles). */
export function surfaceVolume(x: Float64Array, tri: Uint32Array, quads: Uint32Array = new Uint32Array(0)): number {
  let v = 0;
  const face = (a: number, b: number, c: number): void => {
    const [x0, y0, z0] = [x[3 * a], x[3 * a + 1], x[3 * a + 2]];
    const [x1, y1, z1] = [x[3 * b], x[3 * b + 1], x[3 * b + 2]];
    const [x2, y2, z2] = [x[3 * c], x[3 * c + 1], x[3 * c + 2]];
    v += (((y1 - y0) * (z2 - z0) - (y2 - y0) * (z1 - z0)) * (x0 + x1 + x2)) / 6;
  };
  for (let i = 0; i + 3 <= tri.length; i += 3) face(tri[i], tri[i + 1], tri[i + 2]);
  for (let i = 0; i + 4 <= quads.length; i += 4) {
    face(quads[i], quads[i + 1], quads[i + 2]);
    face(quads[i], quads[i + 2], quads[i + 3]);
  }
  return v;
}
