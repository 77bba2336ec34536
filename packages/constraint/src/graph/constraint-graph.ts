import {
  componentCall,
  isBaseMapping,
  isLagrangianConstraint,
  isMechanicalState,
  runningOdeSolvers,
  isProjectiveConstraint,
  type BaseLagrangianConstraint,
  type BaseMapping,
  type BaseMechanicalState,
  type BaseOdeSolver,
  type BaseProjectiveConstraint,
  type ConstraintJacobianBuilder,
  type ConstraintOrder,
  type Node,
  type SparseMatrixLike,
} from '@sofa-ts/core';
import { mechanicalMappingOrder } from '@sofa-ts/assembly';
import { StateRows } from './state-rows.js';

/** One mechanical state of the scene as the constraint machinery sees it. */
export interface GraphState {
  readonly state: BaseMechanicalState;
  readonly index: number;
  /** Output of a mechanical mapping. */
  readonly mapped: boolean;
  /** derivSize, coordSize. */
  readonly d: number;
  readonly c: number;
  /** Constraint rows of the step (J restricted to this state). */
  readonly rows: StateRows;
  /** (size × coordSize), (size × derivSize): x and v before the free motion. */
  savedX: Float64Array;
  savedV: Float64Array;
  /** Projective constraints acting on this state. */
  readonly projectives: BaseProjectiveConstraint[];
}

interface GraphMapping {
  readonly mapping: BaseMapping;
  readonly inputs: readonly number[];
  readonly output: number;
  /** Per input, its arrays for applyJ (refilled per call). */
  readonly ins: Float64Array[];
}

/**
 * The whole scene as the constraint resolution sees it (SOFA's mechanical visitors over the root):
 * every mechanical state (visit order), the mechanical mappings in dependency order (parents
 * before children), the Lagrangian constraints in visit order (a node's objects before its
 * children), the projective constraints, and the top-most ODE solvers. Compiled again when the
 * graph changes (root.subtreeRevision), e.g. when the collision response adds contact constraints.
 */
export class ConstraintGraph implements ConstraintJacobianBuilder {
  readonly states: GraphState[] = [];
  readonly mappings: GraphMapping[] = [];
  readonly constraints: BaseLagrangianConstraint[] = [];
  readonly odeSolvers: BaseOdeSolver[] = [];
  /** Every object of the active graph in visit order (for component searches by the loop). */
  readonly objects: unknown[] = [];
  private readonly byState = new Map<BaseMechanicalState, GraphState>();
  /** Scratch of the Jacobian accumulation: per state (derivative layout), and a point stamp. */
  private readonly scratch: Float64Array[] = [];
  private readonly stamp: Int32Array[] = [];
  private touched = new Int32Array(16);
  private stampCounter = 0;
  /** Incremented by every buildJacobian: what was computed from the rows before is stale after it. */
  jacobianVersion = 0;

  private constructor(
    readonly root: Node,
    readonly revision: number,
  ) {}

  static compile(root: Node): ConstraintGraph {
    const g = new ConstraintGraph(root, root.subtreeRevision);
    const nodes: Node[] = [];
    root.visit((n) => {
      if (!n.activated.value) return false;
      nodes.push(n);
      return true;
    });
    // top-most ODE solvers, in visit order (SOFA's SolveVisitor)
    g.odeSolvers.push(...runningOdeSolvers(root));
    const allStates: BaseMechanicalState[] = [];
    const mappingList: BaseMapping[] = [];
    for (const n of nodes) {
      for (const o of n.objects) {
        g.objects.push(o);
        if (isMechanicalState(o)) allStates.push(o);
        else if (isBaseMapping(o) && o.getTo() !== undefined) mappingList.push(o);
        else if (isLagrangianConstraint(o) && o.componentState !== 'invalid') g.constraints.push(o);
      }
    }
    const outputs = new Set(mappingList.map((m) => m.getTo()!));
    for (const s of allStates) g.addState(s, outputs.has(s));
    // dependency order: a mapping after the mappings producing its inputs (the engine's order)
    const masters = allStates.filter((s) => !outputs.has(s));
    const ordered = mechanicalMappingOrder(mappingList, masters, (m) =>
      m.error('its inputs are not mechanical states of the scene (or the mappings form a cycle)'),
    );
    for (const m of ordered) {
      const inputs = m.getFrom().map((s) => g.require(s).index);
      g.mappings.push({ mapping: m, inputs, output: g.require(m.getTo()!).index, ins: inputs.map(() => new Float64Array(0)) });
    }
    for (const n of nodes) {
      for (const o of n.objects) {
        if (isProjectiveConstraint(o)) g.byState.get(o.getMechanicalState())?.projectives.push(o);
      }
    }
    return g;
  }

  private addState(state: BaseMechanicalState, mapped: boolean): void {
    const t = state.stateType;
    const gs: GraphState = {
      state,
      index: this.states.length,
      mapped,
      d: t.derivSize,
      c: t.coordSize,
      rows: new StateRows(t.derivSize),
      savedX: new Float64Array(state.size * t.coordSize),
      savedV: new Float64Array(state.size * t.derivSize),
      projectives: [],
    };
    this.states.push(gs);
    this.byState.set(state, gs);
    this.scratch.push(new Float64Array(state.size * t.derivSize));
    this.stamp.push(new Int32Array(state.size).fill(-1));
  }

