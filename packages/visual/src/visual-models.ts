import { Bool, Enum, IndexArray, Int, Real, RealArray, Str, UInt, Vec2, Vec3 } from '@sofa-ts/core';
import { d, inertVisual } from './define.js';
import { RGBAColor } from './rgba-color.js';
import { oglModelFields, visualModelImplFields } from './visual-model-fields.js';

const VISUAL = 'Sofa.Component.Visual';
const R3D = 'Sofa.GL.Component.Rendering3D';
const R2D = 'Sofa.GL.Component.Rendering2D';
const NOT_DRAWN = 'nothing is drawn';
const white = () => Float64Array.of(1, 1, 1, 1);
const vec3 = (x: number, y: number, z: number) => Float64Array.of(x, y, z);
const topologyLink = { name: 'topology', help: 'topology whose elements are drawn (default: the one of the node)' };

export const VisualMesh = inertVisual(
  {
    name: 'VisualMesh',
    category: 'Visual',
    module: VISUAL,
    description: 'Draws the elements of a topology, each shrunk about its center.',
  },
  NOT_DRAWN,
  [
    d('position', RealArray(3, 'vector<Vec3d>'), new Float64Array(0), 'positions of the vertices of the mesh'),
    d('elementSpace', Real, 0.15, 'space between the drawn elements, between 0 and 1'),
  ],
  [topologyLink],
);

export const Visual3DText = inertVisual(
  { name: 'Visual3DText', category: 'Visual', module: VISUAL, description: 'Draws a text facing the camera at a 3D position.' },
  NOT_DRAWN,
  [
    d('text', Str, '', 'text drawn'),
    d('position', Vec3, vec3(0, 0, 0), 'position of the text'),
    d('scale', Real, 1, 'scale of the text'),
    d('color', RGBAColor, white(), 'color of the text'),
    d('depthTest', Bool, true, 'hide the text behind objects'),
  ],
);

export const TrailRenderer = inertVisual(
  {
    name: 'TrailRenderer',
    category: 'Visual',
    module: VISUAL,
    description: 'Draws the trail of positions of particles over the last steps.',
    templates: ['Vec3d', 'Rigid3d'],
    defaultTemplate: 'Vec3d',
  },
  'no trail is recorded nor drawn',
  [
    d('position', RealArray(0), new Float64Array(0), 'positions of the particles followed'),
    d('nbSteps', UInt, 100, 'number of steps the trail covers'),
    d('color', Str, 'green', 'color of the trail: a color, or a color map (HSV, or a list of colors)'),
    d('thickness', Real, 1, 'thickness of the trail'),
  ],
);

export const VisualBoundingBox = inertVisual(
  { name: 'VisualBoundingBox', category: 'Visual', module: VISUAL, description: 'Draws an axis aligned bounding box (its bbox Data).' },
  NOT_DRAWN,
  [
    d('color', RGBAColor, Float64Array.of(1, 1, 0, 1), 'color of the lines of the box'),
    d('thickness', Real, 1, 'thickness of the lines of the box'),
  ],
);

export const VisualPointCloud = inertVisual(
  {
    name: 'VisualPointCloud',
    category: 'Visual',
    module: VISUAL,
    description: 'Draws a cloud of points, spheres or frames.',
    templates: ['Vec3d', 'Rigid3d'],
    defaultTemplate: 'Vec3d',
  },
  NOT_DRAWN,
  [
    d('position', RealArray(0), new Float64Array(0), 'positions of the points'),
    d('drawMode', Enum(['Point', 'Sphere', 'Frame'] as const), 'Point', 'drawn as points, spheres or frames (default Frame for Rigid3)'),
    d('pointSize', Real, 1, 'size of the points and frames'),
    d('sphereRadius', RealArray(1, 'vector<float>'), new Float64Array(0), 'radius of each sphere'),
    d('color', RGBAColor, white(), 'color of the points'),
    d('showIndices', Bool, false, 'draw the index of each point'),
    d('indicesScale', Real, 1, 'scale of the indices'),
    d('indicesColor', RGBAColor, white(), 'color of the indices'),
  ],
);

