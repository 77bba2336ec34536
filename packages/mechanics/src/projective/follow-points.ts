import { contextMeshTopology, isTopology, type BaseMeshTopology, type BaseObject, type Link, type TopologyHandler } from '@sofa-ts/core';

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
      const list = Array.from(current());
      const from = list.map((_, j) => j);
      let changed = false;
      // the event comes before the removal: the topology still counts the removed points
      let last = topo.getNbPoints() - 1;
      for (const p of change.indices) {
        for (let k = list.length - 1; k >= 0; k--) {
          if (list[k] !== p) continue;
          list.splice(k, 1);
          from.splice(k, 1);
          changed = true;
        }
        if (p !== last) {
          for (let k = 0; k < list.length; k++) {
            if (list[k] !== last) continue;
            list[k] = p;
            changed = true;
          }
        }
        last--;
      }
      if (changed) update(Uint32Array.from(list), Uint32Array.from(from));
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
