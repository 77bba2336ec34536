import { Bool, Int, Real, RealArray, Str, Vec3 } from '@sofa-ts/core';
import { d, inertVisual } from './define.js';

const M = 'Sofa.Component.Visual';
const vec3 = (x: number, y: number, z: number) => Float64Array.of(x, y, z);

/** Data of every camera (SOFA's BaseCamera). */
const baseCameraFields = [
  d('position', Vec3, vec3(0, 0, 0), 'camera position'),
  d('orientation', RealArray(4, 'Quat'), Float64Array.of(0, 0, 0, 1), 'camera orientation (quaternion x y z w)'),
  d('lookAt', Vec3, vec3(0, 0, 0), 'point the camera looks at'),
  d('distance', Real, 0, 'distance between the camera and the look-at point'),
  d('fieldOfView', Real, 45, 'field of view, in degrees', { unit: 'deg' }),
  d('zNear', Real, 0, 'near clipping plane'),
  d('zFar', Real, 0, 'far clipping plane'),
  d('computeZClip', Bool, true, 'compute the clipping planes from the scene'),
  d('minBBox', Vec3, vec3(0, 0, 0), 'minimum corner of the scene bounding box'),
  d('maxBBox', Vec3, vec3(1, 1, 1), 'maximum corner of the scene bounding box'),
  d('widthViewport', Int, 800, 'width of the viewport'),
  d('heightViewport', Int, 600, 'height of the viewport'),
  d('projectionType', Str, 'Perspective', 'Perspective or Orthographic (or 0, 1)'),
  d('activated', Bool, true, 'the camera is active'),
  d('fixedLookAt', Bool, false, 'keep the look-at point fixed'),
  d('modelViewMatrix', RealArray(0), new Float64Array(0), 'model-view matrix (output of the viewer)'),
  d('projectionMatrix', RealArray(0), new Float64Array(0), 'projection matrix (output of the viewer)'),
  d('zoomSpeed', Real, 250, 'zoom speed'),
  d('panSpeed', Real, 0.1, 'pan speed'),
  d('pivot', Int, 0, 'pivot of the rotations (0: look-at point, 1: scene center, 2: world center)'),
];

export const InteractiveCamera = inertVisual(
  { name: 'InteractiveCamera', aliases: ['Camera'], category: 'Visual', module: M, description: 'A camera moved with the mouse in a GUI.' },
  'there is no view (no rendering)',
  baseCameraFields,
);

export const RecordedCamera = inertVisual(
  {
    name: 'RecordedCamera',
    category: 'Visual',
    module: M,
    description: 'A camera moving along a path over time: rotation about an axis, translation through points, or navigation through poses.',
  },
  'there is no view, so the camera is not moved along its path',
  [
    ...baseCameraFields,
    d('startTime', Real, 0, 'time at which the camera starts moving', { unit: 's' }),
    d('endTime', Real, 200, 'time at which the motion ends (or loops)', { unit: 's' }),
    d('rotationMode', Bool, false, 'rotate the camera about rotationCenter'),
    d('translationMode', Bool, false, 'move the camera through cameraPositions'),
    d('navigationMode', Bool, false, 'move the camera through cameraPositions and cameraOrientations'),
    d('rotationSpeed', Real, 0.1, 'rotation speed'),
    d('rotationCenter', Vec3, vec3(0, 10, 0), 'center of the rotation'),
    d('rotationStartPoint', Vec3, vec3(0, 10, 50), 'position of the camera when the rotation starts'),
    d('rotationLookAt', Vec3, vec3(0, 0, 0), 'point looked at during the rotation'),
    d('rotationAxis', Vec3, vec3(0, 1, 0), 'axis of the rotation'),
    d('cameraUp', Vec3, vec3(0, 0, 0), 'up direction of the camera'),
    d('drawRotation', Bool, false, 'draw the rotation path'),
    d('drawTranslation', Bool, false, 'draw the translation path'),
    d('cameraPositions', RealArray(3, 'vector<Vec3d>'), new Float64Array(0), 'positions the camera passes through'),
    d('cameraOrientations', RealArray(4, 'vector<Quat>'), new Float64Array(0), 'orientations of the camera at those positions'),
  ],
);

export const cameraComponents = [InteractiveCamera, RecordedCamera] as const;
