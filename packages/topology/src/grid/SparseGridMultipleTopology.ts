import { Bool, RealArray, StringArray, requireDataFile, sofaComponent } from '@sofa-ts/core';
import { finestLevel, type FinestCells } from './sparse-grid-ramification.js';
import { SparseGridRamificationTopology } from './SparseGridRamificationTopology.js';
import type { SparseGrid } from './SparseGridTopology.js';
import { readObjSurface } from './obj-surface.js';
import { BOUNDARY, INSIDE, OUTSIDE, voxelGrid, voxelizeSurface } from './sparse-voxelizer.js';

/**
 * SOFA's SparseGridMultipleTopology: a sparse grid over several surfaces (`fileTopologies`), each
 * with its stiffness and mass coefficient, so that one grid carries a soft body with stiffer or
 * softer parts (a frog's body, eyes and lips). Each surface is voxelised on the finest grid (n, or
 * (n − 1)·2^L + 1 with L = nbVirtualFinerLevels) over the box of all surfaces grown by 1%; in file
 * order, a cell INSIDE a surface (or on its BOUNDARY without fillWeighted) takes its coefficients —
 * so a part listed after the body overrides it —, a BOUNDARY cell with fillWeighted the mean of
 * the previous coefficient and its own (its own with erasePreviousCoef). The coefficients are
 * SOFA's floats (rounded to single precision, the mean computed in single precision). The grid
 * then goes down the levels as SparseGridRamificationTopology's does (its connectivity tested on
 * `fileTopology`'s surface when given), each coarse cell's coefficients the mean of its children's;
 * the force fields read them per hexahedron (HexahedronFEMForceField scales each element's K by
 * its stiffness coefficient). computeRamifications="0" keeps the grid's cells whole.
 */
@sofaComponent({
  name: 'SparseGridMultipleTopology',
  aliases: ['SparseGridMultiple'],
  category: 'Topology',
  module: 'Sofa.Component.Topology.Container.Grid',
  description: 'Sparse grid in 3D over several surfaces, each with its own stiffness and mass coefficient.',
})
export class SparseGridMultipleTopology extends SparseGridRamificationTopology {
  readonly fileTopologies = this.initData({ name: 'fileTopologies', type: StringArray, default: [], help: 'All topology filenames' });
  readonly stiffnessCoefs = this.initData({
    name: 'stiffnessCoefs',
    type: RealArray(1, 'vector<float>'),
    default: new Float64Array(0),
    help: 'A stiffness coefficient for each topology filename',
  });
  readonly massCoefs = this.initData({
    name: 'massCoefs',
    type: RealArray(1, 'vector<float>'),
    default: new Float64Array(0),
    help: 'A mass coefficient for each topology filename',
  });
  readonly computeRamifications = this.initData({
    name: 'computeRamifications',
    type: Bool,
    default: true,
    help: 'Are ramifications wanted?',
  });
  readonly erasePreviousCoef = this.initData({
    name: 'erasePreviousCoef',
    type: Bool,
    default: false,
    help: 'Does a new stiffness/mass coefficient replace the previous or blend half/half with it?',
  });

  protected override buildFromSurface(): SparseGrid {
    const files = this.fileTopologies.value;
    if (files.length === 0) throw this.error('No file topology provided: give fileTopologies (OBJ surfaces)');
    const coefs = (d: typeof this.stiffnessCoefs, what: string): number[] => {
      const given = Array.from(d.value, (v) => Math.fround(v));
      if (given.length < files.length) {
        this.warnAbout(d, `not enough ${what} (${given.length} for ${files.length} files): the missing ones are 1`);
        while (given.length < files.length) given.push(1);
      }
      return given;
    };
    const stiffness = coefs(this.stiffnessCoefs, 'stiffnessCoefs');
    const mass = coefs(this.massCoefs, 'massCoefs');
    const surfaces = files.map((f) => {
      if (!/\.obj$/i.test(f)) throw this.error(`cannot read '${f}': SparseGridMultipleTopology reads OBJ surfaces`);
      const s = readObjSurface(requireDataFile(this, f, 'surface file'));
      return { vertices: s.vertices, facets: s.facets.map((x) => [...x]) };
    });
    // the box of every surface (regularGrid grows the box of the points it is given by 1%)
    const all = new Float64Array(surfaces.reduce((k, s) => k + s.vertices.length, 0));
    let o = 0;
    for (const s of surfaces) all.set(s.vertices, (o += s.vertices.length) - s.vertices.length);
    const coarse = this.regularGrid(all);
    const L = this.nbVirtualFinerLevels.value;
    const scale = 2 ** L;
    const grid = voxelGrid(coarse.n.map((v) => (v - 1) * scale + 1) as [number, number, number], coarse.min, coarse.max);
    // SOFA's assembleRegularGrids, in file order
    const cells = (grid.n[0] - 1) * (grid.n[1] - 1) * (grid.n[2] - 1);
    const given: FinestCells = {
      types: new Uint8Array(cells).fill(OUTSIDE),
      stiffnessCoefs: new Float64Array(cells),
      massCoefs: new Float64Array(cells),
    };
    const weighted = this.fillWeighted.value,
      erase = this.erasePreviousCoef.value;
    surfaces.forEach((s, i) => {
      const types = voxelizeSurface(grid, s.vertices, s.facets);
      for (let c = 0; c < cells; c++) {
        if (types[c] === INSIDE || (types[c] === BOUNDARY && !weighted)) {
          given.types[c] = INSIDE;
          given.stiffnessCoefs[c] = stiffness[i];
          given.massCoefs[c] = mass[i];
        } else if (types[c] === BOUNDARY) {
          if (given.types[c] !== INSIDE) given.types[c] = BOUNDARY;
          const blend = (prev: number, own: number) => (erase ? own : Math.fround(Math.fround(prev + own) * 0.5));
          given.stiffnessCoefs[c] = blend(given.stiffnessCoefs[c], stiffness[i]);
          given.massCoefs[c] = blend(given.massCoefs[c], mass[i]);
        }
      }
    });
    const main = this.filename.value.trim() !== '' ? this.surface() : { vertices: all, facets: this.concatenatedFacets(surfaces) };
    const finest = finestLevel(
      grid,
      main,
      {
        finestConnectivity: this.computeRamifications.value && this.finestConnectivity.value,
        fillWeighted: weighted,
        onlyInsideCells: this.onlyInsideCells.value,
      },
      given,
    );
    return this.fromFinestLevel(finest, L);
  }

  /** The facets of all surfaces, renumbered into the concatenation of their vertices. */
  private concatenatedFacets(surfaces: readonly { vertices: Float64Array; facets: number[][] }[]): number[][] {
    const out: number[][] = [];
    let base = 0;
    for (const s of surfaces) {
      for (const f of s.facets) out.push(f.map((v) => v + base));
      base += s.vertices.length / 3;
    }
    return out;
  }
}
