import {
  type BaseCompliance,
  type BaseObject,
  type BaseForceField,
  type BaseMapping,
  type BaseMass,
  type BaseMechanicalState,
  type BaseProjectiveConstraint,
  type MatrixAccumulator,
  type Node,
  type OutsideStateAccumulator,
  formatLocation,
  componentCall,
  isBaseMapping,
  isCompliance,
  isForceField,
  isMass,
  isMechanicalState,
  isOdeSolver,
  isProjectiveConstraint,
  upperBlockIndex,
} from '@sofa-ts/core';
import { FixedPatternAssembler, TripleProductPlan, createCsr, csrAxpyInto, csrFindSlot, spgemmNumeric, spgemmSymbolic, type CgKernel, type CsrMatrix } from '@sofa-ts/linalg';
import { ConstraintAssembly, type CompliantState } from './constraint-rows.js';
import { MappedJacobian, type ParentJacobian } from './mapped-jacobian.js';
import { MatrixFreeKernel } from './matrix-free-kernel.js';
import { RowStack, shiftMatrix } from './shift.js';

/** Factors of the linear combination A = m·M + b·B + k·K a solver asks for. */
export interface MBKFactors {
  readonly m: number;
  readonly b: number;
  readonly k: number;
}

/**
 * The assembled KKT system of a step (see core's KKTSystem): H with the solver's factors and the
 * projection applied, J and J·P (n × m), C·cFactor (n × n), P (m × m) and the violations φ (n).
 * Every matrix is owned by the system and refilled in place by the next `assembleKKT`.
 */
export interface AssembledKKT {
  readonly m: number;
  readonly n: number;
  readonly dt: number;
  readonly H: CsrMatrix;
  readonly J: CsrMatrix;
  readonly JP: CsrMatrix;
  readonly C: CsrMatrix;
  readonly P: CsrMatrix;
  readonly phi: Float64Array;
  readonly isPIdentity: boolean;
  readonly constraints: readonly CompliantState[];
  /** Changes whenever the pattern of H, J, JP, C or P changed. */
  readonly patternVersion: number;
}

/** A mechanical state of the system: a master (independent dofs) or a mapped one. */
export interface SystemState {
  readonly state: BaseMechanicalState;
  /** Index in `states` (masters first, then mapped states in mapping order). */
  readonly index: number;
  readonly mapped: boolean;
  /** Masters: first index in global derivative vectors (v, f, dx), i.e. its shift J_a0 = [0 … I … 0]. */
  readonly offset: number;
  /** Masters: first index in global coordinate vectors (x). */
  readonly coordOffset: number;
  /** size × derivSize */
  readonly derivLength: number;
  /** size × coordSize */
  readonly coordLength: number;
}

/** Masters keep their historical name for solvers that only deal with independent dofs. */
export type MasterState = SystemState;

/**
 * Components whose matrices act on a set of states: a mass or a force field on its states, or the
 * geometric stiffness of a mapping on its inputs. Local indices run over the concatenated states.
 */
interface Group {
  /** The mass, force field or mapping that emits it (for error reports). */
  readonly component: BaseObject;
  readonly states: readonly number[];
  readonly emit: (acc: MatrixAccumulator, f: MBKFactors) => void;
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
interface GeneralProjection {
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

interface MappingEntry {
  readonly mapping: BaseMapping;
  /** Indices into `states` of its inputs, and of its output. */
  readonly inputs: readonly number[];
  readonly output: number;
}

// The records of a compiled system are made by constructors, not object literals: from its second
// evaluation on, V8 copies an object literal from a boilerplate, which turns the fields of its shape
// from constant to mutable and throws away the step code compiled against the first system (a
// recompilation after a topological change would cost a re-optimisation of the whole step).
class StateRecord implements SystemState {
  constructor(
    readonly state: BaseMechanicalState,
    readonly index: number,
    readonly mapped: boolean,
    readonly offset: number,
    readonly coordOffset: number,
    readonly derivLength: number,
    readonly coordLength: number,
  ) {}
}
class MappingRecord implements MappingEntry {
  constructor(
    readonly mapping: BaseMapping,
    readonly inputs: readonly number[],
    readonly output: number,
  ) {}
}
class MassRecord {
  constructor(
    readonly mass: BaseMass,
    readonly state: number,
  ) {}
}
class ForceFieldRecord {
  constructor(
    readonly ff: BaseForceField,
    readonly states: readonly number[],
  ) {}
}
/** A force field with blocks on a state outside the system, the tops of each of its states. */
class OutsideRecord {
  warned = false;
  constructor(
    readonly ff: BaseForceField,
    readonly states: readonly number[],
    /** Per state of the force field: the offsets of the masters its full Jacobian reaches (SOFA's top-most states). */
    readonly tops: readonly (readonly number[])[],
  ) {}
}
class ConstraintRecord {
  constructor(
    readonly pc: BaseProjectiveConstraint,
    readonly state: number,
    /** The states a two-way constraint couples to its own (their vectors are projected too). */
    readonly coupled: { states: number[]; views: Float64Array[] } | undefined,
  ) {}
}
class GroupRecord implements Group {
  globalIndex: Int32Array | undefined = undefined;
  projected: ProjectedGroup | undefined = undefined;
  constructor(
    readonly component: BaseObject,
    readonly states: readonly number[],
    readonly emit: Group['emit'],
    readonly allMasters: boolean,
  ) {}
}

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
 */
export class MechanicalSystem {
  readonly states: SystemState[] = [];
  readonly masters: SystemState[] = [];
  readonly mappedStates: SystemState[] = [];
  /** Mechanical mappings in dependency order (parents before children). */
  readonly mappings: MappingEntry[] = [];
  readonly forceFields: Array<{ ff: BaseForceField; states: readonly number[] }> = [];
  readonly masses: Array<{ mass: BaseMass; state: number }> = [];
  readonly constraints: Array<{ pc: BaseProjectiveConstraint; state: number; coupled?: { states: number[]; views: Float64Array[] } }> = [];
  /** Force fields with blocks on a state outside the system (see emitOutsideBlocks). */
  private readonly outside: OutsideRecord[] = [];
  private readonly outsideAcc = new OutsideAccumulator();
  /** The current assembleMBK adds the blocks with outside states (option outsideBlocks). */
  private withOutsideBlocks = false;
  /** Number of scalar dofs (derivative layout). */
  readonly size: number;
  readonly coordSize: number;
  readonly x: Float64Array;
  readonly v: Float64Array;
  readonly f: Float64Array;
  readonly dx: Float64Array;

