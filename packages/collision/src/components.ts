import { Bool, Int, Real, RealArray, Str, StringArray, inertComponent, type ComponentClass, type DataSpec } from '@sofa-ts/core';

/**
 * The collision pipeline and collision models of SOFA scenes. In this version they load with their
 * Data and take no part in steps: scenes without contact run as in SOFA; contact response comes with
 * the constraint-resolution work (FreeMotionAnimationLoop, friction contact).
 */
const f = <T>(name: string, type: DataSpec<T>['type'], dflt: T, help: string, extra: Partial<DataSpec<T>> = {}): DataSpec<unknown> =>
  ({ name, type, default: dflt, help, ...extra }) as DataSpec<unknown>;

const algo = 'Sofa.Component.Collision.Detection.Algorithm';
const inter = 'Sofa.Component.Collision.Detection.Intersection';
const geom = 'Sofa.Component.Collision.Geometry';
const resp = 'Sofa.Component.Collision.Response.Contact';

const proximity = [
  f('alarmDistance', Real, 1, 'proximity detection distance'),
  f('contactDistance', Real, 0.5, 'distance below which a contact is created'),
  f('useLineLine', Bool, true, 'line-line collision detection enabled'),
  f('useSphereTriangle', Bool, true, 'sphere-triangle collision detection enabled'),
  f('usePointPoint', Bool, true, 'point-point collision detection enabled'),
];

const collisionModel = [
  f('active', Bool, true, 'flag indicating if this collision model is active and should be included in default collision detections'),
  f('moving', Bool, true, 'flag indicating if this object is changing position between iterations'),
  f('simulated', Bool, true, 'flag indicating if this object is controlled by a simulation'),
  f('selfCollision', Bool, false, 'flag indication if the object can self collide'),
  f('proximity', Real, 0, 'distance to the actual (visual) surface'),
  f('contactStiffness', Real, 10, 'contact stiffness'),
  f('contactFriction', Real, 0, 'contact friction coefficient (dry or viscous or unused depending on the contact method)'),
  f('contactRestitution', Real, 0, 'contact coefficient of restitution'),
  f('contactResponse', Str, '', 'if non-empty, the name of the contact response to use for this model'),
  f('color', RealArray(4, 'RGBAColor'), Float64Array.of(1, 0, 0, 1), 'color used to display the collision model if requested', { group: 'Visualization' }),
  f('group', StringArray, [], 'IDs of the groups containing this model; no collision can occur between collision models included in a common group'),
  f('numberOfContacts', Int, 0, 'number of contacts attached to the collision model', { output: true }),
];

