import { Bool, Int, Real, RealArray, Str, UInt, VecN, Indices, type DataType } from '@sofa-ts/core';
import { d, inertVisual, type InertLinkSpec } from './define.js';

const M = 'Sofa.GL.Component.Shader';
const NO_GL = 'no shader is compiled nor applied (no rendering)';

/** Data of every shader element (SOFA's OglShaderElement): which uniform of which shader. */
const elementFields = [
  d('id', Str, '', 'name of the variable in the shader (default: the component name)'),
  d('indexShader', UInt, 0, 'index of the shader version this element applies to'),
];

/** OglShader's Data; OglShadowShader changes only the default files. */
function shaderFields(vertex: string, fragment: string) {
  return [
    d('turnOn', Bool, true, 'turn the shader on'),
    d('passive', Bool, false, 'the shader is activated by another component, not automatically'),
    d('fileVertexShaders', Str, vertex, 'vertex shader files, one per shader version'),
    d('fileFragmentShaders', Str, fragment, 'fragment shader files, one per shader version'),
    d('fileGeometryShaders', Str, '', 'geometry shader files'),
    d('fileTessellationControlShaders', Str, '', 'tessellation control shader files'),
    d('fileTessellationEvaluationShaders', Str, '', 'tessellation evaluation shader files'),
    d('geometryInputType', Int, -1, 'input primitive type of the geometry shader'),
    d('geometryOutputType', Int, -1, 'output primitive type of the geometry shader'),
    d('geometryVerticesOut', Int, -1, 'maximum number of vertices a geometry shader emits'),
    d('tessellationOuterLevel', Real, 1, 'outer tessellation level when there is no control shader', { aliases: ['tessellationLevel'] }),
    d('tessellationInnerLevel', Real, 1, 'inner tessellation level when there is no control shader'),
    d('indexActiveShader', UInt, 0, 'index of the active shader version'),
    d('backfaceWriting', Bool, false, 'the vertex shader may write gl_BackColor'),
    d('clampVertexColor', Bool, true, 'clamp vertex colors to [0, 1]'),
  ];
}

export const OglShader = inertVisual(
  { name: 'OglShader', category: 'Visual', module: M, description: 'A GLSL shader for the visual models of its node.' },
  NO_GL,
  shaderFields('shaders/toonShading.vert', 'shaders/toonShading.frag'),
);

export const OglShadowShader = inertVisual(
  { name: 'OglShadowShader', category: 'Visual', module: M, description: 'The shader that draws the shadows of a LightManager.' },
  NO_GL,
  shaderFields('shaders/hardShadows/shadowMapping.vert', 'shaders/hardShadows/shadowMapping.frag'),
);

export const OglShaderDefineMacro = inertVisual(
  { name: 'OglShaderDefineMacro', category: 'Visual', module: M, description: 'A #define added to the source of the shader of its node.' },
  NO_GL,
  [...elementFields, d('value', Str, '', 'value of the macro')],
);

const textureFields = [
  ...elementFields,
  d('filename', Str, '', 'image file of the texture', { aliases: ['textureFilename'] }),
  d('textureUnit', UInt, 1, 'texture unit'),
  d('enabled', Bool, true, 'bind the texture'),
  d('repeat', Bool, false, 'repeat the texture'),
  d('linearInterpolation', Bool, true, 'interpolate the texture linearly'),
  d('generateMipmaps', Bool, true, 'generate mipmaps'),
  d('srgbColorspace', Bool, false, 'texture in sRGB color space'),
  d('minLod', Real, -1000, 'minimum mipmap level of detail'),
  d('maxLod', Real, 1000, 'maximum mipmap level of detail'),
  d('proceduralTextureWidth', UInt, 0, 'width of a texture given by its data'),
  d('proceduralTextureHeight', UInt, 0, 'height of a texture given by its data'),
  d('proceduralTextureNbBits', UInt, 1, 'bits per color of a texture given by its data'),
  d('proceduralTextureData', Indices, new Uint32Array(0), 'texels of a texture given by its data'),
  d('cubemapFilenamePosX', Str, '', 'cube map face +x'),
  d('cubemapFilenamePosY', Str, '', 'cube map face +y'),
  d('cubemapFilenamePosZ', Str, '', 'cube map face +z'),
  d('cubemapFilenameNegX', Str, '', 'cube map face -x'),
  d('cubemapFilenameNegY', Str, '', 'cube map face -y'),
  d('cubemapFilenameNegZ', Str, '', 'cube map face -z'),
];

