import type { BaseObject } from '../base-object.js';
import type { Node } from '../node.js';
import { checkpointFields, restoreFields, type CheckpointReader, type CheckpointRecord } from './checkpoint-value.js';

/**
 * Names of the scene's nodes and components while a checkpoint is taken, for a record that refers
 * to another component (a solver's warm start kept per constraint): `/Liver/dofs`, or for a
 * component created during the run `<creator's key>::<i>` (see checkpointOwnedComponents).
 */
export interface CheckpointContext {
  /** Throws a SofaError for an object that is neither in the scene nor created by a Checkpointable. */
  keyOf(o: Node | BaseObject): string;
  /** Whether keyOf knows `o` (a record may leave out what is no longer in the scene). */
  knows(o: unknown): boolean;
  /** Something the checkpoint cannot hold exactly: a located warning the caller reports. */
  warn(o: BaseObject, detail: string): void;
}

/** The other way round, while a checkpoint is restored. */
export interface RestoreContext {
  /** Throws a SofaError for a key that names nothing (or a node). */
  objectOf(key: string): BaseObject;
  /** Throws a SofaError for a key that names no node. */
  nodeOf(key: string): Node;
  /** Something that could not be restored as it was: a located warning the caller reports. */
  warn(o: BaseObject, detail: string): void;
}

/**
 * A component with state that a run changes and that the next step reads, kept outside its Data:
 * warm starts (a CG's previous solution, a constraint solver's previous λ), an ODE solver's history,
 * persistent contacts, counters. Data that change during a run are saved without this (every Data
 * whose write counter moved since the first step, see scene-checkpoint.ts); implement it for what
 * the Data do not show.
 *
 * Contract:
 *  - `checkpointState` returns the values the next step depends on; arrays may be the live buffers
 *    (the checkpoint copies them at once). A typed array that is also the value of one of the
 *    component's Data is saved once.
 *  - `restoreState` runs on the same scene freshly loaded and initialised, before its first step,
 *    after every Data was restored, in document order (a node's objects, then its children;
 *    creators of components first, see checkpointOwnedComponents). Buffers a component sizes at its first step may not exist yet: take the saved
 *    arrays (CheckpointReader.restoreArray), and let the first step keep arrays of the right size.
 *  - A resumed run must then be bitwise identical to the uninterrupted one.
 */
export interface Checkpointable {
  checkpointState(ctx: CheckpointContext): CheckpointRecord;
  restoreState(saved: CheckpointReader, ctx: RestoreContext): void;
  /**
   * Components this one created during the run (a contact manager's responses), in an order its
   * restoreState reproduces. Its restoreState creates them again (and puts them in their nodes);
   * the checkpoint saves and restores their Data and their own Checkpointable records, and puts
   * the objects of each node back in the saved order. Such owners are restored before the other
   * components, so that those can refer to the created ones.
   */
  checkpointOwnedComponents?(): Iterable<BaseObject>;
}

export function isCheckpointable(o: unknown): o is Checkpointable {
  return (
    typeof o === 'object' &&
    o !== null &&
    typeof (o as Partial<Checkpointable>).checkpointState === 'function' &&
    typeof (o as Partial<Checkpointable>).restoreState === 'function'
  );
}

/**
 * The declarative form: a component lists the names of its own fields that hold hidden state, e.g.
 * `readonly checkpointFields = ['sol', 'solves'] as const;` and the checkpoint saves and restores
 * them (numbers, booleans, strings, typed arrays, plain records and lists of these; see
 * checkpointFields / restoreFields). A component that implements Checkpointable uses that instead.
 */
export interface DeclaresCheckpointFields {
  readonly checkpointFields: readonly string[];
}

/** The Checkpointable view of an object: its own methods, or its declared fields; else undefined. */
export function asCheckpointable(o: unknown, where: string): Checkpointable | undefined {
  if (isCheckpointable(o)) return o;
  const names = typeof o === 'object' && o !== null ? (o as Partial<DeclaresCheckpointFields>).checkpointFields : undefined;
  if (!Array.isArray(names)) return undefined;
  return {
    checkpointState: () => checkpointFields(o as object, names, where),
    restoreState: (saved) => restoreFields(o as object, saved, names),
  };
}
