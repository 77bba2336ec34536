import { BaseObject, Bool, Real, positive, sofaComponent, isMechanicalState, type Node } from '@sofa-ts/core';

/**
 * SOFA's SpatialGridContainer (SofaSphFluid): the uniform grid of cells `cellWidth` wide over the
 * particles of its node's state, in which SPHFluidForceField and ParticlesRepulsionForceField of
 * the node (or below) find their neighbours. sofa-ts's force fields search it when they compute
 * their forces (neighbor-grid.ts), on cells at least as wide as their own distance, so that every
 * pair within that distance is found (SOFA's grid looks at adjacent cells only and would miss the
 * pairs farther apart than cellWidth: a force field whose radius exceeds cellWidth says so).
 * autoUpdate (SOFA refreshes the grid at each step's start, for drawing and SpatialGridPointModel)
 * changes nothing here; sortPoints, SOFA's renumbering of the particles by cell, is not done (a
 * warning): it changes only their order.
 */
@sofaComponent({
  name: 'SpatialGridContainer',
  category: 'Container',
  module: 'SofaSphFluid',
  description: 'Uniform grid of cells over the particles of a state, for neighbour searches.',
  templates: ['Vec3d'],
})
export class SpatialGridContainer extends BaseObject {
  readonly cellWidth = this.initData({
    name: 'cellWidth',
    type: Real,
    default: 1,
    range: positive,
    unit: 'm',
    help: 'width of each cell of the grid (neighbour searches use cells at least as wide as their distance)',
  });
  readonly showGrid = this.initData({
    name: 'showGrid',
    type: Bool,
    default: false,
    help: 'draw the grid (drawing: inert in a batch run)',
    group: 'Visualization',
  });
  readonly autoUpdate = this.initData({
    name: 'autoUpdate',
    type: Bool,
    default: false,
    help: "update the grid at each step's start (SOFA's drawing and collision use; the force fields here search at each force evaluation anyway)",
  });
  readonly sortPoints = this.initData({
    name: 'sortPoints',
    type: Bool,
    default: false,
    help: 'sort the particles by cell (SOFA renumbers the state; not done here, with a warning)',
  });

  override init(): void {
    if (!this.context.getObject(isMechanicalState, 'up'))
      throw this.error('no mechanical state in this node or above: the grid has no particles', 'put a MechanicalObject in the node');
    if (this.sortPoints.value)
      this.warnAbout(
        this.sortPoints,
        'sortPoints is not honoured: the particles keep their indices (SOFA renumbers them by grid cell, which changes their order only)',
      );
  }
}

export function isSpatialGridContainer(o: unknown): o is SpatialGridContainer {
  return o instanceof SpatialGridContainer;
}

/** The SpatialGridContainer a force field of `node` uses: in its node or above (SOFA's getContext()->get). */
export function findSpatialGrid(node: Node): SpatialGridContainer | undefined {
  return node.getObject(isSpatialGridContainer, 'up');
}