  private readonly groups: Group[] = [];
  private readonly viewCache = new Map<Float64Array, Float64Array[]>();
  private readonly coordViewCache = new Map<Float64Array, Float64Array[]>();
  /** Per mapped state: scratch for matrix-free products (dx propagated down, df accumulated up). */
  private readonly scratchDx: Float64Array[] = [];
  private readonly scratchDf: Float64Array[] = [];
  /** Per state, the arrays of the vector being worked on (filled per call, never reallocated). */
  private readonly vecSetA: Float64Array[] = [];
  private readonly vecSetB: Float64Array[] = [];
  private readonly vecSetC: Float64Array[] = [];
  /** Per force field / mapping, argument arrays refilled per call. */
  private readonly ffArgs: Array<[Float64Array[], Float64Array[], Float64Array[]]> = [];
  private readonly mapIns: Float64Array[][] = [];
  private readonly mapIns2: Float64Array[][] = [];
  private readonly jacobians: Array<ParentJacobian & { refresh?: () => void }> = [];
  private anyNonLinear = false;
  /** (mappings) 1 for the mappings matrix-free products go through (findActiveMappings). */
  private activeMappings = new Uint8Array(0);
  private readonly assembler: FixedPatternAssembler;
  private readonly projected: number[] = [];
  private readonly projectedMask: Uint8Array;
  /** Global indices of the projected dofs at the last assembly (projectedCount of them), in the constraints' order. */
  private projectedDofs = new Int32Array(0);
  private projectedCount = -1;
  /** Entries of the assembled matrix the projection writes, for the last pattern and projected dofs. */
  private projectionSlots: ProjectionSlots = { matrix: undefined, colInd: undefined, zero: new Int32Array(0), one: new Int32Array(0) };
  private readonly acc: MappedAccumulator;
  private general: GeneralProjection | undefined;
  /** Constraint rows of the compliant states (built by `wire`). */
  private constraintRows!: ConstraintAssembly;
  private kkt: KKTProjection | undefined;

  private constructor(readonly root: Node, masters: BaseMechanicalState[], mapped: BaseMechanicalState[]) {
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
      const s = new StateRecord(state, this.states.length, true, -1, -1, state.size * state.stateType.derivSize, state.size * state.stateType.coordSize);
      this.states.push(s);
      this.mappedStates.push(s);
      this.scratchDx.push(new Float64Array(s.derivLength));
      this.scratchDf.push(new Float64Array(s.derivLength));
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
    for (let i = 0; i < this.states.length; i++) {
      this.vecSetA.push(this.x);
      this.vecSetB.push(this.x);
      this.vecSetC.push(this.x);
    }
    this.assembler = new FixedPatternAssembler(this.size, this.size, { withDiagonal: true });
    this.projectedMask = new Uint8Array(this.size);
    this.acc = new MappedAccumulator(this.assembler);
  }

  /**
   * Compiles the subtree of `root` as one solver sees it: SOFA's solve visitor stops at nodes that
   * hold their own ODE solver, so those subtrees are left out (except `root` itself). States that
   * are the output of a mechanical mapping are mapped; all others are masters.
   */
  static compile(root: Node): MechanicalSystem {
    const revision = root.subtreeRevision;
    const topologyRevision = root.topologyRevision;
    const nodes: Node[] = [];
    root.visit((n) => {
      if (n !== root && n.objects.some(isOdeSolver)) return false;
      if (!n.activated.value) return false;
      nodes.push(n);
      return true;
    });
    const allStates: BaseMechanicalState[] = [];
    const mappingList: BaseMapping[] = [];
    for (const n of nodes) {
      for (const o of n.objects) {
        if (isMechanicalState(o)) allStates.push(o);
        else if (isBaseMapping(o) && o.getTo() !== undefined) {
          if (!o.isMechanical.value) o.warnAbout(o.isMechanical, 'isMechanical=false is not honoured for a mapping to a mechanical state: sofa-ts maps its forces and velocities as for a mechanical mapping', 'a mapping used only to place points can map to a visual model (OglModel), or its output state can be left out of the solver');
          mappingList.push(o);
        }
      }
    }
    // A state has one input mapping: a second one would map it twice (positions overwritten,
    // forces sent up twice) and the state would be compiled twice.
    const producer = new Map<BaseMechanicalState, BaseMapping>();
    for (const m of mappingList) {
      const first = producer.get(m.getTo()!);
      if (first) throw m.error(`${m.getTo()!.describe()} is already the output of ${first.describe()}${first.loc ? ` (${formatLocation(first.loc)})` : ''}: a state has a single input mapping`, 'remove one of the two mappings');
      producer.set(m.getTo()!, m);
    }
    const outputs = new Set(mappingList.map((m) => m.getTo()!));
    const masters = allStates.filter((s) => !outputs.has(s));
    const known = new Set(masters);
    // Dependency order: a mapping comes after the mappings that produce its inputs.
    const ordered: BaseMapping[] = [];
    const pending = [...mappingList];
    while (pending.length > 0) {
      const i = pending.findIndex((m) => m.getFrom().every((s) => known.has(s)));
      if (i < 0) {
        const m = pending[0]!;
        const missing = m.getFrom().find((s) => !known.has(s))!;
        if (!allStates.includes(missing) && missing.hasContext) {
          // a state outside this solver's subtree: integrated by another ODE solver (or by none)
          let owner: Node | undefined = missing.context;
          while (owner && !owner.objects.some(isOdeSolver)) owner = owner.parent;
          throw m.error(
            `input ${missing.describe()} is outside the subtree of the solver at ${root.path}${owner ? `: it is integrated by the solver at ${owner.path}` : ''}; a mapping whose inputs belong to two ODE solvers is not supported (sofa-ts compiles one mechanical system per solver; in SOFA each solver visits only its own subtree and reads such an input without integrating it)`,
            'put both inputs under one ODE solver (move the solver to a common ancestor node)',
          );
        }
        throw m.error(`input ${missing.describe()} is not a state of the solver at ${root.path} (or the mappings form a cycle)`);
      }
      const m = pending.splice(i, 1)[0]!;
      ordered.push(m);
      known.add(m.getTo()!);
    }
    const sys = new MechanicalSystem(root, masters, ordered.map((m) => m.getTo()!));
    sys.wire(nodes, ordered);
    sys.compiledRevision = revision;
    sys.compiledTopologyRevision = topologyRevision;
    return sys;
  }

