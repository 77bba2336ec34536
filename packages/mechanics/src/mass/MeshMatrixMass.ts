import {
  Bool,
  nonNegative,
  orReset,
  Real,
  RealArray,
  applyRemoval,
  sofaComponent,
  Str,
  type BaseMeshTopology,
  type MatrixAccumulator,
  type TopologyChange,
  SingleStateMass,
} from '@sofa-ts/core';
import { ELEMENT_SIZE, elementMeasure, LOCAL_EDGES, type MassElementType } from './element-geometry.js';
import {
  checkElementIndices,
  geometryPositions,
  geometryStateLink,
  resolveMassMesh,
  topologyLink,
  type MassMesh,
} from './mesh-mass-support.js';

/**
 * Per element kind, SOFA's consistent mass matrix of an element of mass ρ·|e| stored as a vertex
 * part (added to M_ii of each vertex) and an edge part (added to M_ij = M_ji of each element edge),
 * and the lumping coefficient c with c·(vertex part) = row sum of the element matrix:
 *   tetrahedron  ρV/10, ρV/20 (6 edges), c = 2.5   (the exact P1 matrix ρV/20·(1 + δij))
 *   triangle     ρA/6,  ρA/12 (3 edges), c = 2     (the exact P1 matrix ρA/12·(1 + δij))
 *   quad         ρA/8,  ρA/16 (4 sides, no diagonals), c = 2
 *   hexahedron   ρV/20, ρV/40 (12 edges, no face or body diagonals), c = 2.5
 *   edge         ρL/3,  ρL/6, c = 1.5               (the exact P1 matrix ρL/6·(1 + δij))
 * SOFA computes no mass at all for an edge-only topology; the edge row is the linear element's.
 */
const CONSISTENT: Readonly<Record<MassElementType, { vertex: number; edge: number; lumping: number }>> = {
  tetrahedron: { vertex: 1 / 10, edge: 1 / 20, lumping: 2.5 },
  triangle: { vertex: 1 / 6, edge: 1 / 12, lumping: 2 },
  quad: { vertex: 1 / 8, edge: 1 / 16, lumping: 2 },
  hexahedron: { vertex: 1 / 20, edge: 1 / 40, lumping: 2.5 },
  edge: { vertex: 1 / 3, edge: 1 / 6, lumping: 1.5 },
};

/**
 * SOFA's MeshMatrixMass: the consistent mass matrix of a mesh (see the table above), or its lumped
 * form (lumping=1), where M_ii = c·vertexMass_i (the row sums) and M is diagonal.
 *   addMDx: out += factor·M·dx;  gravity: f_i = c·vertexMass_i·g (= row sum·g, so f = M·(1⊗g)
 *   whether lumped or not, as SOFA computes it);  accFromF only when lumped.
 *
 * Mass information, in SOFA's priority order: totalMass (density rescaled so 1ᵀM1 = totalMass per
 * axis), else massDensity (one value, or one per element), else vertexMass with edgeMass (or with
 * lumping), kept as given, else totalMass = 1. Invalid values fall back to totalMass. SOFA's quirks
 * are kept: a lumped mass initialised from vertexMass uses c·vertexMass on the diagonal, and
 * totalMass from vertexMass and edgeMass is Σ vertexMass + Σ edgeMass.
 * Elements are measured on the current positions unless computeMassOnRest.
 */
