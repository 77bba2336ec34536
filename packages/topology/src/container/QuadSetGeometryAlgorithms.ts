import { Bool, sofaComponent } from '@sofa-ts/core';
import { EdgeSetGeometryAlgorithms } from './EdgeSetGeometryAlgorithms.js';
import { GEOMETRY_TEMPLATES, RGBAColor } from './geometry-algorithms.js';

/** SOFA's QuadSetGeometryAlgorithms: geometric queries on quads (inert in batch runs). */
@sofaComponent({
  name: 'QuadSetGeometryAlgorithms',
  category: 'Topology',
  module: 'Sofa.Component.Topology.Container.Dynamic',
  description: 'Geometry algorithms dedicated to a quad topology.',
  templates: GEOMETRY_TEMPLATES,
  defaultTemplate: 'Vec3d',
})
export class QuadSetGeometryAlgorithms extends EdgeSetGeometryAlgorithms {
  readonly showQuadIndices = this.initData({
    name: 'showQuadIndices',
    type: Bool,
    default: false,
    help: 'show the quad indices',
    group: 'Visualization',
  });
  readonly drawQuads = this.initData({ name: 'drawQuads', type: Bool, default: false, help: 'draw the quads', group: 'Visualization' });
  readonly drawColorQuads = this.initData({
    name: 'drawColorQuads',
    type: RGBAColor,
    default: '0 0.4 0.4 1',
    help: 'colour of the quads',
    group: 'Visualization',
  });
}
