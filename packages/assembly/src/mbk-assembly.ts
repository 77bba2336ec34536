import { componentCall, type BaseObject, type BaseProjectiveConstraint } from '@sofa-ts/core';
import { FixedPatternAssembler, TripleProductPlan, csrAxpyInto, csrFindSlot, type CsrMatrix } from '@sofa-ts/linalg';
import { RowStack } from './shift.js';
import { MappedAccumulator, OutsideAccumulator, ProjectionAccumulator, type OutsideEntryTarget } from './system-accumulators.js';
import type { SystemGraph } from './system-graph.js';
import type { MBKFactors, MatrixEmitter } from './system-state.js';

/** A matrix emitter (a mass, a force field, a mapping's geometric stiffness) and how it reaches the global matrix. */
interface Group extends MatrixEmitter {
  /** All states are masters: emitted straight into the global matrix through `globalIndex`. */
  readonly allMasters: boolean;
  /** All masters: local → global index map (the shift matrices, as a map), made at the first assembly. */
  globalIndex: Int32Array | undefined;
  /** Otherwise: H_g assembled locally and projected with J_g0ᵀ H_g J_g0. */
  projected: ProjectedGroup | undefined;
}

interface ProjectedGroup {
  readonly local: FixedPatternAssembler;
  readonly stack: RowStack;
  plan?: TripleProductPlan;
  product?: CsrMatrix;
  planVersion: number;
}

/**
 * Non-diagonal projections (a plane of any direction): the global P (identity except the rows the
 * constraints emit), refilled like a matrix, and the plan of P·A·P on the assembled A.
 */
export interface GeneralProjection {
  readonly constraints: ReadonlyArray<{ pc: BaseProjectiveConstraint; offset: number }>;
  readonly asm: FixedPatternAssembler;
  /** (size) 1 for the rows emitted by a constraint at the current emission. */
  readonly rowMask: Uint8Array;
  readonly acc: ProjectionAccumulator;
  plan?: TripleProductPlan;
  product?: CsrMatrix;
  /** (size) slot of each diagonal entry in `product`. */
  diagSlots: Int32Array;
  aVersion: number;
  pVersion: number;
  /** Bumped at every rebuild of the product's pattern. */
  version: number;
}

class GroupRecord implements Group {
  globalIndex: Int32Array | undefined = undefined;
  projected: ProjectedGroup | undefined = undefined;
  constructor(
    readonly component: BaseObject,
    readonly states: readonly number[],
    readonly emit: MatrixEmitter['emit'],
    readonly allMasters: boolean,
  ) {}
}

/**
 * The assembled operator of a compiled system, with its projections:
 *   A = P·( Σ_groups J_g0ᵀ (m·M + b·B + k·K)_g J_g0 + Σ_mappings J_in0ᵀ k·K_geo J_in0 )·P + (I − P)
 * A group on masters only is emitted straight into the global matrix through its local → global
 * index map; a group touching mapped states is assembled locally and projected with a fixed
 * triple-product plan. Patterns are built at the first assembly and refilled afterwards.
 */
export class MBKAssembly implements OutsideEntryTarget {
  private readonly groups: Group[] = [];
  readonly assembler: FixedPatternAssembler;
  private readonly acc: MappedAccumulator;
  private readonly outsideAcc = new OutsideAccumulator();
  /** The current assembleMBK adds the blocks with outside states (option outsideBlocks). */
  private withOutsideBlocks = false;
  private readonly projected: number[] = [];
  /** (size) 1 for the dofs the diagonal projections zero, as of the last assembly. */
  readonly projectedMask: Uint8Array;
  /** Global indices of the projected dofs at the last assembly (projectedCount of them), in the constraints' order. */
  private projectedDofs = new Int32Array(0);
  private projectedCount = -1;
  /** Entries of the assembled matrix the projection writes, for the last pattern and projected dofs. */
  private projectionSlots: ProjectionSlots = { matrix: undefined, colInd: undefined, zero: new Int32Array(0), one: new Int32Array(0) };
  /** The non-diagonal projections, if any. */
  readonly general: GeneralProjection | undefined;

