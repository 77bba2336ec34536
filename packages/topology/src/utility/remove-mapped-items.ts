import { BaseObject, type BaseMeshTopology } from '@sofa-ts/core';
import { listAt } from '../container/adjacency.js';
import { PointSetTopologyModifier } from '../container/PointSetTopologyModifier.js';
import { TopologyContainer } from '../container/topology-container.js';
import { TopologicalMapping } from '../mapping/topological-mapping.js';

/** The elements a collision model is made of, as a removal reads its indices. */
export type RemovedElementKind = 'point' | 'triangle' | 'tetrahedron';

/** What a removal did: how many elements it removed, from which topology, or why none. */
export interface MappedRemoval {
  removed: number;
  topology?: BaseMeshTopology;
  /** Why nothing could be removed (undefined when the removal ran). */
  reason?: string;
}

/**
 * SOFA's TopologicalChangeManager::removeItemsFrom{Triangle,Point}Model, which carving and the
 * mouse's cutting use: elements of a collision model's topology are removed from the topology they
 * come from.
 *   - points become the triangles around them;
 *   - triangles of a topology with tetrahedra become their (first) tetrahedron, else stay triangles;
 *   - then, while the node of the current topology holds a topological mapping producing it, the
 *     items become the input elements they come from (getFromIndex) and the input is the current
 *     topology (a Tetra2TriangleTopologicalMapping turns boundary triangles into their tetrahedra);
 *   - the items, in decreasing order without repeats, go to removeItems of the current topology's
 *     modifier, which tells the topology's handlers and mappings, then an end of changes.
 * `scratch` is reused between calls (the items of one removal).
 */
export function removeMappedItems(
  topology: BaseMeshTopology,
  kind: RemovedElementKind,
  indices: ArrayLike<number>,
  scratch: Set<number> = new Set(),
): MappedRemoval {
  if (!(topology instanceof TopologyContainer))
    return { removed: 0, reason: `${topology.describe()} is not a dynamic topology container (it cannot lose elements)` };
  let items = scratch;
  items.clear();
  let kindNow: RemovedElementKind = kind;
  if (kindNow === 'point') {
    const around = topology.getTrianglesAroundVertex();
    for (let k = 0; k < indices.length; k++) {
      const p = indices[k];
      if (p + 1 < around.offsets.length) for (const t of listAt(around, p)) items.add(t);
    }
    kindNow = 'triangle';
  } else for (let k = 0; k < indices.length; k++) items.add(indices[k]);
  if (kindNow === 'triangle') {
    const nbt = topology.getTriangles().length / 3;
    for (const t of items) if (t >= nbt) items.delete(t); // elements from split quads: not removed
    if (topology.getTetrahedra().length > 0) {
      const around = topology.getTetrahedraAroundTriangle();
      const tetra = new Set<number>();
      for (const t of items) {
        const l = listAt(around, t);
        if (l.length > 0) tetra.add(l[0]);
      }
      items.clear();
      for (const e of tetra) items.add(e);
    }
  }
  let current: BaseMeshTopology = topology;
  const from: number[] = [];
  for (;;) {
    const mapping = current.hasContext
      ? current.context.objects.find((o): o is TopologicalMapping => o instanceof TopologicalMapping && o.output.get() === current)
      : undefined;
    if (!mapping) break;
    const next = new Set<number>();
    for (const e of items) {
      from.length = 0;
      if (!mapping.getFromIndex(e, from))
        return { removed: 0, reason: `${mapping.describe()} cannot tell the input elements of its output elements` };
      for (const g of from) next.add(g);
    }
    items = next;
    current = mapping.input.require();
  }
  if (items.size === 0) return { removed: 0, topology: current };
  const modifier = current.hasContext
    ? current.context.objects.find((o): o is PointSetTopologyModifier => isModifierOf(o, current))
    : undefined;
  if (!modifier) return { removed: 0, topology: current, reason: `no topology modifier beside ${current.describe()}` };
  const sorted = [...items].sort((a, b) => b - a);
  modifier.removeItems(sorted);
  modifier.notifyEndingEvent();
  return { removed: sorted.length, topology: current };
}

/** A topology modifier changing `container`. */
function isModifierOf(o: BaseObject, container: BaseMeshTopology): boolean {
  if (!(o instanceof PointSetTopologyModifier)) return false;
  try {
    return o.getContainer() === container;
  } catch {
    return false;
  }
}
