import {
  BaseMass,
  contextMeshTopology,
  isMechanicalState,
  isTopology,
  sofaComponent,
  type BaseMechanicalState,
  type BaseMeshTopology,
  type MatrixAccumulator,
} from '@sofa-ts/core';
import { volumeFemTemplates } from '../fem/element/BaseElementLinearFEMForceField.js';
import { volumeElementOfTemplate, type VolumeElement } from '../fem/element/volume-elements.js';
import { hexahedronMassMatrix, pyramidMassMatrix, tetrahedronMassMatrix } from './element-mass.js';
import { prismMassMatrix } from '../fem/element/prism-element.js';
import { isNodalMassDensity, type NodalMassDensity } from './NodalMassDensity.js';

/**
 * SOFA's FEMMass (v26): the consistent mass matrix of a finite-element mesh and a nodal density,
 *   M_ij = ∫ ρ·N_i·N_j dV  (per axis: M ⊗ I₃),  ρ = Σ_k N_k·ρ_k from NodalMassDensity,
 * integrated per element with SOFA's default quadrature of the element type (see element-mass.ts:
 * 2×2×2 Gauss on hexahedra; one centroid point on tetrahedra, which gives the element matrix
 * ρ̄V/16 everywhere, rank one, with the exact total mass; on pyramids the cube's 2×2×2 rule
 * collapsed onto the apex). Template `Vec3,Hexahedron`, `Vec3,Tetrahedron` or `Vec3,Pyramid`. Stored once as a scalar sparse matrix over the nodes (rest positions).
 *   gravity: f_i += (Σ_j M_ij)·g;  addMDx: out_i += factor·Σ_j M_ij·dx_j;  M⁻¹ is not available
 *   (explicit solvers need a diagonal mass), as in SOFA.
 */
