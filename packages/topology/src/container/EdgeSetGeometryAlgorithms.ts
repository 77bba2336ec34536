import { Bool, sofaComponent } from '@sofa-ts/core';
import { GEOMETRY_TEMPLATES, RGBAColor } from './geometry-algorithms.js';
import { PointSetGeometryAlgorithms } from './PointSetGeometryAlgorithms.js';

/**
 * SOFA's EdgeSetGeometryAlgorithms: geometric queries on edges (inert in batch runs). SOFA also
 * registers it for Vec1, Rigid3 and Rigid2 states (beams of frames).
 */
@sofaComponent({
  name: 'EdgeSetGeometryAlgorithms',
  category: 'Topology',
  module: 'Sofa.Component.Topology.Container.Dynamic',
  description: 'Geometry algorithms dedicated to an edge topology.',
  templates: [...GEOMETRY_TEMPLATES, 'Vec1d', 'Rigid3d', 'Rigid2d'],
  defaultTemplate: 'Vec3d',
})
export class EdgeSetGeometryAlgorithms extends PointSetGeometryAlgorithms {
  readonly showEdgeIndices = this.initData({
    name: 'showEdgeIndices',
    type: Bool,
    default: false,
    help: 'show the edge indices',
    group: 'Visualization',
  });
  readonly drawEdges = this.initData({ name: 'drawEdges', type: Bool, default: false, help: 'draw the edges', group: 'Visualization' });
  readonly drawColorEdges = this.initData({
    name: 'drawColorEdges',
    type: RGBAColor,
    default: '0.4 1 0.3 1',
    help: 'colour of the edges',
    group: 'Visualization',
  });
}