export const OglTexture = inertVisual(
  { name: 'OglTexture', category: 'Visual', module: M, description: 'A texture given to the shader of its node.' },
  'no image is read nor bound (no rendering)',
  textureFields,
);

export const OglTexture2D = inertVisual(
  {
    name: 'OglTexture2D',
    category: 'Visual',
    module: M,
    description: 'A 2D texture given to the shader of its node (old name of OglTexture).',
  },
  'no image is read nor bound (no rendering)',
  [...textureFields, d('texture2DFilename', Str, '', 'image file of the texture')],
);

/** A shader uniform variable: SOFA's OglVariable<T> holds one Data 'value'. */
function variable(name: string, type: DataType<unknown>, dflt: unknown, what: string, extra: readonly ReturnType<typeof d>[] = []) {
  return inertVisual({ name, category: 'Visual', module: M, description: `A shader uniform variable: ${what}.` }, NO_GL, [
    ...elementFields,
    d('value', type, dflt, `value of the uniform (${what})`),
    ...extra,
  ]);
}

const transpose = [d('transpose', Bool, false, 'transpose the matrices (row-major input)')];
const reals = (n: number) => RealArray(n, n === 1 ? 'vector<float>' : `vector<Vec${n}f>`);

export const OglIntVariable = variable('OglIntVariable', Int, 0, 'int');
export const OglInt2Variable = variable('OglInt2Variable', VecN(2, 'Vec2i'), new Float64Array(2), 'ivec2');
export const OglInt3Variable = variable('OglInt3Variable', VecN(3, 'Vec3i'), new Float64Array(3), 'ivec3');
export const OglInt4Variable = variable('OglInt4Variable', VecN(4, 'Vec4i'), new Float64Array(4), 'ivec4');
export const OglFloatVariable = variable('OglFloatVariable', Real, 0, 'float');
export const OglFloat2Variable = variable('OglFloat2Variable', VecN(2, 'Vec2f'), new Float64Array(2), 'vec2');
export const OglFloat3Variable = variable('OglFloat3Variable', VecN(3, 'Vec3f'), new Float64Array(3), 'vec3');
export const OglFloat4Variable = variable('OglFloat4Variable', VecN(4, 'Vec4f'), new Float64Array(4), 'vec4');
export const OglIntVectorVariable = variable('OglIntVectorVariable', RealArray(1, 'vector<int>'), new Float64Array(0), 'int array');
export const OglIntVector2Variable = variable('OglIntVector2Variable', RealArray(1, 'vector<int>'), new Float64Array(0), 'ivec2 array');
export const OglIntVector3Variable = variable('OglIntVector3Variable', RealArray(1, 'vector<int>'), new Float64Array(0), 'ivec3 array');
export const OglIntVector4Variable = variable('OglIntVector4Variable', RealArray(1, 'vector<int>'), new Float64Array(0), 'ivec4 array');
export const OglFloatVectorVariable = variable('OglFloatVectorVariable', reals(1), new Float64Array(0), 'float array');
export const OglFloatVector2Variable = variable('OglFloatVector2Variable', reals(2), new Float64Array(0), 'vec2 array');
export const OglFloatVector3Variable = variable('OglFloatVector3Variable', reals(3), new Float64Array(0), 'vec3 array');
export const OglFloatVector4Variable = variable('OglFloatVector4Variable', reals(4), new Float64Array(0), 'vec4 array');
export const OglMatrix2Variable = variable('OglMatrix2Variable', reals(1), new Float64Array(0), 'mat2 array, 4 values each', transpose);
export const OglMatrix3Variable = variable('OglMatrix3Variable', reals(1), new Float64Array(0), 'mat3 array, 9 values each', transpose);
export const OglMatrix4Variable = variable('OglMatrix4Variable', reals(1), new Float64Array(0), 'mat4 array, 16 values each', transpose);
export const OglMatrix2x3Variable = variable(
  'OglMatrix2x3Variable',
  reals(1),
  new Float64Array(0),
  'mat2x3 array, 6 values each',
  transpose,
);
export const OglMatrix3x2Variable = variable(
  'OglMatrix3x2Variable',
  reals(1),
  new Float64Array(0),
  'mat3x2 array, 6 values each',
  transpose,
);
export const OglMatrix2x4Variable = variable(
  'OglMatrix2x4Variable',
  reals(1),
  new Float64Array(0),
  'mat2x4 array, 8 values each',
  transpose,
);
export const OglMatrix4x2Variable = variable(
  'OglMatrix4x2Variable',
  reals(1),
  new Float64Array(0),
  'mat4x2 array, 8 values each',
  transpose,
);
export const OglMatrix3x4Variable = variable(
  'OglMatrix3x4Variable',
  reals(1),
  new Float64Array(0),
  'mat3x4 array, 12 values each',
  transpose,
);
export const OglMatrix4x3Variable = variable(
  'OglMatrix4x3Variable',
  reals(1),
  new Float64Array(0),
  'mat4x3 array, 12 values each',
  transpose,
);
export const OglMatrix4VectorVariable = variable(
  'OglMatrix4VectorVariable',
  RealArray(16, 'vector<Mat4x4f>'),
  new Float64Array(0),
  'mat4 array',
  transpose,
);