  /** root.subtreeRevision when the system was compiled. */
  private compiledRevision = -1;
  /** root.topologyRevision when the system was compiled. */
  private compiledTopologyRevision = -1;

  /**
   * True when objects or nodes were added to or removed from the subtree since the system was
   * compiled (e.g. contact force fields of the collision response), or when a topology of the
   * subtree changed (states resized, elements removed or added: every pattern is rebuilt): the
   * solver compiles it again.
   */
  get isStale(): boolean {
    return this.root.subtreeRevision !== this.compiledRevision || this.root.topologyRevision !== this.compiledTopologyRevision;
  }

  private wire(nodes: Node[], mappings: BaseMapping[]): void {
    const index = new Map<BaseMechanicalState, number>();
    for (const s of this.states) index.set(s.state, s.index);
    // A component acts on states of this solver's subtree (its own node's, or an ancestor's inside
    // the subtree); a state above the solver's node is integrated by nobody here.
    const stateIndex = (s: BaseMechanicalState, who: BaseObject): number => {
      const i = index.get(s);
      if (i === undefined) throw who.error(`acts on ${s.describe()}, which is not a state of the solver at ${this.root.path}`, 'put the ODE solver in the node of the state or above it');
      return i;
    };
    for (const m of mappings) {
      const inputs = m.getFrom().map((s) => stateIndex(s, m));
      this.mappings.push(new MappingRecord(m, inputs, stateIndex(m.getTo()!, m)));
      this.mapIns.push(inputs.map(() => this.x));
      this.mapIns2.push(inputs.map(() => this.x));
    }
    for (const n of nodes) {
      for (const o of n.objects) {
        if (isMass(o)) {
          const s = stateIndex(o.getMechanicalState(), o);
          this.masses.push(new MassRecord(o, s));
          this.addGroup(o, [s], (acc, f) => o.addMToMatrix(acc, f.m));
        } else if (isForceField(o)) {
          const ss = o.getMechanicalStates().map((st) => stateIndex(st, o));
          if (isCompliance(o)) o.setStateIsMapped(ss.length === 1 && this.states[ss[0]!]!.mapped);
          this.forceFields.push(new ForceFieldRecord(o, ss));
          this.ffArgs.push([ss.map(() => this.x), ss.map(() => this.x), ss.map(() => this.x)]);
          this.addGroup(o, ss, (acc, f) => o.addKBToMatrix(acc, f.k, f.b));
          if (o.addOutsideStateKToMatrix) this.outside.push(new OutsideRecord(o, ss, []));
        } else if (isProjectiveConstraint(o)) {
          const own = o.getMechanicalState();
          const nested = index.has(own) ? undefined : nestedSolverNode(own, this.root);
          if (nested) {
            // as SOFA, whose solve visitor does not enter that subtree: this solve does not project it
            o.warn(`acts on ${own.describe()}, in the subtree of the ODE solver at ${nested.path}: the solve of the solver at ${this.root.path} does not project it (its positions and velocities are still projected at each step)`);
            continue;
          }
          const s = stateIndex(own, o);
          if (this.states[s]!.mapped) throw o.error('projective constraints on mapped states are not supported');
          // a two-way constraint also projects the vectors of its coupled states
          const coupled = o.getCoupledStates().map((st) => stateIndex(st, o));
          for (const c of coupled) if (this.states[c]!.mapped) throw o.error('projective constraints on mapped states are not supported');
          this.constraints.push(new ConstraintRecord(o, s, coupled.length > 0 ? { states: coupled, views: coupled.map(() => this.x) } : undefined));
        }
      }
    }
    const general = this.constraints.filter((e) => !e.pc.isDiagonalProjection);
    if (general.length > 0) {
      const asm = new FixedPatternAssembler(this.size, this.size);
      const rowMask = new Uint8Array(this.size);
      this.general = {
        constraints: general.map((e) => ({ pc: e.pc, offset: this.states[e.state]!.offset })),
        asm,
        rowMask,
        acc: new ProjectionAccumulator(asm, rowMask),
        diagSlots: new Int32Array(this.size),
        aVersion: -1,
        pVersion: -1,
        version: 0,
      };
    }
    for (const e of this.mappings) {
      if (e.mapping.isLinear) continue;
      const child = this.states[e.output]!.state;
      this.addGroup(e.mapping, e.inputs, (acc, f) => e.mapping.addGeometricStiffness(acc, child.f, f.k));
    }
    // Full Jacobians of mapped states, parents before children.
    for (const s of this.masters) this.jacobians[s.index] = { J: shiftMatrix(s.derivLength, this.size, s.offset) };
    for (const e of this.mappings) {
      this.checkJacobianShapes(e);
      const mj = new MappedJacobian((i) => e.mapping.getJ(i) as CsrMatrix, e.inputs.map((i) => this.jacobians[i]!));
      this.jacobians[e.output] = { J: mj.J, refresh: () => mj.refresh() };
    }
    for (let k = 0; k < this.outside.length; k++) {
      const r = this.outside[k]!;
      this.outside[k] = new OutsideRecord(r.ff, r.states, r.states.map((s) => this.topMasterOffsets(s)));
    }
    this.anyNonLinear = this.mappings.some((e) => !e.mapping.isLinear);
    this.findActiveMappings();
    this.wireConstraintRows();
    for (const g of this.groups) {
      if (g.allMasters) continue;
      const n = g.states.reduce((a, s) => a + this.states[s]!.derivLength, 0);
      g.projected = { local: new FixedPatternAssembler(n, n), stack: new RowStack(g.states.map((s) => this.jacobians[s]!.J)), planVersion: -1 };
    }
  }

