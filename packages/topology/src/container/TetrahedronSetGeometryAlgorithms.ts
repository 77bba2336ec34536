import { Bool, Real, sofaComponent } from '@sofa-ts/core';
import { GEOMETRY_TEMPLATES, RGBAColor } from './geometry-algorithms.js';
import { TriangleSetGeometryAlgorithms } from './TriangleSetGeometryAlgorithms.js';

/** SOFA's TetrahedronSetGeometryAlgorithms: geometric queries on tetrahedra (inert in batch runs). */
@sofaComponent({
  name: 'TetrahedronSetGeometryAlgorithms',
  category: 'Topology',
  module: 'Sofa.Component.Topology.Container.Dynamic',
  description: 'Geometry algorithms dedicated to a tetrahedral topology.',
  templates: GEOMETRY_TEMPLATES,
  defaultTemplate: 'Vec3d',
})
export class TetrahedronSetGeometryAlgorithms extends TriangleSetGeometryAlgorithms {
  readonly showTetrahedraIndices = this.initData({
    name: 'showTetrahedraIndices',
    type: Bool,
    default: false,
    help: 'show the tetrahedron indices',
    group: 'Visualization',
  });
  readonly drawTetrahedra = this.initData({
    name: 'drawTetrahedra',
    type: Bool,
    default: false,
    help: 'draw the tetrahedra',
    group: 'Visualization',
  });
  readonly drawScaleTetrahedra = this.initData({
    name: 'drawScaleTetrahedra',
    type: Real,
    default: 1,
    help: 'scale of the drawn tetrahedra (below 1 leaves gaps between them)',
    group: 'Visualization',
  });
  readonly drawColorTetrahedra = this.initData({
    name: 'drawColorTetrahedra',
    type: RGBAColor,
    default: '1 1 0 1',
    help: 'colour of the tetrahedra',
    group: 'Visualization',
  });
}
