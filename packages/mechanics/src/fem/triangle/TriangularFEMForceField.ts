import { Bool, Enum, inOpen, nonNegative, Real, RealArray, sofaComponent } from '@sofa-ts/core';
import { planeStressMaterial } from './triangle-kernels.js';
import { TriangleFEMBase } from './triangle-fem-base.js';

/**
 * SOFA's TriangularFEMForceField: linear triangles in plane stress on the triangles of the node's
 * topology, co-rotational (method "large", the default) or small displacements (see
 * TriangleFEMBase for the force and stiffness). Per element, with Young modulus E and Poisson ratio
 * ν (one value for all, or one per triangle) and area A at rest:
 *   M = E/(1 − ν²)·[[1, ν, 0], [ν, 1, 0], [0, 0, (1 − ν)/2]]·A
 * large: the rest vertices in the rest frame are B⁰ = R0·(p_B − p_A), C⁰ = R0·(p_C − p_A) with R0
 * the frame of the rest triangle (x along AB), A = B⁰x·C⁰y/2; they may be given instead by
 * rotatedInitialElements with initialTransformation (R0 per triangle). small: rest edges A→B,
 * A→C in world coordinates, A = |AB × AC|/2, forces in the world x, y plane.
 * With computePrincipalStress, each addForce also evaluates the principal stresses and the Hosford
 * yield criterion (½(|σ1|ⁿ + |σ2|ⁿ + |σ1 − σ2|ⁿ))^(1/n) − criteriaValue per triangle.
 * The topology's triangles are re-read when it changes.
 */
@sofaComponent({
  name: 'TriangularFEMForceField',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.FEM.Elastic',
  description: 'Co-rotational or small-displacement linear triangles in plane stress, for triangle topologies that may change.',
  templates: ['Vec3d'],
})
export class TriangularFEMForceField extends TriangleFEMBase {
  readonly method = this.initData({
    name: 'method',
    type: Enum(['large', 'small']),
    default: 'large',
    help: 'large: large displacements (co-rotational), small: small displacements',
  });
  readonly poissonRatio = this.initData({
    name: 'poissonRatio',
    type: RealArray(0),
    default: Float64Array.of(0.3),
    range: inOpen(-1, 1),
    help: "Poisson ratio in Hooke's law (one value, or one per triangle)",
  });
  readonly youngModulus = this.initData({
    name: 'youngModulus',
    type: RealArray(0),
    default: Float64Array.of(1000),
    unit: 'Pa',
    range: nonNegative,
    help: "Young modulus in Hooke's law (one value, or one per triangle)",
  });
  readonly rotatedInitialElements = this.initData({
    name: 'rotatedInitialElements',
    type: RealArray(9, 'vector<fixed_array<Vec3d,3>>'),
    default: new Float64Array(0),
    help: 'rest vertices of each triangle in its own frame (A, B, C), instead of the rest positions',
  });
  readonly initialTransformation = this.initData({
    name: 'initialTransformation',
    type: RealArray(9, 'vector<Mat3x3d>'),
    default: new Float64Array(0),
    help: 'rest frame of each triangle (rows: frame axes), used with rotatedInitialElements',
  });
  readonly hosfordExponant = this.initData({
    name: 'hosfordExponant',
    type: Real,
    default: 1,
    help: 'exponent n of the Hosford yield criterion',
  });
  readonly criteriaValue = this.initData({
    name: 'criteriaValue',
    type: Real,
    default: 1e15,
    help: 'fracture threshold of the yield criterion (triangles above it are fracturable)',
  });
  readonly showStressValue = this.initData({
    name: 'showStressValue',
    type: Bool,
    default: true,
    help: 'draw the stress value as a color per triangle',
    group: 'Visualization',
  });
  readonly showStressVector = this.initData({
    name: 'showStressVector',
    type: Bool,
    default: false,
    help: 'draw the principal stress direction in each triangle',
    group: 'Visualization',
  });
  readonly showFracturableTriangles = this.initData({
    name: 'showFracturableTriangles',
    type: Bool,
    default: false,
    help: 'draw the triangles above the fracture criterion',
    group: 'Visualization',
  });
  readonly computePrincipalStress = this.initData({
    name: 'computePrincipalStress',
    type: Bool,
    default: false,
    help: 'compute the principal stress of each triangle at every step',
  });

  /** Largest principal stress magnitude per triangle (with computePrincipalStress): (nT). */
  maxStress = new Float64Array(0);
  /** Hosford criterion minus criteriaValue per triangle (with computePrincipalStress): (nT). */
  differenceToCriteria = new Float64Array(0);
  /** Principal stress direction (world, scaled by maxStress/100) per triangle: (nT × 3). */
  principalStressDirection = new Float64Array(0);
  private topoRevision = -1;

  override init(): void {
    this.initLinks();
    this.large = this.method.value === 'large';
    this.buildElements();
  }

