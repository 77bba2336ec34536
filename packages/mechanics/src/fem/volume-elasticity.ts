import {
  contextMechanicalState,
  contextMeshTopology,
  type BaseMechanicalState,
  type BaseMeshTopology,
  type BaseObject,
  type Data,
  type Link,
} from '@sofa-ts/core';

/**
 * Shared pieces of SOFA's linear-elastic volume force fields (BaseLinearElasticityFEMForceField):
 * defaults, per-element material lookup, the isotropic Hooke matrix in SOFA's Voigt order and the
 * topology lookup.
 */

/** SOFA's default Young modulus (Pa) and Poisson ratio. */
export const DEFAULT_YOUNG_MODULUS = 5000;
export const DEFAULT_POISSON_RATIO = 0.45;

/**
 * Value of element i from a per-element list: the i-th value if the list is long enough, else the
 * first, else `fallback` (SOFA getYoungModulusInElement / getPoissonRatioInElement).
 */
export function valueInElement(values: ArrayLike<number>, i: number, fallback: number): number {
  if (values.length > i) return values[i];
  if (values.length > 0) return values[0];
  return fallback;
}

/** Young moduli as SOFA checks them: negative values are replaced by the default. */
export function checkedYoungModuli(values: Float64Array): Float64Array {
  return Float64Array.from(values, (y) => (y < 0 ? DEFAULT_YOUNG_MODULUS : y));
}

/** Poisson ratios as SOFA checks them: values outside [0, 0.5) are replaced by the default. */
export function checkedPoissonRatios(values: Float64Array): Float64Array {
  return Float64Array.from(values, (p) => (p < 0 || p >= 0.5 ? DEFAULT_POISSON_RATIO : p));
}

/**
 * The isotropic Hooke matrix for the engineering strain (εxx, εyy, εzz, γxy, γyz, γzx), SOFA's Voigt
 * order with γ = 2ε for shears:
 *   D = E(1−ν)/((1+ν)(1−2ν)) · [1 on the normal diagonal, ν/(1−ν) off it, (1−2ν)/(2(1−ν)) on shears]
 * Returns out = [D00, D01, D33] = [λ+2μ, λ, μ], computed in SOFA's order of operations.
 */
export function isotropicHooke(out: Float64Array, youngModulus: number, poissonRatio: number): Float64Array {
  const nu = poissonRatio;
  const factor = (youngModulus * (1 - nu)) / ((1 + nu) * (1 - 2 * nu));
  out[0] = factor;
  out[1] = (nu / (1 - nu)) * factor;
  out[2] = ((1 - 2 * nu) / (2 * (1 - nu))) * factor;
  return out;
}

/**
 * Refuses a material whose Hooke matrix overflows (youngModulus="1e308": λ + 2μ is then +inf and
 * every force NaN): each pair of Young modulus and Poisson ratio an element can get is checked.
 */
export function checkHookeFinite(owner: BaseObject, about: Data<unknown>, young: ArrayLike<number>, poisson: ArrayLike<number>): void {
  const d = new Float64Array(3);
  const n = Math.max(young.length, poisson.length, 1);
  for (let i = 0; i < n; i++) {
    const E = valueInElement(young, i, DEFAULT_YOUNG_MODULUS);
    const nu = valueInElement(poisson, i, DEFAULT_POISSON_RATIO);
    isotropicHooke(d, E, nu);
    if (!Number.isFinite(d[0]) || !Number.isFinite(d[1]) || !Number.isFinite(d[2])) {
      throw owner.dataError(
        about,
        `youngModulus ${E} with poissonRatio ${nu} overflows the Hooke matrix (λ + 2μ = ${d[0]})`,
        'give the modulus in consistent units (Pa with metres, kPa with millimetres)',
      );
    }
  }
}

/**
 * The topology of a force field: its `topology` link when set, else the mesh topology of its node as
 * SOFA's context gives it (Node::getMeshTopologyLink): the node's topology slot, which holds the
 * last topology added to the node, else the first topology found in the nearest ancestor.
 */
