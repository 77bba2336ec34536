import { sofaComponent } from '@sofa-ts/core';
import { GEOMETRY_TEMPLATES, GeometryAlgorithms } from './geometry-algorithms.js';

/** SOFA's PointSetGeometryAlgorithms: geometric queries on a point set (inert in batch runs). */
@sofaComponent({
  name: 'PointSetGeometryAlgorithms',
  category: 'Topology',
  module: 'Sofa.Component.Topology.Container.Dynamic',
  description: 'Geometry algorithms dedicated to a point topology.',
  templates: GEOMETRY_TEMPLATES,
  defaultTemplate: 'Vec3d',
})
export class PointSetGeometryAlgorithms extends GeometryAlgorithms {}
