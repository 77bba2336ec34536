import {
  isMechanicalState,
  isTopology,
  sofaComponent,
  type BaseMeshTopology,
  type BaseObject,
  type Data,
  type SparseMatrixLike,
} from '@sofa-ts/core';
import { createCsr, type CsrMatrix } from '@sofa-ts/linalg';
import { MappingComponent } from './mapping-component.js';

const INVALID = 0xffffffff;

/**
 * SOFA's SimpleTesselatedTetraMechanicalMapping: the state of a topology split by a
 * SimpleTesselatedTetraTopologicalMapping (found in this node or above). The output point of input
 * point i copies it, the output point of input edge (a, b) is its midpoint:
 *   x_out[pointMappedFromPoint[i]] = x_in[i],  x_out[pointMappedFromEdge[e]] = (x_in[a] + x_in[b]) / 2.
 * Linear: J is rebuilt when the topological mapping's maps change (topological changes).
 */
@sofaComponent({
  name: 'SimpleTesselatedTetraMechanicalMapping',
  category: 'Mapping',
  module: 'Sofa.Component.Mapping.Linear',
  description: 'Maps the points of a tetrahedral mesh to those of its SimpleTesselatedTetraTopologicalMapping (points and edge midpoints).',
  templates: ['Vec3d,Vec3d'],
})
export class SimpleTesselatedTetraMechanicalMapping extends MappingComponent {
  private fromPoint!: Data<Uint32Array>;
  private fromEdge!: Data<Uint32Array>;
  private inputTopo!: BaseMeshTopology;
  private outputTopo!: BaseMeshTopology;
  private J: CsrMatrix = createCsr(0, 0, new Int32Array(1), new Int32Array(0));
  private stamp = '';

  override init(): void {
    this.resolveEnds();
    this.checkTemplates(['Vec3d,Vec3d']);
    let map: BaseObject | undefined;
    for (let n = this.hasContext ? this.context : undefined; n && !map; n = n.parent) {
      map = n.objects.find((o) => o.className === 'SimpleTesselatedTetraTopologicalMapping');
    }
    if (!map)
      throw this.error('no SimpleTesselatedTetraTopologicalMapping in this node or above: it gives the points this mapping computes');
    this.fromPoint = map.findData('pointMappedFromPoint') as Data<Uint32Array>;
    this.fromEdge = map.findData('pointMappedFromEdge') as Data<Uint32Array>;
    const input = map.findLink('input')?.get();
    const output = map.findLink('output')?.get();
    if (!isTopology(input) || !isTopology(output)) throw this.error(`${map.describe()} has no input or output topology`);
    this.inputTopo = input;
    this.outputTopo = output;
    this.build();
    this.apply();
    if (isMechanicalState(this.to)) this.applyJ(this.to.v, [this.from.v]);
  }

  /** J (and the output size) for the current maps. */
  private build(): void {
    const stamp = `${this.fromPoint.counter}/${this.fromEdge.counter}/${this.from.size}/${this.outputTopo.getNbPoints()}`;
    if (stamp === this.stamp) return;
    this.stamp = stamp;
    const nOut = this.outputTopo.getNbPoints();
    const nIn = this.from.size;
    this.resizeOutput(nOut);
    const cols: number[][] = Array.from({ length: nOut }, () => []);
    const vals: number[][] = Array.from({ length: nOut }, () => []);
    const fp = this.fromPoint.value,
      fe = this.fromEdge.value;
    for (let i = 0; i < fp.length; i++) {
      const o = fp[i];
      if (o === INVALID || o >= nOut || i >= nIn) continue;
      cols[o].push(i);
      vals[o].push(1);
    }
    const edges = this.inputTopo.getEdges();
    for (let e = 0; e < fe.length && 2 * e + 1 < edges.length; e++) {
      const o = fe[e];
      if (o === INVALID || o >= nOut) continue;
      cols[o].push(edges[2 * e], edges[2 * e + 1]);
      vals[o].push(0.5, 0.5);
    }
    const rowPtr = new Int32Array(3 * nOut + 1);
    const ci: number[] = [];
    const cv: number[] = [];
    for (let o = 0; o < nOut; o++) {
      for (let r = 0; r < 3; r++) {
        cols[o].forEach((c, k) => {
          ci.push(3 * c + r);
          cv.push(vals[o][k]);
        });
        rowPtr[3 * o + r + 1] = ci.length;
      }
    }
    this.J = createCsr(3 * nOut, 3 * nIn, rowPtr, Int32Array.from(ci), Float64Array.from(cv));
  }

  get isLinear(): boolean {
    return true;
  }

  /** out = J·in on the mapped rows (rows of unmapped output points are left as they are). */
  private mul(out: Float64Array, inp: Float64Array): void {
    const { rowPtr, colInd, values } = this.J;
    const rows = Math.min(out.length, rowPtr.length - 1);
    for (let r = 0; r < rows; r++) {
      const a = rowPtr[r],
        b = rowPtr[r + 1];
      if (a === b) continue;
      let s = 0;
      for (let k = a; k < b; k++) s += values[k] * inp[colInd[k]];
      out[r] = s;
    }
  }

  apply(): void {
    this.build();
    this.mul(this.outputPositions(), this.from.x);
    this.touchOutput();
  }

  applyJ(out: Float64Array, ins: readonly Float64Array[]): void {
    this.build();
    this.mul(out, ins[0]);
  }

  applyJT(ins: readonly Float64Array[], out: Float64Array): void {
    this.build();
    const inp = ins[0];
    const { rowPtr, colInd, values } = this.J;
    const rows = Math.min(out.length, rowPtr.length - 1);
    for (let r = 0; r < rows; r++) {
      const f = out[r];
      if (f === 0) continue;
      for (let k = rowPtr[r]; k < rowPtr[r + 1]; k++) inp[colInd[k]] += values[k] * f;
    }
  }

  getJ(_input: number): SparseMatrixLike {
    this.build();
    return this.J;
  }
}
