import {
  type BaseForceField,
  type BaseMass,
  type BaseMechanicalState,
  type BaseProjectiveConstraint,
  type MatrixAccumulator,
  type Node,
  SofaError,
  isForceField,
  isMapping,
  isMass,
  isMechanicalState,
  isOdeSolver,
  isProjectiveConstraint,
} from '@sofa-ts/core';
import { FixedPatternAssembler, type CsrMatrix } from '@sofa-ts/linalg';

/** Factors of the linear combination A = m·M + b·B + k·K a solver asks for. */
export interface MBKFactors {
  readonly m: number;
  readonly b: number;
  readonly k: number;
}

/** An independent (master) state of the system and where its dofs sit in the global vectors. */
export interface MasterState {
  readonly state: BaseMechanicalState;
  /** First index of this state in global derivative vectors (v, f, dx): its shift J_a0 = [0 … I … 0]. */
  readonly offset: number;
  /** First index in global coordinate vectors (x). */
  readonly coordOffset: number;
  /** Scalars of this state in derivative vectors: size × derivSize. */
  readonly derivLength: number;
  readonly coordLength: number;
}

interface ForceFieldEntry {
  readonly ff: BaseForceField;
  /** Indices into `masters` of the force field's states, in its own order. */
  readonly states: readonly number[];
  /** local scalar index → global index: the shift matrices of the concatenated states, as a map. */
  readonly globalIndex: Int32Array;
}

interface MassEntry {
  readonly mass: BaseMass;
  readonly state: number;
  readonly globalIndex: Int32Array;
}

interface ConstraintEntry {
  readonly pc: BaseProjectiveConstraint;
  readonly state: number;
}

/**
 * The compiled mechanical system of a solver's subtree (Compliant-style block assembly, master
 * states only for now): master states get offsets in global vectors, every mass and force field is
 * attached to its states through index maps (the shift matrices J_a0), and the system offers both
 * assembled matrices A = P(m·M + b·B + k·K)P with a pattern built once and refilled, and
 * matrix-free products over the same graph.
 *
 * Global vectors are Float64Arrays; the states' own x, v, f, dx arrays are rebound to views of the
 * global x, v, f, dx so that nothing is gathered or scattered in a step.
 *   x:         (coordSize)  all master coordinates, state after state
 *   v, f, dx:  (size)       all master derivatives
 */
export class MechanicalSystem {
  readonly masters: MasterState[] = [];
  readonly forceFields: ForceFieldEntry[] = [];
  readonly masses: MassEntry[] = [];
  readonly constraints: ConstraintEntry[] = [];
  /** Number of scalar dofs (derivative layout). */
  readonly size: number;
  readonly coordSize: number;
  readonly x: Float64Array;
  readonly v: Float64Array;
  readonly f: Float64Array;
  readonly dx: Float64Array;

  private readonly viewCache = new Map<Float64Array, Float64Array[]>();
  private readonly coordViewCache = new Map<Float64Array, Float64Array[]>();
  private readonly ffArgCache = new Map<Float64Array, Float64Array[][]>();
  private readonly ffCoordArgCache = new Map<Float64Array, Float64Array[][]>();
  private readonly assembler: FixedPatternAssembler;
  private readonly projected: number[] = [];
  private readonly projectedMask: Uint8Array;
  private readonly acc: MappedAccumulator;

