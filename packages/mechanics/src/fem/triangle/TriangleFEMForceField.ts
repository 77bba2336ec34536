import { Bool, Enum, inOpen, nonNegative, positive, Real, RealArray, sofaComponent } from '@sofa-ts/core';
import { planeStressMaterial } from './triangle-kernels.js';
import { TriangleFEMBase } from './triangle-fem-base.js';

/**
 * SOFA's TriangleFEMForceField, the older triangle element for static topologies: the same
 * co-rotational ("large", default) or small-displacement triangles as TriangularFEMForceField (see
 * TriangleFEMBase), with its own rest shape and material. On the triangles of the topology, or else
 * on its quads split into (q0, q1, q2) and (q0, q2, q3). The rest shape comes from initialPoints
 * (the rest positions by default); the rest vertices in the rest frame R0 are R0·p_B − R0·p_A and
 * R0·p_C − R0·p_A. With thickness h, area A = |AB × AC|/2 at rest and volume V = h·A:
 *   plane stress: M = E/(1 − ν²)·[[1, ν, 0], [ν, 1, 0], [0, 0, (1 − ν)/2]]·V
 *   plane strain: M = E/((1 + ν)(1 − 2ν))·[[1 − ν, ν, 0], [ν, 1 − ν, 0], [0, 0, 1/2 − ν]]·V
 * The small method uses the rest edges A→B, A→C in world coordinates (SOFA's own small path reads
 * rest data it never fills; we use those of TriangularFEMForceField).
 */
@sofaComponent({
  name: 'TriangleFEMForceField',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.FEM.Elastic',
  description: 'Triangular finite elements for static topology (co-rotational or small displacements).',
  templates: ['Vec3d'],
})
export class TriangleFEMForceField extends TriangleFEMBase {
  readonly initialPoints = this.initData({
    name: 'initialPoints',
    type: RealArray(3),
    default: new Float64Array(0),
    help: 'rest positions of the points (default: the rest positions of the state)',
  });
  readonly method = this.initData({
    name: 'method',
    type: Enum(['large', 'small']),
    default: 'large',
    help: 'large: large displacements (co-rotational), small: small displacements',
  });
  readonly poissonRatio = this.initData({
    name: 'poissonRatio',
    type: Real,
    default: 0.3,
    range: inOpen(-1, 1),
    help: "Poisson ratio in Hooke's law",
  });
  readonly youngModulus = this.initData({
    name: 'youngModulus',
    type: Real,
    default: 1000,
    unit: 'Pa',
    range: nonNegative,
    help: "Young modulus in Hooke's law",
  });
  readonly thickness = this.initData({
    name: 'thickness',
    type: Real,
    default: 1,
    unit: 'm',
    range: positive,
    help: 'thickness of the elements',
  });
  readonly planeStrain = this.initData({
    name: 'planeStrain',
    type: Bool,
    default: false,
    help: 'plane strain (true) or plane stress (false) assumption',
  });

  /** The topology's changeRevision the elements were built for, and whether initialPoints came from the state. */
  private builtRevision = -1;
  private restFromState = false;

  /** A topological change: the elements are built again (rest points from the state's rest positions). */
  protected override beforeForce(): void {
    const topo = this.topology.get();
    if (!topo || topo.changeRevision === this.builtRevision) return;
    if (this.restFromState) this.initialPoints.value = new Float64Array(0);
    this.init();
  }

  override init(): void {
    const topo = this.initLinks();
    this.builtRevision = topo.changeRevision;
    this.restFromState ||= this.initialPoints.value.length === 0;
    const s = this.mstate.require();
    this.large = this.method.value === 'large';
    // Elements: the triangles, or the quads split in two.
    const tris = topo.getTriangles();
    const quads = topo.getQuads();
    if (tris.length > 0 || quads.length === 0) {
      const nT = Math.floor(tris.length / 3);
      this.allocateElements(nT);
      this.tri.set(tris.subarray(0, 3 * nT));
    } else {
      const nQ = Math.floor(quads.length / 4);
      this.allocateElements(2 * nQ);
      for (let q = 0; q < nQ; q++) {
        const v = 4 * q,
          t = 6 * q;
        this.tri[t] = quads[v];
        this.tri[t + 1] = quads[v + 1];
        this.tri[t + 2] = quads[v + 2];
        this.tri[t + 3] = quads[v];
        this.tri[t + 4] = quads[v + 2];
        this.tri[t + 5] = quads[v + 3];
      }
    }
    if (this.initialPoints.value.length === 0) this.initialPoints.value = Float64Array.from(s.x0);
    const p = this.initialPoints.value;
    for (const v of this.tri)
      if (3 * v + 2 >= p.length) throw this.error(`the topology names point ${v}, but initialPoints has ${p.length / 3} points`);
    const nu = this.poissonRatio.value;
    const E = this.youngModulus.value;
    const h = this.thickness.value;
    const strainE = E / ((1 + nu) * (1 - 2 * nu));
    for (let e = 0; e < this.elementCount; e++) {
      if (this.large) this.initLargeElement(e, p, false);
      else this.initSmallElement(e, p);
      const a = 3 * this.tri[3 * e],
        b = 3 * this.tri[3 * e + 1],
        c = 3 * this.tri[3 * e + 2];
      const ux = p[b] - p[a],
        uy = p[b + 1] - p[a + 1],
        uz = p[b + 2] - p[a + 2];
      const vx = p[c] - p[a],
        vy = p[c + 1] - p[a + 1],
        vz = p[c + 2] - p[a + 2];
      const nx = uy * vz - uz * vy,
        ny = uz * vx - ux * vz,
        nz = ux * vy - uy * vx;
      const volume = 0.5 * h * Math.sqrt(nx * nx + ny * ny + nz * nz);
      const o = 9 * e;
      if (this.planeStrain.value) {
        const f = strainE * volume;
        const M = this.M;
        M[o] = (1 - nu) * f;
        M[o + 1] = nu * f;
        M[o + 2] = 0;
        M[o + 3] = nu * f;
        M[o + 4] = (1 - nu) * f;
        M[o + 5] = 0;
        M[o + 6] = 0;
        M[o + 7] = 0;
        M[o + 8] = (0.5 - nu) * f;
      } else {
        planeStressMaterial(this.M, o, E, nu, volume);
      }
    }
    const bad = this.M.findIndex((x) => !Number.isFinite(x));
    if (bad >= 0)
      throw this.dataError(
        this.youngModulus,
        `the material of triangle ${Math.floor(bad / 9)} is not finite (youngModulus ${E}, poissonRatio ${nu}${this.planeStrain.value ? ', plane strain needs poissonRatio < 0.5' : ''})`,
      );
  }
}
