import { Bool, Enum, Int, Real, RealArray, Str, sofaComponent, type BaseMeshTopology } from '@sofa-ts/core';
import { CorotationalTetrahedra, tetrahedraOfTopology, type TetrahedronMethod } from './corotational-tetrahedra.js';

/**
 * SOFA's TetrahedronFEMForceField: linear elasticity on tetrahedra, small displacements or
 * corotational ('large': frame of the first edges, 'polar': polar decomposition of the edge matrix,
 * 'svd': polar with a rotation-preserving SVD for inverted elements). See CorotationalTetrahedra for
 * the equations: f = Rᵀ·J·K·Jᵀ·(R₀·X − R·x), K_e = −Rᵀ·J·K·Jᵀ·R, Hooke's law in SOFA's Voigt order.
 * Optional plasticity (Jᵀ·D minus a plastic strain that creeps towards the total strain beyond
 * plasticYieldThreshold and is clamped to plasticMaxThreshold). A topology with hexahedra only is
 * split in 6 tetrahedra per hexahedron as SOFA does.
 */
@sofaComponent({
  name: 'TetrahedronFEMForceField',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.FEM.Elastic',
  description: 'Linear elastic tetrahedra, small displacements or corotational (large, polar, svd).',
  templates: ['Vec3d'],
})
export class TetrahedronFEMForceField extends CorotationalTetrahedra {
  readonly initialPoints = this.initData({ name: 'initialPoints', type: RealArray(3, 'vector<Vec3d>'), default: new Float64Array(0), help: 'rest positions the elements were initialised from (output)' });
  readonly method = this.initData({ name: 'method', type: Enum(['large', 'small', 'polar', 'svd'] as const), default: 'large', help: "'small' displacements, 'large' (frame of the edges), 'polar' or 'svd' corotational" });
  readonly plasticMaxThreshold = this.initData({ name: 'plasticMaxThreshold', type: Real, default: 0, help: 'largest 2-norm of the plastic strain (0: no plasticity)' });
  readonly plasticYieldThreshold = this.initData({ name: 'plasticYieldThreshold', type: Real, default: 0.0001, help: 'elastic strain 2-norm beyond which the plastic strain creeps' });
  readonly plasticCreep = this.initData({ name: 'plasticCreep', type: Real, default: 0.9, help: 'fraction of the elastic strain turned plastic per evaluation (depends on dt), in [0, 1]' });
  readonly gatherPt = this.initData({ name: 'gatherPt', type: Str, default: ' ', help: 'points accumulated per thread in the gather operation (GPU versions only; accepted)' });
  readonly gatherBsize = this.initData({ name: 'gatherBsize', type: Str, default: ' ', help: 'block size of the gather operation (GPU versions only; accepted)' });
  readonly drawHeterogeneousTetra = this.initData({ name: 'drawHeterogeneousTetra', type: Bool, default: false, help: 'draw heterogeneous tetrahedra in different colors', group: 'Visualization' });
  readonly computeVonMisesStress = this.initData({ name: 'computeVonMisesStress', type: Int, default: 0, help: 'von Mises stress: 0 none, 1 corotational strain, 2 full Green strain (accepted; not computed by this version)' });
  readonly vonMisesPerElement = this.initData({ name: 'vonMisesPerElement', type: RealArray(1), default: new Float64Array(0), help: 'von Mises stress per element (output)' });
  readonly vonMisesPerNode = this.initData({ name: 'vonMisesPerNode', type: RealArray(1), default: new Float64Array(0), help: 'von Mises stress per node (output)' });
  readonly vonMisesStressColors = this.initData({ name: 'vonMisesStressColors', type: RealArray(4, 'vector<RGBAColor>'), default: new Float64Array(0), help: 'colors showing the von Mises stress (output)', group: 'Visualization' });
  readonly showStressColorMap = this.initData({ name: 'showStressColorMap', type: Str, default: 'Blue to Red', help: 'color map used to show stress values', group: 'Visualization' });
  readonly showStressAlpha = this.initData({ name: 'showStressAlpha', type: Real, default: 1, help: 'alpha of the von Mises display', group: 'Visualization' });
  readonly showVonMisesStressPerNode = this.initData({ name: 'showVonMisesStressPerNode', type: Bool, default: false, help: 'draw points showing the von Mises stress at the nodes', group: 'Visualization' });
  readonly showVonMisesStressPerNodeColorMap = this.initData({ name: 'showVonMisesStressPerNodeColorMap', type: Bool, default: false, help: 'draw elements colored by the von Mises stress interpolated at the nodes', group: 'Visualization' });
  readonly showVonMisesStressPerElement = this.initData({ name: 'showVonMisesStressPerElement', type: Bool, default: false, help: 'draw elements colored by their von Mises stress', group: 'Visualization' });
  readonly showElementGapScale = this.initData({ name: 'showElementGapScale', type: Real, default: 0.333, help: 'gap drawn between elements, in [0, 1]', group: 'Visualization' });
  readonly updateStiffness = this.initData({ name: 'updateStiffness', type: Bool, default: false, help: 'recompute the material stiffness from youngModulus/poissonRatio at each time step (accepted)' });

  protected methodName(): TetrahedronMethod {
    return this.method.value as TetrahedronMethod;
  }

  protected override elementsOf(topo: BaseMeshTopology): Uint32Array {
    return tetrahedraOfTopology(topo);
  }

  override init(): void {
    super.init();
    const v = this.computeVonMisesStress.value;
    if (v < 0 || v > 2) throw this.error(`computeVonMisesStress must be 0, 1 or 2 (got ${v})`);
  }

  override reinit(): void {
    super.reinit();
    this.initialPoints.value = Float64Array.from(this.mstate!.x0);
    if (this.elementCount === 0) throw this.error(`the topology ${this.topo!.describe()} has no tetrahedra nor hexahedra`);
  }

  protected override beforeForces(): void {
    this.setPlasticity(this.plasticMaxThreshold.value, this.plasticYieldThreshold.value, this.plasticCreep.value);
  }
}
