import type { SourceLocation } from './errors.js';

/** Where a component link looks when the scene does not name its target. */
export type LinkSearch = 'local' | 'up' | 'down' | 'none';

export interface LinkSpec<T> {
  readonly name: string;
  readonly help: string;
  /** What the target must be, for validation and for the docs ("a LinearSolver"). */
  readonly accepts: (candidate: unknown) => candidate is T;
  readonly expected: string;
  /** Automatic lookup when unset: in the owner's node, in it and its ancestors, or its subtree. */
  readonly search?: LinkSearch;
  /**
   * A default of the owner's own when the scene names no target (tried before `search`): SOFA's
   * topological mappings take the parent node's topology as input, their node's as output.
   */
  readonly find?: (owner: import('./base-object.js').BaseObject) => T | undefined;
  /** Unset and not found is an error at init (otherwise the link stays empty). */
  readonly required?: boolean;
  readonly aliases?: readonly string[];
  /**
   * A multi-link (SOFA MultiLink): the scene gives several targets separated by spaces
   * (`input="@../a @../b"`); `getAll()` returns them in the given order, `get()` the first.
   */
  readonly multi?: boolean;
  /**
   * The owner reads its target's values at init the way SOFA reads them lazily through its Data
   * (a mapping that reads a state's positions): the target's node is initialised before the owner
   * even when the top-down order reaches it later (a later sibling), as a DAG scene does for
   * every link. Off by default: SOFA components that read a target's size at init see a target the
   * order has not initialised yet, and sofa-ts reports that instead.
   */
  readonly initTargetFirst?: boolean;
}

/**
 * A component link (SOFA SingleLink): a reference to another component of the scene, given in XML
 * as `@path` (`@../dofs`, `@/root/solver`, `@[-1]`), or found by the owner's search rule.
 */
export class Link<T> {
  private _target: T | undefined;
  private _targets: T[] = [];
  /** The `@path` text from the scene, kept until links are resolved. */
  linkPath: string | undefined;
  loc: SourceLocation | undefined;

  constructor(readonly spec: LinkSpec<T>) {}

  get name(): string {
    return this.spec.name;
  }

  get(): T | undefined {
    return this._target;
  }

  /** The target; throws when the link is empty (call after init). */
  require(): T {
    if (this._target === undefined) throw new Error(`link '${this.spec.name}' is empty`);
    return this._target;
  }

  set(target: T | undefined): void {
    this._target = target;
    this._targets = target === undefined ? [] : [target];
  }

  /** Every target (one for a single link that is set; the given list for a multi-link). */
  getAll(): readonly T[] {
    return this._targets;
  }

  /** Sets the targets of a multi-link (the first one is also `get()`). */
  setAll(targets: readonly T[]): void {
    this._targets = [...targets];
    this._target = targets[0];
  }

  print(): string {
    return this.linkPath ?? '';
  }
}
