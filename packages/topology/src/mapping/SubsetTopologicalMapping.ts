import {
  Bool,
  Indices,
  sofaComponent,
  type BaseMeshTopology,
  type Data,
  type TopologyChange,
  type TopologyElementKind,
} from '@sofa-ts/core';
import { PointSetTopologyModifier } from '../container/PointSetTopologyModifier.js';
import { TopologicalMapping } from './topological-mapping.js';

/** SOFA's InvalidID in the index maps. */
const INVALID = 0xffffffff;
const KINDS: readonly TopologyElementKind[] = ['edge', 'triangle', 'quad', 'tetrahedron', 'hexahedron'];
const VERTICES: Readonly<Record<TopologyElementKind, number>> = { edge: 2, triangle: 3, quad: 4, tetrahedron: 4, hexahedron: 8 };

function elementsOf(t: BaseMeshTopology, kind: TopologyElementKind): Uint32Array {
  switch (kind) {
    case 'edge':
      return t.getEdges();
    case 'triangle':
      return t.getTriangles();
    case 'quad':
      return t.getQuads();
    case 'tetrahedron':
      return t.getTetrahedra();
    case 'hexahedron':
      return t.getHexahedra();
  }
}

/** A source → destination map and its reverse, following removals with SOFA's swap-with-last. */
class SubsetMap {
  s2d: number[] = [];
  d2s: number[] = [];

  /** Source items about to be removed (descending); returns the destination items to remove, descending. */
  removeSource(indices: ArrayLike<number>): number[] {
    const { s2d, d2s } = this;
    const dest: number[] = [];
    for (let i = 0; i < indices.length; i++) {
      const d = s2d[indices[i]];
      if (d !== undefined && d !== INVALID) dest.push(d);
    }
    let last = s2d.length - 1;
    for (let i = 0; i < indices.length; i++) {
      const s = indices[i];
      const d = s2d[s];
      if (d !== INVALID) d2s[d] = INVALID;
      const d2 = s2d[last];
      s2d[s] = d2;
      if (d2 !== INVALID && d2s[d2] === last) d2s[d2] = s;
      last--;
    }
    s2d.length = last + 1;
    return dest.sort((a, b) => b - a);
  }

  /** Destination items just removed (descending, already unmapped from their source). */
  removeDest(sorted: readonly number[]): void {
    const { s2d, d2s } = this;
    let last = d2s.length - 1;
    for (const d of sorted) {
      const s2 = d2s[last];
      d2s[d] = s2;
      if (s2 !== INVALID && s2d[s2] === last) s2d[s2] = d;
      last--;
    }
    d2s.length = last + 1;
  }
}

/**
 * SOFA's SubsetTopologicalMapping: the output topology is a subset of the input one (its elements
 * are set by the scene, e.g. a BoxROI's trianglesInROI). At init the mapping matches the output's
 * points (by position, unless samePoints) and its handled elements (by their vertices) with the
 * input's, giving the maps pointS2D/pointD2S, edgeS2D/edgeD2S, …
 *
 * Topological changes of the input (SOFA's updateTopologicalMappingTopDown), through the output's
 * modifier: with samePoints, points added and removed are added and removed in the output too;
 * otherwise a point is added when all its ancestors are in the output, and removed when it was
 * mapped. Handled elements likewise: an added element joins the output when its points (and
 * ancestors) are there, a removed one leaves it when it was mapped. SOFA follows edges and
 * triangles only and applies the removals to its maps in the order of the change; here every
 * element kind is followed and the output's removals are applied in descending order, as the
 * modifier performs them.
 */