  /**
   * Marks the mappings a matrix-free product must go through: those whose output has a mass or a
   * force field, or is the input of such a mapping, and every non-linear one (its geometric
   * stiffness). The others would carry dx down and 0 back up (a visual or collision state with no
   * contact yet): addMBKv skips them, as their terms are zero.
   */
  private findActiveMappings(): void {
    const needed = new Uint8Array(this.states.length);
    for (const e of this.masses) needed[e.state] = 1;
    for (const e of this.forceFields) for (const s of e.states) needed[s] = 1;
    this.activeMappings = new Uint8Array(this.mappings.length);
    for (let e = this.mappings.length - 1; e >= 0; e--) {
      const m = this.mappings[e]!;
      if (needed[m.output] === 0 && m.mapping.isLinear) continue;
      this.activeMappings[e] = 1;
      for (const i of m.inputs) needed[i] = 1;
    }
  }

  /** Offsets of the masters a state depends on (the column ranges its full Jacobian's pattern reaches). */
  private topMasterOffsets(s: number): number[] {
    const J = this.jacobians[s]!.J;
    const out: number[] = [];
    for (const m of this.masters) {
      let hit = false;
      for (let q = 0; q < J.rowPtr[J.rows]! && !hit; q++) {
        const c = J.colInd[q]!;
        if (c >= m.offset && c < m.offset + m.derivLength) hit = true;
      }
      if (hit) out.push(m.offset);
    }
    return out;
  }

  /** A mapping's J_cp must be (output dofs × input dofs): said at the mapping, not deep in a sparse product. */
  private checkJacobianShapes(e: MappingEntry): void {
    const out = this.states[e.output]!;
    for (let k = 0; k < e.inputs.length; k++) {
      const input = this.states[e.inputs[k]!]!;
      const J = e.mapping.getJ(k);
      if (J.rows === out.derivLength && J.cols === input.derivLength) continue;
      throw e.mapping.error(
        `its Jacobian for input ${k} is ${J.rows}×${J.cols}, but ${out.state.describe()} has ${out.derivLength} dofs and ${input.state.describe()} ${input.derivLength}`,
        'the states changed size after the mapping was initialised, or the mapping does not fit them',
      );
    }
  }

  private addGroup(component: BaseObject, states: readonly number[], emit: Group['emit']): void {
    this.groups.push(new GroupRecord(component, states, emit, states.every((s) => !this.states[s]!.mapped)));
  }

  /** The local → global index map of a group of masters (made once; matrix-free solvers never need it). */
  private globalIndexOf(g: Group): Int32Array {
    if (g.globalIndex) return g.globalIndex;
    let n = 0;
    for (const s of g.states) n += this.states[s]!.derivLength;
    const globalIndex = new Int32Array(n);
    let k = 0;
    for (const s of g.states) {
      const st = this.states[s]!;
      for (let i = 0; i < st.derivLength; i++) globalIndex[k++] = st.offset + i;
    }
    return (g.globalIndex = globalIndex);
  }

  /** A new zero vector in derivative layout (allocate at init, not in steps). */
  newVector(): Float64Array {
    return new Float64Array(this.size);
  }

  /**
   * a·b summed as SOFA sums its matrix-free (per-state) vectors: per node, the product of the node's
   * derivatives (a rigid frame's translation part, then its rotation part, added), those node
   * products accumulated in node order per state, and the states' sums added. Same value as the
   * flat sum up to the last bits; CG solvers stopped early by a threshold need SOFA's bits.
   */
  dot(a: Float64Array, b: Float64Array): number {
    let total = 0;
    for (const m of this.masters) {
      const t = m.state.stateType;
      const d = t.derivSize;
      const g = t.isRigid ? t.spatialDimensions : d; // first group: a frame's translation, or the whole Vec
      let r = 0;
      for (let o = m.offset, end = m.offset + m.derivLength; o < end; o += d) {
        let s = a[o]! * b[o]!;
        for (let k = 1; k < g; k++) s += a[o + k]! * b[o + k]!;
        if (g < d) {
          let w = a[o + g]! * b[o + g]!;
          for (let k = g + 1; k < d; k++) w += a[o + k]! * b[o + k]!;
          s += w;
        }
        r += s;
      }
      total += r;
    }
    return total;
  }

  /** Views of a global derivative vector, one per master state (cached per vector). */
  views(vec: Float64Array): Float64Array[] {
    let v = this.viewCache.get(vec);
    if (!v) {
      v = this.masters.map((m) => vec.subarray(m.offset, m.offset + m.derivLength));
      this.viewCache.set(vec, v);
    }
    return v;
  }

  /** Views of a global coordinate vector, one per master state. */
  coordViews(vec: Float64Array): Float64Array[] {
    let v = this.coordViewCache.get(vec);
    if (!v) {
      v = this.masters.map((m) => vec.subarray(m.coordOffset, m.coordOffset + m.coordLength));
      this.coordViewCache.set(vec, v);
    }
    return v;
  }

  /** Fills `set` with the per-state arrays of a global vector (masters) and the given mapped arrays. */
  private fillSet(set: Float64Array[], masterViews: Float64Array[], mapped: (k: number) => Float64Array): Float64Array[] {
    const nm = this.masters.length;
    for (let i = 0; i < nm; i++) set[i] = masterViews[i]!;
    for (let k = 0; k < this.mappedStates.length; k++) set[nm + k] = mapped(k);
    return set;
  }

