import type { BaseMapping, BaseMechanicalState } from '@sofa-ts/core';

/**
 * The mechanical mappings of a graph in dependency order (parents before children): a mapping
 * comes after the mappings that produce its inputs; among the mappings ready at a time, the first
 * in visit order goes first. `masters` are the states no mapping produces. A mapping whose input
 * neither is a master nor is produced by a mapping of the list (a state outside the graph, or a
 * cycle) is handed to `unresolved`, whose error is thrown.
 *
 * The one compilation of the mapping order: the assembly engine (per ODE solver's subtree) and the
 * constraint graph (the whole scene) both call it, so their mapping orders are the same.
 */
export function mechanicalMappingOrder(
  mappings: readonly BaseMapping[],
  masters: Iterable<BaseMechanicalState>,
  unresolved: (mapping: BaseMapping, missing: BaseMechanicalState) => Error,
): BaseMapping[] {
  const known = new Set(masters);
  const ordered: BaseMapping[] = [];
  const pending = [...mappings];
  while (pending.length > 0) {
    const i = pending.findIndex((m) => m.getFrom().every((s) => known.has(s)));
    if (i < 0) {
      const m = pending[0];
      throw unresolved(
        m,
        m.getFrom().find((s) => !known.has(s))!,
      );
    }
    const m = pending.splice(i, 1)[0];
    ordered.push(m);
    known.add(m.getTo()!);
  }
  return ordered;
}
