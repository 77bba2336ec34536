import {
  BaseObject,
  Bool,
  Real,
  Str,
  contextMeshTopology,
  resolvePath,
  sofaComponent,
  type BaseMeshTopology,
  type SofaEvent,
} from '@sofa-ts/core';
import { removeMappedItems, type RemovedElementKind } from '@sofa-ts/topology';
import { isNarrowPhase, type NarrowPhase } from '../detection/narrow-phase.js';
import { isCollisionModel, type CollisionModel } from '../model/CollisionModel.js';

const TOOL_TAG = 'CarvingTool';
const SURFACE_TAG = 'CarvingSurface';

/**
 * SOFA's CarvingManager (plugin SofaCarving): at the end of each step while active, the contacts
 * the narrow phase found between the tool's collision model and a surface model (tag
 * CarvingSurface) whose value (distance − contact distance) is below carvingDistance name the
 * surface elements to remove; they are removed from the topology they come from (the tetrahedra
 * under the touched boundary triangles, through the Tetra2TriangleTopologicalMapping), as SOFA's
 * TopologicalChangeManager does, and the topological mappings update the surface.
 *
 * Keys: pressing `key` activates until it is released, `keySwitch` toggles (sofa-ts's
 * `--key STEP:KEY`, the viewer's keys).
 *
 * sofa-ts departs from SOFA in one point: the elements of every surface model are gathered before
 * any is removed (SOFA removes after each pair, so the next pair's element indices may name
 * elements renumbered by the first removal); the removal per topology is the same.
 */
@sofaComponent({
  name: 'CarvingManager',
  category: 'Collision',
  module: 'SofaCarving',
  description: 'Manager handling carving operations between a tool and an object.',
})
export class CarvingManager extends BaseObject {
  readonly toolModel = this.initLink<CollisionModel>({
    name: 'toolModel',
    help: 'link to the carving collision model, if not set, manager will search for a collision model with tag: CarvingTool.',
    accepts: isCollisionModel,
    expected: 'a collision model',
  });
  readonly narrowPhaseDetection = this.initLink<NarrowPhase>({
    name: 'narrowPhaseDetection',
    help: 'link to the narrow Phase Detection component, if not set, manager will search for it in root Node.',
    accepts: isNarrowPhase,
    expected: 'a narrow phase (BVHNarrowPhase, ...)',
  });
  readonly surfaceModelPath = this.initData({
    name: 'surfaceModelPath',
    type: Str,
    default: '',
    help: 'TriangleSetModel or SphereCollisionModel<sofa::defaulttype::Vec3Types> path',
  });
  readonly carvingDistance = this.initData({
    name: 'carvingDistance',
    type: Real,
    default: 0,
    help: 'Collision distance at which cavring will start. Equal to contactDistance by default.',
  });
  readonly active = this.initData({
    name: 'active',
    type: Bool,
    default: false,
    help: 'Activate this object.\nNote that this can be dynamically controlled by using a key',
  });
  readonly key = this.initData({
    name: 'key',
    type: Str,
    default: '1',
    help: 'key to press to activate this object until the key is released',
  });
  readonly keySwitch = this.initData({
    name: 'keySwitch',
    type: Str,
    default: '4',
    help: 'key to activate this object until the key is pressed again',
  });

  private surfaces: CollisionModel[] = [];
  /** Per surface topology, the elements to remove this step (reused). */
  private readonly selected = new Map<CollisionModel, number[]>();
  private readonly scratch = new Set<number>();
  /** Elements removed since init, over all surfaces (for tests and logs). */
  removedCount = 0;

  constructor() {
    super();
    this.listening.value = true;
  }

