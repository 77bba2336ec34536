import type { NumberRange } from './data-rules.js';
import type { DataType } from './data-types.js';
import type { SourceLocation } from './errors.js';

/** The declaration of a Data field: everything parsing, printing, docs and validation need. */
export interface DataSpec<T> {
  readonly name: string;
  readonly type: DataType<T>;
  readonly default: T;
  readonly help: string;
  /** Physical unit, for docs ("s", "kg", "N/m"); empty when dimensionless or template dependent. */
  readonly unit?: string;
  /** Docs grouping, e.g. 'Visualization'. */
  readonly group?: string;
  /** An output of the component: set by it, not by the scene (a scene may still link to it). */
  readonly output?: boolean;
  /** Other attribute names accepted for this field (SOFA keeps old names as aliases). */
  readonly aliases?: readonly string[];
  /** Names SOFA renamed this Data from: still accepted, with a deprecation warning naming the
   *  current name (SOFA's per-component tables of renamed Data). */
  readonly renamedFrom?: readonly string[];
  /** false: a `src="@obj"` link does not make same-named Data follow this one (SOFA's autolink
   *  flag, off e.g. for a loader's translation, which the consumer must not apply twice). */
  readonly autoLink?: boolean;
  /** The numbers the field accepts (data-rules.ts), checked at init before the component's own
   *  init; without it a number set by the scene must still be finite. */
  readonly range?: NumberRange;
}

/** Anything that owns Data: components and nodes. */
export interface DataOwner {
  readonly className: string;
  getName(): string;
}

/**
 * A typed field of a component, SOFA's Data<T>: a value, its declaration, whether the scene set it,
 * and an optional parent Data it follows (a data link such as `@../loader.position`).
 *
 * A linked Data pulls its parent's value lazily: every write bumps a counter, and a read copies the
 * parent's value when the parent's counter moved. Writing in place into an array value must be
 * followed by `touch()` for followers to see it.
 */
export class Data<T> {
  private _value: T;
  private _counter = 0;
  private _parent: Data<unknown> | undefined;
  private _parentCounter = -1;
  private _beforeRead: (() => void) | undefined;
  /** True once the scene (or code) gave a value. */
  isSet = false;
  /** The unresolved link text (`@path.field`), kept until the scene's links are resolved. */
  linkPath: string | undefined;
  /** Where the attribute that set this field is in the scene file. */
  loc: SourceLocation | undefined;

  constructor(
    readonly spec: DataSpec<T>,
    readonly owner: DataOwner,
  ) {
    this._value = spec.type.clone(spec.default);
  }

  get name(): string {
    return this.spec.name;
  }

  get value(): T {
    if (this._beforeRead !== undefined) this._beforeRead();
    const p = this._parent;
    if (p !== undefined && p.counter !== this._parentCounter) this.pull(p);
    return this._value;
  }

  set value(v: T) {
    this._value = v;
    this.isSet = true;
    this._counter++;
  }

  /** Same as the setter, kept for readability at call sites that build values. */
  setValue(v: T): void {
    this.value = v;
  }

  /**
   * The value as it is held, without running the read hook or pulling from a parent: what a
   * checkpoint saves (see checkpoint/), never a substitute for `value` in a component.
   */
  get rawValue(): T {
    return this._value;
  }

  /** The write counter of this Data itself (no read hook, no pull): moves with each write or touch. */
  get version(): number {
    return this._counter;
  }

  /** Marks an in-place change of the value (arrays) so that followers copy it again. */
  touch(): void {
    this._counter++;
  }

  get counter(): number {
    if (this._beforeRead !== undefined) this._beforeRead();
    // A follower's own counter moves with its parent, so chains of links propagate.
    const p = this._parent;
    if (p !== undefined && p.counter !== this._parentCounter) this.pull(p);
    return this._counter;
  }

  /**
   * Runs `fn` before every read of the value or counter: an engine updates its outputs lazily,
   * when a reader (or a follower through a link) asks for them and its inputs changed.
   */
  setReadHook(fn: (() => void) | undefined): void {
    this._beforeRead = fn;
  }

  get parent(): Data<unknown> | undefined {
    return this._parent;
  }

  /**
   * Follows `parent`; the value is copied now and whenever the parent changes. With `lazy`, the
   * first copy waits for the first read of the value or counter (a follower nobody reads, as a
   * ROI's element list, then holds no copy of a large list).
   */
  setParent(parent: Data<unknown> | undefined, lazy = false): void {
    // A Data cannot follow itself, directly or through a chain of links (reads would never end).
    for (let p = parent; p !== undefined; p = p._parent) {
      if (p === (this as Data<unknown>))
        throw new Error(`a cycle of data links: '${this.name}' of ${this.owner.className} '${this.owner.getName()}' would follow itself`);
    }
    this._parent = parent;
    this._parentCounter = -1;
    if (parent !== undefined) {
      this.isSet = true;
      if (!lazy) this.pull(parent);
    }
  }

  /** Parses SOFA attribute text (throws DataParseError). */
  read(text: string): void {
    this.value = this.spec.type.parse(text);
  }

  print(): string {
    return this.spec.type.print(this.value);
  }

  private pull(p: Data<unknown>): void {
    this._parentCounter = p.counter;
    const pv = p.value;
    // Same type: copy the value; otherwise convert through SOFA's text syntax, as SOFA does.
    const mine = this._value as unknown;
    if (ArrayBuffer.isView(pv) && ArrayBuffer.isView(mine) && pv.constructor === mine.constructor) {
      this._value = this.spec.type.clone(pv as T);
    } else if (p.spec.type.name === this.spec.type.name) {
      this._value = this.spec.type.clone(pv as T);
    } else {
      this._value = this.spec.type.parse(p.spec.type.print(pv));
    }
    this._counter++;
  }
}