export const VisualVectorField = inertVisual(
  {
    name: 'VisualVectorField',
    category: 'Visual',
    module: VISUAL,
    description: 'Draws a vector at each of a list of positions.',
    templates: ['Vec3d'],
    defaultTemplate: 'Vec3d',
  },
  NOT_DRAWN,
  [
    d('position', RealArray(3, 'vector<Vec3d>'), new Float64Array(0), 'start of each vector'),
    d('vector', RealArray(3, 'vector<Vec3d>'), new Float64Array(0), 'the vectors'),
    d('vectorScale', Real, 1, 'scale applied to the vectors when drawn'),
    d('drawMode', Enum(['Line', 'Cylinder', 'Arrow'] as const), 'Line', 'drawn as lines, cylinders or arrows'),
    d('color', RGBAColor, white(), 'color of the vectors'),
  ],
);

/** A cylinder model is a visual state: its points, and the edges between them. */
const cylinderFields = [
  d('position', RealArray(3, 'vector<Vec3d>'), new Float64Array(0), 'positions of the points'),
  d('radius', Real, 1, 'radius of the cylinders'),
  d('color', RGBAColor, white(), 'color of the cylinders'),
  d('edges', IndexArray(2), new Uint32Array(0), 'the edges'),
];

export const CylinderVisualModel = inertVisual(
  {
    name: 'CylinderVisualModel',
    category: 'Visual',
    module: VISUAL,
    description: 'Draws a cylinder along each edge, between points of the state of its node.',
  },
  NOT_DRAWN,
  cylinderFields,
);

export const OglCylinderModel = inertVisual(
  { name: 'OglCylinderModel', category: 'Visual', module: R3D, description: 'Draws a cylinder along each edge (OpenGL).' },
  NOT_DRAWN,
  cylinderFields,
);

export const PointSplatModel = inertVisual(
  {
    name: 'PointSplatModel',
    aliases: ['PointSplat'],
    category: 'Visual',
    module: R3D,
    description: 'Draws a point cloud as textured billboards.',
  },
  NOT_DRAWN,
  [
    d('radius', Real, 1, 'radius of the billboards'),
    d('textureSize', Int, 32, 'size of the billboard texture'),
    d('alpha', Real, 1, 'opacity of the billboards (1: opaque)'),
    d('color', RGBAColor, white(), 'color of the billboards'),
    d('pointData', RealArray(1, 'vector<float>'), new Float64Array(0), 'scalar per point modulating its color'),
  ],
);

export const DataDisplay = inertVisual(
  {
    name: 'DataDisplay',
    category: 'Visual',
    module: R3D,
    description: 'Draws a mesh colored by values per point or per cell, through the OglColorMap of its node.',
  },
  'nothing is drawn, and currentMin and currentMax are not computed',
  [
    d('position', RealArray(3, 'vector<Vec3d>'), new Float64Array(0), 'positions of the points drawn (a mapping may set them)'),
    d('maximalRange', Bool, true, 'keep the largest range over all steps'),
    d('pointData', RealArray(1, 'vector<double>'), new Float64Array(0), 'value per point'),
    d('triangleData', RealArray(1, 'vector<double>'), new Float64Array(0), 'value per triangle', { aliases: ['cellData'] }),
    d('quadData', RealArray(1, 'vector<double>'), new Float64Array(0), 'value per quad'),
    d('pointTriangleData', RealArray(1, 'vector<double>'), new Float64Array(0), 'value per point of each triangle'),
    d('pointQuadData', RealArray(1, 'vector<double>'), new Float64Array(0), 'value per point of each quad'),
    d('colorNaN', RGBAColor, Float64Array.of(0, 0, 0, 1), 'color of NaN values'),
    d('userRange', Vec2, Float64Array.of(1, -1), 'clamp the values to this range (when max > min)'),
    d('currentMin', Real, 0, 'minimum of the range drawn (output of the drawing)', { output: true }),
    d('currentMax', Real, 0, 'maximum of the range drawn (output of the drawing)', { output: true }),
    d('shininess', Real, -1, 'shininess of point data, in [0, 128] (< 0: no specular)'),
    d('transparency', Real, 1, 'opacity, 1 opaque to 0 transparent'),
  ],
  [topologyLink],
);

