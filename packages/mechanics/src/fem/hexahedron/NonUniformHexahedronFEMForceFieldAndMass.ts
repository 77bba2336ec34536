import { Bool, Int, Real, nonNegative, sofaComponent } from '@sofa-ts/core';
import { hexahedronStiffness } from '../hexahedron-kernels.js';
import { HexahedronFEMForceFieldAndMass } from './HexahedronFEMForceFieldAndMass.js';

/** A sparse grid's hierarchy as this component reads it (topology's SparseGridTopology). */
interface VirtualLevels {
  getVirtualLevels(): readonly { grid: { n: readonly number[] }; types: Uint8Array }[];
  getGrid(): { cellToHexahedron?: Int32Array };
  readonly fillWeighted: { value: boolean };
  readonly onlyInsideCells: { value: boolean };
}

function hasVirtualLevels(t: unknown): t is VirtualLevels {
  return typeof (t as { getVirtualLevels?: unknown }).getVirtualLevels === 'function';
}

const INSIDE = 1,
  BOUNDARY = 2;

/** Hexahedron corners in SOFA's order, as (x, y, z) bits of the unit cube. */
const CORNERS = [
  [0, 0, 0],
  [1, 0, 0],
  [1, 1, 0],
  [0, 1, 0],
  [0, 0, 1],
  [1, 0, 1],
  [1, 1, 1],
  [0, 1, 1],
] as const;

/**
 * H_w (8 × 8): the trilinear weight of the coarse corner u at the corner v of child w (children in
 * SOFA's order, bit 0 = x, bit 1 = y, bit 2 = z): the rows of SOFA's FINE_TO_COARSE table.
 */
const FINE_TO_COARSE: Float64Array[] = Array.from({ length: 8 }, (_, w) => {
  const H = new Float64Array(64);
  const off = [w & 1, (w >> 1) & 1, (w >> 2) & 1];
  for (let v = 0; v < 8; v++) {
    const p = [0, 1, 2].map((d) => (off[d] + CORNERS[v][d]) / 2);
    for (let u = 0; u < 8; u++) {
      let N = 1;
      for (let d = 0; d < 3; d++) N *= CORNERS[u][d] ? p[d] : 1 - p[d];
      H[8 * v + u] = N;
    }
  }
  return H;
});

/**
 * SOFA's NonUniformHexahedronFEMForceFieldAndMass: HexahedronFEMForceFieldAndMass on a sparse grid
 * whose element matrices are condensed from the grid's virtual finer levels, so that a coarse cell
 * the object fills only in part is as stiff and heavy as the part it holds. For a coarse hexahedron
 * of rest nodes X (8 × 3, in its frame), recursively over nbVirtualFinerLevels levels:
 *   K(X) = Σ_{children w the object holds} H_wᵀ·K(H_w·X)·H_w,   M likewise,
 * H_w the trilinear interpolation of the parent's corners at child w's corners; at the finest level
 * K and M are HexahedronFEMForceFieldAndMass's element matrices of the child cell, scaled by its
 * coefficient (0.5 for a BOUNDARY cell with the grid's fillWeighted, else 1; SOFA scales the mass by
 * the stiffness coefficient too). Gravity and the point masses are per coarse element, ρ·V·c/8 per
 * corner (c the coarse cell's coefficient), as SOFA's. With nbVirtualFinerLevels = 0, more levels
 * than the grid has, or a topology that is not a sparse grid, the matrices are the classical ones,
 * with a warning (SOFA's error message, same fallback).
 */
@sofaComponent({
  name: 'NonUniformHexahedronFEMForceFieldAndMass',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.FEM.NonUniform',
  description: 'Non uniform Hexahedral finite elements',
  templates: ['Vec3d'],
})
export class NonUniformHexahedronFEMForceFieldAndMass extends HexahedronFEMForceFieldAndMass {
  readonly nbVirtualFinerLevels = this.initData({
    name: 'nbVirtualFinerLevels',
    type: Int,
    default: 0,
    range: nonNegative,
    help: 'use virtual finer levels, in order to compte non-uniform stiffness',
  });
  readonly useMass = this.initData({
    name: 'useMass',
    type: Bool,
    default: true,
    help: 'Using this ForceField like a Mass? (rather than using a separated Mass)',
  });
  readonly totalMass = this.initData({
    name: 'totalMass',
    type: Real,
    default: 0,
    unit: 'kg',
    help: 'total mass used when useMass is false (spread over the points)',
  });

