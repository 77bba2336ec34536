import { Bool, Int, Real, Str, type DataSpec } from '@sofa-ts/core';
import { inertComponent } from './inert-component.js';
import { cameraComponents } from './cameras.js';
import { lightComponents } from './lights.js';
import { sceneUtilityComponents } from './scene-utility.js';
import { settingComponents } from './settings.js';
import { shaderComponents } from './shaders.js';
import { visualModelComponents } from './visual-models.js';
import { oglModelFields } from './visual-model-fields.js';

const V = 'Visualization';
const f = <T>(name: string, type: DataSpec<T>['type'], dflt: T, help: string, extra: Partial<DataSpec<T>> = {}): DataSpec<unknown> =>
  ({ name, type, default: dflt, help, group: V, ...extra }) as DataSpec<unknown>;

/** Components that carry display settings only. */
export const VisualStyle = inertComponent(
  {
    name: 'VisualStyle',
    category: 'Visual',
    module: 'Sofa.Component.Visual',
    description: 'Edit the visual style (display flags) of the node and its subtree.',
  },
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
  [
    f('axis', Str, 'xyz', 'axis to draw'),
    f('size', Real, 10, 'size of the lines'),
    f('infinite', Bool, false, 'infinite lines'),
    f('thickness', Real, 1, 'thickness of the lines'),
    f('vanishing', Bool, false, 'vanishing lines'),
  ],
);

export const OglSceneFrame = inertComponent(
  {
    name: 'OglSceneFrame',
    category: 'Visual',
    module: 'Sofa.GL.Component.Rendering3D',
    description: 'Display a frame at the corner of the scene view.',
  },
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

export const DefaultVisualManagerLoop = inertComponent(
  {
    name: 'DefaultVisualManagerLoop',
    category: 'Visual',
    module: 'Sofa.Simulation.Core',
    description: 'The default visual loop (rendering passes); nothing to do in batch runs.',
  },
  [],
);

export const OglModel = inertComponent(
  {
    name: 'OglModel',
    aliases: ['VisualModel'],
    category: 'Visual',
    module: 'Sofa.GL.Component.Rendering3D',
    description: 'Generic visual model (OpenGL in SOFA; inert in batch runs).',
    templates: ['Vec3d', 'ExtVec3f', 'ExtVec3d'],
  },
  oglModelFields,
);

/** Every component of @sofa-ts/visual, registered by module.ts. */
export const visualComponents = [
  VisualStyle,
  VisualGrid,
  LineAxis,
  OglSceneFrame,
  OglLabel,
  DefaultVisualManagerLoop,
  OglModel,
  ...cameraComponents,
  ...lightComponents,
  ...shaderComponents,
  ...settingComponents,
  ...visualModelComponents,
  ...sceneUtilityComponents,
] as const;