@sofaComponent({
  name: 'FEMMass',
  category: 'Mass',
  module: 'Sofa.Component.Mass',
  description: 'Consistent mass matrix of finite elements from a nodal mass density.',
  templates: volumeFemTemplates,
})
export class FEMMass extends BaseMass {
  readonly mstate = this.initLink<BaseMechanicalState>({
    name: 'mstate',
    help: 'the mechanical state this mass acts on (default: the one of its node, else of the nearest ancestor)',
    accepts: isMechanicalState,
    expected: 'a MechanicalObject',
    search: 'up',
  });
  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'the topology giving the elements (default: the topology of this node, else of the nearest ancestor)',
    accepts: isTopology,
    expected: 'a topology container',
  });
  readonly nodalMassDensity = this.initLink<NodalMassDensity>({
    name: 'nodalMassDensity',
    help: 'the nodal mass density (default: the first NodalMassDensity of this node or above)',
    accepts: isNodalMassDensity,
    expected: 'a NodalMassDensity',
    search: 'up',
  });

  private element!: VolumeElement;
  /** Scalar mass matrix over the nodes, CSR (size × size): rowPtr (size+1), colInd and values (nnz), kg. */
  private rowPtr = new Int32Array(1);
  private colInd = new Int32Array(0);
  private values = new Float64Array(0);
  /** Row sums Σ_j M_ij (size), kg: the mass that gravity pulls on each node. */
  private rowSums = new Float64Array(0);

  getMechanicalState(): BaseMechanicalState {
    return this.mstate.require();
  }

  get isDiagonal(): boolean {
    return false;
  }

  /** 1ᵀ·M·1 (kg): the total mass (per axis). */
  get totalMass(): number {
    let m = 0;
    for (const v of this.rowSums) m += v;
    return m;
  }

  /** M_ij of the scalar node matrix (0 outside the pattern). */
  entry(i: number, j: number): number {
    for (let k = this.rowPtr[i]; k < this.rowPtr[i + 1]; k++) if (this.colInd[k] === j) return this.values[k];
    return 0;
  }

  override init(): void {
    const element = volumeElementOfTemplate(this.template);
    if (!element || element.dimension !== 3) {
      throw this.error(
        this.template.includes(',')
          ? `template '${this.template}': element type not supported (supported: ${volumeFemTemplates.join(', ')})`
          : 'the template must name the element type: template="Vec3,Hexahedron", "Vec3,Tetrahedron", "Vec3,Pyramid" or "Vec3,Prism"',
      );
    }
    this.element = element;
    const ms = this.mstate.get() ?? this.context.getObject(isMechanicalState, 'up');
    if (!ms) throw this.error('no mechanical state: put a MechanicalObject in the node or above it');
    if (ms.stateType.derivSize !== 3 || ms.stateType.isRigid) throw this.error(`needs a Vec3 mechanical state, not ${ms.stateType.name}`);
    this.mstate.set(ms);
    const topo = this.topology.get() ?? contextMeshTopology(this.context);
    if (!topo) throw this.error(`no topology: link one with topology="@..." or put a topology with ${element.plural} in the node`);
    this.topology.set(topo);
    const density = this.nodalMassDensity.get() ?? this.context.getObject(isNodalMassDensity, 'up');
    if (!density)
      throw this.error(
        'no NodalMassDensity found: add <NodalMassDensity property="..."/> to the node (or above) or link one with nodalMassDensity="@..."',
      );
    this.nodalMassDensity.set(density);
    this.build(ms, topo, density);
  }

  /** Element matrices at the rest positions, assembled into the node matrix. */
  private build(ms: BaseMechanicalState, topo: BaseMeshTopology, density: NodalMassDensity): void {
    const el = this.element,
      nodes = el.nodes,
      size = ms.size;
    const elems = el.elementsOf(topo);
    const count = elems.length / nodes;
    if (count === 0) throw this.error(`the topology ${topo.describe()} has no ${el.plural}`);
    for (let i = 0; i < elems.length; i++) {
      if (elems[i] >= size)
        throw this.error(
          `${el.name.toLowerCase()} ${Math.floor(i / nodes)} uses point ${elems[i]}, but ${ms.describe()} has ${size} points`,
        );
    }
    // pattern: every pair of nodes sharing an element, sorted by row then column
    const keys = new Float64Array(count * nodes * nodes);
    let nk = 0;
    for (let e = 0; e < count; e++)
      for (let a = 0; a < nodes; a++) for (let b = 0; b < nodes; b++) keys[nk++] = elems[nodes * e + a] * size + elems[nodes * e + b];
    keys.sort();
    const rowPtr = new Int32Array(size + 1);
    const cols: number[] = [];
    let last = -1;
    for (let k = 0; k < nk; k++) {
      const key = keys[k];
      if (key === last) continue;
      last = key;
      const i = Math.floor(key / size);
      rowPtr[i + 1]++;
      cols.push(key - i * size);
    }
    for (let i = 0; i < size; i++) rowPtr[i + 1] += rowPtr[i];
    this.rowPtr = rowPtr;
    this.colInd = Int32Array.from(cols);
    this.values = new Float64Array(cols.length);
    // M += M_e per element
    const x0 = ms.x0,
      X = new Float64Array(3 * nodes),
      rho = new Float64Array(nodes),
      Me = new Float64Array(nodes * nodes);
    for (let e = 0; e < count; e++) {
      for (let a = 0; a < nodes; a++) {
        const p = elems[nodes * e + a];
        X[3 * a] = x0[3 * p];
        X[3 * a + 1] = x0[3 * p + 1];
        X[3 * a + 2] = x0[3 * p + 2];
        rho[a] = density.nodeDensity(p);
      }
      if (el.name === 'Hexahedron') hexahedronMassMatrix(Me, X, rho);
      else if (el.name === 'Pyramid') pyramidMassMatrix(Me, X, rho);
      else if (el.name === 'Prism') prismMassMatrix(Me, X, rho);
      else tetrahedronMassMatrix(Me, X, rho);
      for (let a = 0; a < nodes; a++) {
        const i = elems[nodes * e + a];
        for (let b = 0; b < nodes; b++) this.values[this.slot(i, elems[nodes * e + b])] += Me[nodes * a + b];
      }
    }
    this.rowSums = new Float64Array(size);
    for (let i = 0; i < size; i++) for (let k = rowPtr[i]; k < rowPtr[i + 1]; k++) this.rowSums[i] += this.values[k];
  }

  /** Index of (i, j) in the pattern (binary search in row i). */
  private slot(i: number, j: number): number {
    let lo = this.rowPtr[i],
      hi = this.rowPtr[i + 1] - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const c = this.colInd[mid];
      if (c === j) return mid;
      if (c < j) lo = mid + 1;
      else hi = mid - 1;
    }
    throw this.error(`internal: (${i}, ${j}) is not in the mass pattern`);
  }

  addMDx(out: Float64Array, dx: Float64Array, factor: number): void {
    const rowPtr = this.rowPtr,
      colInd = this.colInd,
      val = this.values,
      n = rowPtr.length - 1;
    // out_i += factor·Σ_j M_ij·dx_j
    for (let i = 0; i < n; i++) {
      let sx = 0,
        sy = 0,
        sz = 0;
      for (let k = rowPtr[i]; k < rowPtr[i + 1]; k++) {
        const m = val[k],
          q = 3 * colInd[k];
        sx += m * dx[q];
        sy += m * dx[q + 1];
        sz += m * dx[q + 2];
      }
      out[3 * i] += factor * sx;
      out[3 * i + 1] += factor * sy;
      out[3 * i + 2] += factor * sz;
    }
  }

  addMToMatrix(acc: MatrixAccumulator, mFactor: number): void {
    const rowPtr = this.rowPtr,
      colInd = this.colInd,
      val = this.values,
      n = rowPtr.length - 1;
    for (let i = 0; i < n; i++) {
      for (let k = rowPtr[i]; k < rowPtr[i + 1]; k++) {
        const m = mFactor * val[k],
          j = colInd[k];
        acc.add(3 * i, 3 * j, m);
        acc.add(3 * i + 1, 3 * j + 1, m);
        acc.add(3 * i + 2, 3 * j + 2, m);
      }
    }
  }

  addForce(f: Float64Array, _x: Float64Array, _v: Float64Array): void {
    const g = this.context.getGravity();
    const s = this.rowSums;
    // f_i += (Σ_j M_ij)·g
    for (let i = 0; i < s.length; i++) {
      f[3 * i] += s[i] * g[0];
      f[3 * i + 1] += s[i] * g[1];
      f[3 * i + 2] += s[i] * g[2];
    }
  }

  accFromF(_a: Float64Array, _f: Float64Array): void {
    throw this.error(
      "M⁻¹·f is not available: FEMMass's matrix is not diagonal (use an implicit ODE solver, or a diagonal mass with an explicit one)",
    );
  }

  getKineticEnergy(v: Float64Array): number {
    const rowPtr = this.rowPtr,
      colInd = this.colInd,
      val = this.values,
      n = rowPtr.length - 1;
    let e = 0;
    for (let i = 0; i < n; i++) {
      for (let k = rowPtr[i]; k < rowPtr[i + 1]; k++) {
        const q = 3 * colInd[k];
        e += val[k] * (v[3 * i] * v[q] + v[3 * i + 1] * v[q + 1] + v[3 * i + 2] * v[q + 2]);
      }
    }
    return e / 2;
  }

  getPotentialEnergy(x: Float64Array): number {
    const g = this.context.getGravity();
    const s = this.rowSums;
    let e = 0;
    for (let i = 0; i < s.length; i++) e -= s[i] * (x[3 * i] * g[0] + x[3 * i + 1] * g[1] + x[3 * i + 2] * g[2]);
    return e;
  }
}
