import {
  Bool,
  nonNegative,
  orReset,
  Real,
  applyRemoval,
  sofaComponent,
  Str,
  type BaseMechanicalState,
  type BaseMeshTopology,
  type MatrixAccumulator,
  type TopologyChange,
  type TopologyHandler,
  SingleStateMass,
} from '@sofa-ts/core';
import { MassText, RigidInertia } from '../rigid-inertia.js';
import { ELEMENT_SIZE, elementMeasure, type MassElementType } from './element-geometry.js';
import { checkElementIndices, geometryPositions, geometryStateLink, resolveMassMesh, topologyLink } from './mesh-mass-support.js';

/**
 * SOFA's DiagonalMass: a lumped mass from a mesh. Each element gives its mass ρ·|e| (|e| its
 * length, area or volume) in equal shares to its vertices:
 *   edge ρL/2, triangle ρA/3, quad ρA/4, tetrahedron ρV/4, hexahedron ρV/8 per vertex,
 * using only the highest-dimensional element kind present (hexahedra, else tetrahedra, else quads,
 * else triangles, else edges). M = diag(m_i)⊗I, gravity f_i = m_i·g.
 *
 * Mass information, in SOFA's priority order: totalMass (density rescaled so Σm_i = totalMass),
 * else massDensity, else vertexMass (one value per topology point, kept as given; the density is
 * deduced), else totalMass = 1. An invalid (negative, wrongly sized) value falls back to totalMass.
 * Elements are measured on the rest positions when computeMassOnRest (default), else on the
 * current positions, of the state holding the topology's geometry.
 * Rigid3d / Rigid2d (SOFA's RigidMass per frame): vertexMass lists one "m volume J" per frame
 * (J the inertia per unit mass, 9 numbers, plain or "[a b c,d e f,g h i]", for Rigid3; 1 for
 * Rigid2), padded with the last one; M_i = diag(m_i·I, m_i·J_i) in world axes as UniformMass does.
 * Masses lumped from the mesh (totalMass, massDensity; elements measured on the frames' centres)
 * keep SOFA's default RigidMass parts: volume 1, J = I. Given vertexMass needs no elements.
 * SOFA's `filename` here is an Xsp 3.0 mass-spring file, not a `.rigid` file: not read.
 * Topological changes (lumped masses), as SOFA's handlers: the share ρ·|e|/k of an element removed
 * is taken from its vertices, that of an element added given to them (ρ the mass density in use,
 * |e| measured as at init), a removed point's slot receives the last point's mass; the vertex
 * masses stay those of the remaining elements, and totalMass follows.
 */
