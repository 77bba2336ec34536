import { Bool, sofaComponent } from '@sofa-ts/core';
import { coarserLevel, finestLevel, type RamifiedLevel } from './sparse-grid-ramification.js';
import { SparseGridTopology, type SparseGrid } from './SparseGridTopology.js';
import { BOUNDARY, voxelGrid } from './sparse-voxelizer.js';

/**
 * SOFA's SparseGridRamificationTopology: a sparse grid whose cells are split where the object they
 * hold falls apart inside them (sparse-grid-ramification.ts): each connected part of a cell is a
 * hexahedron of its own with its own corner points ("ramification"), so that the arms of a C or a
 * fork lying in one cell are not glued together.
 * Connectivity is decided on the finest grid: `nbVirtualFinerLevels` L builds the grid of
 * (n − 1)·2^L + 1 points per axis (same box), whose cells are all linked to their face neighbours
 * (with `finestConnectivity`, two boundary cells only where the surface crosses their common face),
 * and coarsens it L times, grouping the parts of each coarse cell. With L = 0 and
 * finestConnectivity the grid itself is split at that test; with L = 0 and no finestConnectivity it
 * is a plain SparseGridTopology. Stiffness and mass coefficients come down the levels (the finest's:
 * 0.5 for boundary cells with fillWeighted, else 1; a coarse cell's: the sum of its children's / 8).
 * The virtual levels are the topology's only: force fields see the coarse hexahedra and their
 * coefficients (SOFA's HexahedronFEMForceField condenses its stiffness from the finer levels, which
 * this project does not do), and a point is located in the regular cell's first part.
 */
@sofaComponent({
  name: 'SparseGridRamificationTopology',
  aliases: ['SparseGridRamification'],
  category: 'Topology',
  module: 'Sofa.Component.Topology.Container.Grid',
  description: 'Sparse grid in 3D whose cells are split into their disconnected parts (ramification).',
})
export class SparseGridRamificationTopology extends SparseGridTopology {
  readonly finestConnectivity = this.initData({
    name: 'finestConnectivity',
    type: Bool,
    default: true,
    help: 'test the connectivity at the finest level (more precise but slower: tests the intersections of the surface with the faces between boundary cells)',
  });

  /** The levels, finest first (only the grid itself when no ramification is built). */
  protected levels: RamifiedLevel[] = [];

  /** The built levels, finest first, the last being this topology's. */
  getLevels(): readonly RamifiedLevel[] {
    this.getHexahedra();
    return this.levels;
  }

  protected override buildFromSurface(): SparseGrid {
    const L = this.nbVirtualFinerLevels.value;
    const finest = this.finestConnectivity.value;
    if (L === 0 && !finest) {
      this.levels = [];
      return super.buildFromSurface();
    }
    const surface = this.surface();
    const coarse = this.regularGrid(surface.vertices);
    const scale = 2 ** L;
    const n = coarse.n.map((v) => (v - 1) * scale + 1) as [number, number, number];
    const level = finestLevel(voxelGrid(n, coarse.min, coarse.max), surface, {
      finestConnectivity: finest,
      fillWeighted: this.fillWeighted.value,
      onlyInsideCells: this.onlyInsideCells.value,
    });
    return this.fromFinestLevel(level, L);
  }

  /** The grid of the level L times coarser than `finest` (coefficients averaged down the levels). */
  protected fromFinestLevel(finest: RamifiedLevel, L: number): SparseGrid {
    let level = finest;
    const levels = [level];
    for (let i = 0; i < L; i++) levels.push((level = coarserLevel(level)));
    this.levels = levels;
    if (level.hexahedra.length === 0)
      throw this.error('the sparse grid has no cells: the surface lies outside the grid, or the grid is too coarse for it');
    // a regular cell → the hexahedron of its first part
    const cellToHexahedron = new Int32Array(level.cellIndex.length).fill(-1);
    level.cellIndex.forEach((k, c) => {
      if (k >= 0) cellToHexahedron[c] = level.connexions[k][0].hexa;
    });
    const boundary = Uint8Array.from(level.types, (t) => (t === BOUNDARY ? 1 : 0));
    return { grid: level.grid, positions: level.positions, hexahedra: level.hexahedra, boundary, cellToHexahedron };
  }

  override getStiffnessCoef(hexahedron: number): number {
    const level = this.getLevels().at(-1);
    return level ? level.stiffnessCoefs[hexahedron] : super.getStiffnessCoef(hexahedron);
  }

  override getMassCoef(hexahedron: number): number {
    const level = this.getLevels().at(-1);
    return level ? level.massCoefs[hexahedron] : super.getMassCoef(hexahedron);
  }
}