export const OglColorMap = inertVisual(
  {
    name: 'OglColorMap',
    aliases: ['ColorMap'],
    category: 'Visual',
    module: R2D,
    description: 'A color palette turning values into colors, with an optional legend.',
  },
  'no color is computed nor legend drawn',
  [
    d('paletteSize', UInt, 256, 'number of colors of the palette'),
    d('colorScheme', Str, 'HSV', 'color scheme (HSV, Red to Blue, Blue to Red, ...)'),
    d('showLegend', Bool, false, 'draw the color scale legend'),
    d('legendOffset', Vec2, Float64Array.of(10, 5), 'offset of the legend on screen'),
    d('legendTitle', Str, '', 'title of the legend'),
    d('legendSize', UInt, 11, 'font size of the legend'),
    d('min', Real, 0, 'minimum value of the legend'),
    d('max', Real, 0, 'maximum value of the legend'),
    d('legendRangeScale', Real, 1, 'unit scale of the legend values'),
  ],
);

export const ClipPlane = inertVisual(
  { name: 'ClipPlane', category: 'Visual', module: R3D, description: 'An OpenGL clipping plane for the visual models of its node.' },
  'nothing is clipped (no rendering)',
  [
    d('position', Vec3, vec3(0, 0, 0), 'a point of the plane'),
    d('normal', Vec3, vec3(1, 0, 0), 'normal of the plane, towards the clipped side'),
    d('id', Int, 0, 'OpenGL index of the clipping plane'),
    d('active', Bool, true, 'the plane clips'),
  ],
);

export const OglViewport = inertVisual(
  { name: 'OglViewport', category: 'Visual', module: R2D, description: 'A second view of the scene in a rectangle of the screen.' },
  'there is no view (no rendering)',
  [
    d('screenPosition', RealArray(2, 'Vec2i'), Float64Array.of(0, 0), 'position of the viewport on screen'),
    d('screenSize', RealArray(2, 'Vec2i'), Float64Array.of(0, 0), 'size of the viewport'),
    d('cameraPosition', Vec3, vec3(0, 0, 0), 'camera position in eye space'),
    d('cameraOrientation', RealArray(4, 'Quat'), Float64Array.of(0, 0, 0, 1), 'camera orientation (quaternion x y z w)'),
    d('cameraRigid', RealArray(7, 'Rigid3dTypes::Coord'), new Float64Array(0), 'camera pose as a rigid frame (position and quaternion)'),
    d('zNear', Real, 0, 'near clipping plane'),
    d('zFar', Real, 0, 'far clipping plane'),
    d('fovy', Real, 60, 'vertical field of view, in degrees', { unit: 'deg' }),
    d('enabled', Bool, true, 'show the viewport'),
    d('advancedRendering', Bool, false, 'show the viewport only with the advancedRendering display flag'),
    d('useFBO', Bool, true, 'render the viewport through a framebuffer object'),
    d('swapMainView', Bool, false, 'swap this view with the main one'),
    d('drawCamera', Bool, false, 'draw the camera of the viewport'),
  ],
);

export const VisualTransform = inertVisual(
  {
    name: 'VisualTransform',
    category: 'Visual',
    module: VISUAL,
    description: 'Moves the drawing of the visual models of its node by a rigid transform.',
  },
  'nothing is drawn, so nothing is moved (the states are not changed)',
  [
    d(
      'transform',
      RealArray(7, 'Rigid3dTypes::Coord'),
      Float64Array.of(0, 0, 0, 0, 0, 0, 1),
      'the rigid transform (position and quaternion)',
    ),
    d('recursive', Bool, false, 'also apply it to the child nodes'),
  ],
);

export const VisualModelImpl = inertVisual(
  {
    name: 'VisualModelImpl',
    category: 'Visual',
    module: VISUAL,
    description: 'Generic visual model: a surface that follows the simulation through a mapping.',
    templates: ['Vec3d', 'ExtVec3f', 'ExtVec3d'],
  },
  'nothing is drawn; the geometry Data are kept for the scene to link to',
  visualModelImplFields,
);