export const CollisionPipeline = inertComponent(
  { name: 'CollisionPipeline', aliases: ['DefaultPipeline'], category: 'CollisionAlgorithm', module: algo, description: 'The default collision detection and modeling pipeline (inert in this version).' },
  [f('verbose', Bool, false, 'display extra information at each computation step'), f('draw', Bool, false, 'draw detected collisions'), f('depth', Int, 6, 'max depth of bounding trees')],
);
export const BruteForceBroadPhase = inertComponent({ name: 'BruteForceBroadPhase', category: 'CollisionAlgorithm', module: algo, description: 'Broad phase testing every pair of bounding boxes (inert in this version).' }, [f('box', RealArray(0, 'vector<Vec3d>'), new Float64Array(0), 'if not empty, objects that do not intersect this bounding box are ignored')]);
export const BVHNarrowPhase = inertComponent({ name: 'BVHNarrowPhase', category: 'CollisionAlgorithm', module: algo, description: 'Narrow phase over bounding volume hierarchies (inert in this version).' }, []);
export const DiscreteIntersection = inertComponent({ name: 'DiscreteIntersection', category: 'CollisionAlgorithm', module: inter, description: 'Intersection tests between primitives (inert in this version).' }, []);
export const MinProximityIntersection = inertComponent({ name: 'MinProximityIntersection', category: 'CollisionAlgorithm', module: inter, description: 'Proximity intersection (inert in this version).' }, proximity);
export const NewProximityIntersection = inertComponent({ name: 'NewProximityIntersection', category: 'CollisionAlgorithm', module: inter, description: 'Proximity intersection (inert in this version).' }, proximity);
export const LocalMinDistance = inertComponent(
  { name: 'LocalMinDistance', category: 'CollisionAlgorithm', module: inter, description: 'Proximity intersection with local minimum distance filters (inert in this version).' },
  [...proximity, f('filterIntersection', Bool, true, 'activate LMD filter'), f('angleCone', Real, 0, 'filtering cone extension angle'), f('coneFactor', Real, 0.5, 'factor for filtering cone angle computation'), f('useLMDFilters', Bool, false, 'use external cone computation')],
);
export const CollisionResponse = inertComponent(
  { name: 'CollisionResponse', aliases: ['DefaultContactManager'], category: 'CollisionAlgorithm', module: resp, description: 'Contact manager creating contact responses (inert in this version).' },
  [f('response', Str, 'PenalityContactForceField', 'contact response class'), f('responseParams', Str, '', 'contact response parameters (syntax: name1=value1&name2=value2...)')],
);
export const RuleBasedContactManager = inertComponent(
  { name: 'RuleBasedContactManager', category: 'CollisionAlgorithm', module: resp, description: 'Contact manager choosing responses by rules (inert in this version).' },
  [f('response', Str, 'PenalityContactForceField', 'contact response class'), f('responseParams', Str, '', 'contact response parameters'), f('rules', Str, '', 'ordered list of rules')],
);
export const PointCollisionModel = inertComponent({ name: 'PointCollisionModel', aliases: ['PointModel', 'Point'], category: 'CollisionModel', module: geom, description: 'Collision model of points (inert in this version).', templates: ['Vec3d'] }, [...collisionModel, f('bothSide', Bool, false, 'activate collision on both side of the point model (when surface normals are defined on these points)'), f('computeNormals', Bool, false, 'activate computation of normal vectors (required for some collision detection algorithms)'), f('displayFreePosition', Bool, false, 'display collision model based on free position')]);
export const LineCollisionModel = inertComponent({ name: 'LineCollisionModel', aliases: ['LineModel', 'Line'], category: 'CollisionModel', module: geom, description: 'Collision model of segments (inert in this version).', templates: ['Vec3d'] }, [...collisionModel, f('bothSide', Bool, false, 'activate collision on both side of the line model'), f('displayFreePosition', Bool, false, 'display collision model based on free position')]);
export const TriangleCollisionModel = inertComponent({ name: 'TriangleCollisionModel', aliases: ['TriangleModel', 'Triangle'], category: 'CollisionModel', module: geom, description: 'Collision model of triangles (inert in this version).', templates: ['Vec3d'] }, [...collisionModel, f('bothSide', Bool, false, 'activate collision on both side of the triangle model'), f('computeNormals', Bool, true, 'set to false to disable computation of triangles normal'), f('useCurvature', Bool, false, 'use the curvature of the mesh to avoid some self-intersection test')]);
export const SphereCollisionModel = inertComponent({ name: 'SphereCollisionModel', aliases: ['SphereModel', 'Sphere'], category: 'CollisionModel', module: geom, description: 'Collision model of spheres (inert in this version).', templates: ['Vec3d', 'Rigid3d'] }, [...collisionModel, f('listRadius', RealArray(0), new Float64Array(0), 'radius of each sphere'), f('radius', Real, 1, 'default radius'), f('showImpostors', Bool, true, 'draw spheres as impostors instead of real spheres', { group: 'Visualization' })]);
export const CubeCollisionModel = inertComponent({ name: 'CubeCollisionModel', aliases: ['CubeModel'], category: 'CollisionModel', module: geom, description: 'Collision model of axis-aligned boxes (inert in this version).' }, collisionModel);

/** Every component of @sofa-ts/collision, registered by module.ts. */
export const collisionComponents: readonly ComponentClass[] = [
  CollisionPipeline,
  BruteForceBroadPhase,
  BVHNarrowPhase,
  DiscreteIntersection,
  MinProximityIntersection,
  NewProximityIntersection,
  LocalMinDistance,
  CollisionResponse,
  RuleBasedContactManager,
  PointCollisionModel,
  LineCollisionModel,
  TriangleCollisionModel,
  SphereCollisionModel,
  CubeCollisionModel,
];