  private forceFieldArgs(i: number, which: 0 | 1 | 2, set: Float64Array[]): Float64Array[] {
    const args = this.ffArgs[i]![which];
    const ss = this.forceFields[i]!.states;
    for (let k = 0; k < ss.length; k++) args[k] = set[ss[k]!]!;
    return args;
  }

  private mappingInputs(e: number, set: Float64Array[], second = false): Float64Array[] {
    const args = (second ? this.mapIns2 : this.mapIns)[e]!;
    const ins = this.mappings[e]!.inputs;
    for (let k = 0; k < ins.length; k++) args[k] = set[ins[k]!]!;
    return args;
  }

  /** Positions and velocities of mapped states from their inputs (x_c = φ(x_p), v_c = J·v_p). */
  propagatePositionsAndVelocities(): void {
    const vset = this.fillSet(this.vecSetA, this.views(this.v), (k) => this.mappedStates[k]!.state.v);
    const caller = componentCall.current;
    for (let e = 0; e < this.mappings.length; e++) {
      const m = this.mappings[e]!;
      componentCall.current = m.mapping;
      m.mapping.apply();
      m.mapping.applyJ(this.states[m.output]!.state.v, this.mappingInputs(e, vset));
    }
    if (this.anyNonLinear) {
      for (const e of this.mappings) {
        componentCall.current = e.mapping;
        this.jacobians[e.output]!.refresh?.();
      }
    }
    componentCall.current = caller;
    for (const s of this.mappedStates) s.state.touch();
  }

  /** f = Σ forces(x, v) + gravity (masses' addForce), mapped forces accumulated up with Jᵀ. */
  computeForce(f: Float64Array = this.f): void {
    f.fill(0);
    for (const s of this.mappedStates) s.state.f.fill(0);
    const fset = this.fillSet(this.vecSetA, this.views(f), (k) => this.mappedStates[k]!.state.f);
    const xset = this.fillSet(this.vecSetB, this.coordViews(this.x), (k) => this.mappedStates[k]!.state.x);
    const vset = this.fillSet(this.vecSetC, this.views(this.v), (k) => this.mappedStates[k]!.state.v);
    // f = forces computed outside the solvers for this step (SOFA's externalForce, accumulated first)
    for (const s of this.states) {
      const ext = s.state.externalStepForce;
      if (ext.length === 0) continue;
      const fs = fset[s.index]!;
      for (let i = 0; i < ext.length; i++) fs[i] += ext[i]!;
    }
    const caller = componentCall.current;
    for (const e of this.masses) {
      componentCall.current = e.mass;
      e.mass.addForce(fset[e.state]!, xset[e.state]!, vset[e.state]!);
    }
    for (let i = 0; i < this.forceFields.length; i++) {
      const ff = this.forceFields[i]!.ff;
      componentCall.current = ff;
      ff.addForce(this.forceFieldArgs(i, 0, fset), this.forceFieldArgs(i, 1, xset), this.forceFieldArgs(i, 2, vset));
    }
    // f_p += J_cpᵀ f_c, children first.
    for (let e = this.mappings.length - 1; e >= 0; e--) {
      const m = this.mappings[e]!;
      componentCall.current = m.mapping;
      m.mapping.applyJT(this.mappingInputs(e, fset), this.states[m.output]!.state.f);
    }
    componentCall.current = caller;
  }

  /** out += (m·M + b·B + k·K)·vec over the whole graph, matrix-free (mapped states included). */
  addMBKv(out: Float64Array, factors: MBKFactors, vec: Float64Array): void {
    const din = this.fillSet(this.vecSetA, this.views(vec), (k) => this.scratchDx[k]!);
    const dout = this.fillSet(this.vecSetB, this.views(out), (k) => this.scratchDf[k]!);
    const caller = componentCall.current;
    // dx_c = J_cp·dx_p, parents first (mappings whose output subtree adds nothing are skipped)
    const active = this.activeMappings;
    for (let e = 0; e < this.mappings.length; e++) {
      if (active[e] === 0) continue;
      const m = this.mappings[e]!;
      componentCall.current = m.mapping;
      m.mapping.applyJ(din[m.output]!, this.mappingInputs(e, din));
    }
    for (let k = 0; k < this.mappedStates.length; k++) this.scratchDf[k]!.fill(0);
    if (factors.m !== 0) {
      for (const e of this.masses) {
        componentCall.current = e.mass;
        e.mass.addMDx(dout[e.state]!, din[e.state]!, factors.m);
      }
    }
    if (factors.k !== 0 || factors.b !== 0) {
      for (let i = 0; i < this.forceFields.length; i++) {
        const ff = this.forceFields[i]!.ff;
        componentCall.current = ff;
        ff.addDForce(this.forceFieldArgs(i, 0, dout), this.forceFieldArgs(i, 1, din), factors.k, factors.b);
      }
    }
    // df_p += J_cpᵀ df_c + k·K_geo·dx_p, children first
    for (let e = this.mappings.length - 1; e >= 0; e--) {
      if (active[e] === 0) continue;
      const m = this.mappings[e]!;
      const outs = this.mappingInputs(e, dout);
      componentCall.current = m.mapping;
      m.mapping.applyJT(outs, dout[m.output]!);
      if (!m.mapping.isLinear && factors.k !== 0) m.mapping.applyDJT(outs, this.mappingInputs(e, din, true), this.states[m.output]!.state.f, factors.k);
    }
    componentCall.current = caller;
  }

  /** The matrix-free CG kernel of this system (undefined: not looked at yet; null: its shape does not allow it). */
  private fused: MatrixFreeKernel | null | undefined = undefined;