export function findMeshTopology(owner: BaseObject, link: Link<BaseMeshTopology>): BaseMeshTopology | undefined {
  return link.get() ?? contextMeshTopology(owner.context);
}

/** What a linear-elastic volume force field declares (SOFA's BaseLinearElasticityFEMForceField). */
export interface LinearElasticVolume extends BaseObject {
  readonly topology: Link<BaseMeshTopology>;
  readonly youngModulus: Data<Float64Array>;
  readonly poissonRatio: Data<Float64Array>;
}

/**
 * The init shared by the volume force fields: the Vec3 state of the node, the topology (the link,
 * else the context's; `what` names the elements the error asks for), and the material as SOFA
 * checks it (the default Young modulus when none is given, bad values replaced by the defaults).
 * The state is the node's, else the nearest ancestor's (SOFA's getMechanicalState of a context).
 */
export function initLinearElasticVolume(ff: LinearElasticVolume, what: string): { state: BaseMechanicalState; topology: BaseMeshTopology } {
  const ms = contextMechanicalState(ff.context);
  if (!ms) throw ff.error('no mechanical state: put a MechanicalObject in the node or an ancestor');
  if (ms.stateType.derivSize !== 3 || ms.stateType.isRigid) throw ff.error(`needs a Vec3 mechanical state, not ${ms.stateType.name}`);
  if (!ff.template) ff.template = ms.stateType.name;
  const topo = findMeshTopology(ff, ff.topology);
  if (!topo) throw ff.error(`no topology: link one with topology="@..." or put a ${what} in the node`);
  ff.topology.set(topo);
  ff.youngModulus.value = checkedYoungModuli(
    ff.youngModulus.value.length > 0 ? ff.youngModulus.value : Float64Array.of(DEFAULT_YOUNG_MODULUS),
  );
  ff.poissonRatio.value = checkedPoissonRatios(ff.poissonRatio.value);
  checkHookeFinite(ff, ff.youngModulus, ff.youngModulus.value, ff.poissonRatio.value);
  return { state: ms, topology: topo };
}

/**
 * Six tetrahedra per hexahedron, as SOFA's TetrahedronFEMForceField splits a hexahedral topology
 * when it has no tetrahedra: cubes are mirrored in x, y, z in alternation so that faces of
 * neighbouring cubes match (nx, ny are the numbers of cubes along x and y of a grid, else 2 and 1).
 */
export function tetrahedraFromHexahedra(hexa: Uint32Array, cubesX: number, cubesY: number): Uint32Array {
  const n = hexa.length / 8;
  const out = new Uint32Array(n * 24);
  const c = new Array<number>(8);
  const swap = (i: number, j: number): void => {
    const t = c[i];
    c[i] = c[j];
    c[j] = t;
  };
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 8; k++) c[k] = hexa[8 * i + k];
    if (!((i % cubesX) & 1)) {
      swap(0, 1);
      swap(3, 2);
      swap(4, 5);
      swap(7, 6);
    }
    if ((Math.floor(i / cubesX) % cubesY) & 1) {
      swap(0, 3);
      swap(1, 2);
      swap(4, 7);
      swap(5, 6);
    }
    if (Math.floor(i / (cubesX * cubesY)) & 1) {
      swap(0, 4);
      swap(1, 5);
      swap(2, 6);
      swap(3, 7);
    }
    const tets = [
      c[0],
      c[5],
      c[1],
      c[6],
      c[0],
      c[1],
      c[3],
      c[6],
      c[1],
      c[3],
      c[6],
      c[2],
      c[6],
      c[3],
      c[0],
      c[7],
      c[6],
      c[7],
      c[0],
      c[5],
      c[7],
      c[5],
      c[4],
      c[0],
    ];
    for (let k = 0; k < 24; k++) out[24 * i + k] = tets[k];
  }
  return out;
}
