import { Bool, Int, Real, RealArray, Str, IndexArray, Indices, Vec3, type DataSpec } from '@sofa-ts/core';

const V = 'Visualization';
const f = <T>(name: string, type: DataSpec<T>['type'], dflt: T, help: string, extra: Partial<DataSpec<T>> = {}): DataSpec<unknown> =>
  ({ name, type, default: dflt, help, group: V, ...extra }) as DataSpec<unknown>;
const vec3 = (x: number, y: number, z: number) => Float64Array.of(x, y, z);

/**
 * Data of a visual model (SOFA VisualModelImpl): a surface that follows the simulation through a
 * mapping. In batch runs it keeps its geometry Data (so scenes can link to it); the old attribute
 * names dx dy dz rx ry rz scale of SOFA's visual models are accepted.
 */
export const visualModelImplFields: readonly DataSpec<unknown>[] = [
  f('position', RealArray(3, 'vector<Vec3d>'), new Float64Array(0), 'vertices of the model', { aliases: ['vertices'] }),
  f('restPosition', RealArray(3, 'vector<Vec3d>'), new Float64Array(0), 'vertices of the model at rest'),
  f('normal', RealArray(3, 'vector<Vec3d>'), new Float64Array(0), 'normals of the model'),
  f('texcoords', RealArray(2, 'vector<Vec2d>'), new Float64Array(0), 'coordinates of the texture'),
  f('edges', IndexArray(2), new Uint32Array(0), 'edges of the model'),
  f('triangles', IndexArray(3), new Uint32Array(0), 'triangles of the model'),
  f('quads', IndexArray(4), new Uint32Array(0), 'quads of the model'),
  f('vertPosIdx', Indices, new Uint32Array(0), 'if not empty, the original index of each vertex'),
  f('vertNormIdx', Indices, new Uint32Array(0), 'if not empty, the original normal index of each vertex'),
  f('filename', Str, '', 'path to an OBJ file', { aliases: ['fileMesh'] }),
  f('texturename', Str, '', 'name of the texture'),
  f('translation', Vec3, vec3(0, 0, 0), 'initial translation of the model'),
  f('rotation', Vec3, vec3(0, 0, 0), 'initial rotation of the model (Euler angles in degrees)'),
  f('scale3d', RealArray(0, 'Vec3d'), vec3(1, 1, 1), 'initial scale of the model', { aliases: ['scale'] }),
  f('scaleTex', RealArray(2, 'Vec2d'), Float64Array.of(1, 1), 'scale of the texture'),
  f('translationTex', RealArray(2, 'Vec2d'), Float64Array.of(0, 0), 'translation of the texture'),
  f('dx', Real, 0, 'translation along x (old SOFA name, added to translation)'),
  f('dy', Real, 0, 'translation along y (old SOFA name, added to translation)'),
  f('dz', Real, 0, 'translation along z (old SOFA name, added to translation)'),
  f('rx', Real, 0, 'rotation about x in degrees (old SOFA name)'),
  f('ry', Real, 0, 'rotation about y in degrees (old SOFA name)'),
  f('rz', Real, 0, 'rotation about z in degrees (old SOFA name)'),
  f(
    'material',
    Str,
    'Default Diffuse 1 0.75 0.75 0.75 1 Ambient 1 0.2 0.2 0.2 1 Specular 0 1 1 1 1 Emissive 0 0 0 0 0 Shininess 0 45',
    'material',
  ),
  f('color', Str, '', 'diffuse color of the material (RGBA or a name such as red)'),
  f('updateNormals', Bool, true, 'recompute normals at each step'),
  f('computeTangents', Bool, false, 'compute tangent vectors'),
  f('useNormals', Bool, true, 'use normals'),
  f('handleDynamicTopology', Bool, true, 'follow topological changes'),
  f('fixMergedUVSeams', Bool, true, 'fix merged UV seams'),
  f('isEnabled', Bool, true, 'display the model or not'),
  f('initRestPositions', Bool, false, 'initialise the rest positions from the positions'),
];

/** Data OglModel adds to VisualModelImpl: how OpenGL draws it. */
export const oglModelFields: readonly DataSpec<unknown>[] = [
  ...visualModelImplFields,
  f('putOnlyTexCoords', Bool, false, 'give texture coordinates without the texture binding'),
  f('srgbTexturing', Bool, false, 'sRGB texturing'),
  f('keepLines', Bool, false, 'keep the lines of the model'),
  f('lineWidth', Real, 1, 'line width'),
  f('pointSize', Real, 1, 'point size'),
  f('lineSmooth', Bool, false, 'smooth lines'),
  f('pointSmooth', Bool, false, 'smooth points'),
  f('alphaBlend', Bool, false, 'alpha blending'),
  f('depthTest', Bool, true, 'depth test'),
  f('cullFace', Int, 0, 'face culling (0 none, 1 back, 2 front)'),
  f('primitiveType', Str, 'DEFAULT', 'primitive type (DEFAULT, LINES_ADJACENCY, PATCHES, POINTS)'),
  f('blendEquation', Str, 'GL_FUNC_ADD', 'blend equation'),
  f('sfactor', Str, 'GL_SRC_ALPHA', 'source blend factor'),
  f('dfactor', Str, 'GL_ONE_MINUS_SRC_ALPHA', 'destination blend factor'),
];
