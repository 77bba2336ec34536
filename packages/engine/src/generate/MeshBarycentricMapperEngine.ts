import {
  Bool,
  contextMeshTopology,
  DataEngine,
  IndexLists,
  Indices,
  isTopology,
  sofaComponent,
  type BaseMeshTopology,
} from '@sofa-ts/core';
import { Reals, Vec3s } from '../engine-support.js';

/**
 * SOFA's MeshBarycentricMapperEngine: for each point to map, the element of the master topology it
 * lies in and its barycentric coordinates, as a BarycentricMapping would store them.
 * Volumes (tetrahedra, else triangles): with the element's frame E = [p1 − p0, p2 − p0, p3 − p0]
 * (triangles: [p1 − p0, p2 − p0, n]), b = E⁻¹·(x − p0); the point's element is the first one
 * containing it (max(−b0, −b1, −b2, b0 + b1 + b2 − 1) ≤ 0; triangles allow |b2| ≤ 0.01), else the
 * element whose centre is nearest. Outputs: barycentricPositions (b0 b1 b2) and tableElements.
 * With computeLinearInterpolation: per point the element's vertices and weights (1 − Σb, b0, b1, b2).
 * Hexahedra, quads and edges are not handled (SOFA leaves them unimplemented): such a topology is
 * refused.
 */