@sofaComponent({
  name: 'SubsetTopologicalMapping',
  category: 'TopologicalMapping',
  module: 'Sofa.Component.Topology.Mapping',
  description: 'Topological mapping where the destination topology is a subset of the source topology.',
})
export class SubsetTopologicalMapping extends TopologicalMapping {
  readonly samePoints = this.initData({
    name: 'samePoints',
    type: Bool,
    default: false,
    help: 'true if the same set of points is used in both topologies',
  });
  readonly handleEdges = this.initData({
    name: 'handleEdges',
    type: Bool,
    default: false,
    help: 'true if edges events and mapping should be handled',
  });
  readonly handleTriangles = this.initData({
    name: 'handleTriangles',
    type: Bool,
    default: false,
    help: 'true if triangles events and mapping should be handled',
  });
  readonly handleQuads = this.initData({
    name: 'handleQuads',
    type: Bool,
    default: false,
    help: 'true if quads events and mapping should be handled',
  });
  readonly handleTetrahedra = this.initData({
    name: 'handleTetrahedra',
    type: Bool,
    default: false,
    help: 'true if tetrahedra events and mapping should be handled',
  });
  readonly handleHexahedra = this.initData({
    name: 'handleHexahedra',
    type: Bool,
    default: false,
    help: 'true if hexahedra events and mapping should be handled',
  });
  readonly pointS2D = this.initData({
    name: 'pointS2D',
    type: Indices,
    default: new Uint32Array(0),
    output: true,
    help: 'internal source -> destination topology points map',
  });
  readonly pointD2S = this.initData({
    name: 'pointD2S',
    type: Indices,
    default: new Uint32Array(0),
    output: true,
    help: 'internal destination -> source topology points map (link to SubsetMapping::indices to handle the mechanical side of the mapping)',
  });
  readonly edgeS2D = this.initData({
    name: 'edgeS2D',
    type: Indices,
    default: new Uint32Array(0),
    output: true,
    help: 'internal source -> destination topology edges map',
  });
  readonly edgeD2S = this.initData({
    name: 'edgeD2S',
    type: Indices,
    default: new Uint32Array(0),
    output: true,
    help: 'internal destination -> source topology edges map',
  });
  readonly triangleS2D = this.initData({
    name: 'triangleS2D',
    type: Indices,
    default: new Uint32Array(0),
    output: true,
    help: 'internal source -> destination topology triangles map',
  });
  readonly triangleD2S = this.initData({
    name: 'triangleD2S',
    type: Indices,
    default: new Uint32Array(0),
    output: true,
    help: 'internal destination -> source topology triangles map',
  });
  readonly quadS2D = this.initData({
    name: 'quadS2D',
    type: Indices,
    default: new Uint32Array(0),
    output: true,
    help: 'internal source -> destination topology quads map',
  });
  readonly quadD2S = this.initData({
    name: 'quadD2S',
    type: Indices,
    default: new Uint32Array(0),
    output: true,
    help: 'internal destination -> source topology quads map',
  });
  readonly tetrahedronS2D = this.initData({
    name: 'tetrahedronS2D',
    type: Indices,
    default: new Uint32Array(0),
    output: true,
    help: 'internal source -> destination topology tetrahedra map',
  });
  readonly tetrahedronD2S = this.initData({
    name: 'tetrahedronD2S',
    type: Indices,
    default: new Uint32Array(0),
    output: true,
    help: 'internal destination -> source topology tetrahedra map',
  });
  readonly hexahedronS2D = this.initData({
    name: 'hexahedronS2D',
    type: Indices,
    default: new Uint32Array(0),
    output: true,
    help: 'internal source -> destination topology hexahedra map',
  });
  readonly hexahedronD2S = this.initData({
    name: 'hexahedronD2S',
    type: Indices,
    default: new Uint32Array(0),
    output: true,
    help: 'internal destination -> source topology hexahedra map',
  });

  private readonly points = new SubsetMap();
  private readonly maps = new Map<TopologyElementKind, SubsetMap>();

  private handles(kind: TopologyElementKind): boolean {
    switch (kind) {
      case 'edge':
        return this.handleEdges.value;
      case 'triangle':
        return this.handleTriangles.value;
      case 'quad':
        return this.handleQuads.value;
      case 'tetrahedron':
        return this.handleTetrahedra.value;
      case 'hexahedron':
        return this.handleHexahedra.value;
    }
  }

  private mapData(kind: TopologyElementKind): [Data<Uint32Array>, Data<Uint32Array>] {
    switch (kind) {
      case 'edge':
        return [this.edgeS2D, this.edgeD2S];
      case 'triangle':
        return [this.triangleS2D, this.triangleD2S];
      case 'quad':
        return [this.quadS2D, this.quadD2S];
      case 'tetrahedron':
        return [this.tetrahedronS2D, this.tetrahedronD2S];
      case 'hexahedron':
        return [this.hexahedronS2D, this.hexahedronD2S];
    }
  }

