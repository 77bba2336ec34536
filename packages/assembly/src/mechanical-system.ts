import type { BaseForceField, BaseMass, Node } from '@sofa-ts/core';
import type { CgKernel, CsrMatrix } from '@sofa-ts/linalg';
import type { CompliantState } from './constraint-rows.js';
import { KKTAssembly, type AssembledKKT } from './kkt-assembly.js';
import { MatrixFreeOperators } from './matrix-free-operators.js';
import { MBKAssembly } from './mbk-assembly.js';
import { SystemGraph } from './system-graph.js';
import type { MBKFactors, MappingEntry, SystemConstraint, SystemState } from './system-state.js';
import { VectorViews } from './vector-views.js';

export type { AssembledKKT } from './kkt-assembly.js';
export type { MBKFactors, MappingEntry, MasterState, SystemConstraint, SystemState } from './system-state.js';

/**
 * The compiled mechanical system of a solver's subtree (the Compliant plugin's block assembly with
 * shift matrices). Master states get offsets in the global vectors; mapped states are reached
 * through their full Jacobians J_c0 = Σ_p J_cp·J_p0. The assembled operator is
 *   A = P·( Σ_groups J_g0ᵀ (m·M + b·B + k·K)_g J_g0 + Σ_mappings J_in0ᵀ k·K_geo J_in0 )·P + (I − P)
 * with a pattern built once and refilled, and the same graph gives matrix-free products
 * (propagate dx down with J, local products, accumulate up with Jᵀ).
 *
 * Global vectors (derivative layout unless said): the masters' own x, v, f, dx arrays are rebound
 * to views of the global x, v, f, dx, so nothing is gathered or scattered in a step.
 *   x: (coordSize)   v, f, dx: (size)
 *
 * This class is the façade of its parts, one concept each:
 *   system-graph.ts            compiling and wiring the graph (states, mappings, components, full Jacobians)
 *   vector-views.ts            per-state views of the global vectors, SOFA's dot product
 *   matrix-free-operators.ts   forces, matrix-free M/B/K products, propagation, vector projections
 *   mbk-assembly.ts            the assembled m·M + b·B + k·K with its projections
 *   kkt-assembly.ts            the KKT system (constraint rows of compliant states, P, J·P)
 *   system-accumulators.ts     the accumulators handed to components for the assembled matrices
 */
export class MechanicalSystem {
  readonly states: SystemState[];
  readonly masters: SystemState[];
  readonly mappedStates: SystemState[];
  /** Inputs of mappings that another ODE solver integrates, read and not moved (SystemGraph.boundaryStates). */
  readonly boundaryStates: SystemState[];
  /** Mechanical mappings in dependency order (parents before children). */
  readonly mappings: MappingEntry[];
  readonly forceFields: Array<{ ff: BaseForceField; states: readonly number[] }>;
  readonly masses: Array<{ mass: BaseMass; state: number }>;
  readonly constraints: SystemConstraint[];
  /** Number of scalar dofs (derivative layout). */
  readonly size: number;
  readonly coordSize: number;
  readonly x: Float64Array;
  readonly v: Float64Array;
  readonly f: Float64Array;
  readonly dx: Float64Array;
  readonly root: Node;

  private readonly graph: SystemGraph;
  private readonly vectors: VectorViews;
  private readonly operators: MatrixFreeOperators;
  private readonly mbk: MBKAssembly;
  private readonly kkt: KKTAssembly;

  private constructor(graph: SystemGraph) {
    this.graph = graph;
    this.root = graph.root;
    this.states = graph.states;
    this.masters = graph.masters;
    this.mappedStates = graph.mappedStates;
    this.boundaryStates = graph.boundaryStates;
    this.mappings = graph.mappings;
    this.forceFields = graph.forceFields;
    this.masses = graph.masses;
    this.constraints = graph.constraints;
    this.size = graph.size;
    this.coordSize = graph.coordSize;
    this.x = graph.x;
    this.v = graph.v;
    this.f = graph.f;
    this.dx = graph.dx;
    this.vectors = new VectorViews(graph.masters, graph.mappedStates, graph.boundaryStates);
    this.operators = new MatrixFreeOperators(graph, this.vectors);
    this.mbk = new MBKAssembly(graph);
    this.kkt = new KKTAssembly(graph, this.mbk);
  }

  /**
   * Compiles the subtree of `root` as one solver sees it: SOFA's solve visitor stops at nodes that
   * hold their own ODE solver, so those subtrees are left out (except `root` itself). States that
   * are the output of a mechanical mapping are mapped; all others are masters.
   */
  static compile(root: Node): MechanicalSystem {
    return new MechanicalSystem(SystemGraph.compile(root));
  }

  /**
   * True when objects or nodes were added to or removed from the subtree since the system was
   * compiled (e.g. contact force fields of the collision response), or when a topology of the
   * subtree changed (states resized, elements removed or added: every pattern is rebuilt): the
   * solver compiles it again.
   */
  get isStale(): boolean {
    return this.graph.isStale;
  }

  // ---- vectors (vector-views.ts) -----------------------------------------------------------------

  /** A new zero vector in derivative layout (allocate at init, not in steps). */
  newVector(): Float64Array {
    return new Float64Array(this.size);
  }

  /** a·b summed as SOFA sums its matrix-free (per-state) vectors (VectorViews.dot). */
  dot(a: Float64Array, b: Float64Array): number {
    return this.vectors.dot(a, b);
  }

  /** Views of a global derivative vector, one per master state (cached per vector). */
  views(vec: Float64Array): Float64Array[] {
    return this.vectors.views(vec);
  }

