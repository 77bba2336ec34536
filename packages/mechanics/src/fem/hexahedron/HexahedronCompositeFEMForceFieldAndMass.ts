import { Bool, Int, Real, sofaComponent } from '@sofa-ts/core';
import { homogenize, type CompositeLevel, type Homogenization } from './composite-homogenization.js';
import { NonUniformHexahedronFEMForceFieldAndMass } from './NonUniformHexahedronFEMForceFieldAndMass.js';

/** One level of SparseGridRamificationTopology's hierarchy, as this component reads it (topology's RamifiedLevel). */
export interface RamifiedLevelView {
  readonly grid: { readonly n: readonly number[]; readonly min: readonly number[]; readonly step: readonly number[] };
  /** Regular cell → kept cell, or −1; per kept cell its parts (hexahedra) and their children. */
  readonly cellIndex: Int32Array;
  readonly connexions: readonly (readonly { hexa: number; readonly children: readonly { slot: number; child: { hexa: number } }[] }[])[];
  readonly types: Uint8Array;
  readonly stiffnessCoefs: Float64Array;
  readonly hexahedra: Uint32Array;
  readonly positions: Float64Array;
}

interface RamifiedLevels {
  getLevels(): readonly RamifiedLevelView[];
  describe(): string;
}

function hasRamifiedLevels(t: unknown): t is RamifiedLevels {
  return typeof (t as { getLevels?: unknown }).getLevels === 'function';
}

/** What HexahedronCompositeFEMMapping interpolates with. */
export interface CompositeInterpolation {
  /** The finest level used (its points are the fine nodes). */
  readonly finest: RamifiedLevelView;
  /** Per hexahedron of `finest`: its coarse element and 24 × 24 weights (fine corner dofs ← coarse corner dofs). */
  readonly coarseOf: Int32Array;
  readonly weights: Float64Array;
}

/** The homogenization's view of a ramified level: its hexahedra's children (slot, child hexahedron). */
function compositeLevel(level: RamifiedLevelView): CompositeLevel {
  const nH = level.hexahedra.length / 8;
  const lists: { slot: number; hexa: number }[][] = Array.from({ length: nH }, () => []);
  for (const parts of level.connexions)
    for (const cn of parts) for (const ch of cn.children) lists[cn.hexa].push({ slot: ch.slot, hexa: ch.child.hexa });
  const childPtr = new Int32Array(nH + 1);
  lists.forEach((l, h) => (childPtr[h + 1] = childPtr[h] + l.length));
  const childSlot = new Uint8Array(childPtr[nH]),
    childHexa = new Int32Array(childPtr[nH]);
  lists.forEach((l, h) =>
    l.forEach((c, k) => {
      childSlot[childPtr[h] + k] = c.slot;
      childHexa[childPtr[h] + k] = c.hexa;
    }),
  );
  return { hexahedra: level.hexahedra, positions: level.positions, stiffnessCoefs: level.stiffnessCoefs, childPtr, childSlot, childHexa };
}

/**
 * SOFA's HexahedronCompositeFEMForceFieldAndMass: NonUniformHexahedronFEMForceFieldAndMass whose
 * coarse element matrices come from a homogenization of the sparse grid's finer levels
 * (composite-homogenization.ts) rather than the trilinear condensation: level by level, the 8
 * children of a cell (empty ones rigid) are condensed on the coarse nodes by static condensation,
 * the weights kept on the edge / face / cell supports and normalised, K = Wᵀ·K_children·W and
 * M = Wᵀ·M_children·W. A cell holding a stiff and a soft material thus deforms as its parts would,
 * and HexahedronCompositeFEMMapping moves embedded points with the same weights. The hierarchy is
 * SparseGridRamificationTopology's (SparseGridMultipleTopology is one, with a stiffness coefficient
 * per material), over nbVirtualFinerLevels of its levels (with finestToCoarse, one condensation of
 * the finest cells straight onto the coarse nodes, no rigid void); the finest cells' matrices are the
 * classical ones (Young's modulus and Poisson's ratio of element 0, as SOFA) times the cell's
 * stiffness coefficient — the mass too, as SOFA's computeClassicalMechanicalMatrices does.
 * Gravity, useMass and totalMass are NonUniformHexahedronFEMForceFieldAndMass's. On a plain
 * SparseGridTopology the non-uniform condensation is used, with a warning.
 */
@sofaComponent({
  name: 'HexahedronCompositeFEMForceFieldAndMass',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.FEM.NonUniform',
  description: 'Non uniform Hexahedral finite elements',
  templates: ['Vec3d'],
})
export class HexahedronCompositeFEMForceFieldAndMass extends NonUniformHexahedronFEMForceFieldAndMass {
  readonly finestToCoarse = this.initData({
    name: 'finestToCoarse',
    type: Bool,
    default: false,
    help: 'Does the homogenization is done directly from the finest level to the coarse one?',
  });
  readonly homogenizationMethod = this.initData({
    name: 'homogenizationMethod',
    type: Int,
    default: 0,
    help: '0->static, 1->constrained static, 2->modal analysis',
  });
  readonly completeInterpolation = this.initData({
    name: 'completeInterpolation',
    type: Bool,
    default: false,
    help: 'Is the non-linear, complete interpolation used?',
  });
  readonly useRamification = this.initData({
    name: 'useRamification',
    type: Bool,
    default: true,
    help: 'If SparseGridRamification, are ramifications taken into account?',
  });
  readonly drawType = this.initData({ name: 'drawType', type: Int, default: 0, help: '', group: 'Visualization' });
  readonly drawColor = this.initData({ name: 'drawColor', type: Int, default: 0, help: '', group: 'Visualization' });
  readonly drawSize = this.initData({ name: 'drawSize', type: Real, default: -1, help: '', group: 'Visualization' });