  override init(): void {
    const from = this.inputTopology();
    const to = this.output.get();
    if (!to) throw this.error('no output topology: set output="@path" to a topology container');
    const npS = from.getNbPoints(),
      npD = to.getNbPoints();
    this.points.s2d = [];
    this.points.d2s = [];
    if (!this.samePoints.value) {
      const xs = from.getPositions(),
        xd = to.getPositions();
      const p = this.points;
      p.s2d = new Array<number>(npS).fill(INVALID);
      p.d2s = new Array<number>(npD).fill(INVALID);
      if (xs && xd) {
        const bySource = new Map<string, number>();
        for (let s = 0; s < npS; s++) bySource.set(`${xs[3 * s]} ${xs[3 * s + 1]} ${xs[3 * s + 2]}`, s);
        for (let d = 0; d < npD; d++) {
          const s = bySource.get(`${xd[3 * d]} ${xd[3 * d + 1]} ${xd[3 * d + 2]}`);
          if (s === undefined) this.warn(`point ${d} of the output is not a point of the input topology`);
          else {
            p.d2s[d] = s;
            p.s2d[s] = d;
          }
        }
      } else if (npS === npD) {
        for (let d = 0; d < npD; d++) p.d2s[d] = p.s2d[d] = d;
      } else {
        throw this.error(
          `the topologies have ${npS} and ${npD} points and no positions: they cannot be matched (set samePoints="true" when they share their points)`,
        );
      }
    }
    this.maps.clear();
    for (const kind of KINDS) {
      if (!this.handles(kind)) continue;
      const m = new SubsetMap();
      this.maps.set(kind, m);
      const es = elementsOf(from, kind),
        ed = elementsOf(to, kind);
      const nv = VERTICES[kind];
      m.s2d = new Array<number>(es.length / nv).fill(INVALID);
      m.d2s = new Array<number>(ed.length / nv).fill(INVALID);
      if (es.length === 0 || ed.length === 0) continue;
      const key = (list: ArrayLike<number>, i: number, map?: number[]): string => {
        const v: number[] = [];
        for (let k = 0; k < nv; k++) {
          const p = list[nv * i + k];
          v.push(map && map.length > 0 ? map[p] : p);
        }
        return v.sort((a, b) => a - b).join(' ');
      };
      const bySource = new Map<string, number>();
      for (let s = 0; s < m.s2d.length; s++) bySource.set(key(es, s), s);
      for (let d = 0; d < m.d2s.length; d++) {
        const s = bySource.get(key(ed, d, this.points.d2s));
        if (s === undefined) this.warn(`${kind} ${d} of the output is not a ${kind} of the input topology`);
        else {
          m.d2s[d] = s;
          m.s2d[s] = d;
        }
      }
    }
    this.publish();
    this.followInput(from);
  }

  /** The maps into their Data. */
  private publish(): void {
    this.pointS2D.value = Uint32Array.from(this.points.s2d);
    this.pointD2S.value = Uint32Array.from(this.points.d2s);
    for (const [kind, m] of this.maps) {
      const [s2d, d2s] = this.mapData(kind);
      s2d.value = Uint32Array.from(m.s2d);
      d2s.value = Uint32Array.from(m.d2s);
    }
  }

  // ---- topological changes ------------------------------------------------------------------------

  override handleTopologyChange(change: TopologyChange): void {
    const out = this.outputModifier(PointSetTopologyModifier);
    switch (change.type) {
      case 'endOfChanges':
        out.notifyEndingEvent();
        this.publish();
        return;
      case 'pointsAdded':
        return this.pointsAdded(change.indices.length, change.ancestors, change.coefs, out);
      case 'pointsRemoved':
        if (this.samePoints.value) return out.removePoints(Array.from(change.indices), true);
        {
          const dest = this.points.removeSource(change.indices);
          if (dest.length === 0) return;
          out.removePoints(dest, true);
          this.points.removeDest(dest);
        }
        return;
      case 'elementsAdded':
        if (this.handles(change.kind))
          this.elementsAdded(change.kind, change.indices, change.elements, change.ancestors, change.coefs, out);
        return;
      case 'elementsRemoved':
        if (this.handles(change.kind)) this.elementsRemoved(change.kind, change.indices, out);
        return;
    }
  }

