import { Bool, Int, Real, RealArray, Str, IndexArray, Indices, Vec3, type DataSpec } from '@sofa-ts/core';
import { inertComponent } from './inert-component.js';

const V = 'Visualization';
const f = <T>(name: string, type: DataSpec<T>['type'], dflt: T, help: string, extra: Partial<DataSpec<T>> = {}): DataSpec<unknown> =>
  ({ name, type, default: dflt, help, group: V, ...extra }) as DataSpec<unknown>;
const vec3 = (x: number, y: number, z: number) => Float64Array.of(x, y, z);

/** Components that carry display settings only. */
export const VisualStyle = inertComponent(
  { name: 'VisualStyle', category: 'Visual', module: 'Sofa.Component.Visual', description: 'Edit the visual style (display flags) of the node and its subtree.' },
  [f('displayFlags', Str, '', 'display flags (showVisual showBehavior showCollision hideForceFields ...)')],
);

export const VisualGrid = inertComponent(
  { name: 'VisualGrid', category: 'Visual', module: 'Sofa.Component.Visual', description: 'Display a simple grid.' },
  [
    f('plane', Str, 'z', "plane orthogonal to this axis: 'x', 'y' or 'z'"),
    f('size', Real, 10, 'size of the squared grid'),
    f('nbSubdiv', Int, 16, 'number of subdivisions'),
    f('color', Str, '0.34117648 0.34117648 0.34117648 1', 'color of the lines in the grid (RGBA or a name)'),
    f('thickness', Real, 1, 'thickness of the lines in the grid'),
    f('draw', Bool, true, 'display the grid or not'),
  ],
);

export const LineAxis = inertComponent(
  { name: 'LineAxis', category: 'Visual', module: 'Sofa.Component.Visual', description: 'Display scene axis.' },
  [f('axis', Str, 'xyz', 'axis to draw'), f('size', Real, 10, 'size of the lines'), f('infinite', Bool, false, 'infinite lines'), f('thickness', Real, 1, 'thickness of the lines'), f('vanishing', Bool, false, 'vanishing lines')],
);

export const OglSceneFrame = inertComponent(
  { name: 'OglSceneFrame', category: 'Visual', module: 'Sofa.GL.Component.Rendering3D', description: 'Display a frame at the corner of the scene view.' },
  [
    f('draw', Bool, true, 'display the frame or not'),
    f('style', Str, 'Cylinders', "style of the frame: 'Arrows', 'Cylinders', 'CubeCones'"),
    f('alignment', Str, 'BottomRight', "alignment of the frame in the view: 'BottomLeft', 'BottomRight', 'TopRight', 'TopLeft'"),
    f('viewportSize', Int, 150, 'size of the viewport where the frame is rendered'),
  ],
);

export const OglLabel = inertComponent(
  { name: 'OglLabel', category: 'Visual', module: 'Sofa.GL.Component.Rendering2D', description: 'Display 2D text in the viewport.' },
  [
    f('prefix', Str, '', 'the prefix of the text to display'),
    f('label', Str, '', 'the text to display'),
    f('suffix', Str, '', 'the suffix of the text to display'),
    f('x', Int, 10, 'the x position of the text on the screen'),
    f('y', Int, 10, 'the y position of the text on the screen'),
    f('fontsize', Int, 14, 'the size of the font used to display the text on the screen'),
    f('color', Str, 'contrast', 'the color of the rendered text'),
    f('selectContrastingColor', Bool, false, 'overrides the color with one that contrasts with the background'),
    f('updateLabelEveryNbSteps', Int, 0, 'update the display of the label every nb of time steps'),
    f('visible', Bool, true, 'display the label or not'),
  ],
);

export const InteractiveCamera = inertComponent(
  { name: 'InteractiveCamera', aliases: ['Camera'], category: 'Visual', module: 'Sofa.Component.Visual', description: 'A camera moved with the mouse in a GUI.' },
  [
    f('position', Vec3, vec3(0, 0, 0), 'camera position'),
    f('orientation', RealArray(4, 'Quat'), Float64Array.of(0, 0, 0, 1), 'camera orientation'),
    f('lookAt', Vec3, vec3(0, 0, 0), 'camera look-at point'),
    f('distance', Real, 0, 'distance between camera and look-at'),
    f('fieldOfView', Real, 45, 'field of view (degrees)'),
    f('zNear', Real, 0, 'z near'),
    f('zFar', Real, 0, 'z far'),
    f('computeZClip', Bool, true, 'compute z clip planes'),
    f('minBBox', Vec3, vec3(0, 0, 0), 'minimal bounding box'),
    f('maxBBox', Vec3, vec3(1, 1, 1), 'maximal bounding box'),
    f('widthViewport', Int, 800, 'width of the viewport'),
    f('heightViewport', Int, 600, 'height of the viewport'),
    f('projectionType', Str, 'Perspective', 'camera type: Perspective or Orthographic'),
    f('activated', Bool, true, 'camera activated'),
    f('fixedLookAt', Bool, false, 'fixed look-at point'),
    f('modelviewMatrix', RealArray(0), new Float64Array(0), 'model view matrix'),
    f('projectionMatrix', RealArray(0), new Float64Array(0), 'projection matrix'),
    f('zoomSpeed', Real, 250, 'zoom speed'),
    f('panSpeed', Real, 0.1, 'pan speed'),
    f('pivot', Int, 0, 'pivot (0 = camera lookAt, 1 = scene center, 2 = world center)'),
  ],
);

export const DefaultVisualManagerLoop = inertComponent(
  { name: 'DefaultVisualManagerLoop', category: 'Visual', module: 'Sofa.Simulation.Core', description: 'The default visual loop (rendering passes); nothing to do in batch runs.' },
  [],
);

/**
 * A visual model: a surface that follows the simulation through a mapping. In batch runs it keeps
 * its geometry Data (so scenes can link to it); the old attribute names dx dy dz rx ry rz scale
 * of SOFA's visual models are accepted.
 */
export const OglModel = inertComponent(
  { name: 'OglModel', aliases: ['VisualModel'], category: 'Visual', module: 'Sofa.GL.Component.Rendering3D', description: 'Generic visual model (OpenGL in SOFA; inert in batch runs).', templates: ['Vec3d', 'ExtVec3f', 'ExtVec3d'] },
  [
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
    f('material', Str, 'Default Diffuse 1 0.75 0.75 0.75 1 Ambient 1 0.2 0.2 0.2 1 Specular 0 1 1 1 1 Emissive 0 0 0 0 0 Shininess 0 45', 'material'),
    f('color', Str, '', 'diffuse color of the material (RGBA or a name such as red)'),
    f('putOnlyTexCoords', Bool, false, 'give texture coordinates without the texture binding'),
    f('srgbTexturing', Bool, false, 'sRGB texturing'),
    f('updateNormals', Bool, true, 'recompute normals at each step'),
    f('computeTangents', Bool, false, 'compute tangent vectors'),
    f('useNormals', Bool, true, 'use normals'),
    f('handleDynamicTopology', Bool, true, 'follow topological changes'),
    f('fixMergedUVSeams', Bool, true, 'fix merged UV seams'),
    f('keepLines', Bool, false, 'keep the lines of the model'),
    f('isEnabled', Bool, true, 'display the model or not'),
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
    f('initRestPositions', Bool, false, 'initialise the rest positions from the positions'),
  ],
);

/** Every component of @sofa-ts/visual, registered by module.ts. */
export const visualComponents = [VisualStyle, VisualGrid, LineAxis, OglSceneFrame, OglLabel, InteractiveCamera, DefaultVisualManagerLoop, OglModel] as const;
