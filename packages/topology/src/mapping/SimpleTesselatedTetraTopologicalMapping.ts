import { Indices, sofaComponent, type BaseMeshTopology, type TopologyChange, type TopologyHandler } from '@sofa-ts/core';
import { TetrahedronSetTopologyContainer } from '../container/TetrahedronSetTopologyContainer.js';
import { TetrahedronSetTopologyModifier } from '../container/TetrahedronSetTopologyModifier.js';
import { TopologicalMapping } from './topological-mapping.js';

/** SOFA's InvalidID in the maps. */
const INVALID = 0xffffffff;

/**
 * The 8 tetrahedra of a tetrahedron (t0..t3) split at the midpoints m0..m5 of its edges (SOFA's
 * edge order in a tetrahedron: 01 02 03 12 13 23): 4 corner tetrahedra, then 4 inner ones around
 * the diagonal m0–m5, with SOFA's vertex orders. Vertex k < 4 is corner t_k, vertex 4 + j is m_j.
 */
const CHILDREN: readonly (readonly [number, number, number, number])[] = [
  [0, 4, 5, 6],
  [1, 4, 8, 7],
  [2, 5, 7, 9],
  [3, 6, 9, 8],
  [5, 4, 7, 9],
  [5, 4, 9, 6],
  [8, 4, 9, 7],
  [8, 4, 6, 9],
];

/**
 * SOFA's SimpleTesselatedTetraTopologicalMapping: each tetrahedron of the input is split into 8,
 * on the input's points (output points 0 … nP−1) and the midpoints of its edges (output point
 * nP + e for edge e). The maps pointMappedFromPoint / pointMappedFromEdge (input → output point)
 * and pointSource (output point → input point + 1, or −(edge + 1), or 0) drive
 * SimpleTesselatedTetraMechanicalMapping; tetrahedraMappedFromTetra / tetraSource relate the
 * tetrahedra.
 *
 * Topological changes of the input: the maps follow the removals of input points, edges and
 * tetrahedra as in SOFA, and (beyond SOFA, which leaves the output unchanged) the 8 output
 * tetrahedra of a removed input tetrahedron are removed from the output through its modifier,
 * which removes the output points left isolated; the maps follow the output's removals. Without a
 * modifier beside the output (SOFA needs none) the output keeps them, as in SOFA: warned. Additions
 * to the input are not mapped (SOFA neither): warned. An output tetrahedron removed directly leaves
 * the input unchanged (SOFA removes an input tetrahedron once its 8 children are gone): warned.
 */
@sofaComponent({
  name: 'SimpleTesselatedTetraTopologicalMapping',
  category: 'TopologicalMapping',
  module: 'Sofa.Component.Mapping.Linear',
  description:
    'Special case of mapping where a TetrahedronSetTopology is converted into a finer TetrahedronSetTopology (each tetrahedron split in 8).',
})
export class SimpleTesselatedTetraTopologicalMapping extends TopologicalMapping {
  readonly tetrahedraMappedFromTetra = this.initData({
    name: 'tetrahedraMappedFromTetra',
    type: Indices,
    default: new Uint32Array(0),
    output: true,
    help: 'each tetrahedron of the input topology is mapped to the 8 tetrahedra in which it can be divided (8 per input tetrahedron)',
  });
  readonly tetraSource = this.initData({
    name: 'tetraSource',
    type: Indices,
    default: new Uint32Array(0),
    output: true,
    help: 'which tetra from the input topology map to a given tetra in the output topology (InvalidID if none)',
  });
  readonly pointMappedFromPoint = this.initData({
    name: 'pointMappedFromPoint',
    type: Indices,
    default: new Uint32Array(0),
    output: true,
    help: 'each point of the input topology is mapped to the same point',
  });
  readonly pointMappedFromEdge = this.initData({
    name: 'pointMappedFromEdge',
    type: Indices,
    default: new Uint32Array(0),
    output: true,
    help: 'each edge of the input topology is mapped to its midpoint',
  });
  readonly pointSource = this.initData({
    name: 'pointSource',
    type: Indices,
    default: new Uint32Array(0),
    output: true,
    help: 'which input element maps to a given output point: 0 none, > 0 point index + 1, < 0 −(edge index + 1) (stored as unsigned)',
  });