  constructor(private readonly graph: SystemGraph) {
    const size = graph.size;
    // the pattern recorded without values (the largest recording of a step): refilled right after
    this.assembler = new FixedPatternAssembler(size, size, { withDiagonal: true, recordValues: false });
    this.projectedMask = new Uint8Array(size);
    this.acc = new MappedAccumulator(this.assembler);
    const general = graph.constraints.filter((e) => !e.pc.isDiagonalProjection);
    if (general.length > 0) {
      const asm = new FixedPatternAssembler(size, size);
      const rowMask = new Uint8Array(size);
      this.general = {
        constraints: general.map((e) => ({ pc: e.pc, offset: graph.states[e.state].offset })),
        asm,
        rowMask,
        acc: new ProjectionAccumulator(asm, rowMask),
        diagSlots: new Int32Array(size),
        aVersion: -1,
        pVersion: -1,
        version: 0,
      };
    }
    for (const e of graph.emitters) {
      const g = new GroupRecord(
        e.component,
        e.states,
        e.emit,
        e.states.every((s) => !graph.states[s].mapped),
      );
      if (!g.allMasters) {
        const n = g.states.reduce((a, s) => a + graph.states[s].derivLength, 0);
        g.projected = {
          local: new FixedPatternAssembler(n, n),
          stack: new RowStack(g.states.map((s) => graph.jacobians[s].J)),
          planVersion: -1,
        };
      }
      this.groups.push(g);
    }
  }

  /** The local → global index map of a group of masters (made once; matrix-free solvers never need it). */
  private globalIndexOf(g: Group): Int32Array {
    if (g.globalIndex) return g.globalIndex;
    let n = 0;
    for (const s of g.states) n += this.graph.states[s].derivLength;
    const globalIndex = new Int32Array(n);
    let k = 0;
    for (const s of g.states) {
      const st = this.graph.states[s];
      for (let i = 0; i < st.derivLength; i++) globalIndex[k++] = st.offset + i;
    }
    return (g.globalIndex = globalIndex);
  }

  /** Incremented each time the sparsity pattern of the assembled matrix is rebuilt. */
  get matrixPatternVersion(): number {
    return this.assembler.patternVersion + (this.general?.version ?? 0);
  }

  /**
   * A = P·(Σ J_g0ᵀ (m·M + b·B + k·K)_g J_g0)·P + (I − P): projected dofs' rows and columns are
   * cleared with 1 on the diagonal. The pattern is built at the first call and refilled afterwards;
   * it is rebuilt (and `matrixPatternVersion` bumped) only when a component changes its entry
   * sequence. The returned matrix is owned by the system and overwritten by the next call.
   */
  assembleMBK(factors: MBKFactors, options?: { project?: boolean; outsideBlocks?: boolean }): CsrMatrix {
    const asm = this.assembler;
    this.withOutsideBlocks = options?.outsideBlocks === true;
    this.prepareProjectedGroups(factors);
    asm.beginNumeric();
    this.emitMBK(factors);
    if (!asm.endNumeric()) {
      asm.beginSymbolic();
      this.emitMBK(factors);
      asm.endSymbolic();
      // the values: a refill of the new pattern (the same sums in the same order as a recording's)
      asm.beginNumeric();
      this.emitMBK(factors);
      if (!asm.endNumeric()) throw new Error('MBK assembly: the emissions changed between two passes of one step');
    }
    const A = asm.matrix!;
    if (options?.project === false) {
      // the caller applies the projection in its own storage (BTDLinearSolver, as SOFA's BTDMatrix)
      if (this.collectProjectedDofs()) this.projectionSlots.matrix = undefined;
      return A;
    }
    this.applyProjectionToMatrix(A);
    return this.general ? this.applyGeneralProjection(this.general, A) : A;
  }

  /** True when a projective constraint of the system is not diagonal (assembleMBK multiplies by a general P). */
  get hasGeneralProjection(): boolean {
    return this.general !== undefined;
  }

  /** The global dofs the diagonal projections zero, as of the last assembleMBK (owned by the system). */
  projectedDofList(): Int32Array {
    return this.projectedDofs.subarray(0, Math.max(0, this.projectedCount));
  }

