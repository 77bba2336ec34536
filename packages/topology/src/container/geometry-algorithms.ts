import { BaseObject, Bool, Real, Str, isTopology, type BaseMeshTopology, type DataType } from '@sofa-ts/core';

/** A colour as SOFA's RGBAColor attributes write it ("r g b a" or a colour name), kept as text. */
export const RGBAColor: DataType<string> = { ...Str, name: 'RGBAColor' };

/**
 * The base of SOFA's <Element>SetGeometryAlgorithms: geometric queries on a topology container and the
 * mechanical state of its node (areas, normals, intersections), used by cutting and by some force
 * fields. Batch runs without cutting use none of them: these components load with their Data and
 * templates and do nothing while stepping.
 */
export abstract class GeometryAlgorithms extends BaseObject {
  readonly tagMechanics = this.initData({ name: 'tagMechanics', type: Str, default: '', help: 'tag of the mechanical object' });
  readonly showIndicesScale = this.initData({
    name: 'showIndicesScale',
    type: Real,
    default: 0.02,
    help: 'scale of the displayed indices',
    group: 'Visualization',
  });
  readonly showPointIndices = this.initData({
    name: 'showPointIndices',
    type: Bool,
    default: false,
    help: 'show the point indices',
    group: 'Visualization',
  });

  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'the topology container (default: the one of this node)',
    accepts: isTopology,
    expected: 'a topology container',
  });
}

export const GEOMETRY_TEMPLATES = ['Vec3d', 'Vec2d'] as const;