  private fromPoint: number[] = [];
  private fromEdge: number[] = [];
  /** Per output point: i + 1 for input point i, −(e + 1) for input edge e, 0 for none. */
  private source: number[] = [];
  private childrenOf: number[][] = [];
  private parentOf: number[] = [];
  /** Output tetrahedra the mapping is removing itself (their parents are already gone). */
  private removing = false;
  private warnedAdd = false;
  private warnedBottomUp = false;
  private warnedNoModifier = false;

  /** The output's changes, followed by the maps (registered on the output container). */
  private readonly outputHandler: TopologyHandler = {
    topologyHandlerPriority: 'mapping',
    handleTopologyChange: (change) => this.outputChanged(change),
  };

  override init(): void {
    const from = this.inputTopology();
    if (!(from instanceof TetrahedronSetTopologyContainer))
      throw this.error(`input ${from.describe()} is not a TetrahedronSetTopologyContainer`);
    const to = this.outputContainer(TetrahedronSetTopologyContainer, 'TetrahedronSetTopologyContainer', undefined);
    const x = this.inputPositions(from);
    if (!x)
      throw this.error(
        `the input topology ${from.describe()} has no positions (nor a state of its size in its node): the midpoints cannot be placed`,
      );
    const np = from.getNbPoints();
    const edges = from.getEdges();
    const ne = edges.length / 2;
    const pos = new Float64Array(3 * (np + ne));
    pos.set(x.subarray(0, 3 * np));
    this.fromPoint = [];
    this.source = [];
    for (let i = 0; i < np; i++) {
      this.fromPoint.push(i);
      this.source.push(i + 1);
    }
    this.fromEdge = [];
    for (let e = 0; e < ne; e++) {
      const a = edges[2 * e],
        b = edges[2 * e + 1];
      for (let k = 0; k < 3; k++) pos[3 * (np + e) + k] = (x[3 * a + k] + x[3 * b + k]) / 2;
      this.fromEdge.push(np + e);
      this.source.push(-(e + 1));
    }
    const tets = from.getTetrahedra();
    const eit = from.getEdgesInTetrahedron();
    const nt = tets.length / 4;
    const out = new Uint32Array(32 * nt);
    this.childrenOf = [];
    this.parentOf = [];
    const v = new Array<number>(10);
    for (let t = 0; t < nt; t++) {
      for (let k = 0; k < 4; k++) v[k] = tets[4 * t + k];
      for (let j = 0; j < 6; j++) v[4 + j] = this.fromEdge[eit[6 * t + j]];
      const kids: number[] = [];
      CHILDREN.forEach((c, j) => {
        for (let k = 0; k < 4; k++) out[32 * t + 4 * j + k] = v[c[k]];
        kids.push(8 * t + j);
        this.parentOf.push(t);
      });
      this.childrenOf.push(kids);
    }
    to.setElements({ positions: pos, tetrahedra: out });
    this.publish();
    this.followInput(from);
    to.addTopologyHandler(this.outputHandler);
  }

  /** The maps into their Data. */
  private publish(): void {
    this.pointMappedFromPoint.value = Uint32Array.from(this.fromPoint);
    this.pointMappedFromEdge.value = Uint32Array.from(this.fromEdge);
    this.pointSource.value = Uint32Array.from(this.source, (s) => s >>> 0);
    this.tetrahedraMappedFromTetra.value = Uint32Array.from(this.childrenOf.flat());
    this.tetraSource.value = Uint32Array.from(this.parentOf);
  }

  // ---- topological changes ------------------------------------------------------------------------

  /** Input items about to be removed (descending): each slot takes the last item's map (SOFA's removeInputX). */
  private static removeFromMap(
    map: number[],
    indices: Uint32Array,
    unlink: (mapped: number, index: number) => void,
    relink: (mapped: number, index: number) => void,
  ): void {
    let last = map.length - 1;
    for (const i of indices) {
      const gone = map[i];
      if (i !== last) {
        const moved = map[last];
        map[i] = moved;
        relink(moved, i);
      }
      unlink(gone, i);
      last--;
    }
    map.length = last + 1;
  }