  /** The levels used, finest first (empty: classical matrices). */
  private levels: readonly { grid: { n: readonly number[] }; types: Uint8Array }[] = [];
  /** Per hexahedron, its cell of the coarsest level. */
  private cellOf = new Int32Array(0);
  private fillWeighted = false;
  private onlyInside = false;

  /** The hierarchy for the condensation, decided once the topology is known (first reinit). */
  protected prepareLevels(): void {
    const wanted = this.nbVirtualFinerLevels.value;
    const topo = this.topo;
    this.levels = [];
    if (wanted === 0) {
      this.warnAbout(this.nbVirtualFinerLevels, 'nbVirtualFinerLevels is 0: the classical, uniform element matrices are used');
      return;
    }
    if (!hasVirtualLevels(topo)) {
      this.warnAbout(this.nbVirtualFinerLevels, 'the topology is not a sparse grid: the classical, uniform element matrices are used');
      return;
    }
    const all = topo.getVirtualLevels();
    if (all.length - 1 < wanted) {
      this.warnAbout(
        this.nbVirtualFinerLevels,
        `the sparse grid ${(topo as unknown as { describe(): string }).describe()} has ${Math.max(0, all.length - 1)} virtual finer levels, fewer than ${wanted}: the classical, uniform element matrices are used`,
      );
      return;
    }
    this.levels = all.slice(all.length - 1 - wanted);
    const grid = topo as VirtualLevels;
    const cellToHexahedron = grid.getGrid().cellToHexahedron ?? new Int32Array(0);
    this.cellOf = new Int32Array(this.topo!.getHexahedra().length / 8).fill(-1);
    cellToHexahedron.forEach((h, c) => {
      if (h >= 0) this.cellOf[h] = c;
    });
    this.fillWeighted = grid.fillWeighted.value;
    this.onlyInside = grid.onlyInsideCells.value;
    if (this.updateStiffnessMatrix.value)
      this.warnAbout(this.updateStiffnessMatrix, 'updateStiffnessMatrix is not honoured: the condensed element matrices are kept');
  }

  /** True when the element matrices are condensed (not the classical, uniform ones). */
  protected condenses(): boolean {
    return this.levels.length > 0;
  }

  override reinit(): void {
    this.prepareLevels();
    this.sharesStiffness = !this.condenses();
    if (this.condenses()) this.updateStiffnessMatrix.value = false;
    super.reinit();
  }

  protected override restElementStiffness(K: Float64Array, e: number, restShape: Float64Array, h: Float64Array, factor: number): void {
    if (this.levels.length === 0) return super.restElementStiffness(K, e, restShape, h, factor);
    K.fill(0);
    this.condense(K, this.levels.length - 1, this.cellOf[e], restShape, (out, nodes, coef) => {
      hexahedronStiffness(out, h[0], h[1], h[2], nodes);
      for (let k = 0; k < 576; k++) out[k] *= coef;
    });
  }

  /** A child cell is part of the object (the grid's kept cells). */
  private holds(t: number): boolean {
    return t === INSIDE || (t === BOUNDARY && !this.onlyInside);
  }