  private pointsAdded(
    n: number,
    ancestors: readonly (readonly number[])[] | undefined,
    coefs: readonly (readonly number[])[] | undefined,
    out: PointSetTopologyModifier,
  ): void {
    if (this.samePoints.value) return out.addPoints(n, ancestors, coefs);
    const p = this.points;
    const anc: number[][] = [];
    const cf: number[][] = [];
    for (let i = 0; i < n; i++) {
      const s = p.s2d.length;
      p.s2d.push(INVALID);
      const a = ancestors?.[i] ?? [],
        c = coefs?.[i] ?? [];
      let inDest = true;
      for (let k = 0; k < a.length && inDest; k++) if (c[k] !== 0 && p.s2d[a[k]] === INVALID) inDest = false;
      if (!inDest) continue;
      const d = p.d2s.length;
      p.d2s.push(s);
      p.s2d[s] = d;
      const ma: number[] = [],
        mc: number[] = [];
      for (let k = 0; k < a.length; k++) {
        if (c[k] === 0) continue;
        ma.push(p.s2d[a[k]]);
        mc.push(c[k] ?? 1 / a.length);
      }
      anc.push(ma);
      cf.push(mc);
    }
    if (anc.length > 0) out.addPoints(anc.length, anc, cf, true);
  }

  private elementsAdded(
    kind: TopologyElementKind,
    indices: Uint32Array,
    elements: Uint32Array,
    ancestors: readonly (readonly number[])[] | undefined,
    coefs: readonly (readonly number[])[] | undefined,
    out: PointSetTopologyModifier,
  ): void {
    const m = this.maps.get(kind)!;
    const nv = VERTICES[kind];
    const pmap = this.samePoints.value ? undefined : this.points.s2d;
    const added: number[] = [];
    const anc: number[][] = [];
    const cf: number[][] = [];
    indices.forEach((s, i) => {
      m.s2d[s] = INVALID;
      const v: number[] = [];
      for (let k = 0; k < nv; k++) v.push(pmap ? pmap[elements[nv * i + k]] : elements[nv * i + k]);
      let inDest = v.every((q) => q !== INVALID && q !== undefined);
      const a = ancestors?.[i] ?? [],
        c = coefs?.[i] ?? [];
      for (let k = 0; k < a.length && inDest; k++) if (c[k] !== 0 && m.s2d[a[k]] === INVALID) inDest = false;
      if (!inDest) return;
      const d = m.d2s.length;
      m.d2s.push(s);
      m.s2d[s] = d;
      added.push(...v);
      if (ancestors) {
        const ma: number[] = [],
          mc: number[] = [];
        for (let k = 0; k < a.length; k++) {
          if (c[k] === 0) continue;
          ma.push(m.s2d[a[k]]);
          mc.push(c[k]);
        }
        anc.push(ma);
        cf.push(mc);
      }
    });
    if (added.length > 0) out.ops.addElements(kind, added, ancestors ? anc : undefined, ancestors ? cf : undefined);
  }

  private elementsRemoved(kind: TopologyElementKind, indices: Uint32Array, out: PointSetTopologyModifier): void {
    const m = this.maps.get(kind)!;
    const dest = m.removeSource(indices);
    if (dest.length === 0) return;
    // the lower-dimensional elements left alone are removed only when the mapping does not follow them
    switch (kind) {
      case 'edge':
        out.ops.removeEdges(dest, false);
        break;
      case 'triangle':
        out.ops.removeTriangles(dest, !this.handleEdges.value, false);
        break;
      case 'quad':
        out.ops.removeQuads(dest, !this.handleEdges.value, false);
        break;
      case 'tetrahedron':
        out.ops.removeVolumes('tetrahedron', dest, false);
        break;
      case 'hexahedron':
        out.ops.removeVolumes('hexahedron', dest, false);
        break;
    }
    m.removeDest(dest);
  }
}