  /** P for non-diagonal projections: the constraints' rows, identity rows elsewhere. */
  private emitProjection(g: GeneralProjection): void {
    const mask = g.rowMask;
    mask.fill(0);
    const caller = componentCall.current;
    for (const c of g.constraints) {
      g.acc.offset = c.offset;
      componentCall.current = c.pc;
      c.pc.addProjectionToMatrix(g.acc);
    }
    componentCall.current = caller;
    for (let r = 0; r < this.graph.size; r++) if (mask[r] === 0) g.asm.add(r, r, 1);
  }

  /** A ← P·A·P + (I − P), with P from the non-diagonal projections (P symmetric, P·P = P). */
  private applyGeneralProjection(g: GeneralProjection, A: CsrMatrix): CsrMatrix {
    g.asm.beginNumeric();
    this.emitProjection(g);
    if (!g.asm.endNumeric()) {
      g.asm.beginSymbolic();
      this.emitProjection(g);
      g.asm.endSymbolic();
    }
    const P = g.asm.matrix!;
    if (!g.plan || g.aVersion !== this.assembler.patternVersion || g.pVersion !== g.asm.patternVersion) {
      g.plan = new TripleProductPlan(P, A);
      g.product = g.plan.createOutput();
      for (let r = 0; r < this.graph.size; r++) g.diagSlots[r] = csrFindSlot(g.product, r, r);
      g.aVersion = this.assembler.patternVersion;
      g.pVersion = g.asm.patternVersion;
      g.version++;
    }
    const B = g.plan.compute(g.product!, P, A);
    // B += I − P (P's pattern lies inside B's: B_rc ∋ P_cr·A_cc·P_cc, A has its diagonal)
    csrAxpyInto(B, P, -1);
    for (let r = 0; r < this.graph.size; r++) B.values[g.diagSlots[r]] += 1;
    return B;
  }

  /** Groups touching mapped states: assemble H_g locally, then J_g0ᵀ·H_g·J_g0 with a fixed plan. */
  private prepareProjectedGroups(factors: MBKFactors): void {
    const caller = componentCall.current;
    for (const g of this.groups) {
      const p = g.projected;
      if (!p) continue;
      componentCall.current = g.component;
      const local = p.local;
      local.beginNumeric();
      g.emit(local, factors);
      if (!local.endNumeric()) {
        local.beginSymbolic();
        g.emit(local, factors);
        local.endSymbolic();
      }
      p.stack.refill();
      if (!p.plan || p.planVersion !== local.patternVersion) {
        p.plan = new TripleProductPlan(p.stack.matrix, local.matrix!);
        p.product = p.plan.createOutput();
        p.planVersion = local.patternVersion;
      }
      p.plan.compute(p.product!, p.stack.matrix, local.matrix!);
    }
    componentCall.current = caller;
  }

  private emitMBK(factors: MBKFactors): void {
    const acc = this.acc;
    const caller = componentCall.current;
    for (const g of this.groups) {
      componentCall.current = g.component;
      if (g.allMasters) {
        acc.map = this.globalIndexOf(g);
        g.emit(acc, factors);
        continue;
      }
      // Emit the projected product's entries (its pattern is fixed while its plan is).
      const P = g.projected!.product!;
      for (let r = 0; r < P.rows; r++) {
        for (let q = P.rowPtr[r]; q < P.rowPtr[r + 1]; q++) this.assembler.add(r, P.colInd[q], P.values[q]);
      }
    }
    if (this.withOutsideBlocks) this.emitOutsideBlocks(factors);
    componentCall.current = caller;
  }