@sofaComponent({
  name: 'MeshMatrixMass',
  category: 'Mass',
  module: 'Sofa.Component.Mass',
  description: 'Consistent (or lumped) mass matrix from a mesh and a mass density.',
  // SOFA names a mass template by its state and geometry types ('Vec3d,Vec3d'); same-dimension pairs are accepted.
  templates: ['Vec3d', 'Vec2d', 'Vec1d', 'Vec3d,Vec3d', 'Vec2d,Vec2d', 'Vec1d,Vec1d'],
})
export class MeshMatrixMass extends SingleStateMass {
  readonly massDensity = this.initData({
    name: 'massDensity',
    type: RealArray(0),
    default: new Float64Array(0),
    unit: 'kg/m³',
    help: 'mass density: one value, or one per element; if unspecified or wrongly set, totalMass is used',
  });
  readonly totalMass = this.initData({
    name: 'totalMass',
    type: Real,
    default: 1,
    unit: 'kg',
    range: orReset(nonNegative, 1),
    help: 'total mass of the object; default 1 when no mass information is given',
  });
  readonly vertexMass = this.initData({
    name: 'vertexMass',
    type: RealArray(0),
    default: new Float64Array(0),
    unit: 'kg',
    help: 'mass coefficients on the vertices (diagonal of M before lumping); an input with edgeMass or lumping, set by init otherwise',
  });
  readonly edgeMass = this.initData({
    name: 'edgeMass',
    type: RealArray(0),
    default: new Float64Array(0),
    unit: 'kg',
    help: 'mass coefficients on the topology edges (off-diagonal of M); an input with vertexMass, set by init otherwise',
  });
  readonly computeMassOnRest = this.initData({
    name: 'computeMassOnRest',
    type: Bool,
    default: false,
    help: 'measure the elements on the rest positions rather than the current positions',
  });
  readonly showCenterOfGravity = this.initData({
    name: 'showGravityCenter',
    type: Bool,
    default: false,
    help: 'display the center of gravity of the system',
    group: 'Visualization',
  });
  readonly showAxisSize = this.initData({
    name: 'showAxisSizeFactor',
    type: Real,
    default: 1,
    help: 'factor length of the axis displayed (rigids only)',
    group: 'Visualization',
  });
  readonly lumping = this.initData({
    name: 'lumping',
    type: Bool,
    default: false,
    help: 'lump the mass matrix: each row summed on the diagonal (M becomes diagonal)',
  });
  readonly printMass = this.initData({
    name: 'printMass',
    type: Bool,
    default: false,
    help: 'print the total mass (accepted; no graph is recorded)',
  });
  readonly graph = this.initData({ name: 'graph', type: Str, default: '', help: 'graph of the mass variations (accepted, unused)' });

  readonly topology = this.initLink(topologyLink());
  readonly geometryState = this.initLink(geometryStateLink());

  /** SOFA's vertex part, (size). */
  private vMass = new Float64Array(0);
  /** Edge part per edge, (nEdges); edges are (edgeA[j], edgeB[j]). */
  private eMass = new Float64Array(0);
  private edgeA = new Uint32Array(0);
  private edgeB = new Uint32Array(0);
  /** c: lumped diagonal = c·vertex part. */
  private lumpingCoeff = 0;
  private lumped = false;
  /** The mesh the mass was built from, the density of each of its elements, and its topology's changeRevision then. */
  private mesh: MassMesh | undefined;
  private elementDensity = new Float64Array(0);
  private builtRevision = -1;

  get isDiagonal(): boolean {
    return this.lumped;
  }

  /** Diagonal of the lumped matrix (row sums), (size). */
  lumpedMasses(out?: Float64Array): Float64Array {
    this.followTopology();
    out ??= new Float64Array(this.vMass.length);
    for (let i = 0; i < this.vMass.length; i++) out[i] = this.vMass[i] * this.lumpingCoeff;
    return out;
  }

