import {
  contextMeshTopology,
  isTopology,
  removalIndexMap,
  type BaseMeshTopology,
  type BaseObject,
  type Link,
  type TopologyHandler,
} from '@sofa-ts/core';

/**
 * Keeps a projective constraint's list of points in step with the point removals of its topology
 * (SOFA's TopologySubsetIndices): for each removed point (in the order of the event), the entries
 * naming it leave the list, and the last point, moved into the removed slot, is renamed. `update`
 * receives the new list and, for each of its entries, the entry of the old list it comes from
 * (to keep per-point rows such as start positions). Nothing happens when the list is unchanged.
 */
export function followConstrainedPoints(
  topology: BaseMeshTopology | undefined,
  current: () => ArrayLike<number>,
  update: (points: Uint32Array<ArrayBuffer>, from: Uint32Array<ArrayBuffer>) => void,
): TopologyHandler | undefined {
  if (!topology) return undefined;
  const handler: TopologyHandler = {
    handleTopologyChange(change, topo) {
      if (change.type !== 'pointsRemoved') return;
      const list = current();
      // the event comes before the removal: the topology still counts the removed points
      const map = removalIndexMap(topo.getNbPoints(), change.indices);
      const points = new Uint32Array(list.length);
      const from = new Uint32Array(list.length);
      let n = 0;
      let changed = false;
      for (let k = 0; k < list.length; k++) {
        const p = list[k];
        const to = p < map.length ? map[p] : p;
        if (to < 0) {
          changed = true;
          continue;
        }
        if (to !== p) changed = true;
        points[n] = to;
        from[n++] = k;
      }
      if (changed) update(points.slice(0, n), from.slice(0, n));
    },
  };
  topology.addTopologyHandler(handler);
  return handler;
}

/** The topology a constraint follows: its `topology` link, else the one of its node or above. */
export function constraintTopology(obj: BaseObject, link: Link<BaseObject>): BaseMeshTopology | undefined {
  const t = link.get();
  if (t && isTopology(t)) return t;
  return obj.hasContext ? contextMeshTopology(obj.context) : undefined;
}

/** The rows `from` (of `width` numbers each) of `rows`, in that order. */
export function pickRows(rows: Float64Array, from: Uint32Array, width: number): Float64Array<ArrayBuffer> {
  const out = new Float64Array(from.length * width);
  from.forEach((j, i) => out.set(rows.subarray(j * width, j * width + width), i * width));
  return out;
}