  /** root.topologyRevision when the graph was compiled. */
  private readonly topologyRevision = this.root.topologyRevision;

  /** True when the scene graph or a topology of it changed since this graph was compiled. */
  get isStale(): boolean {
    return this.root.subtreeRevision !== this.revision || this.root.topologyRevision !== this.topologyRevision;
  }

  get(state: BaseMechanicalState): GraphState | undefined {
    return this.byState.get(state);
  }

  require(state: BaseMechanicalState): GraphState {
    const s = this.byState.get(state);
    if (!s) throw new Error(`${state.describe()} is not an active mechanical state of the scene`);
    return s;
  }

  /** The constraint rows of a state for the current step. */
  rowsOf(state: BaseMechanicalState): StateRows {
    return this.require(state).rows;
  }

  // ---- free motion ------------------------------------------------------------------------------

  /**
   * Sizes the free vectors of every state (kept when the size is right; new ones start as copies
   * of x and v). Returns the states whose free vectors were just created.
   */
  ensureFreeVectors(): GraphState[] {
    const fresh: GraphState[] = [];
    for (const s of this.states) {
      const st = s.state;
      const nc = st.size * s.c,
        nd = st.size * s.d;
      if (st.xFree.length !== nc || st.vFree.length !== nd) {
        st.xFree = Float64Array.from(st.x);
        st.vFree = Float64Array.from(st.v);
        fresh.push(s);
      }
      if (s.savedX.length !== nc) s.savedX = new Float64Array(nc);
      if (s.savedV.length !== nd) s.savedV = new Float64Array(nd);
    }
    return fresh;
  }

  /**
   * Free motion of mapped states created after the free motion (e.g. by the collision response)
   * that did not fill their free vectors: v_free = J·v_free of their inputs, x_free = x ⊕ dt·v_free.
   */
  propagateFreeMotionTo(fresh: readonly GraphState[], dt: number, order: ConstraintOrder): void {
    const set = new Set(fresh.map((s) => s.index));
    const caller = componentCall.current;
    for (const m of this.mappings) {
      if (!set.has(m.output)) continue;
      const out = this.states[m.output].state;
      for (let k = 0; k < m.inputs.length; k++) m.ins[k] = this.states[m.inputs[k]].state.vFree;
      componentCall.current = m.mapping;
      m.mapping.applyJ(out.vFree, m.ins);
      if (order !== 'vel') out.stateType.addDerivToCoord(out.xFree, out.x, out.vFree, dt, out.size);
    }
    componentCall.current = caller;
  }

  /** x ← x ⊕ dt·v on the masters (the velocity-only constraint order). */
  integrateVelocities(dt: number): void {
    for (const s of this.states) {
      if (s.mapped) continue;
      const st = s.state;
      st.stateType.addDerivToCoord(st.x, st.x, st.v, dt, st.size);
    }
  }

  /** Keeps x and v of every state (before the ODE solvers run in free motion). */
  saveStates(): void {
    for (const s of this.states) {
      s.savedX.set(s.state.x);
      s.savedV.set(s.state.v);
    }
  }

  /**
   * After the ODE solvers: their result becomes the free motion (xFree, vFree) and
   * x, v go back to the start of the step, mapped states included (mappings applied again, so that
   * their Jacobians are those of the start of the step, as in SOFA where the free motion never
   * touches the position vectors).
   */
  takeFreeMotion(): void {
    for (const s of this.states) {
      const st = s.state;
      st.xFree.set(st.x);
      st.vFree.set(st.v);
      st.x.set(s.savedX);
      st.v.set(s.savedV);
    }
    this.propagatePositionsAndVelocities();
  }

  /**
   * SOFA's free motion epilogue: vFree ← P·vFree on the masters, mapped free
   * velocities J·v_free (parents first), then xFree = x ⊕ dt·vFree for every state.
   */
  propagateFreeMotion(dt: number, order: ConstraintOrder): void {
    const caller = componentCall.current;
    for (const s of this.states) {
      if (s.mapped) continue;
      for (const pc of s.projectives) {
        componentCall.current = pc;
        pc.projectResponse(s.state.vFree);
      }
    }
    for (const m of this.mappings) {
      for (let k = 0; k < m.inputs.length; k++) m.ins[k] = this.states[m.inputs[k]].state.vFree;
      componentCall.current = m.mapping;
      m.mapping.applyJ(this.states[m.output].state.vFree, m.ins);
    }
    componentCall.current = caller;
    if (order === 'vel') return;
    for (const s of this.states) {
      const st = s.state;
      st.stateType.addDerivToCoord(st.xFree, st.x, st.vFree, dt, st.size);
    }
  }

