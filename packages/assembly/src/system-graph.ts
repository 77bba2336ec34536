import {
  type BaseMapping,
  type BaseProjectiveConstraint,
  type BaseMechanicalState,
  type BaseObject,
  type Node,
  formatLocation,
  SofaError,
  isBaseMapping,
  isCompliance,
  isForceField,
  isMass,
  isMechanicalState,
  isOdeSolver,
  isProjectiveConstraint,
  integratingSolverNode,
} from '@sofa-ts/core';
import type { CsrMatrix } from '@sofa-ts/linalg';
import { MappedJacobian, type ParentJacobian } from './mapped-jacobian.js';
import { mechanicalMappingOrder } from './mapping-order.js';
import { shiftMatrix } from './shift.js';
import {
  ConstraintRecord,
  EmitterRecord,
  ForceFieldRecord,
  MappingRecord,
  MassRecord,
  OutsideRecord,
  StateRecord,
  type MappingEntry,
  type MatrixEmitter,
  type SystemState,
} from './system-state.js';

/**
 * The compiled graph of a solver's subtree, the first of MechanicalSystem's jobs: its states
 * (masters with their offsets in the global vectors x, v, f, dx, whose views they become; mapped
 * states after them in mapping order), its mappings in dependency order, its masses, force fields
 * and projective constraints wired to the states they act on, the components emitting matrices in
 * SOFA's visit order, and the full Jacobian J_c0 = Σ_p J_cp·J_p0 of every state.
 */
export class SystemGraph {
  readonly states: SystemState[] = [];
  readonly masters: SystemState[] = [];
  readonly mappedStates: SystemState[] = [];
  /**
   * Inputs of this subtree's mappings that another ODE solver integrates (or none does): SOFA's
   * solver visits only its own subtree, so such a state is a boundary of this system — its
   * positions and velocities are read, its J_s0 is zero (this solve does not move it) and the
   * forces mapped onto it are not applied (SOFA writes them into a vector its own solver resets).
   * After the mapped states in `states`, flagged `mapped` (reached through their J_s0).
   */
  readonly boundaryStates: SystemState[] = [];
  /** Mechanical mappings in dependency order (parents before children). */
  readonly mappings: MappingEntry[] = [];
  readonly forceFields: ForceFieldRecord[] = [];
  readonly masses: MassRecord[] = [];
  readonly constraints: ConstraintRecord[] = [];
  /** Masses, force fields, then non-linear mappings' geometric stiffness: the terms of the assembled matrix, in assembly order. */
  readonly emitters: MatrixEmitter[] = [];
  /** Force fields with blocks on a state outside the system (see MBKAssembly's emitOutsideBlocks). */
  readonly outside: OutsideRecord[] = [];
  /** Per state, its full Jacobian J_s0 (a shift matrix for a master), refreshed for non-linear mappings. */
  readonly jacobians: Array<ParentJacobian & { refresh?: () => void }> = [];
  anyNonLinear = false;
  /** Number of scalar dofs (derivative layout). */
  readonly size: number;
  readonly coordSize: number;
  readonly x: Float64Array;
  readonly v: Float64Array;
  readonly f: Float64Array;
  readonly dx: Float64Array;
  /** root.subtreeRevision and root.topologyRevision when the graph was compiled. */
  readonly revision: number;
  readonly topologyRevision: number;

  private constructor(
    readonly root: Node,
    masters: BaseMechanicalState[],
    mapped: BaseMechanicalState[],
    boundary: BaseMechanicalState[],
  ) {
    this.revision = root.subtreeRevision;
    this.topologyRevision = root.topologyRevision;
    let offset = 0;
    let coordOffset = 0;
    for (const state of masters) {
      const derivLength = state.size * state.stateType.derivSize;
      const coordLength = state.size * state.stateType.coordSize;
      const s = new StateRecord(state, this.states.length, false, offset, coordOffset, derivLength, coordLength);
      this.states.push(s);
      this.masters.push(s);
      offset += derivLength;
      coordOffset += coordLength;
    }
    for (const state of mapped) {
      const s = new StateRecord(
        state,
        this.states.length,
        true,
        -1,
        -1,
        state.size * state.stateType.derivSize,
        state.size * state.stateType.coordSize,
      );
      this.states.push(s);
      this.mappedStates.push(s);
    }
    for (const state of boundary) {
      const s = new StateRecord(
        state,
        this.states.length,
        true,
        -1,
        -1,
        state.size * state.stateType.derivSize,
        state.size * state.stateType.coordSize,
      );
      this.states.push(s);
      this.boundaryStates.push(s);
    }
    this.size = offset;
    this.coordSize = coordOffset;
    this.x = new Float64Array(coordOffset);
    this.v = new Float64Array(offset);
    this.f = new Float64Array(offset);
    this.dx = new Float64Array(offset);
    for (const m of this.masters) {
      m.state.bindStorage({
        x: this.x.subarray(m.coordOffset, m.coordOffset + m.coordLength),
        v: this.v.subarray(m.offset, m.offset + m.derivLength),
        f: this.f.subarray(m.offset, m.offset + m.derivLength),
        dx: this.dx.subarray(m.offset, m.offset + m.derivLength),
      });
    }
  }

