import type {
  BaseForceField,
  BaseMapping,
  BaseMass,
  BaseMechanicalState,
  BaseObject,
  BaseProjectiveConstraint,
  MatrixAccumulator,
} from '@sofa-ts/core';

/** Factors of the linear combination A = m·M + b·B + k·K a solver asks for. */
export interface MBKFactors {
  readonly m: number;
  readonly b: number;
  readonly k: number;
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

export interface MappingEntry {
  readonly mapping: BaseMapping;
  /** Indices into `states` of its inputs, and of its output. */
  readonly inputs: readonly number[];
  readonly output: number;
}

/** A projective constraint of the system on its state (an index into `states`). */
export interface SystemConstraint {
  readonly pc: BaseProjectiveConstraint;
  readonly state: number;
  /** The states a two-way constraint couples to its own (their vectors are projected too). */
  readonly coupled?: { states: number[]; views: Float64Array[] };
}

/**
 * A component whose matrices act on a set of states: a mass or a force field on its states, or the
 * geometric stiffness of a mapping on its inputs. Local indices run over the concatenated states.
 */
export interface MatrixEmitter {
  /** The mass, force field or mapping that emits it (for error reports). */
  readonly component: BaseObject;
  readonly states: readonly number[];
  readonly emit: (acc: MatrixAccumulator, f: MBKFactors) => void;
}

// The records of a compiled system are made by constructors, not object literals: from its second
// evaluation on, V8 copies an object literal from a boilerplate, which turns the fields of its shape
// from constant to mutable and throws away the step code compiled against the first system (a
// recompilation after a topological change would cost a re-optimisation of the whole step).
export class StateRecord implements SystemState {
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
export class MappingRecord implements MappingEntry {
  constructor(
    readonly mapping: BaseMapping,
    readonly inputs: readonly number[],
    readonly output: number,
  ) {}
}
export class MassRecord {
  constructor(
    readonly mass: BaseMass,
    readonly state: number,
  ) {}
}
export class ForceFieldRecord {
  constructor(
    readonly ff: BaseForceField,
    readonly states: readonly number[],
  ) {}
}
/** A force field with blocks on a state outside the system, the tops of each of its states. */
export class OutsideRecord {
  warned = false;
  constructor(
    readonly ff: BaseForceField,
    readonly states: readonly number[],
    /** Per state of the force field: the offsets of the masters its full Jacobian reaches (SOFA's top-most states). */
    readonly tops: readonly (readonly number[])[],
  ) {}
}
export class ConstraintRecord implements SystemConstraint {
  constructor(
    readonly pc: BaseProjectiveConstraint,
    readonly state: number,
    /** The states a two-way constraint couples to its own (their vectors are projected too). */
    readonly coupled: { states: number[]; views: Float64Array[] } | undefined,
  ) {}
}
export class EmitterRecord implements MatrixEmitter {
  constructor(
    readonly component: BaseObject,
    readonly states: readonly number[],
    readonly emit: MatrixEmitter['emit'],
  ) {}
}