  /**
   * out += the matrix of `cell` of level `l` (levels[l]) with nodes X (24): at the finest level the
   * element's own (`finest(out, X, coef)` writes it), else the sum over its children of H_wᵀ·M_w·H_w.
   */
  private condense(
    out: Float64Array,
    l: number,
    cell: number,
    X: Float64Array,
    finest: (out: Float64Array, nodes: Float64Array, coef: number) => void,
  ): void {
    const level = this.levels[l];
    if (l === 0) {
      const t = level.types[cell];
      const m = new Float64Array(576);
      finest(m, X, t === BOUNDARY && this.fillWeighted ? 0.5 : 1);
      for (let k = 0; k < 576; k++) out[k] += m[k];
      return;
    }
    const fine = this.levels[l - 1];
    const cx = level.grid.n[0] - 1,
      cy = level.grid.n[1] - 1;
    const i = cell % cx,
      j = Math.floor(cell / cx) % cy,
      k = Math.floor(cell / (cx * cy));
    const fx = fine.grid.n[0] - 1,
      fy = fine.grid.n[1] - 1,
      fz = fine.grid.n[2] - 1;
    for (let w = 0; w < 8; w++) {
      const x = 2 * i + (w & 1),
        y = 2 * j + ((w >> 1) & 1),
        z = 2 * k + ((w >> 2) & 1);
      if (x >= fx || y >= fy || z >= fz) continue;
      const child = x + fx * (y + fy * z);
      if (!this.holds(fine.types[child])) continue;
      const H = FINE_TO_COARSE[w];
      // the child's nodes: H·X
      const Xc = new Float64Array(24);
      for (let v = 0; v < 8; v++) for (let u = 0; u < 8; u++) for (let d = 0; d < 3; d++) Xc[3 * v + d] += H[8 * v + u] * X[3 * u + d];
      const Mc = new Float64Array(576);
      this.condense(Mc, l - 1, child, Xc, finest);
      // out += Hᵀ·Mc·H, per component (the interpolation acts on the nodes only)
      for (let a = 0; a < 8; a++)
        for (let b = 0; b < 8; b++)
          for (let v = 0; v < 8; v++) {
            const hva = H[8 * v + a];
            if (hva === 0) continue;
            for (let q = 0; q < 8; q++) {
              const hqb = H[8 * q + b];
              if (hqb === 0) continue;
              const s = hva * hqb;
              for (let p = 0; p < 3; p++)
                for (let r = 0; r < 3; r++) out[(3 * a + p) * 24 + 3 * b + r] += s * Mc[(3 * v + p) * 24 + 3 * q + r];
            }
          }
    }
  }

  protected override computeMasses(): void {
    super.computeMasses();
    const part = this.massPart!;
    if (!this.useMass.value) {
      // SOFA: the points' masses (gravity) are totalMass / (number of elements) each
      const n = this.elems.length / 8;
      part.gravityMasses = new Float64Array(this.mstate!.size).fill(n > 0 ? this.totalMass.value / n : 0);
    }
    if (this.levels.length === 0) return;
    const rho = this.density.value;
    const n = this.elems.length / 8;
    const matrices = new Float64Array(576 * n);
    const M = new Float64Array(576);
    for (let e = 0; e < n; e++) {
      M.fill(0);
      const rest = this.rest.subarray(24 * e, 24 * e + 24);
      this.condense(M, this.levels.length - 1, this.cellOf[e], rest, (out, X, coef) => {
        // HexahedronFEMForceFieldAndMass's element mass: (8/27)·ρ·V·I in every block, V = a·b·c
        const len = (k: number) => Math.hypot(X[3 * k] - X[0], X[3 * k + 1] - X[1], X[3 * k + 2] - X[2]);
        const m = ((len(1) * len(3) * len(4) * 8) / 27) * rho * coef;
        out.fill(0);
        for (let i = 0; i < 8; i++) for (let j = 0; j < 8; j++) for (let d = 0; d < 3; d++) out[24 * (3 * i + d) + 3 * j + d] = m;
      });
      matrices.set(M, 576 * e);
    }
    part.elementMatrices = matrices;
    if (part.lumped) {
      // the row sums of the condensed matrices, made positive as SOFA does
      const lumped = new Float64Array(part.lumped.length);
      for (let e = 0; e < n; e++)
        for (let w = 0; w < 8; w++)
          for (let d = 0; d < 3; d++) {
            let s = 0;
            for (let j = 0; j < 24; j++) s += matrices[576 * e + 24 * (3 * w + d) + j];
            lumped[3 * this.elems[8 * e + w] + d] += s;
          }
      for (let k = 0; k < lumped.length; k++) lumped[k] = Math.abs(lumped[k]);
      part.lumped = lumped;
    }
  }
}