  /**
   * Compiles the subtree of `root` as its solver sees it: SOFA's solver traverses its whole subtree,
   * the nodes holding ODE solvers of their own included (those solvers are never run: SOFA's solve
   * visitor stops at the first solver node). States that are the output of a mechanical mapping
   * are mapped; all others are masters.
   */
  static compile(root: Node): SystemGraph {
    const nodes: Node[] = [];
    root.visit((n) => {
      if (!n.activated.value) return false;
      if (n !== root) warnNestedSolvers(n, root);
      nodes.push(n);
      return true;
    });
    checkSharedNodes(root, nodes);
    const allStates: BaseMechanicalState[] = [];
    const mappingList: BaseMapping[] = [];
    for (const n of nodes) {
      for (const o of n.objects) {
        if (isMechanicalState(o)) allStates.push(o);
        else if (isBaseMapping(o) && o.getTo() !== undefined) {
          if (!o.isMechanical.value)
            o.warnAbout(
              o.isMechanical,
              'isMechanical=false is not honoured for a mapping to a mechanical state: sofa-ts maps its forces and velocities as for a mechanical mapping',
              'a mapping used only to place points can map to a visual model (OglModel), or its output state can be left out of the solver',
            );
          mappingList.push(o);
        }
      }
    }
    // A state has one input mapping: a second one would map it twice (positions overwritten,
    // forces sent up twice) and the state would be compiled twice.
    const producer = new Map<BaseMechanicalState, BaseMapping>();
    for (const m of mappingList) {
      const first = producer.get(m.getTo()!);
      if (first)
        throw m.error(
          `${m.getTo()!.describe()} is already the output of ${first.describe()}${first.loc ? ` (${formatLocation(first.loc)})` : ''}: a state has a single input mapping`,
          'remove one of the two mappings',
        );
      producer.set(m.getTo()!, m);
    }
    const outputs = new Set(mappingList.map((m) => m.getTo()!));
    const masters = allStates.filter((s) => !outputs.has(s));
    const boundary = boundaryInputs(root, mappingList, new Set(allStates));
    const ordered = mechanicalMappingOrder(mappingList, [...masters, ...boundary], (m, missing) =>
      m.error(`input ${missing.describe()} is not a state of the solver at ${root.path} (or the mappings form a cycle)`),
    );
    const graph = new SystemGraph(
      root,
      masters,
      ordered.map((m) => m.getTo()!),
      boundary,
    );
    graph.wire(nodes, ordered);
    return graph;
  }

  /**
   * True when objects or nodes were added to or removed from the subtree since the graph was
   * compiled (e.g. contact force fields of the collision response), or when a topology of the
   * subtree changed (states resized, elements removed or added: every pattern is rebuilt), or a
   * boundary state was resized.
   */
  get isStale(): boolean {
    if (this.root.subtreeRevision !== this.revision || this.root.topologyRevision !== this.topologyRevision) return true;
    // a boundary state's topology is another subtree's: its size is what the mappings' Jacobians depend on
    for (const b of this.boundaryStates) if (b.state.size * b.state.stateType.derivSize !== b.derivLength) return true;
    return false;
  }

  /**
   * True when the diagonal projective constraint `pc` on mapped state `s` zeroes only dofs whose
   * rows of the mapping's Jacobians are structurally empty (dofs the mapping never moves, such as
   * the fixed base of an ArticulatedSystemMapping): then P·J = J and projecting changes nothing.
   */
  private projectsOnlyFixedDofs(pc: BaseProjectiveConstraint, s: number): boolean {
    if (!pc.isDiagonalProjection || pc.getCoupledStates().length > 0) return false;
    const rec = this.mappings.find((m) => m.output === s);
    if (!rec) return false;
    const dofs: number[] = [];
    pc.projectedDofs(dofs);
    for (let k = 0; k < rec.inputs.length; k++) {
      const J = rec.mapping.getJ(k);
      for (const r of dofs) if (r >= J.rows || J.rowPtr[r + 1] > J.rowPtr[r]) return false;
    }
    return true;
  }