@sofaComponent({
  name: 'DiagonalMass',
  category: 'Mass',
  module: 'Sofa.Component.Mass',
  description: 'Lumped mass from a mesh: element masses shared equally among their vertices.',
  // SOFA names a mass template by its state and geometry types ('Vec3d,Vec3d'); same-dimension pairs are accepted.
  templates: [
    'Vec3d',
    'Vec2d',
    'Vec1d',
    'Rigid3d',
    'Rigid2d',
    'Vec3d,Vec3d',
    'Vec2d,Vec2d',
    'Vec1d,Vec1d',
    'Rigid3d,Rigid3d',
    'Rigid2d,Rigid2d',
  ],
})
export class DiagonalMass extends SingleStateMass implements TopologyHandler {
  readonly vertexMass = this.initData({
    name: 'vertexMass',
    type: MassText,
    default: new Float64Array(0),
    unit: 'kg',
    help: 'mass of each vertex (rigid frames: "m volume inertia" each); if unspecified or wrongly set, massDensity or totalMass is used (after init: the masses in use)',
  });
  readonly massDensity = this.initData({
    name: 'massDensity',
    type: Real,
    default: 1,
    unit: 'kg/m³',
    help: 'mass density (per length, area or volume of the elements); if unspecified or wrongly set, totalMass is used',
  });
  readonly totalMass = this.initData({
    name: 'totalMass',
    type: Real,
    default: 1,
    unit: 'kg',
    range: orReset(nonNegative, 1),
    help: 'total mass of the object, shared among the vertices by the mesh; default 1 when no mass information is given',
  });
  readonly computeMassOnRest = this.initData({
    name: 'computeMassOnRest',
    type: Bool,
    default: true,
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
  readonly fileMass = this.initData({
    name: 'filename',
    type: Str,
    default: '',
    help: 'Xsp 3.0 file giving the masses (not supported)',
    aliases: ['fileMass'],
  });

  readonly topology = this.initLink(topologyLink());
  readonly geometryState = this.initLink(geometryStateLink());

  /** m_i per point of the state, (size). */
  private masses = new Float64Array(0);
  /** Rigid frames: the mass of each frame (translation and rotation), (size); undefined for Vec templates. */
  private inertias: RigidInertia[] | undefined;
  /** The topology the masses are lumped from, and its revision then (mesh-lumped Vec masses only). */
  private meshTopology: BaseMeshTopology | undefined;
  private topoRevision = -1;
  /** The element kind the masses are lumped from (mesh-lumped Vec masses). */
  private meshKind: MassElementType | undefined;
  /** True once the masses follow the topology's changes one by one. */
  private followsChanges = false;

  get isDiagonal(): boolean {
    return true;
  }

  /** The vertex masses in use (after init). */
  get pointMasses(): Float64Array {
    this.followTopology();
    return this.masses;
  }

  handleTopologyChange(change: TopologyChange, topology: BaseMeshTopology): void {
    if (topology !== this.meshTopology || !this.meshKind) return;
    this.followsChanges = true;
    const kind = this.meshKind;
    if ((change.type === 'elementsRemoved' || change.type === 'elementsAdded') && change.kind === kind) {
      // Δm_i = ∓ρ·|e|/k for the vertices of each element removed or added
      const positions = geometryPositions(this.geometryState.require(), this.computeMassOnRest.value);
      const rho = this.massDensity.value;
      const sign = change.type === 'elementsAdded' ? 1 : -1;
      const elements = change.type === 'elementsAdded' ? change.elements : elementsOf(topology, kind);
      const m = this.growTo(positions.length / 3);
      const added = change.type === 'elementsAdded';
      this.totalMass.value = addShares(
        m,
        kind,
        positions,
        elements,
        added ? undefined : change.indices,
        change.indices.length,
        sign * rho,
        this.totalMass.value,
      );
    } else if (change.type === 'pointsRemoved') {
      const n = this.masses.length;
      const left = applyRemoval(this.masses, 1, n, change.indices);
      this.masses = this.masses.slice(0, left);
    } else if (change.type === 'pointsAdded') {
      this.growTo(this.masses.length + change.indices.length);
    } else if (change.type === 'endOfChanges') {
      this.vertexMass.value = this.masses.slice();
    }
  }

  /** The masses, extended with zeros to n points. */
  private growTo(n: number): Float64Array {
    if (this.masses.length < n) {
      const m = new Float64Array(n);
      m.set(this.masses);
      this.masses = m;
    }
    return this.masses;
  }

  /**
   * A topological change since the masses were lumped: lumped again at the same density. (The test
   * alone, the work in relump: this runs in every product, and a small function is quick for the
   * JIT to compile and inline.)
   */
  private followTopology(): void {
    const topo = this.meshTopology;
    if (this.followsChanges || !topo || topo.changeRevision === this.topoRevision) return;
    this.relump(topo);
  }

  private relump(topo: BaseMeshTopology): void {
    this.topoRevision = topo.changeRevision;
    const s = this.getMechanicalState();
    const n = s.size;
    const m = new Float64Array(n);
    const rho = this.massDensity.value;
    let total = 0;
    const found = [
      ['hexahedron', topo.getHexahedra()],
      ['tetrahedron', topo.getTetrahedra()],
      ['quad', topo.getQuads()],
      ['triangle', topo.getTriangles()],
      ['edge', topo.getEdges()],
    ] as const;
    const pick = found.find(([, e]) => e.length > 0);
    if (pick) {
      const [kind, elements] = pick;
      const k = ELEMENT_SIZE[kind];
      const geometry = this.geometryState.require();
      const positions = geometryPositions(geometry, this.computeMassOnRest.value);
      for (let e = 0; e < elements.length / k; e++) {
        const share = (rho * elementMeasure(kind, positions, elements, e)) / k;
        for (let j = 0; j < k; j++) {
          const p = elements[k * e + j];
          if (p >= n) throw this.error(`${kind} ${e} uses point ${p}, but ${s.describe()} has ${n} points after the topological change`);
          m[p] += share;
          total += share;
        }
      }
    }
    this.masses = m;
    this.totalMass.value = total;
    this.vertexMass.value = Float64Array.from(m);
  }

  override init(): void {
    const s = this.getMechanicalState();
    if (!this.template) this.template = s.stateType.name;
    if (this.fileMass.value !== '')
      throw this.error(`mass files are not supported (filename='${this.fileMass.value}'); give totalMass, massDensity or vertexMass`);
    this.inertias = undefined;
    if (s.stateType.isRigid && this.vertexMass.isSet && !this.totalMass.isSet && !this.massDensity.isSet)
      return this.initRigidFromVertexMass(s);
    const mesh = resolveMassMesh(this, this.topology, this.geometryState, s.stateType.isRigid);
    checkElementIndices(this, mesh);
    this.meshTopology = undefined;
    const n = s.size;
    const nTopo = mesh.topology.getNbPoints();
    const setTotal = this.totalMass.isSet;
    const setDensity = this.massDensity.isSet;
    const setVertex = this.vertexMass.isSet;

    // A shorter vertexMass is padded with its last value up to the state size (as SOFA does).
    let given = this.vertexMass.value;
    if (given.length > 0 && given.length < n) {
      const padded = new Float64Array(n);
      padded.set(given);
      padded.fill(given[given.length - 1], given.length);
      given = padded;
    }

    const positions = geometryPositions(mesh.geometry, this.computeMassOnRest.value);
    // m_i for density ρ: every element adds ρ·|e|/k to each of its k vertices; returns Σ m_i.
    const lump = (rho: number): number => {
      const m = new Float64Array(n);
      const k = ELEMENT_SIZE[mesh.kind];
      let total = 0;
      for (let e = 0; e < mesh.count; e++) {
        const share = (rho * elementMeasure(mesh.kind, positions, mesh.elements, e)) / k;
        for (let j = 0; j < k; j++) {
          m[mesh.elements[k * e + j]] += share;
          total += share;
        }
      }
      this.masses = m;
      return total;
    };
    const fromTotal = (): void => {
      if (this.totalMass.value < 0) this.totalMass.value = 1;
      const total = this.totalMass.value;
      const sum = lump(1);
      const rho = sum < Number.EPSILON ? 1 : total / sum;
      this.massDensity.value = rho;
      for (let i = 0; i < n; i++) this.masses[i] *= rho;
    };

    if (setTotal && (setDensity || setVertex))
      this.warnAbout(
        this.totalMass,
        'totalMass overrides the other mass information (vertexMass or massDensity): give only one, as SOFA advises',
      );
    if (setTotal || (!setDensity && !setVertex)) fromTotal();
    else if (setDensity) {
      if (setVertex) this.warnAbout(this.massDensity, 'massDensity overrides vertexMass: give only one, as SOFA advises');
      if (this.massDensity.value < 0) {
        this.warnAbout(
          this.massDensity,
          `massDensity ${this.massDensity.value} is negative: the mass comes from totalMass (${this.totalMass.value}) instead, as SOFA does`,
        );
        fromTotal();
      } else this.totalMass.value = lump(this.massDensity.value);
    } else {
      const valid = given.length === nTopo && given.every((m) => m >= 0);
      if (!valid) {
        const why = given.length !== nTopo ? `has ${given.length} values for ${nTopo} points` : 'has a negative value';
        this.warnAbout(this.vertexMass, `vertexMass ${why}: the mass comes from totalMass (${this.totalMass.value}) instead, as SOFA does`);
        fromTotal();
      } else {
        const total = given.reduce((a, b) => a + b, 0);
        const sum = lump(1);
        this.massDensity.value = sum < Number.EPSILON ? 1 : total / sum;
        this.totalMass.value = total;
        const m = new Float64Array(n);
        m.set(given.subarray(0, Math.min(n, given.length)));
        this.masses = m;
      }
    }
    if (s.stateType.isRigid) {
      // SOFA's RigidMass arithmetic: lumped masses added to frames of volume 1 and J = I.
      const dim = s.stateType.name === 'Rigid3d' ? 3 : 2;
      this.inertias = Array.from(this.masses, (m) => RigidInertia.fromVertexMass(dim, Float64Array.of(m), m));
      this.vertexMass.value = Float64Array.from(this.inertias.flatMap((r) => Array.from(r.toVertexMass())));
      return;
    }
    this.vertexMass.value = Float64Array.from(this.masses);
    this.meshTopology = mesh.topology;
    this.topoRevision = mesh.topology.changeRevision;
    this.meshKind = mesh.kind;
    mesh.topology.addTopologyHandler(this);
  }

  /** Rigid frames with their masses given: one "m volume J" per frame, the last one repeated. */
  private initRigidFromVertexMass(s: BaseMechanicalState): void {
    const dim = s.stateType.name === 'Rigid3d' ? 3 : 2;
    const per = dim === 3 ? 11 : 3;
    const given = this.vertexMass.value;
    if (given.length === 0 || given.length % per !== 0)
      throw this.error(
        `vertexMass of ${s.stateType.name} frames is "mass volume inertia" per frame (${per} numbers each), got ${given.length} numbers`,
      );
    const count = given.length / per;
    if (count > s.size) throw this.error(`vertexMass gives ${count} frame masses, ${s.describe()} has ${s.size} frames`);
    this.inertias = Array.from({ length: s.size }, (_, i) => {
      const g = given.subarray(Math.min(i, count - 1) * per, Math.min(i, count - 1) * per + per);
      if (g[0] < 0) throw this.error(`frame ${i}: the mass must be positive (got ${g[0]})`);
      return RigidInertia.fromVertexMass(dim, g, g[0]);
    });
    this.masses = Float64Array.from(this.inertias, (r) => r.mass);
    this.totalMass.value = this.masses.reduce((a, b) => a + b, 0);
    this.vertexMass.value = Float64Array.from(this.inertias.flatMap((r) => Array.from(r.toVertexMass())));
  }

  addMDx(out: Float64Array, dx: Float64Array, factor: number): void {
    this.followTopology();
    if (this.inertias) {
      for (let i = 0; i < this.inertias.length; i++) this.inertias[i].addMDx(out, dx, i, factor);
      return;
    }
    const d = this.getMechanicalState().stateType.derivSize;
    const m = this.masses;
    // SOFA's order: (dx·m)·factor (a last-bit difference that early-stopped CG solves can amplify)
    for (let i = 0; i < m.length; i++) {
      const mi = m[i];
      for (let k = 0; k < d; k++) out[i * d + k] += dx[i * d + k] * mi * factor;
    }
  }

  /** The point masses of addMDx's product (none for rigid frames, whose inertia is a 3x3 block). */
  override lumpedPointMasses(): Float64Array | undefined {
    this.followTopology();
    return this.inertias ? undefined : this.masses;
  }

  addMToMatrix(acc: MatrixAccumulator, mFactor: number): void {
    this.followTopology();
    if (this.inertias) {
      for (let i = 0; i < this.inertias.length; i++) this.inertias[i].addMToMatrix(acc, i, mFactor);
      return;
    }
    const d = this.getMechanicalState().stateType.derivSize;
    const m = this.masses;
    for (let i = 0; i < m.length; i++) {
      const c = m[i] * mFactor;
      for (let k = 0; k < d; k++) acc.add(i * d + k, i * d + k, c);
    }
  }

  addForce(f: Float64Array, _x: Float64Array, _v: Float64Array): void {
    this.followTopology();
    const t = this.getMechanicalState().stateType;
    const g = this.context.getGravity();
    const d = t.derivSize;
    const dim = Math.min(t.spatialDimensions, 3);
    const m = this.masses;
    // f_i += m_i·g
    for (let i = 0; i < m.length; i++) for (let k = 0; k < dim; k++) f[i * d + k] += m[i] * g[k];
  }

  accFromF(a: Float64Array, f: Float64Array): void {
    this.followTopology();
    if (this.inertias) {
      for (let i = 0; i < this.inertias.length; i++) this.inertias[i].accFromF(a, f, i);
      return;
    }
    const d = this.getMechanicalState().stateType.derivSize;
    const m = this.masses;
    for (let i = 0; i < m.length; i++) for (let k = 0; k < d; k++) a[i * d + k] = f[i * d + k] / m[i];
  }

  getKineticEnergy(v: Float64Array): number {
    this.followTopology();
    if (this.inertias) return this.inertias.reduce((e, r, i) => e + r.kineticEnergy(v, i), 0);
    const d = this.getMechanicalState().stateType.derivSize;
    const m = this.masses;
    let e = 0;
    for (let i = 0; i < m.length; i++) {
      let v2 = 0;
      for (let k = 0; k < d; k++) v2 += v[i * d + k] * v[i * d + k];
      e += m[i] * v2;
    }
    return 0.5 * e;
  }

  getPotentialEnergy(x: Float64Array): number {
    this.followTopology();
    const t = this.getMechanicalState().stateType;
    const g = this.context.getGravity();
    const dim = Math.min(t.spatialDimensions, 3);
    const m = this.masses;
    let e = 0;
    for (let i = 0; i < m.length; i++) for (let k = 0; k < dim; k++) e -= m[i] * g[k] * x[i * t.coordSize + k];
    return e;
  }
}

/** The elements of a kind in a topology. */
/**
 * m_i += ρ·|e|/k for the vertices of n elements (the elements `which`, else the first n) of a kind;
 * returns total + Σ ρ·|e|. A small function: it is the loop of a topological change, optimised on
 * its own.
 */
function addShares(
  m: Float64Array,
  kind: MassElementType,
  positions: Float64Array,
  elements: Uint32Array,
  which: ArrayLike<number> | undefined,
  n: number,
  rho: number,
  total: number,
): number {
  const k = ELEMENT_SIZE[kind];
  for (let i = 0; i < n; i++) {
    const e = which ? which[i] : i;
    const share = (rho * elementMeasure(kind, positions, elements, e)) / k;
    for (let j = 0; j < k; j++) m[elements[k * e + j]] += share;
    total += k * share;
  }
  return total;
}

function elementsOf(topology: BaseMeshTopology, kind: MassElementType): Uint32Array {
  switch (kind) {
    case 'edge':
      return topology.getEdges();
    case 'triangle':
      return topology.getTriangles();
    case 'quad':
      return topology.getQuads();
    case 'tetrahedron':
      return topology.getTetrahedra();
    case 'hexahedron':
      return topology.getHexahedra();
  }
}