  override init(): void {
    const s = this.getMechanicalState();
    if (!this.template) this.template = s.stateType.name;
    if (s.stateType.isRigid) throw this.error('rigid templates of MeshMatrixMass are not supported');
    this.lumped = this.lumping.value;
    const mesh = resolveMassMesh(this, this.topology, this.geometryState);
    checkElementIndices(this, mesh);
    const edgeIndex = this.buildEdges(mesh);
    const n = s.size;
    const nTopo = mesh.topology.getNbPoints();
    const nEdgesTopo = mesh.topology.getEdges().length / 2;
    const positions = geometryPositions(mesh.geometry, this.computeMassOnRest.value);
    const coef = CONSISTENT[mesh.kind];
    this.lumpingCoeff = coef.lumping;

    const compute = (rho: (e: number) => number): number => this.computeParts(mesh, edgeIndex, positions, n, rho);
    const fromTotal = (): void => {
      if (this.totalMass.value < 0) this.totalMass.value = 1;
      const total = this.totalMass.value;
      const sum = compute(() => 1);
      const rho = sum > Number.EPSILON ? total / sum : 1;
      this.massDensity.value = Float64Array.of(rho);
      for (let i = 0; i < this.vMass.length; i++) this.vMass[i] *= rho;
      for (let j = 0; j < this.eMass.length; j++) this.eMass[j] *= rho;
    };

    const density = this.massDensity.value;
    const givenV = this.vertexMass.value;
    const givenE = this.edgeMass.value;
    if (this.totalMass.isSet || (!this.massDensity.isSet && !this.vertexMass.isSet)) fromTotal();
    else if (this.massDensity.isSet) {
      const valid = (density.length === 1 || density.length === mesh.count) && density.every((r) => r >= 0);
      if (!valid) {
        const why =
          density.length === 1 || density.length === mesh.count
            ? 'has a negative value'
            : `has ${density.length} values, expected 1 or ${mesh.count}`;
        this.warnAbout(
          this.massDensity,
          `massDensity ${why}: the mass comes from totalMass (${this.totalMass.value}) instead, as SOFA does`,
        );
        fromTotal();
      } else {
        const perElement = density.length === 1 ? new Float64Array(mesh.count).fill(density[0]) : Float64Array.from(density);
        this.totalMass.value = compute((e) => perElement[e]);
        this.massDensity.value = perElement;
      }
    } else {
      const validV = givenV.length === nTopo && givenV.every((m) => m >= 0);
      const withEdges = this.edgeMass.isSet;
      const validE = givenE.length === nEdgesTopo && givenE.every((m) => m >= 0);
      if (withEdges ? !(validV && validE) : !(this.lumped && validV)) {
        const why = !validV
          ? givenV.length !== nTopo
            ? `vertexMass has ${givenV.length} values for ${nTopo} points`
            : 'vertexMass has a negative value'
          : withEdges
            ? givenE.length !== nEdgesTopo
              ? `edgeMass has ${givenE.length} values for ${nEdgesTopo} edges`
              : 'edgeMass has a negative value'
            : 'vertexMass without edgeMass needs lumping';
        this.warnAbout(this.vertexMass, `${why}: the mass comes from totalMass (${this.totalMass.value}) instead, as SOFA does`);
        fromTotal();
      } else {
        let total = 0;
        for (const m of givenV) total += m;
        if (withEdges) for (const m of givenE) total += m;
        compute(() => 1);
        let volume = 0;
        for (let i = 0; i < this.vMass.length; i++) volume += this.vMass[i] * coef.lumping;
        const vm = new Float64Array(n);
        vm.set(givenV.subarray(0, Math.min(n, givenV.length)));
        this.vMass = vm;
        if (withEdges) this.eMass.set(givenE.subarray(0, Math.min(givenE.length, this.eMass.length)));
        this.massDensity.value = Float64Array.of(total / volume);
        this.totalMass.value = total;
      }
    }
    this.vertexMass.value = Float64Array.from(this.vMass);
    this.edgeMass.value = Float64Array.from(this.eMass.subarray(0, nEdgesTopo));
    // the density of each element, kept with its element through topological changes
    const rho = this.massDensity.value;
    this.elementDensity = rho.length === mesh.count ? Float64Array.from(rho) : new Float64Array(mesh.count).fill(rho[0] ?? 1);
    this.mesh = mesh;
    this.builtRevision = mesh.topology.changeRevision;
    mesh.topology.addTopologyHandler({ handleTopologyChange: (c, t) => this.elementsChanged(c, t) });
  }

  /** Vertex and edge parts for per-element densities rho; returns the mass 1ᵀM1 (per axis). */
  private computeParts(mesh: MassMesh, edgeIndex: Uint32Array, positions: Float64Array, n: number, rho: (e: number) => number): number {
    const coef = CONSISTENT[mesh.kind];
    const k = ELEMENT_SIZE[mesh.kind];
    const local = LOCAL_EDGES[mesh.kind];
    const vm = new Float64Array(n);
    const em = new Float64Array(this.edgeA.length);
    for (let e = 0; e < mesh.count; e++) {
      const m = rho(e) * elementMeasure(mesh.kind, positions, mesh.elements, e);
      for (let j = 0; j < k; j++) vm[mesh.elements[k * e + j]] += m * coef.vertex;
      if (!this.lumped) for (let j = 0; j < local.length; j++) em[edgeIndex[local.length * e + j]] += m * coef.edge;
    }
    this.vMass = vm;
    this.eMass = em;
    let total = 0;
    for (let i = 0; i < n; i++) total += vm[i];
    if (this.lumped) return total * coef.lumping;
    for (let j = 0; j < em.length; j++) total += 2 * em[j];
    return total;
  }