  /**
   * The iteration of a matrix-free conjugate gradient in one WebAssembly memory, for a system whose
   * shape allows it (MatrixFreeKernel: one Vec3 state, one force field with an in-place product, a
   * lumped mass, zeroing projections, no active mapping), brought up to date for these factors;
   * undefined otherwise. Its products and dots are applyMBK's and dot's, bit for bit.
   */
  matrixFreeKernel(factors: MBKFactors): CgKernel | undefined {
    if (this.fused === undefined) this.fused = this.matrixFreeKernelOf();
    return this.fused?.kernel(factors);
  }

  private matrixFreeKernelOf(): MatrixFreeKernel | null {
    if (this.masters.length !== 1 || this.masses.length > 1 || this.forceFields.length !== 1) return null;
    const m = this.masters[0]!;
    const t = m.state.stateType;
    if (t.derivSize !== 3 || t.isRigid || this.activeMappings.some((a) => a !== 0)) return null;
    const ff = this.forceFields[0]!;
    if (ff.states.length !== 1 || ff.states[0] !== m.index) return null;
    const mass = this.masses[0];
    if (mass && mass.state !== m.index) return null;
    for (const c of this.constraints) if (c.coupled || c.state !== m.index || !c.pc.isDiagonalProjection || !c.pc.projectsByZeroing) return null;
    return new MatrixFreeKernel(() => m.state.size, mass?.mass, ff.ff, this.constraints.map((c) => c.pc));
  }

  /** out = P·(m·M + b·B + k·K)·vec, matrix-free (out must not alias vec). */
  applyMBK(out: Float64Array, factors: MBKFactors, vec: Float64Array): void {
    out.fill(0);
    this.addMBKv(out, factors, vec);
    this.projectResponse(out);
  }

  /** vec ← P·vec for every projective constraint. */
  projectResponse(vec: Float64Array): void {
    const views = this.views(vec);
    const caller = componentCall.current;
    for (const e of this.constraints) {
      componentCall.current = e.pc;
      const c = e.coupled;
      if (!c) e.pc.projectResponse(views[e.state]!);
      else {
        for (let i = 0; i < c.states.length; i++) c.views[i] = views[c.states[i]!]!;
        e.pc.projectResponseWith(views[e.state]!, c.views);
      }
    }
    componentCall.current = caller;
  }

  projectVelocity(vec: Float64Array = this.v): void {
    const views = this.views(vec);
    const caller = componentCall.current;
    for (const e of this.constraints) {
      componentCall.current = e.pc;
      e.pc.projectVelocity(views[e.state]!);
    }
    componentCall.current = caller;
  }

  projectPosition(vec: Float64Array = this.x): void {
    const views = this.coordViews(vec);
    const caller = componentCall.current;
    for (const e of this.constraints) {
      componentCall.current = e.pc;
      e.pc.projectPosition(views[e.state]!);
    }
    componentCall.current = caller;
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
    for (let r = 0; r < this.size; r++) if (mask[r] === 0) g.asm.add(r, r, 1);
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
      for (let r = 0; r < this.size; r++) g.diagSlots[r] = csrFindSlot(g.product, r, r);
      g.aVersion = this.assembler.patternVersion;
      g.pVersion = g.asm.patternVersion;
      g.version++;
    }
    const B = g.plan.compute(g.product!, P, A);
    // B += I − P (P's pattern lies inside B's: B_rc ∋ P_cr·A_cc·P_cc, A has its diagonal)
    csrAxpyInto(B, P, -1);
    for (let r = 0; r < this.size; r++) B.values[g.diagSlots[r]!] += 1;
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
        for (let q = P.rowPtr[r]!; q < P.rowPtr[r + 1]!; q++) this.assembler.add(r, P.colInd[q]!, P.values[q]!);
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
    for (const r of this.outside) {
      componentCall.current = r.ff;
      acc.bind(this, r);
      r.ff.addOutsideStateKToMatrix!(acc, r.ff.kFactorWithRayleigh(factors.k, factors.b));
      if (acc.dropped > 0 && !r.warned) {
        r.warned = true;
        r.ff.warn(`${acc.dropped} stiffness entries with the state outside the solver's system fall past the ${this.size} rows of the system matrix (SOFA's MatrixLinearSystem writes them out of bounds); left out`);
      }
    }
  }