  /** Views of a global coordinate vector, one per master state. */
  coordViews(vec: Float64Array): Float64Array[] {
    return this.vectors.coordViews(vec);
  }

  // ---- matrix-free operators (matrix-free-operators.ts) -----------------------------------------

  /** Positions and velocities of mapped states from their inputs (x_c = φ(x_p), v_c = J·v_p). */
  propagatePositionsAndVelocities(): void {
    this.operators.propagatePositionsAndVelocities();
  }

  /** f = Σ forces(x, v) + gravity (masses' addForce), mapped forces accumulated up with Jᵀ. */
  computeForce(f: Float64Array = this.f): void {
    this.operators.computeForce(f);
  }

  /** out += (m·M + b·B + k·K)·vec over the whole graph, matrix-free (mapped states included). */
  addMBKv(out: Float64Array, factors: MBKFactors, vec: Float64Array): void {
    this.operators.addMBKv(out, factors, vec);
  }

  /**
   * The iteration of a matrix-free conjugate gradient in one WebAssembly memory, for a system whose
   * shape allows it (MatrixFreeKernel: one Vec3 state, one force field with an in-place product, a
   * lumped mass, zeroing projections, no active mapping), brought up to date for these factors;
   * undefined otherwise. Its products and dots are applyMBK's and dot's, bit for bit.
   */
  matrixFreeKernel(factors: MBKFactors): CgKernel | undefined {
    return this.operators.matrixFreeKernel(factors);
  }

  /** out = P·(m·M + b·B + k·K)·vec, matrix-free (out must not alias vec). */
  applyMBK(out: Float64Array, factors: MBKFactors, vec: Float64Array): void {
    out.fill(0);
    this.operators.addMBKv(out, factors, vec);
    this.operators.projectResponse(out);
  }

  /** vec ← P·vec for every projective constraint. */
  projectResponse(vec: Float64Array): void {
    this.operators.projectResponse(vec);
  }

  projectVelocity(vec: Float64Array = this.v): void {
    this.operators.projectVelocity(vec);
  }

  projectPosition(vec: Float64Array = this.x): void {
    this.operators.projectPosition(vec);
  }

  /**
   * Accumulates the forces of mapped states up to the masters: f_p += J_cpᵀ·f_c, children first,
   * into the global vector `f` (the mapped states' own f arrays are read and kept).
   */
  accumulateMappedForces(f: Float64Array = this.f): void {
    this.operators.accumulateMappedForces(f);
  }

  /** Tells followers of the states' Data that positions and velocities changed. */
  touchStates(): void {
    for (const m of this.masters) m.state.touch();
    for (const m of this.mappedStates) m.state.touch();
  }

  // ---- assembled m·M + b·B + k·K (mbk-assembly.ts) ----------------------------------------------

  /** Incremented each time the sparsity pattern of the assembled matrix is rebuilt. */
  get matrixPatternVersion(): number {
    return this.mbk.matrixPatternVersion;
  }

  /**
   * A = P·(Σ J_g0ᵀ (m·M + b·B + k·K)_g J_g0)·P + (I − P): projected dofs' rows and columns are
   * cleared with 1 on the diagonal. The pattern is built at the first call and refilled afterwards;
   * it is rebuilt (and `matrixPatternVersion` bumped) only when a component changes its entry
   * sequence. The returned matrix is owned by the system and overwritten by the next call.
   * `project: false` leaves the projection to the caller; `outsideBlocks` adds the blocks with a
   * state outside the system (MBKAssembly.emitOutsideBlocks).
   */
  assembleMBK(factors: MBKFactors, options?: { project?: boolean; outsideBlocks?: boolean }): CsrMatrix {
    return this.mbk.assembleMBK(factors, options);
  }

  /** True when a projective constraint of the system is not diagonal (assembleMBK multiplies by a general P). */
  get hasGeneralProjection(): boolean {
    return this.mbk.hasGeneralProjection;
  }

  /** The global dofs the diagonal projections zero, as of the last assembleMBK (owned by the system). */
  projectedDofList(): Int32Array {
    return this.mbk.projectedDofList();
  }

  /** Adds value·J_s(d, ·) on row R (outside row) or, transposed, on column R. */
  addOutsideEntries(s: number, d: number, R: number, value: number, asRow: boolean): boolean {
    return this.mbk.addOutsideEntries(s, d, R, value, asRow);
  }

  /** The full Jacobian J_s0 of a state (a shift matrix for a master). Owned by the system. */
  fullJacobian(index: number): CsrMatrix {
    return this.graph.jacobians[index].J;
  }

  // ---- KKT system (kkt-assembly.ts) -------------------------------------------------------------

  /** The compliant states (constraint rows), in row order. */
  get compliantStates(): readonly CompliantState[] {
    return this.kkt.compliantStates;
  }

  /** Number of constraint rows n. */
  get constraintSize(): number {
    return this.kkt.constraintSize;
  }

  /**
   * The KKT system of a step (Compliant's assembly, figure 4 of the plugin's paper):
   *   H = P·(Σ_g J_g0ᵀ (m·M + b·B + k·K)_g J_g0)·P + (I − P)  (compliances give no K here)
   *   J = [J_c0] over compliant states c,  C = blockdiag(C_c)·cFactor,  φ = [x_c]
   * and P, J·P. Patterns are built once and refilled; J rows of non-linear mappings follow the
   * last `propagatePositionsAndVelocities`.
   */
  assembleKKT(factors: MBKFactors, cFactor: number, dt: number): AssembledKKT {
    return this.kkt.assembleKKT(factors, cFactor, dt);
  }
}
