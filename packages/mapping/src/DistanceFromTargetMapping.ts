import { Indices, Real, RealArray, sofaComponent } from '@sofa-ts/core';
import { createCsr } from '@sofa-ts/linalg';
import { DistanceDirections, DistanceLawMapping, GeometricStiffnessMethod } from './distance-law.js';

const templates = ['Vec3d,Vec1d', 'Vec1d,Vec1d', 'Rigid3d,Vec1d'];

/**
 * SOFA's DistanceFromTargetMapping: for each parent point p_{idx_i} (`indices`) and its target t_i
 * (`targetPositions`),
 *   e_i = ‖p_{idx_i} − t_i‖ − r_i,   J row i = uᵀ at point idx_i,  u = (p − t)/‖p − t‖
 * (p the position, the centre for rigid frames). With a compliance on e_i it pins a particle at a
 * distance r_i of a fixed point (a pendulum rod); with a stiffness, a spring to that point.
 * Geometric stiffness for the child force f_i: K = (f_i/l)(I − uuᵀ) on the block (idx_i, idx_i);
 * `geometricStiffness` None / Exact / Stabilized (default: only f_i < 0, points pulled back).
 * For Rigid3d parents the rotation block gets nothing (SOFA's block puts f/l·I there; sofa-ts keeps
 * the exact derivative). Unset rest distances (`restLengths`) are 0. Below a length of 1e-10,
 * u is the x axis and K is zero. The law (directions, J products, geometric stiffness) is
 * distance-law.ts's, with p = p_{idx_i} and the fixed q = t_i. With no indices the output is
 * empty, whatever targetPositions holds (SOFA, release build), with a warning.
 */
@sofaComponent({
  name: 'DistanceFromTargetMapping',
  category: 'Mapping',
  module: 'Sofa.Component.Mapping.NonLinear',
  description: 'Distances of parent points to target positions, minus rest distances.',
  templates,
})
export class DistanceFromTargetMapping extends DistanceLawMapping {
  readonly indices = this.initData({ name: 'indices', type: Indices, default: new Uint32Array(0), help: 'indices of the parent points' });
  readonly targetPositions = this.initData({
    name: 'targetPositions',
    type: RealArray(1, 'vector<Coord>'),
    default: new Float64Array(0),
    help: 'positions to compute the distances from (one coordinate of the input type per index)',
  });
  readonly restLengths = this.initData({
    name: 'restLengths',
    type: RealArray(1, 'vector<double>'),
    default: new Float64Array(0),
    unit: 'length',
    help: 'rest lengths of the connections (0 when unset)',
  });
  readonly showObjectScale = this.initData({
    name: 'showObjectScale',
    type: Real,
    default: 0,
    help: 'scale for object display',
    group: 'Visualization',
  });
  readonly showColor = this.initData({
    name: 'showColor',
    type: RealArray(0, 'RGBAColor'),
    default: Float64Array.of(1, 1, 0, 1),
    help: 'color for object display',
    group: 'Visualization',
  });
  readonly geometricStiffness = this.initData({
    name: 'geometricStiffness',
    type: GeometricStiffnessMethod,
    default: 'Stabilized',
    help: 'method used to compute the geometric stiffness: None (not computed), Exact, Stabilized (only points pulled back, for stability)',
  });

  /** (n) parent point of each output, (n) rest distances. */
  private idx = new Uint32Array(0);
  private rest = new Float64Array(0);
  /** Spatial dimension, coordinate and derivative sizes of the input. */
  private sd = 3;
  private cIn = 3;
  private dIn = 3;

  override init(): void {
    this.resolveEnds();
    this.checkTemplates(templates);
    const tin = this.inType();
    this.sd = tin.spatialDimensions;
    this.cIn = tin.coordSize;
    this.dIn = tin.derivSize;
    const idx = this.indices.value;
    const n = idx.length;
    const nIn = this.from.size;
    for (let i = 0; i < n; i++) if (idx[i] >= nIn) throw this.error(`index ${idx[i]} is not a point of the input (it has ${nIn})`);
    const nt = this.targetPositions.value.length;
    // SOFA only asserts the sizes match (debug builds); a release build with no index maps nothing.
    if (n === 0 && nt > 0)
      this.warn(
        `no indices: the mapping has no output and the ${nt / this.cIn} targetPositions are ignored (as SOFA does; give 'indices' to measure distances)`,
      );
    else if (nt !== n * this.cIn)
      throw this.error(
        `${n} indices but targetPositions holds ${nt / this.cIn} ${tin.name} positions (${nt} numbers)`,
        'give one target position per index',
      );
    // Unset rest distances are zero.
    const given = this.restLengths.value;
    if (given.length !== n) {
      const r = new Float64Array(n);
      r.set(given.subarray(0, Math.min(n, given.length)));
      this.restLengths.value = r;
    }
    this.idx = Uint32Array.from(idx);
    this.rest = Float64Array.from(this.restLengths.value);
    // Pairs p = p_{idx_i}, q = t_i (fixed); u = the x axis below 1e-10.
    this.law = new DistanceDirections(n, this.sd, 1e-10, [1, 0, 0].slice(0, this.sd));
    for (let i = 0; i < n; i++) this.law.pOff[i] = this.idx[i] * this.dIn;
    // J: row i holds the sd spatial columns of point idx_i.
    const rowPtr = new Int32Array(n + 1);
    const colInd = new Int32Array(n * this.sd);
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < this.sd; k++) colInd[i * this.sd + k] = this.idx[i] * this.dIn + k;
      rowPtr[i + 1] = (i + 1) * this.sd;
    }
    this.J = createCsr(n, nIn * this.dIn, rowPtr, colInd);
    this.resizeOutput(n);
    this.apply();
    const out = this.getTo();
    if (out) this.applyJ(out.v, [this.from.v]);
    if (this.applyRestPosition.value && out) this.distances(out.x0, this.from.x0, false);
  }

  /** out_i = ‖p − t‖ − r_i; with `update`, the directions, inverse lengths and J values too. */
  private distances(out: Float64Array, x: Float64Array, update: boolean): void {
    const t = this.targetPositions.value;
    const sd = this.sd,
      cIn = this.cIn;
    const law = this.law,
      u = law.dirs,
      J = this.J.values;
    for (let i = 0; i < this.idx.length; i++) {
      const op = this.idx[i] * cIn,
        ot = i * cIn;
      if (!update) {
        out[i] = law.distance(x, op, t, ot) - this.rest[i];
        continue;
      }
      out[i] = law.update(i, x, op, t, ot) - this.rest[i];
      for (let k = 0; k < sd; k++) J[i * sd + k] = u[i * sd + k];
    }
  }

  apply(): void {
    this.distances(this.outputPositions(), this.from.x, true);
    this.touchOutput();
  }
}
