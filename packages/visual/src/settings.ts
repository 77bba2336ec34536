import { Bool, Enum, Real, Str, UInt, VecN } from '@sofa-ts/core';
import { d, inertVisual } from './define.js';
import { RGBAColor } from './rgba-color.js';

const SETTING = 'Sofa.Component.Setting';
const GUI = 'Sofa.GUI.Component';
const FOR_GUI = 'read by a GUI only';
const MOUSE = 'there is no mouse interaction (no GUI)';

const button = d('button', Enum(['Left', 'Middle', 'Right'] as const), 'Left', 'mouse button of the interaction');

export const BackgroundSetting = inertVisual(
  {
    name: 'BackgroundSetting',
    category: 'ConfigurationSetting',
    module: SETTING,
    description: 'Background of the viewer: a color or an image.',
  },
  FOR_GUI,
  [d('color', RGBAColor, Float64Array.of(0, 0, 0, 0), 'color of the background'), d('image', Str, '', 'image file shown as background')],
);

export const ViewerSetting = inertVisual(
  {
    name: 'ViewerSetting',
    category: 'ConfigurationSetting',
    module: SETTING,
    description: 'Configuration of the viewer of the application.',
  },
  FOR_GUI,
  [
    d('resolution', VecN(2, 'Vec2i'), Float64Array.of(800, 600), 'resolution of the viewer'),
    d('fullscreen', Bool, false, 'fullscreen mode'),
    d('cameraMode', Enum(['Perspective', 'Orthographic'] as const), 'Perspective', 'camera projection'),
    d('objectPickingMethod', Enum(['Ray casting', 'Selection buffer'] as const), 'Ray casting', 'how objects are picked with the mouse'),
  ],
);

export const StatsSetting = inertVisual(
  {
    name: 'StatsSetting',
    aliases: ['Stats'],
    category: 'ConfigurationSetting',
    module: SETTING,
    description: 'Statistics a GUI prints or writes while it runs the scene.',
  },
  `${FOR_GUI} (the CLI has --write-state and timings of its own)`,
  [
    d('d_dumpState', Bool, false, 'dump the state vectors at each step', { aliases: ['dumpState'] }),
    d('logTime', Bool, false, 'print the average time spent in the stages of a step'),
    d('d_exportState', Bool, false, 'write gnuplot files of the positions, velocities and forces of the simulated objects', {
      aliases: ['exportState'],
    }),
    d('traceVisitors', Bool, false, 'trace the time spent by each visitor'),
  ],
);

export const SofaDefaultPathSetting = inertVisual(
  { name: 'SofaDefaultPathSetting', category: 'ConfigurationSetting', module: SETTING, description: 'Default paths of the application.' },
  FOR_GUI,
  [
    d('gnuplotPath', Str, '', 'folder where gnuplot files are written'),
    d('recordPath', Str, '', 'folder where screenshots and videos are written'),
  ],
);

export const MouseButtonSetting = inertVisual(
  {
    name: 'MouseButtonSetting',
    category: 'ConfigurationSetting',
    module: SETTING,
    description: 'Configuration of a mouse button of the GUI.',
  },
  MOUSE,
  [button],
);

export const AttachBodyButtonSetting = inertVisual(
  {
    name: 'AttachBodyButtonSetting',
    aliases: ['AttachBodyButton'],
    category: 'ConfigurationSetting',
    module: GUI,
    description: 'Mouse button that attaches the picked point to the mouse with a spring.',
  },
  MOUSE,
  [
    button,
    d('stiffness', Real, 1000, 'stiffness of the spring that attaches the picked point'),
    d('arrowSize', Real, 0, 'size of the drawn spring (> 0: drawn as an arrow)'),
    d('showFactorSize', Real, 1, 'drawing scale of the spring when interacting with rigid bodies'),
  ],
);

export const ConstraintAttachButtonSetting = inertVisual(
  {
    name: 'ConstraintAttachButtonSetting',
    aliases: ['ConstraintAttachButton'],
    category: 'ConfigurationSetting',
    module: GUI,
    description: 'Mouse button that attaches the picked point to the mouse with a constraint.',
  },
  MOUSE,
  [button],
);

export const FixPickedParticleButtonSetting = inertVisual(
  {
    name: 'FixPickedParticleButtonSetting',
    aliases: ['FixPickedParticleButton'],
    category: 'ConfigurationSetting',
    module: GUI,
    description: 'Mouse button that fixes the picked particle with a spring.',
  },
  MOUSE,
  [button, d('stiffness', Real, 10000, 'stiffness of the spring that fixes the particle')],
);

export const TaskSchedulerSettings = inertVisual(
  {
    name: 'TaskSchedulerSettings',
    category: 'ConfigurationSetting',
    module: 'Sofa.Simulation.Core',
    description:
      'Threads of the task scheduler of parallel components: the MultiThreading components (ParallelTetrahedronFEMForceField, ParallelHexahedronFEMForceField, ParallelCGLinearSolver) read nbThreads.',
  },
  'it does nothing by itself; the MultiThreading components read nbThreads, the other components run on one thread',
  [d('nbThreads', UInt, 0, 'number of threads (0: one per core)'), d('scheduler', Str, '', 'name of the task scheduler')],
);

export const settingComponents = [
  BackgroundSetting,
  ViewerSetting,
  StatsSetting,
  SofaDefaultPathSetting,
  MouseButtonSetting,
  AttachBodyButtonSetting,
  ConstraintAttachButtonSetting,
  FixPickedParticleButtonSetting,
  TaskSchedulerSettings,
] as const;