  /** Topological changes: each element keeps its density (a new one takes its ancestors' mean, else the first element's). */
  private elementsChanged(change: TopologyChange, topology: BaseMeshTopology): void {
    const mesh = this.mesh;
    if (!mesh || topology !== mesh.topology) return;
    const d = this.elementDensity;
    if (change.type === 'elementsRemoved' && change.kind === mesh.kind) {
      const left = applyRemoval(d, 1, d.length, change.indices);
      this.elementDensity = d.slice(0, left);
    } else if (change.type === 'elementsAdded' && change.kind === mesh.kind) {
      const grown = new Float64Array(d.length + change.indices.length);
      grown.set(d);
      for (let i = 0; i < change.indices.length; i++) {
        const anc = change.ancestors?.[i] ?? [];
        grown[d.length + i] = anc.length > 0 ? anc.reduce((sum, a) => sum + (d[a] ?? 0), 0) / anc.length : (d[0] ?? 1);
      }
      this.elementDensity = grown;
    }
  }

  /** After a topological change, the parts are computed again from the remaining elements and their densities. */
  private followTopology(): void {
    const mesh = this.mesh;
    if (!mesh || mesh.topology.changeRevision === this.builtRevision) return;
    this.builtRevision = mesh.topology.changeRevision;
    const t = mesh.topology;
    const elements = {
      hexahedron: t.getHexahedra(),
      tetrahedron: t.getTetrahedra(),
      quad: t.getQuads(),
      triangle: t.getTriangles(),
      edge: t.getEdges(),
    }[mesh.kind];
    const now: MassMesh = { ...mesh, elements, count: elements.length / ELEMENT_SIZE[mesh.kind] };
    if (now.count !== this.elementDensity.length)
      throw this.error(`the mass follows ${this.elementDensity.length} ${mesh.kind}(s), the topology has ${now.count}`);
    const s = this.getMechanicalState();
    const edgeIndex = this.buildEdges(now);
    const total = this.computeParts(
      now,
      edgeIndex,
      geometryPositions(now.geometry, this.computeMassOnRest.value),
      s.size,
      (e) => this.elementDensity[e],
    );
    this.mesh = now;
    this.totalMass.value = total;
    this.massDensity.value = Float64Array.from(this.elementDensity);
    this.vertexMass.value = Float64Array.from(this.vMass);
    this.edgeMass.value = Float64Array.from(this.eMass.subarray(0, t.getEdges().length / 2));
  }

  /**
   * Edge list: the topology's edges first (edgeMass is indexed like them), then element edges the
   * topology does not list. Returns, per element and local edge, the index in that list.
   */
  private buildEdges(mesh: MassMesh): Uint32Array {
    const topoEdges = mesh.topology.getEdges();
    const n = mesh.geometry.size;
    const index = new Map<number, number>();
    const a: number[] = [];
    const b: number[] = [];
    const key = (i: number, j: number): number => (i < j ? i * n + j : j * n + i);
    for (let j = 0; j < topoEdges.length / 2; j++) {
      const i0 = topoEdges[2 * j],
        i1 = topoEdges[2 * j + 1];
      if (!index.has(key(i0, i1))) index.set(key(i0, i1), j);
      a.push(i0);
      b.push(i1);
    }
    const k = ELEMENT_SIZE[mesh.kind];
    const local = LOCAL_EDGES[mesh.kind];
    const map = new Uint32Array(mesh.count * local.length);
    for (let e = 0; e < mesh.count; e++) {
      for (let j = 0; j < local.length; j++) {
        const i0 = mesh.elements[k * e + local[j][0]],
          i1 = mesh.elements[k * e + local[j][1]];
        let id = index.get(key(i0, i1));
        if (id === undefined) {
          id = a.length;
          index.set(key(i0, i1), id);
          a.push(i0);
          b.push(i1);
        }
        map[local.length * e + j] = id;
      }
    }
    this.edgeA = Uint32Array.from(a);
    this.edgeB = Uint32Array.from(b);
    return map;
  }