  /** x of mapped states from their inputs (apply) and v = J·v, parents first. */
  propagatePositionsAndVelocities(): void {
    const caller = componentCall.current;
    for (const m of this.mappings) {
      componentCall.current = m.mapping;
      m.mapping.apply();
      for (let k = 0; k < m.inputs.length; k++) m.ins[k] = this.states[m.inputs[k]].state.v;
      m.mapping.applyJ(this.states[m.output].state.v, m.ins);
    }
    componentCall.current = caller;
    for (const s of this.states) if (s.mapped) s.state.touch();
  }

  /** SOFA's projectPositionAndVelocity on the masters. */
  projectPositionsAndVelocities(): void {
    const caller = componentCall.current;
    for (const s of this.states) {
      if (s.mapped) continue;
      for (const pc of s.projectives) {
        componentCall.current = pc;
        pc.projectPosition(s.state.x);
        pc.projectVelocity(s.state.v);
      }
    }
    componentCall.current = caller;
  }

  // ---- constraint rows --------------------------------------------------------------------------

  add(state: BaseMechanicalState, row: number, point: number, values: ArrayLike<number>, scale = 1): void {
    this.require(state).rows.add(row, point, values, scale);
  }

  /**
   * J of the step: every constraint writes its rows (SOFA's MechanicalBuildConstraintMatrix), rows
   * of mapped states are carried to their inputs by Jᵀ, children first (SOFA's
   * MechanicalAccumulateMatrixDeriv), then projected by the projective constraints of the masters
   * (SOFA's MechanicalProjectJacobianMatrixVisitor). Returns the number of rows.
   */
  buildJacobian(order: ConstraintOrder, time: number, active: BaseLagrangianConstraint[]): number {
    this.jacobianVersion++;
    for (const s of this.states) s.rows.clear();
    let n = 0;
    active.length = 0;
    const caller = componentCall.current;
    for (const c of this.constraints) {
      componentCall.current = c;
      if (!c.isActiveAt(time)) continue;
      c.constraintIndex.value = n;
      n += c.buildConstraintMatrix(this, n, order);
      active.push(c);
    }
    componentCall.current = caller;
    // children first: a mapped state's rows are complete before they go to its parents
    for (let i = this.mappings.length - 1; i >= 0; i--) {
      const m = this.mappings[i];
      const child = this.states[m.output];
      child.rows.compress();
      if (child.rows.nRows === 0) continue;
      for (let k = 0; k < m.inputs.length; k++) {
        this.accumulate(child.rows, m.mapping.getJ(k), this.states[m.inputs[k]]);
      }
    }
    for (const s of this.states) {
      if (s.mapped) continue;
      s.rows.compress();
      if (s.projectives.length > 0 && s.rows.nRows > 0) this.projectRows(s);
    }
    return n;
  }

  /** parent rows += child rows · J (J: child derivatives × parent derivatives). */
  private accumulate(child: StateRows, J: SparseMatrixLike, parent: GraphState): void {
    const dc = child.d,
      dp = parent.d;
    const acc = this.scratch[parent.index];
    const mark = this.stamp[parent.index];
    if (this.touched.length < mark.length) this.touched = new Int32Array(mark.length);
    const touched = this.touched;
    for (let k = 0; k < child.nRows; k++) {
      const stamp = ++this.stampCounter;
      let nt = 0;
      for (let e = child.rowPtr[k]; e < child.rowPtr[k + 1]; e++) {
        const p = child.points[e];
        for (let a = 0; a < dc; a++) {
          const val = child.values[e * dc + a];
          if (val === 0) continue;
          const r = p * dc + a;
          for (let q = J.rowPtr[r]; q < J.rowPtr[r + 1]; q++) {
            const col = J.colInd[q];
            const pp = (col / dp) | 0;
            if (mark[pp] !== stamp) {
              mark[pp] = stamp;
              touched[nt++] = pp;
            }
            acc[col] += val * J.values[q];
          }
        }
      }
      const list = touched.subarray(0, nt);
      list.sort();
      const row = child.rowIds[k];
      for (let t = 0; t < nt; t++) {
        const pp = list[t];
        parent.rows.add(row, pp, acc, 1, pp * dp);
        acc.fill(0, pp * dp, pp * dp + dp);
      }
    }
  }

  /** Rows of a master projected by its projective constraints (entries keep their points). */
  private projectRows(s: GraphState): void {
    const rows = s.rows;
    const d = s.d;
    const buf = this.scratch[s.index];
    for (let k = 0; k < rows.nRows; k++) {
      const e0 = rows.rowPtr[k],
        e1 = rows.rowPtr[k + 1];
      for (let e = e0; e < e1; e++) {
        const o = rows.points[e] * d;
        for (let a = 0; a < d; a++) buf[o + a] = rows.values[e * d + a];
      }
      for (const pc of s.projectives) pc.projectResponse(buf);
      for (let e = e0; e < e1; e++) {
        const o = rows.points[e] * d;
        for (let a = 0; a < d; a++) {
          rows.values[e * d + a] = buf[o + a];
          buf[o + a] = 0;
        }
      }
    }
  }
}