@sofaComponent({
  name: 'MeshBarycentricMapperEngine',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Generate',
  description: 'This class maps a set of points in a topological model and provide barycentric coordinates.',
  templates: ['Vec3d'],
  defaultTemplate: 'Vec3d',
})
export class MeshBarycentricMapperEngine extends DataEngine {
  readonly inputPositions = this.initData({
    name: 'inputPositions',
    type: Vec3s,
    default: new Float64Array(0),
    help: 'initial positions of the master points',
  });
  readonly mappedPointPositions = this.initData({
    name: 'mappedPointPositions',
    type: Vec3s,
    default: new Float64Array(0),
    help: 'initial positions of the points to map',
  });
  readonly barycentricPositions = this.initData({
    name: 'barycentricPositions',
    type: Vec3s,
    default: new Float64Array(0),
    help: 'barycentric coordinates of the mapped points',
    output: true,
  });
  readonly tableElements = this.initData({
    name: 'tableElements',
    type: Indices,
    default: new Uint32Array(0),
    help: 'index of the element each mapped point belongs to',
    output: true,
  });
  readonly computeLinearInterpolation = this.initData({
    name: 'computeLinearInterpolation',
    type: Bool,
    default: false,
    help: 'also give the vertices and weights of each point',
  });
  readonly linearInterpolationIndices = this.initData({
    name: 'linearInterpolationIndices',
    type: IndexLists('vector<vector<unsigned int>>'),
    default: [],
    help: 'per point, the vertices of its element',
    output: true,
  });
  readonly linearInterpolationValues = this.initData({
    name: 'linearInterpolationValues',
    type: Reals,
    default: new Float64Array(0),
    help: "per point, the weights of its element's vertices (flattened, in the order of linearInterpolationIndices)",
    output: true,
  });
  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'the master topology (default: the context topology)',
    accepts: isTopology,
    expected: 'a topology container',
  });

  constructor() {
    super();
    this.addInput(this.inputPositions, this.mappedPointPositions, this.computeLinearInterpolation);
    this.addOutput(this.barycentricPositions, this.tableElements, this.linearInterpolationIndices, this.linearInterpolationValues);
  }

  override init(): void {
    if (!this.topology.get()) {
      const t = contextMeshTopology(this.context);
      if (!t) throw this.error("no topology: link one with topology='@path'");
      this.warn("no topology given: the context topology is used (give topology='@path')");
      this.topology.set(t);
    }
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const topo = this.topology.get()!;
    const X = this.inputPositions.value,
      Y = this.mappedPointPositions.value;
    const n = X.length / 3,
      m = Y.length / 3;
    const tets = topo.getTetrahedra();
    const volume = tets.length > 0;
    const elems = volume ? tets : topo.getTriangles();
    const nv = volume ? 4 : 3;
    if (!volume && topo.getHexahedra().length > 0)
      throw this.error('hexahedra are not handled (SOFA leaves them unimplemented): map onto tetrahedra');
    if (elems.length === 0) throw this.error(`the topology ${topo.describe()} has no tetrahedra or triangles to map onto`);
    for (const v of elems) if (v >= n) throw this.error(`the topology names point ${v}, but inputPositions has ${n}`);
    const ne = elems.length / nv;
    // inv[e]: E⁻¹ (row-major), centre[e].
    const inv = new Float64Array(9 * ne),
      centre = new Float64Array(3 * ne);
    for (let e = 0; e < ne; e++) {
      const p = (j: number): number[] => [X[3 * elems[nv * e + j]], X[3 * elems[nv * e + j] + 1], X[3 * elems[nv * e + j] + 2]];
      const p0 = p(0),
        a = sub(p(1), p0),
        b = sub(p(2), p0);
      const c = volume ? sub(p(3), p0) : cross(a, b);
      if (!invertColumns(a, b, c, inv, 9 * e)) throw this.error(`element ${e} is degenerate (zero ${volume ? 'volume' : 'area'})`);
      for (let j = 0; j < nv; j++) for (let k = 0; k < 3; k++) centre[3 * e + k] += p(j)[k] / nv;
    }
    const bary = new Float64Array(3 * m),
      table = new Uint32Array(m);
    const linIdx: number[][] = [],
      linVal: number[] = [];
    const v = [0, 0, 0];
    for (let i = 0; i < m; i++) {
      const y = [Y[3 * i], Y[3 * i + 1], Y[3 * i + 2]];
      let best = -1,
        bestD = 1e10;
      const coefs = [0, 0, 0];
      for (let e = 0; e < ne; e++) {
        const q = elems[nv * e];
        const d0 = [y[0] - X[3 * q], y[1] - X[3 * q + 1], y[2] - X[3 * q + 2]];
        for (let r = 0; r < 3; r++) v[r] = inv[9 * e + 3 * r] * d0[0] + inv[9 * e + 3 * r + 1] * d0[1] + inv[9 * e + 3 * r + 2] * d0[2];
        let d = volume
          ? Math.max(-v[0], -v[1], -v[2], v[0] + v[1] + v[2] - 1)
          : Math.max(-v[0], -v[1], Math.abs(v[2]) - 0.01, v[0] + v[1] - 1);
        if (d > 0) d = (y[0] - centre[3 * e]) ** 2 + (y[1] - centre[3 * e + 1]) ** 2 + (y[2] - centre[3 * e + 2]) ** 2;
        if (d < bestD) {
          bestD = d;
          best = e;
          coefs[0] = v[0];
          coefs[1] = v[1];
          coefs[2] = volume ? v[2] : 0;
        }
      }
      table[i] = best;
      bary.set(coefs, 3 * i);
      if (this.computeLinearInterpolation.value) {
        linIdx.push(Array.from(elems.subarray(nv * best, nv * best + nv)));
        linVal.push(1 - coefs[0] - coefs[1] - coefs[2], coefs[0], coefs[1], ...(volume ? [coefs[2]] : []));
      }
    }
    this.barycentricPositions.value = bary;
    this.tableElements.value = table;
    this.linearInterpolationIndices.value = linIdx;
    this.linearInterpolationValues.value = Float64Array.from(linVal);
  }
}

const sub = (a: number[], b: number[]): number[] => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: number[], b: number[]): number[] => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/** out[o..o+9] = [a b c]⁻¹ (a, b, c the columns), row-major; false when singular. */
function invertColumns(a: number[], b: number[], c: number[], out: Float64Array, o: number): boolean {
  // rows of the inverse: (b×c, c×a, a×b)/det
  const r0 = cross(b, c),
    r1 = cross(c, a),
    r2 = cross(a, b);
  const det = a[0] * r0[0] + a[1] * r0[1] + a[2] * r0[2];
  if (det === 0 || !Number.isFinite(det)) return false;
  for (let k = 0; k < 3; k++) {
    out[o + k] = r0[k] / det;
    out[o + 3 + k] = r1[k] / det;
    out[o + 6 + k] = r2[k] / det;
  }
  return true;
}
