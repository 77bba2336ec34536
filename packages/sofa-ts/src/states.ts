import { isMapping, isMechanicalState, isOdeSolver, type BaseMechanicalState, type Node } from '@sofa-ts/core';

/** A mechanical state with the path of its node, in SOFA's visit order. */
export interface VisitedState {
  readonly index: number;
  readonly state: BaseMechanicalState;
  readonly node: Node;
}

/**
 * The mechanical states SOFA's regression compares, in its order: depth first, a node before its
 * children, document order; a node's states count when an ODE solver is in that node or an ancestor
 * and, unless `mecaInMapping`, no mapping is in that node or an ancestor.
 */
export function comparedStates(root: Node, mecaInMapping: boolean): VisitedState[] {
  const out: VisitedState[] = [];
  // in a DAG, "an ancestor" through any parent: a node is visited after all its parents
  const solverAt = new Map<Node, boolean>();
  const mappingAt = new Map<Node, boolean>();
  root.visit((n) => {
    const solver = n.objects.some(isOdeSolver) || n.parents.some((p) => solverAt.get(p) === true);
    const mapping = n.objects.some(isMapping) || n.parents.some((p) => mappingAt.get(p) === true);
    solverAt.set(n, solver);
    mappingAt.set(n, mapping);
    if (solver && (mecaInMapping || !mapping)) {
      for (const o of n.objects) if (isMechanicalState(o)) out.push({ index: out.length, state: o, node: n });
    }
  });
  return out;
}

/** Every mechanical state of the scene, mapped ones included, in visit order. */
export function allStates(root: Node): VisitedState[] {
  const out: VisitedState[] = [];
  root.visit((n) => {
    for (const o of n.objects) if (isMechanicalState(o)) out.push({ index: out.length, state: o, node: n });
  });
  return out;
}
