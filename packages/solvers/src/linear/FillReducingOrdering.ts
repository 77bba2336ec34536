import {
  DataEngine,
  IndexArray,
  Indices,
  RealArray,
  Str,
  isMechanicalState,
  isTopology,
  sofaComponent,
  type BaseMechanicalState,
  type BaseMeshTopology,
} from '@sofa-ts/core';
import { amdOrdering, nestedDissectionOrdering } from '@sofa-ts/linalg';

const METHODS = ['nestedDissection', 'approximateMinimumDegree'] as const;

/**
 * The symmetric adjacency (CSR, diagonal included) of n vertices where every pair of vertices of a
 * `k`-tuple of `elements` is connected.
 */
function elementGraph(n: number, lists: readonly { elements: Uint32Array; k: number }[]): { rowPtr: Int32Array; colInd: Int32Array } {
  const neighbours: Set<number>[] = Array.from({ length: n }, (_, i) => new Set([i]));
  for (const { elements, k } of lists)
    for (let e = 0; e + k <= elements.length; e += k)
      for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) neighbours[elements[e + a]].add(elements[e + b]);
  const rowPtr = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) rowPtr[i + 1] = rowPtr[i] + neighbours[i].size;
  const colInd = new Int32Array(rowPtr[n]);
  for (let i = 0; i < n; i++) colInd.set(Int32Array.from(neighbours[i]).sort(), rowPtr[i]);
  return { rowPtr, colInd };
}

/**
 * SOFA's FillReducingOrdering (plugin SofaMatrix): renumbers the vertices of a volume mesh so that
 * the factorisation of its system matrix fills less, and outputs the renumbered mesh for a copy of
 * the object to use. `permutation` p maps each new index to the old one (new position i = old
 * position p[i]), `invPermutation` the old to the new (a renumbered element's vertex is
 * invPermutation[old vertex]).
 * - nestedDissection (the default): on the nodal graph of the tetrahedra and hexahedra (two
 *   vertices joined when an element holds both), this project's own nested dissection in place of
 *   METIS's (see MetisOrderingMethod): a permutation as fill-reducing, not the same one;
 * - approximateMinimumDegree: approximate minimum degree on the graph of the topology's edges, as
 *   SOFA does with Eigen's AMD (again this project's own AMD, not Eigen's).
 * The renumbered object simulates the same physics as the original; only the numbering differs
 * from SOFA's. An orderingMethod that is not one of the two keeps the default, with a warning, as
 * SOFA's option list does.
 */
@sofaComponent({
  name: 'FillReducingOrdering',
  category: 'Engine',
  module: 'SofaMatrix',
  description: 'Reorder the degrees of freedom to reduce fill-in',
  templates: ['Vec3d'],
  defaultTemplate: 'Vec3d',
})
export class FillReducingOrdering extends DataEngine {
  readonly mstate = this.initLink<BaseMechanicalState>({
    name: 'mstate',
    help: 'Mechanical state to reorder',
    accepts: isMechanicalState,
    expected: 'a mechanical state',
    search: 'local',
  });
  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'Topology to reorder',
    accepts: isTopology,
    expected: 'a mesh topology',
    search: 'up',
  });
  readonly orderingMethod = this.initData({
    name: 'orderingMethod',
    type: Str,
    default: 'nestedDissection',
    help:
      'Ordering method: nestedDissection (multilevel nested dissection; METIS in SOFA, our own here) or ' +
      'approximateMinimumDegree (approximate minimum degree; Eigen in SOFA, our own here)',
  });
  readonly permutation = this.initData({
    name: 'permutation',
    type: Indices,
    default: new Uint32Array(0),
    output: true,
    help: 'Output vector of indices mapping the reordered vertices to the initial list',
  });
  readonly invPermutation = this.initData({
    name: 'invPermutation',
    type: Indices,
    default: new Uint32Array(0),
    output: true,
    help: 'Output vector of indices mapping the initial vertices to the reordered list',
  });
  readonly position = this.initData({
    name: 'position',
    type: RealArray(3, 'vector<Vec3d>'),
    default: new Float64Array(0),
    output: true,
    unit: 'm',
    help: 'Reordered position vector',
  });
  readonly hexahedra = this.initData({
    name: 'hexahedra',
    type: IndexArray(8),
    default: new Uint32Array(0),
    output: true,
    help: 'Reordered hexahedra',
  });
  readonly tetrahedra = this.initData({
    name: 'tetrahedra',
    type: IndexArray(4),
    default: new Uint32Array(0),
    output: true,
    help: 'Reordered tetrahedra',
  });
  private method: (typeof METHODS)[number] = 'nestedDissection';

  constructor() {
    super();
    this.addOutput(this.permutation, this.invPermutation, this.position, this.hexahedra, this.tetrahedra);
  }

  override init(): void {
    if (!this.mstate.get()) throw this.error('No compatible MechanicalState found in the current context (set mstate)');
    if (!this.topology.get()) throw this.error('No mesh topology found in the current context (set topology)');
    const state = this.mstate.get()!;
    if (state.x.length !== 3 * state.size)
      throw this.error(`${state.describe()} is not a Vec3 state: FillReducingOrdering reorders Vec3d states`);
    const m = this.orderingMethod.value.trim();
    const known = METHODS.find((o) => o === m);
    if (known) this.method = known;
    else
      this.warnAbout(
        this.orderingMethod,
        `'${m}' is not an ordering method (${METHODS.join(', ')}): the default nestedDissection is kept, as SOFA keeps its option`,
      );
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const state = this.mstate.get()!;
    const topo = this.topology.get()!;
    const n = state.size;
    const tets = topo.getTetrahedra();
    const hexas = topo.getHexahedra();
    const graph =
      this.method === 'approximateMinimumDegree'
        ? elementGraph(n, [{ elements: topo.getEdges(), k: 2 }])
        : elementGraph(n, [
            { elements: hexas, k: 8 },
            { elements: tets, k: 4 },
          ]);
    const newToOld =
      this.method === 'approximateMinimumDegree'
        ? amdOrdering(n, graph.rowPtr, graph.colInd)
        : nestedDissectionOrdering(n, graph.rowPtr, graph.colInd);
    const perm = Uint32Array.from(newToOld);
    const inv = new Uint32Array(n);
    for (let i = 0; i < n; i++) inv[perm[i]] = i;
    const renumber = (elements: Uint32Array): Uint32Array => elements.map((v) => inv[v]);
    const x = state.x;
    const pos = new Float64Array(3 * n);
    for (let i = 0; i < n; i++) for (let c = 0; c < 3; c++) pos[3 * i + c] = x[3 * perm[i] + c];
    this.permutation.value = perm;
    this.invPermutation.value = inv;
    this.position.value = pos;
    this.hexahedra.value = renumber(hexas);
    this.tetrahedra.value = renumber(tets);
  }
}
