import { Bool, Real, sofaComponent } from '@sofa-ts/core';
import { EdgeSetGeometryAlgorithms } from './EdgeSetGeometryAlgorithms.js';
import { GEOMETRY_TEMPLATES, RGBAColor } from './geometry-algorithms.js';

/** SOFA's TriangleSetGeometryAlgorithms: geometric queries on triangles (inert in batch runs). */
@sofaComponent({
  name: 'TriangleSetGeometryAlgorithms',
  category: 'Topology',
  module: 'Sofa.Component.Topology.Container.Dynamic',
  description: 'Geometry algorithms dedicated to a triangular topology.',
  templates: GEOMETRY_TEMPLATES,
  defaultTemplate: 'Vec3d',
})
export class TriangleSetGeometryAlgorithms extends EdgeSetGeometryAlgorithms {
  readonly recomputeTrianglesOrientation = this.initData({
    name: 'recomputeTrianglesOrientation',
    type: Bool,
    default: false,
    help: 'reorient the triangles consistently with the normal of the first one',
  });
  readonly flipNormals = this.initData({
    name: 'flipNormals',
    type: Bool,
    default: false,
    help: 'flip the normal of the first triangle when reorienting',
  });
  readonly showTriangleIndices = this.initData({
    name: 'showTriangleIndices',
    type: Bool,
    default: false,
    help: 'show the triangle indices',
    group: 'Visualization',
  });
  readonly drawTriangles = this.initData({
    name: 'drawTriangles',
    type: Bool,
    default: false,
    help: 'draw the triangles',
    group: 'Visualization',
  });
  readonly drawColorTriangles = this.initData({
    name: 'drawColorTriangles',
    type: RGBAColor,
    default: '0.3 0.5 0.8 1',
    help: 'colour of the triangles',
    group: 'Visualization',
  });
  readonly drawNormals = this.initData({
    name: 'drawNormals',
    type: Bool,
    default: false,
    help: 'draw the triangle normals',
    group: 'Visualization',
  });
  readonly drawNormalLength = this.initData({
    name: 'drawNormalLength',
    type: Real,
    default: 10,
    help: 'length of the drawn normals',
    group: 'Visualization',
  });
}