  override handleTopologyChange(change: TopologyChange, topology: BaseMeshTopology): void {
    if (topology !== this.input.get()) return;
    switch (change.type) {
      case 'pointsRemoved':
        SimpleTesselatedTetraTopologicalMapping.removeFromMap(
          this.fromPoint,
          change.indices,
          (p) => {
            if (p !== INVALID) this.source[p] = 0;
          },
          (p, i) => {
            if (p !== INVALID) this.source[p] = i + 1;
          },
        );
        return;
      case 'elementsRemoved':
        if (change.kind === 'edge') {
          SimpleTesselatedTetraTopologicalMapping.removeFromMap(
            this.fromEdge,
            change.indices,
            (p) => {
              if (p !== INVALID) this.source[p] = 0;
            },
            (p, e) => {
              if (p !== INVALID) this.source[p] = -(e + 1);
            },
          );
        } else if (change.kind === 'tetrahedron') {
          this.inputTetrahedraRemoved(change.indices);
        }
        return;
      case 'pointsAdded':
      case 'elementsAdded':
        if ((change.type === 'pointsAdded' || change.kind === 'tetrahedron' || change.kind === 'edge') && !this.warnedAdd) {
          this.warnedAdd = true;
          this.warn('points, edges or tetrahedra added to the input are not mapped to the output (SOFA does not map them either)');
        }
        return;
      case 'endOfChanges':
        this.publish();
        return;
    }
  }

  /** Input tetrahedra about to be removed: their children leave the output. */
  private inputTetrahedraRemoved(indices: Uint32Array): void {
    const children: number[] = [];
    let last = this.childrenOf.length - 1;
    for (const t of indices) {
      const kids = this.childrenOf[t];
      for (const c of kids) {
        if (c === INVALID) continue;
        children.push(c);
        this.parentOf[c] = INVALID;
      }
      if (t !== last) {
        const moved = this.childrenOf[last];
        this.childrenOf[t] = moved;
        for (const c of moved) if (c !== INVALID) this.parentOf[c] = t;
      }
      last--;
    }
    this.childrenOf.length = last + 1;
    if (children.length === 0) return;
    const out = this.optionalOutputModifier(TetrahedronSetTopologyModifier);
    if (!out) {
      if (!this.warnedNoModifier) {
        this.warnedNoModifier = true;
        this.warn(
          `input tetrahedra were removed but the node of the output ${this.output.require().describe()} has no TetrahedronSetTopologyModifier: the output keeps their 8 children, as SOFA does (add a modifier there to remove them)`,
        );
      }
      return;
    }
    this.removing = true;
    try {
      out.removeTetrahedra(children, true);
      out.notifyEndingEvent();
    } finally {
      this.removing = false;
    }
  }

  /** The output changed (removals, descending): the maps follow SOFA's swap-with-last. */
  private outputChanged(change: TopologyChange): void {
    if (change.type === 'elementsRemoved' && change.kind === 'tetrahedron') {
      let last = this.parentOf.length - 1;
      for (const c of change.indices) {
        const gone = this.parentOf[c];
        if (gone !== INVALID) {
          const kids = this.childrenOf[gone];
          kids[kids.indexOf(c)] = INVALID;
          if (!this.removing && !this.warnedBottomUp) {
            this.warnedBottomUp = true;
            this.warn(
              'output tetrahedra were removed directly: the input keeps their tetrahedron (SOFA removes it once its 8 children are gone)',
            );
          }
        }
        if (c !== last) {
          const moved = this.parentOf[last];
          this.parentOf[c] = moved;
          if (moved !== INVALID) {
            const kids = this.childrenOf[moved];
            kids[kids.indexOf(last)] = c;
          }
        }
        last--;
      }
      this.parentOf.length = last + 1;
    } else if (change.type === 'pointsRemoved') {
      let last = this.source.length - 1;
      for (const p of change.indices) {
        this.unlinkOutputPoint(this.source[p]);
        if (p !== last) {
          const s = this.source[last];
          this.source[p] = s;
          if (s > 0) this.fromPoint[s - 1] = p;
          else if (s < 0) this.fromEdge[-s - 1] = p;
        }
        last--;
      }
      this.source.length = last + 1;
    } else if (change.type === 'pointsAdded') {
      for (let i = 0; i < change.indices.length; i++) this.source.push(0);
    } else if (change.type === 'elementsAdded' && change.kind === 'tetrahedron') {
      for (let i = 0; i < change.indices.length; i++) this.parentOf.push(INVALID);
    } else if (change.type === 'endOfChanges') {
      this.publish();
    }
  }

  private unlinkOutputPoint(s: number): void {
    if (s > 0) this.fromPoint[s - 1] = INVALID;
    else if (s < 0) this.fromEdge[-s - 1] = INVALID;
  }
}