/** A per-vertex shader attribute: SOFA's OglAttribute<n, type> holds its values in 'value'. */
function attribute(name: string, n: number, scalar: 'float' | 'int' | 'unsigned int') {
  const glsl =
    scalar === 'float'
      ? n === 1
        ? 'float'
        : `vec${n}`
      : scalar === 'int'
        ? n === 1
          ? 'int'
          : `ivec${n}`
        : n === 1
          ? 'uint'
          : `uvec${n}`;
  return inertVisual({ name, category: 'Visual', module: M, description: `A per-vertex shader attribute (${glsl}).` }, NO_GL, [
    ...elementFields,
    d(
      'value',
      RealArray(n, n === 1 ? `vector<${scalar}>` : `vector<Vec${n}${scalar === 'float' ? 'f' : scalar === 'int' ? 'i' : 'ui'}>`),
      new Float64Array(0),
      `one ${glsl} per vertex`,
    ),
    d('handleDynamicTopology', Bool, true, 'follow topological changes of the mesh'),
    d('usage', UInt, 0, 'buffer usage hint (GL_STATIC_DRAW, GL_DYNAMIC_DRAW, ...)'),
  ]);
}

export const OglFloatAttribute = attribute('OglFloatAttribute', 1, 'float');
export const OglFloat2Attribute = attribute('OglFloat2Attribute', 2, 'float');
export const OglFloat3Attribute = attribute('OglFloat3Attribute', 3, 'float');
export const OglFloat4Attribute = attribute('OglFloat4Attribute', 4, 'float');
export const OglIntAttribute = attribute('OglIntAttribute', 1, 'int');
export const OglInt2Attribute = attribute('OglInt2Attribute', 2, 'int');
export const OglInt3Attribute = attribute('OglInt3Attribute', 3, 'int');
export const OglInt4Attribute = attribute('OglInt4Attribute', 4, 'int');
export const OglUIntAttribute = attribute('OglUIntAttribute', 1, 'unsigned int');
export const OglUInt2Attribute = attribute('OglUInt2Attribute', 2, 'unsigned int');
export const OglUInt3Attribute = attribute('OglUInt3Attribute', 3, 'unsigned int');
export const OglUInt4Attribute = attribute('OglUInt4Attribute', 4, 'unsigned int');

export const OglRenderingSRGB = inertVisual(
  { name: 'OglRenderingSRGB', category: 'Visual', module: M, description: 'Render the visual context framebuffer in sRGB.' },
  'there is no framebuffer (no rendering)',
  [],
);

