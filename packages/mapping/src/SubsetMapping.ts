import {
  Bool,
  DataParseError,
  Indices,
  Real,
  isMechanicalState,
  isTopology,
  sofaComponent,
  tokens,
  type BaseMeshTopology,
  type DataType,
  type SparseMatrixLike,
} from '@sofa-ts/core';
import { createCsr, type CsrMatrix } from '@sofa-ts/linalg';
import { MappingComponent } from './mapping-component.js';

/** SOFA's sofa::InvalidID, the "unset" value of unsigned indices. */
export const InvalidID = 0xffffffff;

/** An unsigned index where −1 (as SOFA's streams read it) means InvalidID. */
const IndexOrInvalid: DataType<number> = {
  name: 'unsigned int',
  parse: (t) => {
    const ts = tokens(t);
    if (ts.length !== 1) throw new DataParseError('a non-negative integer (or -1 for none)', `got ${ts.length} values`);
    const v = Number(ts[0]);
    if (!Number.isInteger(v) || v < -1 || v > InvalidID)
      throw new DataParseError('a non-negative integer (or -1 for none)', `got '${ts[0]}'`);
    return v === -1 ? InvalidID : v;
  },
  print: (v) => String(v),
  clone: (v) => v,
};

const templates = ['Vec3d,Vec3d', 'Vec2d,Vec2d', 'Vec1d,Vec1d', 'Vec6d,Vec6d', 'Rigid3d,Rigid3d', 'Rigid2d,Rigid2d'];

/**
 * SOFA's SubsetMapping: output point i is input point indices[i],
 *   x_out[i] = x_in[indices[i]],   J = selection matrix (an identity block per output point).
 * The indices are given, or the range first..last, or found at init as the nearest input point
 * within `radius` of each output point (SOFA keeps the last closer point it meets). An index that is
 * not a valid input point leaves the output point at its rest position (a fixed point).
 * The output is resized to the number of indices at init. Linear: J is built once.
 */