  override init(): void {
    for (const d of [this.key, this.keySwitch])
      if ([...d.value].length !== 1) throw this.dataError(d, `${d.spec.name}="${d.value}" must be one character (SOFA's char)`);
    if (!this.toolModel.get()) {
      const tool = this.context.getObject((o): o is CollisionModel => isCollisionModel(o) && o.tags.value.includes(TOOL_TAG), 'root');
      if (tool) this.toolModel.set(tool);
    }
    const path = this.surfaceModelPath.value;
    if (path === '') {
      this.surfaces = this.context.getObjects(
        (o): o is CollisionModel => isCollisionModel(o) && o.tags.value.includes(SURFACE_TAG),
        'root',
      );
    } else {
      const t = resolvePath(this, path);
      if (!t || t.kind !== 'object' || !isCollisionModel(t.object))
        throw this.error(`surfaceModelPath="${path}" names no collision model`, 'give the path of the carved collision model');
      this.surfaces = [t.object];
    }
    if (!this.narrowPhaseDetection.get()) {
      const np = this.context.getObject((o): o is NarrowPhase & BaseObject => isNarrowPhase(o), 'root');
      if (np) this.narrowPhaseDetection.set(np);
    }
    if (!this.toolModel.get())
      throw this.error(
        'Tool Collision Model not found',
        `set the link toolModel="@path" or set tags="${TOOL_TAG}" on the tool's collision model`,
      );
    if (this.surfaces.length === 0)
      throw this.error('no carved collision model found', `set tags="${SURFACE_TAG}" on the collision models to carve`);
    if (!this.narrowPhaseDetection.get())
      throw this.error(
        'NarrowPhaseDetection not found',
        'add a narrow phase (BVHNarrowPhase) to the scene, or link it with narrowPhaseDetection',
      );
    for (const s of this.surfaces) {
      if (kindOf(s) === undefined)
        this.warn(
          `${s.describe()} is a ${s.kind} model: sofa-ts carves triangle, point and tetrahedron models only, its contacts are ignored`,
        );
    }
  }

  override handleEvent(event: SofaEvent): void {
    if (event.type === 'KeypressedEvent') {
      const key = (event as SofaEvent & { key: string }).key;
      if (key === this.key.value) this.active.value = true;
      else if (key === this.keySwitch.value) this.active.value = !this.active.value;
    } else if (event.type === 'KeyreleasedEvent') {
      if ((event as SofaEvent & { key: string }).key === this.key.value) this.active.value = false;
    } else if (event.type === 'AnimateEndEvent' && this.active.value) this.doCarve();
  }

  /** Removes the surface elements whose contact with the tool has value < carvingDistance. */
  doCarve(): void {
    const tool = this.toolModel.get();
    const np = this.narrowPhaseDetection.get();
    if (!tool || !np) return;
    const carv = this.carvingDistance.value;
    for (const list of this.selected.values()) list.length = 0;
    for (const pair of np.getDetectionOutputs()) {
      let target: CollisionModel, toolFirst: boolean;
      if (pair.a === tool && pair.b.tags.value.includes(SURFACE_TAG)) [target, toolFirst] = [pair.b, true];
      else if (pair.b === tool && pair.a.tags.value.includes(SURFACE_TAG)) [target, toolFirst] = [pair.a, false];
      else continue;
      if (kindOf(target) === undefined) continue;
      const o = pair.outputs;
      let list = this.selected.get(target);
      if (!list) this.selected.set(target, (list = []));
      for (let k = 0; k < o.count; k++) if (o.value[k] < carv) list.push(toolFirst ? o.elem2[k] : o.elem1[k]);
    }
    for (const [model, list] of this.selected) {
      if (list.length === 0) continue;
      const topo = modelTopology(model);
      if (!topo) {
        this.warn(`Carving failed: ${model.describe()} has no topology to remove elements from`);
        continue;
      }
      const r = removeMappedItems(topo, kindOf(model)!, list, this.scratch);
      if (r.removed === 0)
        this.warn(
          `Carving failed, ${list.length} elements were selected for carving, but none were removed${r.reason ? `: ${r.reason}` : ''}`,
        );
      this.removedCount += r.removed;
    }
  }
}

function kindOf(m: CollisionModel): RemovedElementKind | undefined {
  return m.kind === 'triangle' || m.kind === 'point' || m.kind === 'tetrahedron' ? m.kind : undefined;
}

/** The topology the model's elements index (its link, else its node's). */
function modelTopology(m: CollisionModel): BaseMeshTopology | undefined {
  return m.topology.get() ?? contextMeshTopology(m.context);
}
