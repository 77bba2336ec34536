import {
  BaseObject,
  Str,
  host,
  isMechanicalState,
  requireDataFile,
  sofaComponent,
  type BaseMechanicalState,
  type Node,
} from '@sofa-ts/core';
import { Articulation } from './Articulation.js';
import { ArticulationCenter, isArticulationCenter } from './ArticulationCenter.js';
import { parseBvh, type BvhJoint } from './bvh.js';

/**
 * SOFA's ArticulatedHierarchyContainer (ArticulatedSystemPlugin): the articulated rigid object's
 * list of ArticulationCenters, those of its node and of every node below, in visit order (the
 * order in which the ArticulatedSystemMapping places the bodies: a center's parent body must be
 * placed by an earlier center, or be the root).
 *
 * With `filename`, a BVH file (bvh.ts) gives the hierarchy, as SOFA builds it: a child node
 * "ArticulationCenters" of this node, and in it, for every joint that has children (depth first),
 * a node "parent/joint" holding an ArticulationCenter from body parentIndex (the parent joint's
 * id + 1, 0 for the root joint) to body childIndex = id + 1, posOnParent = the joint's OFFSET,
 * posOnChild = 0, and a node "articulations" holding one Articulation per channel, in the
 * channel's order: axis x, y or z, a translation for the position channels, a rotation for the
 * rotation channels, articulationIndex numbered over the whole file, its values per frame in
 * `motion` (ArticulatedHierarchyBVHController plays them). The Vec1d state of this node gets one
 * value per articulation, the Rigid3d state of the first child node one frame per joint + 1
 * (the added frames at the origin, unrotated).
 */
@sofaComponent({
  name: 'ArticulatedHierarchyContainer',
  category: 'Mapping',
  module: 'ArticulatedSystemPlugin',
  description: 'This class allow to store and retrieve all the articulation centers from an articulated rigid object.',
})
export class ArticulatedHierarchyContainer extends BaseObject {
  readonly filename = this.initData({ name: 'filename', type: Str, default: '', help: 'BVH File to load the articulation' });

  /** Frames of the BVH motion and their duration (SOFA's numOfFrames, dtbvh); 0 without a file. */
  numOfFrames = 0;
  dtbvh = 0;
  private nextIndex = 0;

  override init(): void {
    const name = this.filename.value.trim();
    if (name === '') return;
    const file = requireDataFile(this, name, 'BVH file');
    let bvh;
    try {
      bvh = parseBvh(host().readText(file, 'utf8'));
    } catch (e) {
      throw this.error(`BVH file '${name}': ${(e as Error).message}`);
    }
    this.numOfFrames = bvh.frameCount;
    this.dtbvh = bvh.frameTime;
    this.nextIndex = 0;
    const centers = this.context.createChild('ArticulationCenters');
    this.buildCenters(bvh.root, 0, 'Root', centers);
    const own = this.context.objects.find(isMechanicalState);
    if (!own || own.stateType.name !== 'Vec1d')
      throw this.error('a BVH hierarchy needs a Vec1d MechanicalObject in the node of the container (the articulations)');
    const first = this.context.children[0];
    const rigid = first?.objects.find(isMechanicalState);
    if (!rigid || rigid.stateType.name !== 'Rigid3d' || rigid === undefined)
      throw this.error('a BVH hierarchy needs a Rigid3d MechanicalObject in the first child node of the container (the bodies)');
    resize(this, own, this.nextIndex);
    resize(this, rigid, bvh.numJoints + 1);
  }

  /** SOFA's buildCenterArticulationsTree: the center of joint j (if it has children), then its children's. */
  private buildCenters(j: BvhJoint, parentBody: number, parentName: string, node: Node): void {
    if (j.children.length === 0) return;
    const n = node.createChild(`${parentName}/${j.name}`);
    const ac = new ArticulationCenter();
    ac.name.value = `ArticulationCenter_${j.name}`;
    ac.posOnParent.value = Float64Array.from(j.offset);
    ac.posOnChild.value = Float64Array.of(0, 0, 0);
    ac.parentIndex.value = parentBody;
    ac.childIndex.value = j.id + 1;
    ac.articulations = [];
    n.addObject(ac);
    const arts = n.createChild('articulations');
    const nc = j.channels.length;
    j.channels.forEach((c, k) => {
      if (c === 'NOP') return;
      const a = new Articulation();
      a.axis.value = Float64Array.of(c[0] === 'X' ? 1 : 0, c[0] === 'Y' ? 1 : 0, c[0] === 'Z' ? 1 : 0);
      if (c.endsWith('position')) a.translation.value = true;
      else a.rotation.value = true;
      a.articulationIndex.value = this.nextIndex++;
      a.motion = Float64Array.from({ length: this.numOfFrames }, (_, f) => j.motion[f * nc + k]);
      arts.addObject(a);
      ac.articulations!.push(a);
    });
    for (const c of j.children) this.buildCenters(c, j.id + 1, j.name, n);
  }

  /** The articulation centers of this node and the nodes below (SOFA's getTreeObjects). */
  getArticulationCenters(): ArticulationCenter[] {
    return this.context.getObjects(isArticulationCenter, 'down');
  }
}

/** Resizes a state (its MechanicalObject's resize); new Rigid3d frames get the identity rotation. */
function resize(owner: BaseObject, s: BaseMechanicalState, n: number): void {
  const r = (s as unknown as { resize?: (n: number) => void }).resize;
  if (!r) throw owner.error(`${s.describe()} cannot be resized to the BVH hierarchy`);
  const old = s.size;
  r.call(s, n);
  if (s.stateType.name !== 'Rigid3d') return;
  for (let i = old; i < n; i++) {
    s.x[7 * i + 6] = 1;
    if (s.x0.length === s.x.length) s.x0[7 * i + 6] = 1;
  }
}

export function isArticulatedHierarchyContainer(o: unknown): o is ArticulatedHierarchyContainer {
  return o instanceof ArticulatedHierarchyContainer;
}