export const OglShaderVisualModel = inertVisual(
  {
    name: 'OglShaderVisualModel',
    category: 'Visual',
    module: 'Sofa.GL.Component.Shader',
    description: 'A visual model drawn by the shader of its node, with per-vertex attributes.',
    templates: ['Vec3d', 'ExtVec3f', 'ExtVec3d'],
  },
  'nothing is drawn; the geometry Data are kept for the scene to link to',
  oglModelFields,
);

/** SOFA MergeVisualModels: an OglModel whose geometry is the union of `nb` input visual models. */
export const MergeVisualModels = inertVisual(
  {
    name: 'MergeVisualModels',
    category: 'Visual',
    module: R3D,
    description: 'A visual model made of several input visual models (their vertices and elements put together).',
  },
  'the inputs are not merged, its geometry Data stay as the scene sets them',
  [...oglModelFields, d('nb', UInt, 1, 'number of input visual models (links input1, input2, ...)')],
  Array.from({ length: 8 }, (_, i) => ({ name: `input${i + 1}`, help: `input visual model ${i + 1}` })),
);

export const TextureInterpolation = inertVisual(
  {
    name: 'TextureInterpolation',
    category: 'Visual',
    module: 'Sofa.GL.Component.Engine',
    description: 'Engine turning a scalar field of states into texture coordinates, for drawing it.',
    templates: ['Vec1d', 'Vec2d', 'Vec3d'],
    defaultTemplate: 'Vec1d',
  },
  'output_coordinates are not computed (they only feed a drawing)',
  [
    d('input_states', RealArray(0), new Float64Array(0), 'values of the field'),
    d('input_coordinates', RealArray(3, 'vector<Vec3d>'), new Float64Array(0), 'positions of the points'),
    d('output_coordinates', RealArray(2, 'vector<Vec2d>'), new Float64Array(0), 'texture coordinates (not computed in a batch run)', {
      output: true,
    }),
    d('scalarField', Bool, true, 'use only the first component of the field'),
    d('min_value', Real, 0, 'value mapped to the start of the texture (with manual_scale)'),
    d('max_value', Real, 0, 'value mapped to the end of the texture (with manual_scale)'),
    d('manual_scale', Bool, false, 'use min_value and max_value instead of the range of the field'),
    d('drawPotentiels', Bool, false, 'draw the values of the field'),
    d('showIndicesScale', Real, 1e-5, 'scale of the drawn values'),
  ],
);

/** SofaCUDA's visual model: draws the surface of its node's CUDA state and topology in SOFA's GUI. */
export const CudaVisualModel = inertVisual(
  {
    name: 'CudaVisualModel',
    category: 'Visual',
    module: 'SofaCUDA',
    description: "SofaCUDA's visual model: draws its node's state and topology as a lit surface (OpenGL).",
    templates: ['Vec3d'],
  },
  NOT_DRAWN,
  [
    d('ambient', RGBAColor, Float64Array.of(0.1, 0.1, 0.1, 0), 'material ambient color'),
    d('diffuse', RGBAColor, Float64Array.of(0.8, 0.8, 0.8, 1), 'material diffuse color and alpha'),
    d('specular', RGBAColor, Float64Array.of(1, 1, 1, 0), 'material specular color'),
    d('emissive', RGBAColor, Float64Array.of(0, 0, 0, 0), 'material emissive color'),
    d('shininess', Real, 45, 'material specular shininess'),
    d('useVBO', Bool, false, 'true to activate Vertex Buffer Object'),
    d('computeNormals', Bool, false, 'true to compute smooth normals'),
  ],
);

export const visualModelComponents = [
  VisualMesh,
  Visual3DText,
  TrailRenderer,
  VisualBoundingBox,
  VisualPointCloud,
  VisualVectorField,
  CylinderVisualModel,
  OglCylinderModel,
  PointSplatModel,
  DataDisplay,
  OglColorMap,
  ClipPlane,
  OglViewport,
  VisualTransform,
  VisualModelImpl,
  OglShaderVisualModel,
  MergeVisualModels,
  TextureInterpolation,
  CudaVisualModel,
] as const;