  private constructor(readonly root: Node, states: BaseMechanicalState[]) {
    let offset = 0;
    let coordOffset = 0;
    for (const state of states) {
      const n = state.size;
      const derivLength = n * state.stateType.derivSize;
      const coordLength = n * state.stateType.coordSize;
      this.masters.push({ state, offset, coordOffset, derivLength, coordLength });
      offset += derivLength;
      coordOffset += coordLength;
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
    this.assembler = new FixedPatternAssembler(this.size, this.size, { withDiagonal: true });
    this.projectedMask = new Uint8Array(this.size);
    this.acc = new MappedAccumulator(this.assembler);
  }

  /**
   * Compiles the subtree of `root` as one solver sees it: SOFA's solve visitor stops at nodes that
   * hold their own ODE solver, so those subtrees are left out (except `root` itself).
   */
  static compile(root: Node): MechanicalSystem {
    const nodes: Node[] = [];
    root.visit((n) => {
      if (n !== root && n.objects.some(isOdeSolver)) return false;
      if (!n.activated.value) return false;
      nodes.push(n);
      return true;
    });
    const mapped = new Set<Node>();
    for (const n of nodes) if (n.objects.some(isMapping)) mapped.add(n);
    const states: BaseMechanicalState[] = [];
    for (const n of nodes) {
      if (mapped.has(n)) continue;
      for (const o of n.objects) if (isMechanicalState(o)) states.push(o);
    }
    const sys = new MechanicalSystem(root, states);
    const index = new Map<BaseMechanicalState, number>();
    sys.masters.forEach((m, i) => index.set(m.state, i));
    const stateIndex = (s: BaseMechanicalState, who: string): number => {
      const i = index.get(s);
      if (i === undefined) {
        throw new SofaError(`${who} acts on ${s.describe()}, which is not an independent state of the solver at ${root.path} (mapped states are not supported yet)`);
      }
      return i;
    };
    for (const n of nodes) {
      if (mapped.has(n)) {
        const acting = n.objects.find((o) => isMass(o) || isForceField(o) || isProjectiveConstraint(o));
        if (acting) throw acting.error('masses, force fields and projective constraints on mapped states are not supported yet');
        continue;
      }
      for (const o of n.objects) {
        if (isMass(o)) {
          const s = stateIndex(o.getMechanicalState(), o.describe());
          sys.masses.push({ mass: o, state: s, globalIndex: sys.indexMap([s]) });
        } else if (isForceField(o)) {
          const ss = o.getMechanicalStates().map((st) => stateIndex(st, o.describe()));
          sys.forceFields.push({ ff: o, states: ss, globalIndex: sys.indexMap(ss) });
        } else if (isProjectiveConstraint(o)) {
          sys.constraints.push({ pc: o, state: stateIndex(o.getMechanicalState(), o.describe()) });
        }
      }
    }
    return sys;
  }

  /** The shift of concatenated states as an index map: local scalar → global scalar. */
  private indexMap(states: readonly number[]): Int32Array {
    let n = 0;
    for (const s of states) n += this.masters[s]!.derivLength;
    const map = new Int32Array(n);
    let k = 0;
    for (const s of states) {
      const m = this.masters[s]!;
      for (let i = 0; i < m.derivLength; i++) map[k++] = m.offset + i;
    }
    return map;
  }

  /** A new zero vector in derivative layout (allocate at init, not in steps). */
  newVector(): Float64Array {
    return new Float64Array(this.size);
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

  /** Per force field, the views of `vec` on its states (the arguments of addForce/addDForce). */
  private ffArgs(vec: Float64Array, coord = false): Float64Array[][] {
    const cache = coord ? this.ffCoordArgCache : this.ffArgCache;
    let a = cache.get(vec);
    if (!a) {
      const views = coord ? this.coordViews(vec) : this.views(vec);
      a = this.forceFields.map((e) => e.states.map((s) => views[s]!));
      cache.set(vec, a);
    }
    return a;
  }

  /** f = Σ forces(x, v) + gravity (the masses' addForce), at the current state. */
  computeForce(f: Float64Array = this.f): void {
    f.fill(0);
    const fv = this.views(f);
    const xv = this.coordViews(this.x);
    const vv = this.views(this.v);
    for (const e of this.masses) e.mass.addForce(fv[e.state]!, xv[e.state]!, vv[e.state]!);
    const fa = this.ffArgs(f);
    const xa = this.ffArgs(this.x, true);
    const va = this.ffArgs(this.v);
    for (let i = 0; i < this.forceFields.length; i++) this.forceFields[i]!.ff.addForce(fa[i]!, xa[i]!, va[i]!);
  }

  /** out += (m·M + b·B + k·K)·vec, matrix-free. */
  addMBKv(out: Float64Array, factors: MBKFactors, vec: Float64Array): void {
    if (factors.m !== 0) {
      const ov = this.views(out);
      const iv = this.views(vec);
      for (const e of this.masses) e.mass.addMDx(ov[e.state]!, iv[e.state]!, factors.m);
    }
    if (factors.k !== 0 || factors.b !== 0) {
      const oa = this.ffArgs(out);
      const ia = this.ffArgs(vec);
      for (let i = 0; i < this.forceFields.length; i++) this.forceFields[i]!.ff.addDForce(oa[i]!, ia[i]!, factors.k, factors.b);
    }
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
    for (const e of this.constraints) e.pc.projectResponse(views[e.state]!);
  }

  projectVelocity(vec: Float64Array = this.v): void {
    const views = this.views(vec);
    for (const e of this.constraints) e.pc.projectVelocity(views[e.state]!);
  }

  projectPosition(vec: Float64Array = this.x): void {
    const views = this.coordViews(vec);
    for (const e of this.constraints) e.pc.projectPosition(views[e.state]!);
  }

  /** Incremented each time the sparsity pattern of the assembled matrix is rebuilt. */
  get matrixPatternVersion(): number {
    return this.assembler.patternVersion;
  }

  /**
   * A = P·(m·M + b·B + k·K)·P + (I − P): the projected dofs' rows and columns are cleared with 1
   * on the diagonal. The pattern is built at the first call and refilled afterwards; it is rebuilt
   * (and `matrixPatternVersion` bumped) only when a component emits a different entry sequence.
   * The returned matrix is owned by the system and overwritten by the next call.
   */
  assembleMBK(factors: MBKFactors): CsrMatrix {
    const asm = this.assembler;
    asm.beginNumeric();
    this.emitMBK(factors);
    if (!asm.endNumeric()) {
      // First call, or a component changed its entry sequence: record the pattern again.
      asm.beginSymbolic();
      this.emitMBK(factors);
      asm.endSymbolic();
    }
    const A = asm.matrix!;
    this.applyProjectionToMatrix(A);
    return A;
  }

  private emitMBK(factors: MBKFactors): void {
    const acc = this.acc;
    for (const e of this.masses) {
      acc.map = e.globalIndex;
      e.mass.addMToMatrix(acc, factors.m);
    }
    for (const e of this.forceFields) {
      acc.map = e.globalIndex;
      e.ff.addKToMatrix(acc, factors.k);
      e.ff.addBToMatrix(acc, factors.b);
    }
  }

  /** Clears rows and columns of projected dofs, 1 on their diagonal. */
  private applyProjectionToMatrix(A: CsrMatrix): void {
    const mask = this.projectedMask;
    const list = this.projected;
    mask.fill(0);
    for (const e of this.constraints) {
      list.length = 0;
      e.pc.projectedDofs(list);
      const off = this.masters[e.state]!.offset;
      for (const i of list) mask[off + i] = 1;
    }
    const { rowPtr, colInd, values } = A;
    for (let r = 0; r < A.rows; r++) {
      const rowMasked = mask[r] === 1;
      for (let p = rowPtr[r]!; p < rowPtr[r + 1]!; p++) {
        const c = colInd[p]!;
        if (rowMasked || mask[c] === 1) values[p] = r === c ? 1 : 0;
      }
    }
  }

  /** Tells followers of the states' Data that positions and velocities changed. */
  touchStates(): void {
    for (const m of this.masters) m.state.touch();
  }
}

/** Forwards local (component) indices to the global assembler through the current index map. */
class MappedAccumulator implements MatrixAccumulator {
  map: Int32Array = new Int32Array(0);
  constructor(private readonly target: FixedPatternAssembler) {}
  add(row: number, col: number, value: number): void {
    this.target.add(this.map[row]!, this.map[col]!, value);
  }
}
