import { BaseObject, Bool, sofaComponent } from '@sofa-ts/core';
import { TopologyModifierOps } from '../dynamic/topology-modifier-ops.js';
import { PointSetTopologyContainer } from './PointSetTopologyContainer.js';

/**
 * SOFA's PointSetTopologyModifier: the only way a dynamic container changes. It adds and removes
 * points (and, in the element modifiers that extend it, elements) and tells every component that
 * follows the container, in SOFA's order (see dynamic/topology-modifier-ops.ts). It acts on the
 * container of its node (else of the nearest ancestor that has one). A scene without topological
 * changes never calls it.
 */
@sofaComponent({
  name: 'PointSetTopologyModifier',
  category: 'Topology',
  module: 'Sofa.Component.Topology.Container.Dynamic',
  description: 'Topology modifier dedicated to a point topology.',
})
export class PointSetTopologyModifier extends BaseObject {
  readonly propagateToDOF = this.initData({
    name: 'propagateToDOF',
    type: Bool,
    default: true,
    help: 'propagate the changes to the degrees of freedom of the mechanical object',
  });

  private _ops: TopologyModifierOps | undefined;

  /** The container this modifier changes: the first dynamic container of its node, else above. */
  getContainer(): PointSetTopologyContainer {
    const c = this.findContainer();
    if (c) return c;
    throw this.error('no topology container in this node or above: a modifier changes the container next to it');
  }

  /** The container getContainer gives, or undefined when there is none (said only when a change asks for it). */
  protected findContainer(): PointSetTopologyContainer | undefined {
    for (let n = this.hasContext ? this.context : undefined; n; n = n.parent) {
      const c = n.objects.find((o): o is PointSetTopologyContainer => o instanceof PointSetTopologyContainer);
      if (c) return c;
    }
    return undefined;
  }

  /** The operations on the container (built on first use). */
  get ops(): TopologyModifierOps {
    if (!this._ops) {
      this._ops = new TopologyModifierOps(this.getContainer(), {
        removeIsolated: () => this.removesIsolatedPoints(),
        propagateToDOF: () => this.propagateToDOF.value,
        warn: (m) => {
          this.warn(m);
        },
      });
    }
    return this._ops;
  }

  /** Whether points left without volume are removed (TetrahedronSet/HexahedronSet's removeIsolated). */
  protected removesIsolatedPoints(): boolean {
    return true;
  }

  /** Appends n points, interpolated from ancestors (point indices and weights) by the states when given. */
  addPoints(n: number, ancestors?: readonly (readonly number[])[], coefs?: readonly (readonly number[])[], addDOF = true): void {
    this.ops.addPoints(n, ancestors, coefs, addDOF);
  }

  /** Removes points (their states' values too when removeDOF); the last point takes each removed index. */
  removePoints(indices: readonly number[], removeDOF = true): void {
    this.ops.removePoints(indices, removeDOF);
  }

  /** SOFA's removeItems: removes elements of this modifier's own kind (points here). */
  removeItems(items: readonly number[]): void {
    this.removePoints(items);
  }

  /** Sends the queued changes to the handlers (SOFA's propagateTopologicalChanges). */
  propagateTopologicalChanges(): void {
    this.ops.propagate();
  }

  /** SOFA's notifyEndingEvent. */
  notifyEndingEvent(): void {
    this.ops.notifyEndingEvent();
  }
}
