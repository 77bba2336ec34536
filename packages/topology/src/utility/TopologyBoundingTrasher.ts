import {
  BaseObject,
  Bool,
  contextMeshTopology,
  isTopology,
  RealArray,
  sofaComponent,
  VecN,
  type BaseMeshTopology,
  type SofaEvent,
} from '@sofa-ts/core';
import { isTopologyContainer } from '../container/topology-container.js';
import { EdgeSetTopologyModifier } from '../container/EdgeSetTopologyModifier.js';
import { HexahedronSetTopologyModifier } from '../container/HexahedronSetTopologyModifier.js';
import { QuadSetTopologyModifier } from '../container/QuadSetTopologyModifier.js';
import { TetrahedronSetTopologyModifier } from '../container/TetrahedronSetTopologyModifier.js';
import { TriangleSetTopologyModifier } from '../container/TriangleSetTopologyModifier.js';

type Kind = 'hexahedron' | 'tetrahedron' | 'quad' | 'triangle' | 'edge';
const NODES: Record<Kind, number> = { hexahedron: 8, tetrahedron: 4, quad: 4, triangle: 3, edge: 2 };

/**
 * SOFA's TopologyBoundingTrasher: at each AnimateEndEvent, the elements of the topology's highest
 * kind (hexahedra, else tetrahedra, quads, triangles, edges) whose barycentre, from `position`,
 * lies outside the box (xmin ymin zmin xmax ymax zmax; the bounds belong to the box) are removed
 * through the node's modifier of that kind, with the edges and points they leave isolated (SOFA's
 * removeTriangles/removeQuads(…, true, true), removeTetrahedra, removeHexahedra, removeEdges).
 */
@sofaComponent({
  name: 'TopologyBoundingTrasher',
  category: 'TopologyUtility',
  module: 'Sofa.Component.Topology.Utility',
  description: 'Remove the elements of a dynamic topology whose barycentre leaves a box, at the end of each step.',
  templates: ['Vec3d'],
  defaultTemplate: 'Vec3d',
})
export class TopologyBoundingTrasher extends BaseObject {
  readonly position = this.initData({
    name: 'position',
    type: RealArray(3, 'vector<Vec3d>'),
    default: new Float64Array(0),
    help: 'positions of the points of the topology',
  });
  readonly box = this.initData({
    name: 'box',
    type: VecN(6, 'Vec6d'),
    default: Float64Array.of(-1000, -1000, -1000, 1000, 1000, 1000),
    help: 'the box (xmin, ymin, zmin, xmax, ymax, zmax) outside which elements are removed',
  });
  readonly drawBox = this.initData({ name: 'drawBox', type: Bool, default: false, help: 'draw the box', group: 'Visualization' });
  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: "link to the topology container (default: the node's)",
    accepts: isTopology,
    expected: 'a dynamic topology container',
  });

  private kind: Kind | undefined;
  private remove: ((ids: number[]) => void) | undefined;
  private readonly ids: number[] = [];

  constructor() {
    super();
    this.listening.value = true;
  }

  /**
   * The container this changes builds its editable mesh now (TopologyContainer.prepareChanges):
   * the first change does not pay for its faces, edges and shells, as in SOFA.
   */
  override bwdInit(): void {
    super.bwdInit();
    const c = this.topology.get();
    if (isTopologyContainer(c)) c.prepareChanges();
  }

  override init(): void {
    const topo = this.topology.get() ?? contextMeshTopology(this.context);
    if (!topo) throw this.error('no topology: set topology="@container" or put a dynamic topology container in the node');
    this.topology.set(topo);
    const find = <M>(cls: abstract new (...args: never[]) => M, what: string): M => {
      const m = this.context.getObject((o): o is M & BaseObject => o instanceof cls, 'up');
      if (!m) throw this.error(`${what} topology but no modifier found: add <${cls.name}/>`);
      return m;
    };
    if (topo.getHexahedra().length > 0) {
      const m = find(HexahedronSetTopologyModifier, 'hexahedron');
      [this.kind, this.remove] = ['hexahedron', (ids) => m.removeHexahedra(ids)];
    } else if (topo.getTetrahedra().length > 0) {
      const m = find(TetrahedronSetTopologyModifier, 'tetrahedron');
      [this.kind, this.remove] = ['tetrahedron', (ids) => m.removeTetrahedra(ids)];
    } else if (topo.getQuads().length > 0) {
      const m = find(QuadSetTopologyModifier, 'quad');
      [this.kind, this.remove] = ['quad', (ids) => m.removeQuads(ids, true, true)];
    } else if (topo.getTriangles().length > 0) {
      const m = find(TriangleSetTopologyModifier, 'triangle');
      [this.kind, this.remove] = ['triangle', (ids) => m.removeTriangles(ids, true, true)];
    } else if (topo.getEdges().length > 0) {
      const m = find(EdgeSetTopologyModifier, 'edge');
      [this.kind, this.remove] = ['edge', (ids) => m.removeEdges(ids)];
    } else this.warn(`${topo.describe()} has no elements: nothing will be removed`);
  }

  override handleEvent(event: SofaEvent): void {
    if (!this.listening.value || event.type !== 'AnimateEndEvent' || !this.kind) return;
    this.filterElementsToRemove();
  }

  /** Removes the elements whose barycentre is outside the box. */
  filterElementsToRemove(): void {
    const topo = this.topology.get()!,
      kind = this.kind!,
      nn = NODES[kind];
    const elems =
      kind === 'hexahedron'
        ? topo.getHexahedra()
        : kind === 'tetrahedron'
          ? topo.getTetrahedra()
          : kind === 'quad'
            ? topo.getQuads()
            : kind === 'triangle'
              ? topo.getTriangles()
              : topo.getEdges();
    const x = this.position.value,
      b = this.box.value,
      np = x.length / 3;
    this.ids.length = 0;
    for (let e = 0; e < elems.length / nn; e++) {
      let cx = 0,
        cy = 0,
        cz = 0;
      for (let k = 0; k < nn; k++) {
        const p = elems[nn * e + k];
        if (p >= np)
          throw this.error(
            `element ${e} has point ${p}, but 'position' has ${np} points`,
            'link position to the state of the topology (position="@dofs.position")',
          );
        cx += x[3 * p];
        cy += x[3 * p + 1];
        cz += x[3 * p + 2];
      }
      cx /= nn;
      cy /= nn;
      cz /= nn;
      if (cx < b[0] || cx > b[3] || cy < b[1] || cy > b[4] || cz < b[2] || cz > b[5]) this.ids.push(e);
    }
    if (this.ids.length > 0) this.remove!(this.ids);
  }
}
