import { Bool, Real, RealArray, UInt, Vec3 } from '@sofa-ts/core';
import { d, inertVisual } from './define.js';
import { RGBAColor } from './rgba-color.js';

const M = 'Sofa.GL.Component.Shader';
const NOT_LIT = 'nothing is lit or shadowed (no rendering)';
const vec3 = (x: number, y: number, z: number) => Float64Array.of(x, y, z);

/** Data of every light (SOFA's Light base class). */
const lightFields = [
  d('color', RGBAColor, Float64Array.of(1, 1, 1, 1), 'color of the light'),
  d('shadowTextureSize', UInt, 0, 'size of the shadow texture (0: from the window size)', { group: 'Shadowing' }),
  d('drawSource', Bool, false, 'draw the source of the light'),
  d('zNear', Real, 0, 'near plane of the light frustum, for shadows', { group: 'Shadowing' }),
  d('zFar', Real, 0, 'far plane of the light frustum, for shadows', { group: 'Shadowing' }),
  d('shadowsEnabled', Bool, true, 'this light casts shadows', { group: 'Shadowing' }),
  d('softShadows', Bool, false, 'soft shadows from this light', { group: 'Shadowing' }),
  d('shadowFactor', Real, 1, 'darkness of the shadows', { group: 'Shadowing' }),
  d('VSMLightBleeding', Real, 0.05, 'light bleeding of variance shadow maps', { group: 'Shadowing' }),
  d('VSMMinVariance', Real, 0.001, 'minimum variance of variance shadow maps', { group: 'Shadowing' }),
  d('textureUnit', UInt, 1, 'texture unit of the shadow texture', { group: 'Shadowing' }),
  d('modelViewMatrix', RealArray(1, 'vector<float>'), new Float64Array(16), 'model-view matrix of the light (output of the renderer)', {
    group: 'Shadowing',
    output: true,
  }),
  d('projectionMatrix', RealArray(1, 'vector<float>'), new Float64Array(16), 'projection matrix of the light (output of the renderer)', {
    group: 'Shadowing',
    output: true,
  }),
];

const positionalFields = [
  d('fixed', Bool, false, 'the position is fixed relative to the camera'),
  d('position', Vec3, vec3(-0.7, 0.3, 0), 'position of the light'),
  d('attenuation', Real, 0, 'linear attenuation of the light with distance'),
];

export const LightManager = inertVisual(
  {
    name: 'LightManager',
    category: 'Visual',
    module: M,
    description: 'Manages the lights of the scene and their hard or soft (variance) shadows.',
  },
  NOT_LIT,
  [
    d('shadows', Bool, false, 'enable shadows in the scene'),
    d('softShadows', Bool, false, 'with shadows, use variance soft shadows'),
    d('ambient', RGBAColor, Float64Array.of(0, 0, 0, 1), 'ambient light of the scene'),
    d('debugDraw', Bool, false, 'draw the shadow textures of the lights'),
  ],
);

export const DirectionalLight = inertVisual(
  { name: 'DirectionalLight', category: 'Visual', module: M, description: 'A light of parallel rays (can cast shadows).' },
  NOT_LIT,
  [...lightFields, d('direction', Vec3, vec3(0, 0, -1), 'direction of the rays')],
);

export const PositionalLight = inertVisual(
  { name: 'PositionalLight', category: 'Visual', module: M, description: 'A light whose rays start from a point in every direction.' },
  NOT_LIT,
  [...lightFields, ...positionalFields],
);

export const SpotLight = inertVisual(
  { name: 'SpotLight', category: 'Visual', module: M, description: 'A light from a point within a cone of directions (can cast shadows).' },
  NOT_LIT,
  [
    ...lightFields,
    ...positionalFields,
    d('direction', Vec3, vec3(0, 0, -1), 'direction of the spot (with lookat: the point it looks at)'),
    d('cutoff', Real, 30, 'half angle of the cone, in degrees', { unit: 'deg' }),
    d('exponent', Real, 1, 'concentration of the light in the cone'),
    d('lookat', Bool, false, 'direction is a point the spot is aimed at'),
  ],
);

export const lightComponents = [LightManager, DirectionalLight, PositionalLight, SpotLight] as const;