export const PostProcessManager = inertVisual(
  {
    name: 'PostProcessManager',
    category: 'Visual',
    module: M,
    description: 'Post-processing of the rendered image (depth of field) with the shader of its node.',
  },
  'no image is rendered nor processed',
  [d('zNear', Real, 1, 'near distance of the depth buffer'), d('zFar', Real, 100, 'far distance of the depth buffer')],
);

export const OrderIndependentTransparencyManager = inertVisual(
  {
    name: 'OrderIndependentTransparencyManager',
    category: 'Visual',
    module: M,
    description: 'Order independent transparency of the transparent visual models.',
  },
  'no image is rendered',
  [d('depthScale', Real, 0.01, 'depth scale of the transparency weights')],
);

export const CompositingVisualLoop = inertVisual(
  {
    name: 'CompositingVisualLoop',
    category: 'Visual',
    module: M,
    description: 'Visual loop for multipass rendering: render passes composited by a shader.',
  },
  'no pass is rendered (the batch run has no visual loop)',
  [
    d('vertFilename', Str, 'shaders/compositing.vert', 'vertex shader of the compositing'),
    d('fragFilename', Str, 'shaders/compositing.frag', 'fragment shader of the compositing'),
  ],
);

const passFields = [
  d('factor', Real, 1, 'resolution factor of the pass output'),
  d('renderToScreen', Bool, false, 'this pass is the one shown on screen'),
  d('outputName', Str, '', 'name of the output texture (default: the component name)'),
];

export const VisualManagerPass = inertVisual(
  {
    name: 'VisualManagerPass',
    category: 'Visual',
    module: M,
    description: 'A render pass of a CompositingVisualLoop: draws the tagged visual models into a framebuffer.',
  },
  'no pass is rendered',
  passFields,
);

const shaderLink: InertLinkSpec = { name: 'shader', help: 'shader of the compositing' };

export const VisualManagerSecondaryPass = inertVisual(
  {
    name: 'VisualManagerSecondaryPass',
    category: 'Visual',
    module: M,
    description: 'A compositing pass of a CompositingVisualLoop: combines input passes with a shader.',
  },
  'no pass is rendered',
  [
    ...passFields,
    d('input_tags', Str, '', 'tags of the input passes used as textures'),
    d('output_tags', Str, '', 'tag of this pass when another pass uses it as input'),
    d('fragFilename', Str, '', 'fragment shader of the compositing'),
  ],
  [shaderLink],
);

export const shaderComponents = [
  OglShader,
  OglShadowShader,
  OglShaderDefineMacro,
  OglTexture,
  OglTexture2D,
  OglIntVariable,
  OglInt2Variable,
  OglInt3Variable,
  OglInt4Variable,
  OglFloatVariable,
  OglFloat2Variable,
  OglFloat3Variable,
  OglFloat4Variable,
  OglIntVectorVariable,
  OglIntVector2Variable,
  OglIntVector3Variable,
  OglIntVector4Variable,
  OglFloatVectorVariable,
  OglFloatVector2Variable,
  OglFloatVector3Variable,
  OglFloatVector4Variable,
  OglMatrix2Variable,
  OglMatrix3Variable,
  OglMatrix4Variable,
  OglMatrix2x3Variable,
  OglMatrix3x2Variable,
  OglMatrix2x4Variable,
  OglMatrix4x2Variable,
  OglMatrix3x4Variable,
  OglMatrix4x3Variable,
  OglMatrix4VectorVariable,
  OglFloatAttribute,
  OglFloat2Attribute,
  OglFloat3Attribute,
  OglFloat4Attribute,
  OglIntAttribute,
  OglInt2Attribute,
  OglInt3Attribute,
  OglInt4Attribute,
  OglUIntAttribute,
  OglUInt2Attribute,
  OglUInt3Attribute,
  OglUInt4Attribute,
  OglRenderingSRGB,
  PostProcessManager,
  OrderIndependentTransparencyManager,
  CompositingVisualLoop,
  VisualManagerPass,
  VisualManagerSecondaryPass,
] as const;
