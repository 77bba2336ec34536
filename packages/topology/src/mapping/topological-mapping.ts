import {
  BaseObject,
  contextMechanicalState,
  contextMeshTopology,
  isTopology,
  type BaseMeshTopology,
  type Link,
  type Node,
  type TopologyChange,
  type TopologyHandler,
} from '@sofa-ts/core';
import { PointSetTopologyModifier } from '../container/PointSetTopologyModifier.js';
import { TopologyContainer } from '../container/topology-container.js';
import type { DynamicMesh } from '../dynamic/dynamic-mesh.js';

/**
 * The base of SOFA's topological mappings: at init, the elements of the `input` topology are turned
 * into the elements of the `output` container, which is cleared, given the input's number of points
 * and filled (SOFA's clear(), setNbPoints(), addX(), init()). The output may be declared before or
 * after the mapping: its Data hold the elements from then on.
 *
 * Topological changes: a mapping whose input is a dynamic container follows it (SOFA's
 * updateTopologicalMappingTopDown): it receives the input's changes after the input's data
 * handlers, and changes its output through the output's modifier (which tells the output's own
 * handlers, mappings included, in turn).
 */
export abstract class TopologicalMapping extends BaseObject implements TopologyHandler {
  readonly input: Link<BaseMeshTopology> = this.initLink<BaseMeshTopology>({
    name: 'input',
    help: 'input topology to map (default: the topology of the parent node, as SOFA\'s "@../")',
    accepts: isTopology,
    expected: 'a topology',
    required: true,
    find: (o) => defaultTopology(o.context.parent),
  });
  readonly output: Link<BaseMeshTopology> = this.initLink<BaseMeshTopology>({
    name: 'output',
    help: 'output topology container to fill (default: the topology of this node, as SOFA\'s "@./")',
    accepts: isTopology,
    expected: 'a topology container',
    required: true,
    find: (o) => defaultTopology(o.context),
  });

  readonly topologyHandlerPriority = 'mapping' as const;

  /** The input topology; throws a located error when the link is empty. */
  protected inputTopology(): BaseMeshTopology {
    const t = this.input.get();
    if (!t) throw this.error('no input topology: set input="@path" to a topology');
    return t;
  }

  /** The output container, checked to be of the expected class and to have its modifier beside it. */
  protected outputContainer<C extends TopologyContainer>(
    cls: abstract new (...args: never[]) => C,
    containerName: string,
    modifierName: string | undefined,
  ): C {
    const t = this.output.get();
    if (!t) throw this.error('no output topology: set output="@path" to a topology container');
    if (t === this.input.get())
      throw this.error(
        `the input and the output are the same topology ${t.describe()}`,
        'put the output container in the mapping\'s node, or set input="@path" and output="@path"',
      );
    if (!(t instanceof cls)) throw this.error(`output ${t.describe()} is not a ${containerName} (or a container derived from it)`);
    if (
      modifierName !== undefined &&
      t.hasContext &&
      !t.context.objects.some((o) => o.className === modifierName || isModifierOf(o, modifierName))
    ) {
      throw this.error(
        `no ${modifierName} in the node of the output topology ${t.describe()}`,
        `add <${modifierName}/> next to the output container`,
      );
    }
    return t;
  }

  /** Follows the input's changes (a dynamic container's); static inputs never change. */
  protected followInput(from: BaseMeshTopology): void {
    if (from instanceof TopologyContainer) from.addTopologyHandler(this);
  }

  /** The modifier of the output container's node (found when the first change comes). */
  protected outputModifier<M extends PointSetTopologyModifier>(cls: abstract new (...args: never[]) => M): M {
    const m = this.optionalOutputModifier(cls);
    if (!m) throw this.error(`no ${cls.name} in the node of the output topology ${this.output.require().describe()}`);
    return m;
  }

  /** The modifier of the output container's node, if it has one. */
  protected optionalOutputModifier<M extends PointSetTopologyModifier>(cls: abstract new (...args: never[]) => M): M | undefined {
    const t = this.output.require();
    return t.hasContext ? t.context.objects.find((o): o is M => o instanceof cls) : undefined;
  }

  /** The editable mesh of the input (it is dynamic: it sent a change). */
  protected inputMesh(): DynamicMesh {
    const t = this.input.require();
    if (!(t instanceof TopologyContainer)) throw this.error(`input ${t.describe()} is not a dynamic container`);
    return t.dynamicMesh();
  }