  private wire(nodes: Node[], mappings: BaseMapping[]): void {
    const index = new Map<BaseMechanicalState, number>();
    for (const s of this.states) index.set(s.state, s.index);
    // A component acts on states of this solver's subtree (its own node's, or an ancestor's inside
    // the subtree); a state above the solver's node is integrated by nobody here.
    const stateIndex = (s: BaseMechanicalState, who: BaseObject): number => {
      const i = index.get(s);
      if (i === undefined)
        throw who.error(
          `acts on ${s.describe()}, which is not a state of the solver at ${this.root.path}`,
          'put the ODE solver in the node of the state or above it',
        );
      return i;
    };
    // a mapping may read a boundary state; the other components act on the system's own states
    const inputIndex = new Map(index);
    for (const b of this.boundaryStates) {
      inputIndex.set(b.state, b.index);
      index.delete(b.state);
    }
    for (const m of mappings) {
      const inputs = m.getFrom().map((s) => inputIndex.get(s) ?? stateIndex(s, m));
      this.mappings.push(new MappingRecord(m, inputs, stateIndex(m.getTo()!, m)));
    }
    for (const n of nodes) {
      for (const o of n.objects) {
        if (isMass(o)) {
          const s = stateIndex(o.getMechanicalState(), o);
          this.masses.push(new MassRecord(o, s));
          this.emitters.push(new EmitterRecord(o, [s], (acc, f) => o.addMToMatrix(acc, f.m)));
        } else if (isForceField(o)) {
          const ss = o.getMechanicalStates().map((st) => stateIndex(st, o));
          if (isCompliance(o)) o.setStateIsMapped(ss.length === 1 && this.states[ss[0]].mapped);
          this.forceFields.push(new ForceFieldRecord(o, ss));
          this.emitters.push(new EmitterRecord(o, ss, (acc, f) => o.addKBToMatrix(acc, f.k, f.b)));
          if (o.addOutsideStateKToMatrix) this.outside.push(new OutsideRecord(o, ss, []));
        } else if (isProjectiveConstraint(o)) {
          const own = o.getMechanicalState();
          const s = stateIndex(own, o);
          if (this.states[s].mapped) {
            if (!this.projectsOnlyFixedDofs(o, s)) throw o.error('projective constraints on mapped states are not supported');
            // P·J = J: the projection changes nothing a solve could move (SOFA projects the mapped vectors to the same effect)
            o.warn(
              `acts on the mapped state ${own.describe()} on dofs that do not depend on its mapping's inputs: it changes nothing there, and is left out of the solve`,
            );
            continue;
          }
          // a two-way constraint also projects the vectors of its coupled states
          const coupled = o.getCoupledStates().map((st) => stateIndex(st, o));
          for (const c of coupled) if (this.states[c].mapped) throw o.error('projective constraints on mapped states are not supported');
          this.constraints.push(
            new ConstraintRecord(o, s, coupled.length > 0 ? { states: coupled, views: coupled.map(() => this.x) } : undefined),
          );
        }
      }
    }
    for (const e of this.mappings) {
      if (e.mapping.isLinear) continue;
      const child = this.states[e.output].state;
      this.emitters.push(new EmitterRecord(e.mapping, e.inputs, (acc, f) => e.mapping.addGeometricStiffness(acc, child.f, f.k)));
    }
    // Full Jacobians of mapped states, parents before children.
    for (const s of this.masters) this.jacobians[s.index] = { J: shiftMatrix(s.derivLength, this.size, s.offset) };
    for (const s of this.boundaryStates) this.jacobians[s.index] = { J: emptyMatrix(s.derivLength, this.size) };
    for (const e of this.mappings) {
      this.checkJacobianShapes(e);
      const mj = new MappedJacobian(
        (i) => e.mapping.getJ(i) as CsrMatrix,
        e.inputs.map((i) => this.jacobians[i]),
      );
      this.jacobians[e.output] = { J: mj.J, refresh: () => mj.refresh() };
    }
    for (let k = 0; k < this.outside.length; k++) {
      const r = this.outside[k];
      this.outside[k] = new OutsideRecord(
        r.ff,
        r.states,
        r.states.map((s) => this.topMasterOffsets(s)),
      );
    }
    this.anyNonLinear = this.mappings.some((e) => !e.mapping.isLinear);
  }