  /**
   * SOFA's MatrixLinearSystem on an interaction force field with a state outside the solver's
   * subtree (the non-simulated side of a contact: its contact points are mapped from a state no
   * solver of this system owns). That state is neither a main state nor reachable from one, so
   * SOFA takes it for mapped without parents: for the pair (outside, inside) it projects the block
   * K_oi with the inside state's Jacobian only and adds K_oi·J at the position of the inside
   * state's top-most state, rows and columns alike (MappingGraph::getPositionInGlobalMatrix of the
   * pair of top-most states); likewise Jᵀ·K_io. The outside state's dof o thus lands on row (or
   * column) top + o of the global matrix, a coupling between the contact and whatever dof has that
   * number (the block K_oo is left out: the outside state has no top-most state). A dof past the
   * matrix (undefined behaviour in SOFA) is left out here, said once.
   * Only on request (assembleMBK's outsideBlocks, asked by BTDLinearSolver, where SOFA's reference
   * results confirm it): SOFA's source does the same for every assembled matrix, but nothing in the
   * corpus confirms it for the others, and it makes the matrix of a contact resting on a static
   * object indefinite (see docs/conformance.md).
   */
  private emitOutsideBlocks(factors: MBKFactors): void {
    const acc = this.outsideAcc;
    for (const r of this.graph.outside) {
      componentCall.current = r.ff;
      acc.bind(this, r);
      r.ff.addOutsideStateKToMatrix!(acc, r.ff.kFactorWithRayleigh(factors.k, factors.b));
      if (acc.dropped > 0 && !r.warned) {
        r.warned = true;
        r.ff.warn(
          `${acc.dropped} stiffness entries with the state outside the solver's system fall past the ${this.graph.size} rows of the system matrix (SOFA's MatrixLinearSystem writes them out of bounds); left out`,
        );
      }
    }
  }

  /** Adds value·J_s(d, ·) on row R (outside row) or, transposed, on column R. */
  addOutsideEntries(s: number, d: number, R: number, value: number, asRow: boolean): boolean {
    if (R >= this.graph.size) return false;
    const J = this.graph.jacobians[s].J;
    for (let q = J.rowPtr[d]; q < J.rowPtr[d + 1]; q++) {
      const g = J.colInd[q],
        w = value * J.values[q];
      if (asRow) this.assembler.add(R, g, w);
      else this.assembler.add(g, R, w);
    }
    return true;
  }

  /**
   * Clears rows and columns of projected dofs, 1 on their diagonal. The entries it writes are
   * listed once per pattern and set of projected dofs (`projectionSlots`), so a step only writes them.
   */
  private applyProjectionToMatrix(A: CsrMatrix): void {
    const changed = this.collectProjectedDofs();
    const ps = this.projectionSlots;
    if (changed || ps.matrix !== A || ps.colInd !== A.colInd) this.projectionSlots = projectionSlotsOf(A, this.projectedMask);
    const { zero, one } = this.projectionSlots;
    const values = A.values;
    for (let k = 0; k < zero.length; k++) values[zero[k]] = 0;
    for (let k = 0; k < one.length; k++) values[one[k]] = 1;
  }

  /** Lists the projected dofs of this step (mask and projectedDofs); true when the list changed. */
  private collectProjectedDofs(): boolean {
    const mask = this.projectedMask;
    const list = this.projected;
    mask.fill(0);
    let dofs = this.projectedDofs;
    let count = 0;
    let changed = false;
    const caller = componentCall.current;
    for (const e of this.graph.constraints) {
      list.length = 0;
      componentCall.current = e.pc;
      e.pc.projectedDofs(list);
      const off = this.graph.states[e.state].offset;
      for (const i of list) {
        const g = off + i;
        mask[g] = 1;
        if (count === dofs.length) {
          const grown = new Int32Array(Math.max(16, 2 * count));
          grown.set(dofs);
          dofs = this.projectedDofs = grown;
        }
        if (dofs[count] !== g) {
          dofs[count] = g;
          changed = true;
        }
        count++;
      }
    }
    componentCall.current = caller;
    if (count !== this.projectedCount) changed = true;
    this.projectedCount = count;
    return changed;
  }
}

/** The entries of a matrix in the rows or columns of projected dofs: set to 0, or to 1 on the diagonal. */
interface ProjectionSlots {
  matrix: CsrMatrix | undefined;
  colInd: Int32Array | undefined;
  zero: Int32Array;
  one: Int32Array;
}

function projectionSlotsOf(A: CsrMatrix, mask: Uint8Array): ProjectionSlots {
  const { rowPtr, colInd } = A;
  const zero: number[] = [];
  const one: number[] = [];
  for (let r = 0; r < A.rows; r++) {
    const rowMasked = mask[r] === 1;
    for (let p = rowPtr[r]; p < rowPtr[r + 1]; p++) {
      const c = colInd[p];
      if (rowMasked || mask[c] === 1) (r === c ? one : zero).push(p);
    }
  }
  return { matrix: A, colInd, zero: Int32Array.from(zero), one: Int32Array.from(one) };
}