  /** Per-element rest data and materials from the topology's triangles and the rest positions. */
  private buildElements(): void {
    const topo = this.topology.require();
    const s = this.mstate.require();
    this.topoRevision = topo.revision;
    const tris = topo.getTriangles();
    const nT = Math.floor(tris.length / 3);
    this.allocateElements(nT);
    this.tri.set(tris.subarray(0, 3 * nT));
    for (const v of this.tri) if (v >= s.size) throw this.error(`the topology names point ${v}, but ${s.describe()} has ${s.size} points`);
    this.maxStress = new Float64Array(nT);
    this.differenceToCriteria = new Float64Array(nT);
    this.principalStressDirection = new Float64Array(3 * nT);
    const p = s.x0;
    const given = this.rotatedInitialElements.isSet && this.rotatedInitialElements.value.length >= 9 * nT;
    const givenFrames = this.initialTransformation.isSet && this.initialTransformation.value.length >= 9 * nT;
    const young = this.youngModulus.value,
      poisson = this.poissonRatio.value;
    if (young.length === 0 || poisson.length === 0) throw this.error('youngModulus and poissonRatio need at least one value');
    for (let e = 0; e < nT; e++) {
      const o = 9 * e;
      let area: number;
      if (this.large) {
        if (given && givenFrames) {
          // rot = R0ᵀ from the given frame, rest vertices as given
          const T = this.initialTransformation.value;
          for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) this.rot[o + 3 * i + j] = T[o + 3 * j + i];
          this.rest.set(this.rotatedInitialElements.value.subarray(o, o + 9), o);
          this.initRestJ(e);
        } else {
          this.initLargeElement(e, p, true);
        }
        area = this.rest[o + 3] * this.rest[o + 7] * 0.5;
      } else {
        if (given) {
          this.rest.set(this.rotatedInitialElements.value.subarray(o, o + 9), o);
          this.initRestJ(e);
        } else {
          this.initSmallElement(e, p);
        }
        const r = this.rest;
        const bx = r[o + 3],
          by = r[o + 4],
          bz = r[o + 5],
          cx = r[o + 6],
          cy = r[o + 7],
          cz = r[o + 8];
        const nx = by * cz - bz * cy,
          ny = bz * cx - bx * cz,
          nz = bx * cy - by * cx;
        area = Math.sqrt(nx * nx + ny * ny + nz * nz) * 0.5;
      }
      const E = young.length > e ? young[e] : young[0];
      const nu = poisson.length > e ? poisson[e] : poisson[0];
      planeStressMaterial(this.M, o, E, nu, area);
    }
    const bad = this.M.findIndex((x) => !Number.isFinite(x));
    if (bad >= 0)
      throw this.dataError(
        this.youngModulus,
        `the material of triangle ${Math.floor(bad / 9)} is not finite (youngModulus ${valueAt(young, Math.floor(bad / 9))}, poissonRatio ${valueAt(poisson, Math.floor(bad / 9))}, area or elements degenerate)`,
      );
  }

  protected override beforeForce(): void {
    if (this.topology.require().revision !== this.topoRevision) this.buildElements();
  }

  protected override afterForce(): void {
    if (!this.computePrincipalStress.value) return;
    const n = this.hosfordExponant.value;
    const crit = this.criteriaValue.value;
    const nT = this.elementCount;
    for (let e = 0; e < nT; e++) {
      // eigen-decomposition of the symmetric stress [[σxx, τ], [τ, σyy]]
      const sxx = this.sv[6 * e + 3],
        syy = this.sv[6 * e + 4],
        txy = this.sv[6 * e + 5];
      const mean = 0.5 * (sxx + syy);
      const rad = Math.hypot(0.5 * (sxx - syy), txy);
      const l1 = mean + rad,
        l2 = mean - rad;
      const big = Math.abs(l1) >= Math.abs(l2) ? l1 : l2;
      const s0 = Math.abs(big),
        s1 = Math.abs(big === l1 ? l2 : l1);
      this.differenceToCriteria[e] = Math.pow(0.5 * (Math.pow(s0, n) + Math.pow(s1, n) + Math.pow(Math.abs(s0 - s1), n)), 1 / n) - crit;
      this.maxStress[e] = s0;
      // eigenvector of `big` in the element frame, then to world, scaled by maxStress/100
      let dx = txy,
        dy = big - sxx;
      if (Math.hypot(dx, dy) < 1e-300) {
        dx = big - syy;
        dy = txy;
      }
      const dn = Math.hypot(dx, dy);
      if (dn > 0) {
        dx /= dn;
        dy /= dn;
      } else {
        dx = 1;
        dy = 0;
      }
      const o = 9 * e,
        scale = s0 / 100;
      for (let i = 0; i < 3; i++)
        this.principalStressDirection[3 * e + i] = (this.rot[o + 3 * i] * dx + this.rot[o + 3 * i + 1] * dy) * scale;
    }
  }
}

function valueAt(values: Float64Array, e: number): number {
  return values.length > e ? values[e] : values[0];
}