  /** Offsets of the masters a state depends on (the column ranges its full Jacobian's pattern reaches). */
  private topMasterOffsets(s: number): number[] {
    const J = this.jacobians[s].J;
    const out: number[] = [];
    for (const m of this.masters) {
      let hit = false;
      for (let q = 0; q < J.rowPtr[J.rows] && !hit; q++) {
        const c = J.colInd[q];
        if (c >= m.offset && c < m.offset + m.derivLength) hit = true;
      }
      if (hit) out.push(m.offset);
    }
    return out;
  }

  /** A mapping's J_cp must be (output dofs × input dofs): said at the mapping, not deep in a sparse product. */
  private checkJacobianShapes(e: MappingEntry): void {
    const out = this.states[e.output];
    for (let k = 0; k < e.inputs.length; k++) {
      const input = this.states[e.inputs[k]];
      const J = e.mapping.getJ(k);
      if (J.rows === out.derivLength && J.cols === input.derivLength) continue;
      throw e.mapping.error(
        `its Jacobian for input ${k} is ${J.rows}×${J.cols}, but ${out.state.describe()} has ${out.derivLength} dofs and ${input.state.describe()} ${input.derivLength}`,
        'the states changed size after the mapping was initialised, or the mapping does not fit them',
      );
    }
  }
}

/** A rows × cols matrix with no entries: the J_s0 of a boundary state. */
function emptyMatrix(rows: number, cols: number): CsrMatrix {
  return { rows, cols, rowPtr: new Int32Array(rows + 1), colInd: new Int32Array(0), values: new Float64Array(0) };
}

/**
 * The inputs of the subtree's mappings that are neither its states nor outputs of its mappings: in
 * SOFA the solver at `root` reads them without integrating them (another solver does, or none).
 * Each mapping that reads one says so once, since this solve does not carry its response to them.
 */
function boundaryInputs(root: Node, mappings: readonly BaseMapping[], own: ReadonlySet<BaseMechanicalState>): BaseMechanicalState[] {
  const outputs = new Set(mappings.map((m) => m.getTo()!));
  const found: BaseMechanicalState[] = [];
  for (const m of mappings) {
    for (const input of m.getFrom()) {
      if (own.has(input) || outputs.has(input) || found.includes(input) || !input.hasContext) continue;
      found.push(input);
      const owner = integratingSolverNode(input.context);
      m.warn(
        `input ${input.describe()} is outside the subtree of the solver at ${root.path}${owner ? `, which integrates the mapping: it is integrated by the solver at ${owner.path}` : ' and no ODE solver integrates it'}. As in SOFA, the solver at ${root.path} reads its positions and velocities (current when this solver runs) but does not move it in its solve, and the forces mapped onto it are not applied to it; constraints (contacts) reach it through their correction`,
        'put both inputs under one ODE solver (at a common ancestor node) for a two-way implicit coupling',
      );
    }
  }
  return found;
}

/**
 * A solver below the one that compiles `root` is never run (SOFA's solve visitor stops at the first
 * solver node, whose solver traverses the subtree): said once at each such solver.
 */
function warnNestedSolvers(n: Node, root: Node): void {
  for (const o of n.objects)
    if (isOdeSolver(o))
      o.warn(
        `is below the ODE solver at ${root.path}, which integrates this node as in SOFA (whose solve visitor runs the first solver it meets and does not descend): this solver is not run`,
        'remove it, or move the states it should integrate out of the other solver’s subtree',
      );
}

/**
 * A node with several parents (SOFA's DAG) is integrated by the solver whose subtree it is in; when
 * another of its parents is in the subtree of a second ODE solver, both solvers' visitors would reach
 * it (SOFA integrates it twice): refused, as sofa-ts gives a state to one mechanical system.
 */
function checkSharedNodes(root: Node, nodes: readonly Node[]): void {
  const inSystem = new Set(nodes);
  for (const n of nodes) {
    if (n.parents.length < 2 || n === root) continue;
    for (const p of n.parents) {
      if (inSystem.has(p)) continue;
      const other = integratingSolverNode(p);
      if (other === root) continue;
      if (other)
        throw new SofaError(
          `Node '${n.path}' has parents in the subtrees of two ODE solvers (at ${root.path} and at ${other.path}): both would integrate it`,
          { loc: n.loc, hint: 'put its parents under one ODE solver' },
        );
    }
  }
}