  /** Adds value·J_s(d, ·) on row R (outside row) or, transposed, on column R. */
  addOutsideEntries(s: number, d: number, R: number, value: number, asRow: boolean): boolean {
    if (R >= this.size) return false;
    const J = this.jacobians[s]!.J;
    for (let q = J.rowPtr[d]!; q < J.rowPtr[d + 1]!; q++) {
      const g = J.colInd[q]!, w = value * J.values[q]!;
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
    for (let k = 0; k < zero.length; k++) values[zero[k]!] = 0;
    for (let k = 0; k < one.length; k++) values[one[k]!] = 1;
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
    for (const e of this.constraints) {
      list.length = 0;
      componentCall.current = e.pc;
      e.pc.projectedDofs(list);
      const off = this.states[e.state]!.offset;
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

  /**
   * Compliant states: mapped states with compliances acting as such, in system order. Their
   * positions are the violations φ, J_c0 their constraint rows.
   */
  private wireConstraintRows(): void {
    const byState = new Map<number, BaseCompliance[]>();
    for (const e of this.forceFields) {
      if (!isCompliance(e.ff) || !e.ff.actsAsCompliance) continue;
      const s = e.states[0]!;
      let list = byState.get(s);
      if (!list) byState.set(s, (list = []));
      list.push(e.ff);
    }
    const entries = [];
    for (const s of this.mappedStates) {
      const compliances = byState.get(s.index);
      if (!compliances) continue;
      const t = s.state.stateType;
      if (t.coordSize !== t.derivSize) throw compliances[0]!.error(`a compliance needs a state whose positions are its violations (Vec templates); ${s.state.describe()} is ${t.name}`);
      entries.push({ index: s.index, state: s.state, compliances, J: this.jacobians[s.index]!.J });
    }
    this.constraintRows = new ConstraintAssembly(entries, this.size);
  }

  /** The compliant states (constraint rows), in row order. */
  get compliantStates(): readonly CompliantState[] {
    return this.constraintRows.states;
  }

  /** Number of constraint rows n. */
  get constraintSize(): number {
    return this.constraintRows.size;
  }

  /** The full Jacobian J_s0 of a state (a shift matrix for a master). Owned by the system. */
  fullJacobian(index: number): CsrMatrix {
    return this.jacobians[index]!.J;
  }

  /**
   * The KKT system of a step (Compliant's assembly, figure 4 of the plugin's paper):
   *   H = P·(Σ_g J_g0ᵀ (m·M + b·B + k·K)_g J_g0)·P + (I − P)  (compliances give no K here)
   *   J = [J_c0] over compliant states c,  C = blockdiag(C_c)·cFactor,  φ = [x_c]
   * and P, J·P. Patterns are built once and refilled; J rows of non-linear mappings follow the
   * last `propagatePositionsAndVelocities`.
   */
  assembleKKT(factors: MBKFactors, cFactor: number, dt: number): AssembledKKT {
    const H = this.assembleMBK(factors);
    const rows = this.constraintRows;
    rows.stack.refill();
    const J = rows.stack.matrix;
    const C = rows.assembleC(cFactor);
    const proj = this.assembleKKTProjection(J);
    return {
      m: this.size,
      n: rows.size,
      dt,
      H,
      J,
      JP: proj.JP,
      C,
      P: proj.P,
      phi: rows.fillViolation(),
      isPIdentity: proj.identity,
      constraints: rows.states,
      patternVersion: this.matrixPatternVersion * 65536 + rows.cAssembler.patternVersion * 256 + proj.version,
    };
  }

  /**
   * P as a matrix and J·P. Without projective constraints P = I and J·P = J; with diagonal ones
   * P keeps its identity pattern with zeros on projected dofs and J·P masks J's columns; with a
   * non-diagonal one P is the general projection with the projected dofs' rows and columns
   * cleared, and J·P a sparse product with a fixed plan.
   */
  private assembleKKTProjection(J: CsrMatrix): KKTProjection {
    const m = this.size;
    let k = this.kkt;
    if (!k) {
      const rowPtr = new Int32Array(m + 1);
      const colInd = new Int32Array(m);
      for (let i = 0; i < m; i++) {
        rowPtr[i + 1] = i + 1;
        colInd[i] = i;
      }
      const identity = createCsr(m, m, rowPtr, colInd, new Float64Array(m).fill(1));
      k = this.kkt = { identity: this.constraints.length === 0, P: identity, JP: J, version: 0, jVersion: J, pVersion: -1, acc: new Float64Array(m) };
    }
    if (k.identity) return k;
    const mask = this.projectedMask;
    if (!this.general) {
      const pv = k.P.values;
      for (let i = 0; i < m; i++) pv[i] = mask[i] === 1 ? 0 : 1;
      if (k.JP === J || k.jVersion !== J) {
        k.JP = createCsr(J.rows, J.cols, J.rowPtr, J.colInd);
        k.jVersion = J;
        k.version++;
      }
      const src = J.values, dst = k.JP.values, col = J.colInd;
      for (let q = 0; q < src.length; q++) dst[q] = mask[col[q]!] === 1 ? 0 : src[q]!;
      return k;
    }
    const g = this.general;
    const Pg = g.asm.matrix!;
    if (k.pVersion !== g.asm.patternVersion || k.jVersion !== J || k.JP === J) {
      k.P = createCsr(m, m, Pg.rowPtr, Pg.colInd);
      k.JP = spgemmSymbolic(J, k.P);
      k.pVersion = g.asm.patternVersion;
      k.jVersion = J;
      k.version++;
    }
    // P = P_general with the rows and columns of diagonally projected dofs cleared
    const pv = k.P.values;
    for (let r = 0; r < m; r++) {
      for (let q = Pg.rowPtr[r]!; q < Pg.rowPtr[r + 1]!; q++) pv[q] = mask[r] === 1 || mask[Pg.colInd[q]!] === 1 ? 0 : Pg.values[q]!;
    }
    spgemmNumeric(k.JP, J, k.P, k.acc);
    return k;
  }

  /**
   * Accumulates the forces of mapped states up to the masters: f_p += J_cpᵀ·f_c, children first,
   * into the global vector `f` (the mapped states' own f arrays are read and kept).
   */
  accumulateMappedForces(f: Float64Array = this.f): void {
    const fset = this.fillSet(this.vecSetA, this.views(f), (k) => this.mappedStates[k]!.state.f);
    const caller = componentCall.current;
    for (let e = this.mappings.length - 1; e >= 0; e--) {
      const m = this.mappings[e]!;
      componentCall.current = m.mapping;
      m.mapping.applyJT(this.mappingInputs(e, fset), this.states[m.output]!.state.f);
    }
    componentCall.current = caller;
  }

  /** Tells followers of the states' Data that positions and velocities changed. */
  touchStates(): void {
    for (const m of this.states) m.state.touch();
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
    for (let p = rowPtr[r]!; p < rowPtr[r + 1]!; p++) {
      const c = colInd[p]!;
      if (rowMasked || mask[c] === 1) (r === c ? one : zero).push(p);
    }
  }
  return { matrix: A, colInd, zero: Int32Array.from(zero), one: Int32Array.from(one) };
}

/** P and J·P of the KKT system, kept between steps. */
interface KKTProjection {
  /** True when the system has no projective constraint (P = I, J·P = J). */
  identity: boolean;
  P: CsrMatrix;
  JP: CsrMatrix;
  version: number;
  /** The J the pattern of JP was built for. */
  jVersion: CsrMatrix;
  pVersion: number;
  /** (m) zeroed scratch row of the product. */
  acc: Float64Array;
}

/** Forwards local (component) indices to the global assembler through the current index map. */
class MappedAccumulator implements MatrixAccumulator {
  map: Int32Array = new Int32Array(0);
  constructor(private readonly target: FixedPatternAssembler) {}
  add(row: number, col: number, value: number): void {
    this.target.add(this.map[row]!, this.map[col]!, value);
  }
  /** A 3x3 block stays one block when its rows and columns are contiguous globally (a point's dofs). */
  addBlock3(row: number, col: number, block: ArrayLike<number>, offset: number, factor: number): void {
    const map = this.map;
    const r = map[row]!, c = map[col]!;
    if (map[row + 2] === r + 2 && map[col + 2] === c + 2 && map[row + 1] === r + 1 && map[col + 1] === c + 1) {
      this.target.addBlock3(r, c, block, offset, factor);
      return;
    }
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) this.target.add(map[row + i]!, map[col + j]!, factor * block[offset + 3 * i + j]!);
    }
  }
  /** (n) global first rows of an element's nodes, for addElement3. */
  private starts = new Int32Array(8);
  /** An element's n² blocks at once when each node's 3 dofs are contiguous globally. */
  addElement3(nodes: ArrayLike<number>, e: number, n: number, K: ArrayLike<number>, factor: number): void {
    if (this.contiguousStarts(nodes, e, n)) {
      this.target.addElementBlocks3(this.starts, n, K, factor);
      return;
    }
    const stride = 3 * n, blk = this.blk;
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        const o = 3 * stride * i + 3 * j;
        for (let p = 0; p < 3; p++) for (let q = 0; q < 3; q++) blk[3 * p + q] = K[o + stride * p + q]!;
        this.addBlock3(3 * nodes[n * e + i]!, 3 * nodes[n * e + j]!, blk, 0, factor);
      }
  }
  private readonly blk = new Float64Array(9);