  addMDx(out: Float64Array, dx: Float64Array, factor: number): void {
    this.followTopology();
    const d = this.getMechanicalState().stateType.derivSize;
    const vm = this.vMass;
    const diag = this.lumped ? this.lumpingCoeff * factor : factor;
    // out_i += M_ii·dx_i
    for (let i = 0; i < vm.length; i++) {
      const c = vm[i] * diag;
      for (let k = 0; k < d; k++) out[i * d + k] += c * dx[i * d + k];
    }
    if (this.lumped) return;
    // out_a += M_ab·dx_b, out_b += M_ab·dx_a
    for (let j = 0; j < this.eMass.length; j++) {
      const c = this.eMass[j] * factor;
      const pa = this.edgeA[j] * d,
        pb = this.edgeB[j] * d;
      for (let k = 0; k < d; k++) {
        out[pa + k] += c * dx[pb + k];
        out[pb + k] += c * dx[pa + k];
      }
    }
  }

  addMToMatrix(acc: MatrixAccumulator, mFactor: number): void {
    this.followTopology();
    const d = this.getMechanicalState().stateType.derivSize;
    const vm = this.vMass;
    const diag = this.lumped ? this.lumpingCoeff * mFactor : mFactor;
    for (let i = 0; i < vm.length; i++) {
      const c = vm[i] * diag;
      for (let k = 0; k < d; k++) acc.add(i * d + k, i * d + k, c);
    }
    if (this.lumped) return;
    for (let j = 0; j < this.eMass.length; j++) {
      const c = this.eMass[j] * mFactor;
      const pa = this.edgeA[j] * d,
        pb = this.edgeB[j] * d;
      for (let k = 0; k < d; k++) {
        acc.add(pa + k, pb + k, c);
        acc.add(pb + k, pa + k, c);
      }
    }
  }

  addForce(f: Float64Array, _x: Float64Array, _v: Float64Array): void {
    this.followTopology();
    const t = this.getMechanicalState().stateType;
    const g = this.context.getGravity();
    const d = t.derivSize;
    const dim = Math.min(t.spatialDimensions, 3);
    const vm = this.vMass;
    // f_i += c·vertexMass_i·g (the row sum of M times g)
    for (let i = 0; i < vm.length; i++) {
      const m = vm[i] * this.lumpingCoeff;
      for (let k = 0; k < dim; k++) f[i * d + k] += m * g[k];
    }
  }

  accFromF(a: Float64Array, f: Float64Array): void {
    this.followTopology();
    if (!this.lumped)
      throw this.error(
        'accFromF needs a diagonal mass: set lumping="1" (or use DiagonalMass) with an explicit solver that does not solve with M',
      );
    const d = this.getMechanicalState().stateType.derivSize;
    const vm = this.vMass;
    for (let i = 0; i < vm.length; i++) {
      const inv = 1 / (vm[i] * this.lumpingCoeff);
      for (let k = 0; k < d; k++) a[i * d + k] = f[i * d + k] * inv;
    }
  }

  getKineticEnergy(v: Float64Array): number {
    this.followTopology();
    const d = this.getMechanicalState().stateType.derivSize;
    const vm = this.vMass;
    const diag = this.lumped ? this.lumpingCoeff : 1;
    let e = 0;
    for (let i = 0; i < vm.length; i++) {
      let v2 = 0;
      for (let k = 0; k < d; k++) v2 += v[i * d + k] * v[i * d + k];
      e += vm[i] * diag * v2;
    }
    if (!this.lumped) {
      for (let j = 0; j < this.eMass.length; j++) {
        const pa = this.edgeA[j] * d,
          pb = this.edgeB[j] * d;
        let dot = 0;
        for (let k = 0; k < d; k++) dot += v[pa + k] * v[pb + k];
        e += 2 * this.eMass[j] * dot;
      }
    }
    return 0.5 * e;
  }

  getPotentialEnergy(x: Float64Array): number {
    this.followTopology();
    const t = this.getMechanicalState().stateType;
    const g = this.context.getGravity();
    const dim = Math.min(t.spatialDimensions, 3);
    const vm = this.vMass;
    let e = 0;
    for (let i = 0; i < vm.length; i++) for (let k = 0; k < dim; k++) e -= vm[i] * this.lumpingCoeff * g[k] * x[i * t.coordSize + k];
    return e;
  }
}
