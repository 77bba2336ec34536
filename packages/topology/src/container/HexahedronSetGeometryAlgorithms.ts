import { Bool, Real, sofaComponent } from '@sofa-ts/core';
import { GEOMETRY_TEMPLATES, RGBAColor } from './geometry-algorithms.js';
import { QuadSetGeometryAlgorithms } from './QuadSetGeometryAlgorithms.js';

/** SOFA's HexahedronSetGeometryAlgorithms: geometric queries on hexahedra (inert in batch runs). */
@sofaComponent({
  name: 'HexahedronSetGeometryAlgorithms',
  category: 'Topology',
  module: 'Sofa.Component.Topology.Container.Dynamic',
  description: 'Geometry algorithms dedicated to an hexahedral topology.',
  templates: GEOMETRY_TEMPLATES,
  defaultTemplate: 'Vec3d',
})
export class HexahedronSetGeometryAlgorithms extends QuadSetGeometryAlgorithms {
  readonly showHexaIndices = this.initData({
    name: 'showHexaIndices',
    type: Bool,
    default: false,
    help: 'show the hexahedron indices',
    group: 'Visualization',
  });
  readonly drawHexahedra = this.initData({
    name: 'drawHexahedra',
    type: Bool,
    default: false,
    help: 'draw the hexahedra',
    group: 'Visualization',
  });
  readonly drawScaleHexahedra = this.initData({
    name: 'drawScaleHexahedra',
    type: Real,
    default: 1,
    help: 'scale of the drawn hexahedra (below 1 leaves gaps between them)',
    group: 'Visualization',
  });
  readonly drawColorHexahedra = this.initData({
    name: 'drawColorHexahedra',
    type: RGBAColor,
    default: '1 0.5 0 1',
    help: 'colour of the hexahedra',
    group: 'Visualization',
  });
}