  /**
   * Symmetric elements by their upper blocks (MatrixAccumulator.addSymmetricElements3): the first
   * rows of every element go to the assembler's batch, which refills them in one call when each
   * node's 3 dofs are contiguous globally; otherwise element by element, block by block.
   */
  addSymmetricElements3(nodes: ArrayLike<number>, e0: number, count: number, n: number, U: Float64Array, factor: number): void {
    const nu = (9 * n * (n + 1)) / 2;
    const batch = this.target.elementStartsBuffer(count * n);
    let contiguous = true;
    for (let k = 0; k < count && contiguous; k++) {
      contiguous = this.contiguousStarts(nodes, e0 + k, n);
      for (let i = 0; i < n; i++) batch[k * n + i] = this.starts[i]!;
    }
    if (contiguous) {
      this.target.addSymmetricElementsBatch(batch, count, n, U, factor);
      return;
    }
    const blk = this.blk;
    for (let k = 0; k < count; k++) {
      const e = e0 + k, uo = k * nu;
      if (this.contiguousStarts(nodes, e, n)) {
        this.target.addSymmetricElementBlocks3(this.starts, n, U, factor, 0, uo);
        continue;
      }
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++) {
          if (j >= i) {
            const u = uo + 9 * upperBlockIndex(n, i, j);
            for (let t = 0; t < 9; t++) blk[t] = U[u + t]!;
          } else {
            const u = uo + 9 * upperBlockIndex(n, j, i);
            for (let p = 0; p < 3; p++) for (let t = 0; t < 3; t++) blk[3 * p + t] = U[u + 3 * t + p]!;
          }
          this.addBlock3(3 * nodes[n * e + i]!, 3 * nodes[n * e + j]!, blk, 0, factor);
        }
    }
  }

  symmetricElementBuffer(n: number, count: number): Float64Array | undefined {
    return this.target.symmetricElementBuffer(n, count);
  }

  /** Fills `starts` with the global first rows of element e's nodes; true when each node's 3 dofs are contiguous. */
  private contiguousStarts(nodes: ArrayLike<number>, e: number, n: number): boolean {
    const map = this.map;
    if (this.starts.length < n) this.starts = new Int32Array(n);
    const st = this.starts;
    let contiguous = true;
    for (let i = 0; i < n; i++) {
      const l = 3 * nodes[n * e + i]!, g = map[l]!;
      st[i] = g;
      if (map[l + 1] !== g + 1 || map[l + 2] !== g + 2) contiguous = false;
    }
    return contiguous;
  }
}

/** Forwards a constraint's rows of P to the global projection, marking the rows it emits. */
/** The accumulator handed to addOutsideStateKToMatrix: outside dofs at the tops of the inside state. */
class OutsideAccumulator implements OutsideStateAccumulator {
  private sys: MechanicalSystem | undefined;
  private rec: OutsideRecord | undefined;
  dropped = 0;
  bind(sys: MechanicalSystem, rec: OutsideRecord): void {
    this.sys = sys;
    this.rec = rec;
    this.dropped = 0;
  }
  addOutsideRow(o: number, arg: number, d: number, value: number): void {
    const r = this.rec!;
    for (const top of r.tops[arg]!) if (!this.sys!.addOutsideEntries(r.states[arg]!, d, top + o, value, true)) this.dropped++;
  }
  addOutsideCol(arg: number, d: number, o: number, value: number): void {
    const r = this.rec!;
    for (const top of r.tops[arg]!) if (!this.sys!.addOutsideEntries(r.states[arg]!, d, top + o, value, false)) this.dropped++;
  }
}

class ProjectionAccumulator implements MatrixAccumulator {
  offset = 0;
  constructor(private readonly target: FixedPatternAssembler, private readonly rowMask: Uint8Array) {}
  add(row: number, col: number, value: number): void {
    this.rowMask[this.offset + row] = 1;
    this.target.add(this.offset + row, this.offset + col, value);
  }
}

/** The node below `root` holding an ODE solver whose subtree contains the state, if any (the state is then outside root's system). */
function nestedSolverNode(state: BaseMechanicalState, root: Node): Node | undefined {
  if (!state.hasContext) return undefined;
  let found: Node | undefined;
  for (let n: Node | undefined = state.context; n && n !== root; n = n.parent) if (n.objects.some(isOdeSolver)) found = n;
  for (let n: Node | undefined = state.context; n; n = n.parent) if (n === root) return found;
  return undefined;
}