  /**
   * The positions of the input's points: the topology's own (a loader's), else the rest positions
   * of the mechanical state of the input's node when it has the input's number of points (SOFA
   * reads 0 for the coordinates of a container without positions).
   */
  protected inputPositions(from: BaseMeshTopology): Float64Array | undefined {
    const own = from.getPositions();
    if (own) return own;
    const ms = from.hasContext ? contextMechanicalState(from.context) : undefined;
    if (ms && ms.size === from.getNbPoints() && ms.x0.length === 3 * ms.size) return ms.x0;
    return undefined;
  }

  /**
   * SOFA's getFromIndex: appends to `out` the input elements output element `index` comes from;
   * false when this mapping cannot say (the default), which stops a removal going up to the input.
   */
  getFromIndex(_index: number, _out: number[]): boolean {
    return false;
  }

  /** SOFA's updateTopologicalMappingTopDown, one change of the input at a time (none by default). */
  handleTopologyChange(_change: TopologyChange, _topology: BaseMeshTopology): void {}
}

/**
 * The topology SOFA's link path "@../" (input) or "@./" (output) of a topological mapping finds in
 * `node`: its only topology; none when it holds several (an ambiguous path); when it holds none,
 * the topology its components would use (contextMeshTopology: the nearest ancestor's).
 */
function defaultTopology(node: Node | undefined): BaseMeshTopology | undefined {
  if (!node) return undefined;
  const own = node.objects.filter(isTopology);
  if (own.length === 1) return own[0];
  return own.length === 0 ? contextMeshTopology(node) : undefined;
}

/** True when `o` is an instance of a modifier class derived from the named one (TetrahedronSet... is a TriangleSet...). */
function isModifierOf(o: BaseObject, name: string): boolean {
  for (let p = Object.getPrototypeOf(o); p && p !== BaseObject.prototype; p = Object.getPrototypeOf(p)) {
    if ((p.constructor as { name?: string }).name === name) return true;
  }
  return false;
}

/**
 * SOFA's Loc2Glob / Glob2Loc maps of a mapping whose output elements each come from one input
 * element: loc2glob[l] is the input element of output element l, glob2loc the reverse.
 */
export class ElementIndexMap {
  readonly loc2glob: number[] = [];
  readonly glob2loc = new Map<number, number>();

  clear(): void {
    this.loc2glob.length = 0;
    this.glob2loc.clear();
  }

  /** Appends output element ← input element g. */
  push(g: number): void {
    this.loc2glob.push(g);
    this.glob2loc.set(g, this.loc2glob.length - 1);
  }

  /**
   * Input elements about to be removed (the input had `inputCount`, the output `outputCount`),
   * followed one at a time as SOFA swaps them: the input's last element takes the removed one's
   * output slot, then the output's last element moves into the slot removed; `remove(l)` removes
   * output element l. `notMapped(k)` hears of a removed input element without an output element.
   */
  removeInputElements(
    removed: Uint32Array,
    inputCount: number,
    outputCount: number,
    remove: (l: number) => void,
    notMapped: (k: number) => void,
  ): void {
    const { loc2glob, glob2loc } = this;
    let last = inputCount - 1;
    let lastLoc = outputCount;
    for (const k of removed) {
      const kLoc = glob2loc.get(k);
      if (kLoc !== undefined) {
        lastLoc--;
        const realLast = glob2loc.get(last);
        if (realLast !== undefined && k !== last) {
          // the input's last element (moving to k) and k exchange their output slots
          glob2loc.set(k, realLast);
          glob2loc.set(last, kLoc);
          [loc2glob[realLast], loc2glob[kLoc]] = [loc2glob[kLoc], loc2glob[realLast]];
        }
        if (kLoc !== lastLoc) {
          // the output's last element moves to kLoc
          const gLast = loc2glob[lastLoc];
          const gK = loc2glob[kLoc];
          glob2loc.set(gLast, kLoc);
          glob2loc.set(gK, lastLoc);
          loc2glob[kLoc] = gLast;
          loc2glob[lastLoc] = gK;
        }
        glob2loc.delete(loc2glob[loc2glob.length - 1]);
        loc2glob.pop();
        remove(kLoc);
      } else {
        notMapped(k);
      }
      last--;
    }
  }
}