  private composite: Homogenization | undefined;
  /**
   * Checkpoint: the element rotations of the last addForce, which HexahedronCompositeFEMMapping
   * applies with at the next step's propagation, before this force field's next addForce.
   */
  readonly checkpointFields = ['rot'] as const;
  private finestLevel: RamifiedLevelView | undefined;

  protected override prepareLevels(): void {
    this.composite = undefined;
    this.finestLevel = undefined;
    const wanted = this.nbVirtualFinerLevels.value;
    const topo = this.topo;
    if (wanted === 0 || !hasRamifiedLevels(topo)) {
      if (wanted > 0)
        this.warnAbout(
          this.nbVirtualFinerLevels,
          "the topology is not a SparseGridRamificationTopology (nor a SparseGridMultipleTopology): NonUniformHexahedronFEMForceFieldAndMass's condensation is used, not the composite homogenization",
        );
      return super.prepareLevels();
    }
    const all = topo.getLevels();
    if (all.length - 1 < wanted) {
      this.warnAbout(
        this.nbVirtualFinerLevels,
        `the sparse grid ${topo.describe()} has ${Math.max(0, all.length - 1)} virtual finer levels, fewer than ${wanted}: the classical, uniform element matrices are used`,
      );
      return;
    }
    if (this.homogenizationMethod.value !== 0)
      this.warnAbout(this.homogenizationMethod, 'only the static homogenization (0) exists (SOFA implements no other): it is used');
    if (!this.useRamification.value)
      this.warnAbout(
        this.useRamification,
        "useRamification=false is not honoured: each cell's ramified children are used (the same where no cell is ramified)",
      );
    if (this.updateStiffnessMatrix.value)
      this.warnAbout(this.updateStiffnessMatrix, 'updateStiffnessMatrix is not honoured: the homogenized element matrices are kept');
    const E = this.youngModulus.value,
      nu = this.poissonRatio.value;
    if (E.length > 1 || nu.length > 1)
      this.warnAbout(
        E.length > 1 ? this.youngModulus : this.poissonRatio,
        "one value per element is not honoured: element 0's is used for every fine cell, as SOFA",
      );
    const used = all.slice(all.length - 1 - wanted);
    const h = homogenize({
      levels: used.map(compositeLevel),
      youngModulus: E[0],
      poissonRatio: nu[0],
      density: this.density.value,
      completeInterpolation: this.completeInterpolation.value,
      finestToCoarse: this.finestToCoarse.value,
    });
    if (h.singularCells > 0)
      this.warn(`${h.singularCells} cells could not be condensed (singular stiffness of their free points): their weights are trilinear`);
    if (h.degenerateRows > 0) this.warn(`${h.degenerateRows} weight rows summed to 0 and were left trilinear`);
    this.composite = h;
    this.finestLevel = used[0];
  }

  protected override condenses(): boolean {
    return this.composite !== undefined || super.condenses();
  }

  protected override restElementStiffness(K: Float64Array, e: number, restShape: Float64Array, h: Float64Array, factor: number): void {
    if (!this.composite) return super.restElementStiffness(K, e, restShape, h, factor);
    K.set(this.composite.stiffness.subarray(576 * e, 576 * e + 576));
  }

  protected override computeMasses(): void {
    super.computeMasses();
    const h = this.composite;
    if (!h) return;
    const part = this.massPart!;
    part.elementMatrices = Float64Array.from(h.mass);
    if (part.lumped) {
      // the row sums of the homogenized matrices, made positive as SOFA does
      const lumped = new Float64Array(part.lumped.length);
      const n = this.elems.length / 8;
      for (let e = 0; e < n; e++)
        for (let w = 0; w < 8; w++)
          for (let d = 0; d < 3; d++) {
            let s = 0;
            for (let j = 0; j < 24; j++) s += h.mass[576 * e + 24 * (3 * w + d) + j];
            lumped[3 * this.elems[8 * e + w] + d] += s;
          }
      for (let k = 0; k < lumped.length; k++) lumped[k] = Math.abs(lumped[k]);
      part.lumped = lumped;
    }
  }

  /** The weights HexahedronCompositeFEMMapping interpolates with (undefined without the homogenization). */
  compositeInterpolation(): CompositeInterpolation | undefined {
    if (!this.composite || !this.finestLevel) return undefined;
    return { finest: this.finestLevel, coarseOf: this.composite.coarseOf, weights: this.composite.weights };
  }

  /** The coarse hexahedra (nE × 8), in the order of the element rotations. */
  coarseHexahedra(): Uint32Array {
    return this.elems;
  }

  /** The topology's points (the coarse nodes' rest positions on the grid). */
  gridPositions(): Float64Array | undefined {
    return this.topo?.getPositions();
  }
}
