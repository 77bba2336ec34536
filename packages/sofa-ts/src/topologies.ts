import { AnimateBeginEvent, BaseObject, isMapping, isTopology, type BaseMeshTopology, type Node, type SofaEvent } from '@sofa-ts/core';
import type { TopologyLists } from '@sofa-ts/io';

/** A topology with its node, in SOFA's visit order. */
export interface VisitedTopology {
  readonly index: number;
  readonly topology: BaseMeshTopology;
  readonly node: Node;
}

/**
 * The topologies SOFA's topology regression compares, in its order (CompareTopologyCreator):
 * depth first, a node before its children, document order; the first topology of each node that
 * has one, unless (without `mecaInMapping`) a mapping is in that node or an ancestor.
 */
export function comparedTopologies(root: Node, mecaInMapping: boolean): VisitedTopology[] {
  const out: VisitedTopology[] = [];
  const mappingAt = new Map<Node, boolean>(); // through any parent in a DAG
  root.visit((n) => {
    const mapping = n.objects.some(isMapping) || n.parents.some((p) => mappingAt.get(p) === true);
    mappingAt.set(n, mapping);
    const topology = n.objects.find(isTopology);
    if (topology && (mecaInMapping || !mapping)) out.push({ index: out.length, topology, node: n });
  });
  return out;
}

/** The element lists of a topology in SOFA's dump order (edges, triangles, quads, tetrahedra, hexahedra). */
export function topologyLists(t: BaseMeshTopology): TopologyLists {
  return [
    Uint32Array.from(t.getEdges()),
    Uint32Array.from(t.getTriangles()),
    Uint32Array.from(t.getQuads()),
    Uint32Array.from(t.getTetrahedra()),
    Uint32Array.from(t.getHexahedra()),
  ];
}

/**
 * Takes a copy of a topology's lists at the beginning of each step, as SOFA's WriteTopology and
 * CompareTopology do: put last in the node of the topology, it sees the changes made at that
 * moment by the components before it (a TopologicalChangeProcessor of the node or above).
 * Not a scene component: the regression runner adds it.
 */
export class TopologyFrameRecorder extends BaseObject {
  constructor(
    readonly topology: BaseMeshTopology,
    private readonly onFrame: (time: number, lists: TopologyLists) => void,
  ) {
    super();
    this.name.value = 'TopologyFrameRecorder';
  }

  override handleEvent(event: SofaEvent): void {
    if (event instanceof AnimateBeginEvent) this.onFrame(this.context.getTime(), topologyLists(this.topology));
  }
}
