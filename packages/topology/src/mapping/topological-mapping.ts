import { BaseObject, isTopology, type BaseMeshTopology, type Link } from '@sofa-ts/core';
import { TopologyContainer } from '../container/topology-container.js';

/**
 * The base of SOFA's topological mappings: at init, the elements of the `input` topology are turned
 * into the elements of the `output` container, which is cleared, given the input's number of points
 * and filled (SOFA's clear(), setNbPoints(), addX(), init()). The output may be declared before or
 * after the mapping: its Data hold the elements from then on. Topological changes are not followed
 * (batch runs without cutting have none).
 */
export abstract class TopologicalMapping extends BaseObject {
  readonly input: Link<BaseMeshTopology> = this.initLink<BaseMeshTopology>({ name: 'input', help: 'input topology to map', accepts: isTopology, expected: 'a topology', required: true });
  readonly output: Link<BaseMeshTopology> = this.initLink<BaseMeshTopology>({ name: 'output', help: 'output topology container to fill', accepts: isTopology, expected: 'a topology container', required: true });

  /** The input topology; throws a located error when the link is empty. */
  protected inputTopology(): BaseMeshTopology {
    const t = this.input.get();
    if (!t) throw this.error('no input topology: set input="@path" to a topology');
    return t;
  }

  /** The output container, checked to be of the expected class and to have its modifier beside it. */
  protected outputContainer<C extends TopologyContainer>(cls: abstract new (...args: never[]) => C, containerName: string, modifierName: string): C {
    const t = this.output.get();
    if (!t) throw this.error('no output topology: set output="@path" to a topology container');
    if (!(t instanceof cls)) throw this.error(`output ${t.describe()} is not a ${containerName} (or a container derived from it)`);
    if (t.hasContext && !t.context.objects.some((o) => o.className === modifierName || isModifierOf(o, modifierName))) {
      throw this.error(`no ${modifierName} in the node of the output topology ${t.describe()}`, `add <${modifierName}/> next to the output container`);
    }
    return t;
  }
}

/** True when `o` is an instance of a modifier class derived from the named one (TetrahedronSet... is a TriangleSet...). */
function isModifierOf(o: BaseObject, name: string): boolean {
  for (let p = Object.getPrototypeOf(o); p && p !== BaseObject.prototype; p = Object.getPrototypeOf(p)) {
    if ((p.constructor as { name?: string }).name === name) return true;
  }
  return false;
}