@sofaComponent({
  name: 'SubsetMapping',
  category: 'Mapping',
  module: 'Sofa.Component.Mapping.Linear',
  description: 'Maps a subset of the input points to the output points.',
  templates,
})
export class SubsetMapping extends MappingComponent {
  readonly indices = this.initData({ name: 'indices', type: Indices, default: new Uint32Array(0), help: 'list of input indices' });
  readonly first = this.initData({
    name: 'first',
    type: IndexOrInvalid,
    default: InvalidID,
    help: 'first index (use if indices are sequential)',
  });
  readonly last = this.initData({
    name: 'last',
    type: IndexOrInvalid,
    default: InvalidID,
    help: 'last index (use if indices are sequential)',
  });
  readonly radius = this.initData({
    name: 'radius',
    type: Real,
    default: 1e-5,
    help: 'search radius to find corresponding points in case no indices are given',
  });
  readonly handleTopologyChange = this.initData({
    name: 'handleTopologyChange',
    type: Bool,
    default: true,
    help: 'enable support of topological changes for indices (disable if it is linked from SubsetTopologicalMapping::pointD2S)',
  });
  readonly ignoreNotFound = this.initData({
    name: 'ignoreNotFound',
    type: Bool,
    default: false,
    help: 'true to ignore points that are not found in the input model, they will be treated as fixed points',
  });
  readonly resizeToModel = this.initData({
    name: 'resizeToModel',
    type: Bool,
    default: false,
    help: 'true to resize the output MechanicalState to match the size of indices',
  });
  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'link to the topology container (topological changes are not followed by sofa-ts yet)',
    accepts: isTopology,
    expected: 'a topology',
  });

  /** (nOut) input index of each output point, InvalidID for a fixed point. */
  private idx: Uint32Array = new Uint32Array(0);
  private J: CsrMatrix = createCsr(0, 0, new Int32Array(1), new Int32Array(0));
  private cs = 3;
  private ds = 3;

  override init(): void {
    this.resolveEnds();
    this.checkTemplates(templates);
    this.cs = this.inType().coordSize;
    this.ds = this.inType().derivSize;
    const nIn = this.from.size;
    this.idx = this.computeIndices(nIn);
    this.indices.value = Uint32Array.from(this.idx);
    const n = this.idx.length;
    this.resizeOutput(n);
    // J: row i·d + r has a 1 at column indices[i]·d + r (nothing for fixed points).
    const d = this.ds;
    const rowPtr = new Int32Array(n * d + 1);
    const cols: number[] = [];
    for (let i = 0; i < n; i++) {
      for (let r = 0; r < d; r++) {
        if (this.idx[i] < nIn) cols.push(this.idx[i] * d + r);
        rowPtr[i * d + r + 1] = cols.length;
      }
    }
    this.J = createCsr(n * d, nIn * d, rowPtr, Int32Array.from(cols), new Float64Array(cols.length).fill(1));
    this.apply();
    if (isMechanicalState(this.to)) this.applyJ(this.to.v, [this.from.v]);
    if (this.applyRestPosition.value && isMechanicalState(this.to)) this.gather(this.to.x0, this.from.x0, this.cs, this.to.x0);
  }

  /** SOFA's rules: explicit indices (invalid ones dropped unless ignoreNotFound), first..last, or a search by radius. */
  private computeIndices(nIn: number): Uint32Array {
    const given = this.indices.value;
    const first = this.first.value;
    if (given.length === 0 && first !== InvalidID) {
      const f = first >= nIn ? 0 : first;
      const l = this.last.value >= nIn ? nIn - 1 : this.last.value;
      const out = new Uint32Array(Math.max(0, l - f + 1));
      for (let i = 0; i < out.length; i++) out[i] = f + i;
      return out;
    }
    if (given.length === 0) {
      const xin = this.from.x;
      const xout = this.outputPositions();
      const cs = this.cs;
      const nOut = xout.length / this.outType().coordSize;
      const out = new Uint32Array(nOut);
      for (let i = 0; i < nOut; i++) {
        let rmax = this.radius.value;
        let found = InvalidID;
        for (let j = 0; j < nIn; j++) {
          let s = 0;
          for (let k = 0; k < cs; k++) s += (xout[i * cs + k] - xin[j * cs + k]) ** 2;
          const r = Math.sqrt(s);
          if (r < rmax) {
            found = j;
            rmax = r;
          }
        }
        if (found === InvalidID && !this.ignoreNotFound.value) {
          throw this.error(
            `output point ${i} has no input point within radius ${this.radius.value}`,
            'give indices, or set ignoreNotFound="1" to keep it fixed',
          );
        }
        out[i] = found;
      }
      return out;
    }
    if (this.ignoreNotFound.value) return Uint32Array.from(given);
    const bad = Array.from(given).filter((i) => i >= nIn);
    if (bad.length > 0) throw this.error(`indices ${bad.slice(0, 5).join(' ')} are not points of the input (it has ${nIn})`);
    return Uint32Array.from(given);
  }

  get isLinear(): boolean {
    return true;
  }

  /** out[i] = inp[indices[i]] for valid indices, else rest[i] (stride s). */
  private gather(out: Float64Array, inp: Float64Array, s: number, rest: Float64Array | undefined): void {
    const nIn = inp.length / s;
    const idx = this.idx;
    for (let i = 0; i < idx.length; i++) {
      const j = idx[i];
      if (j < nIn) for (let k = 0; k < s; k++) out[i * s + k] = inp[j * s + k];
      else if (rest && rest !== out) for (let k = 0; k < s; k++) out[i * s + k] = rest[i * s + k];
    }
  }

  apply(): void {
    const rest = isMechanicalState(this.to) ? this.to.x0 : undefined;
    this.gather(this.outputPositions(), this.from.x, this.cs, rest);
    this.touchOutput();
  }

  applyJ(out: Float64Array, ins: readonly Float64Array[]): void {
    this.gather(out, ins[0], this.ds, undefined);
  }

  applyJT(ins: readonly Float64Array[], out: Float64Array): void {
    const inp = ins[0];
    const d = this.ds;
    const nIn = inp.length / d;
    const idx = this.idx;
    for (let i = 0; i < idx.length; i++) {
      const j = idx[i];
      if (j < nIn) for (let k = 0; k < d; k++) inp[j * d + k] += out[i * d + k];
    }
  }

  getJ(_input: number): SparseMatrixLike {
    return this.J;
  }
}
