import { Data, type DataOwner, type DataSpec } from './data.js';
import { Bool, RealArray, StringArray, Str } from './data-types.js';
import { SofaError, type SourceLocation } from './errors.js';
import type { SofaEvent } from './events.js';
import { Link, type LinkSpec } from './link.js';
import type { Node } from './node.js';
import { componentInfoOf } from './component-info.js';
import { addSceneWarning } from './scene-warnings.js';

/** SOFA's ComponentState: a component that could not initialise refuses to take part in steps. */
export type ComponentState = 'undefined' | 'loading' | 'valid' | 'invalid';

/**
 * The base of every component (SOFA BaseObject): typed Data fields declared once with
 * `initData`, component links declared with `initLink`, a context node, and the lifecycle
 * init → bwdInit → (steps) → reset, run in document order by the simulation.
 */
export abstract class BaseObject implements DataOwner {
  private readonly _data: Data<unknown>[] = [];
  private readonly _links: Link<unknown>[] = [];
  private _context: Node | undefined;
  /** Canonical template name ('Vec3d', 'Rigid3d', 'CompressedRowSparseMatrixd', ...), '' if none. */
  template = '';
  /** Where the component is declared in the scene file. */
  loc: SourceLocation | undefined;
  componentState: ComponentState = 'undefined';
  /** Why the component is invalid, for the user. */
  invalidReason: string | undefined;

  readonly name = this.initData({ name: 'name', type: Str, default: '', help: 'object name' });
  readonly printLog = this.initData({ name: 'printLog', type: Bool, default: false, help: 'if true, emits extra messages at runtime' });
  readonly tags = this.initData({ name: 'tags', type: StringArray, default: [], help: 'list of the subsets the object belongs to' });
  readonly bbox = this.initData({
    name: 'bbox',
    type: RealArray(0, 'BoundingBox'),
    default: new Float64Array(0),
    help: 'this object bounding box',
    group: 'Visualization',
  });
  readonly listening = this.initData({
    name: 'listening',
    type: Bool,
    default: false,
    help: 'if true, handle the events, otherwise ignore the events',
  });

  /** The SOFA class name this component was registered under (not an alias). */
  get className(): string {
    return componentInfoOf(this.constructor)?.name ?? this.constructor.name;
  }

  getName(): string {
    return this.name.value;
  }

  get context(): Node {
    if (this._context === undefined) throw new Error(`${this.className} '${this.getName()}' is not in a scene node`);
    return this._context;
  }

  get hasContext(): boolean {
    return this._context !== undefined;
  }

  /** Called by Node.addObject / removeObject only. */
  setContext(node: Node | undefined): void {
    this._context = node;
  }

  /** Declares a Data field; call it in a field initialiser so declaration order is document order. */
  protected initData<T>(spec: DataSpec<T>): Data<T> {
    const d = new Data<T>(spec, this);
    this._data.push(d as Data<unknown>);
    return d;
  }

  /**
   * Declares a Data at run time (SofaPython3's `addData`): a controller's or a prefab's own
   * parameters, which scene links and `findData` reach like declared ones.
   */
  addDynamicData<T>(spec: DataSpec<T>): Data<T> {
    if (this.findData(spec.name)) throw this.error(`already has a Data '${spec.name}'`);
    return this.initData(spec);
  }

  /** Declares a component link (`@path` in the scene, or found by the spec's search rule). */
  protected initLink<T>(spec: LinkSpec<T>): Link<T> {
    const l = new Link<T>(spec);
    this._links.push(l as Link<unknown>);
    return l;
  }

  get dataFields(): readonly Data<unknown>[] {
    return this._data;
  }

  get links(): readonly Link<unknown>[] {
    return this._links;
  }

  /** The Data field with this name or alias. */
  findData(name: string): Data<unknown> | undefined {
    return this._data.find((d) => d.spec.name === name) ?? this._data.find((d) => d.spec.aliases?.includes(name));
  }

  /** The Data that SOFA renamed from `name` (an old attribute name, accepted with a warning). */
  findRenamedData(name: string): Data<unknown> | undefined {
    return this._data.find((d) => d.spec.renamedFrom?.includes(name));
  }

  findLink(name: string): Link<unknown> | undefined {
    return this._links.find((l) => l.spec.name === name) ?? this._links.find((l) => l.spec.aliases?.includes(name));
  }

  /** First phase of initialisation, top-down in document order. */
  init(): void {}

  /** Second phase, bottom-up after every component ran init. */
  bwdInit(): void {}

  /** Back to the state after init (positions, velocities, internal state). */
  reset(): void {}

  /** Called for every event sent through the graph. */
  handleEvent(_event: SofaEvent): void {}

  /** A one-line description for messages: `ClassName 'name'`. */
  describe(): string {
    return `${this.className} '${this.getName()}'`;
  }

  /** An error about this component, located at its declaration in the scene. */
  error(detail: string, hint?: string): SofaError {
    return new SofaError(detail, {
      ...(this.loc ? { loc: this.loc } : {}),
      component: this.describe(),
      ...(hint ? { hint } : {}),
      source: this,
    });
  }

  /**
   * A located warning (SOFA's msg_warning): the scene goes on, the user is told. Collected with the
   * scene's warnings when the component is in a scene (the same message once), returned in any case.
   */
  warn(detail: string, hint?: string): SofaError {
    const w = this.error(detail, hint);
    if (this.hasContext) addSceneWarning(this.context.root, w);
    return w;
  }

  /** An error about one of its Data, located at the attribute that set it (else at the component). */
  dataError(d: Data<unknown>, detail: string, hint?: string): SofaError {
    const loc = d.loc ?? this.loc;
    return new SofaError(detail, { ...(loc ? { loc } : {}), component: this.describe(), ...(hint ? { hint } : {}), source: this });
  }

  /** As warn, located at the attribute that set `about` (a value not honoured, a value reset). */
  warnAbout(about: Data<unknown>, detail: string, hint?: string): SofaError {
    const w = this.dataError(about, detail, hint);
    if (this.hasContext) addSceneWarning(this.context.root, w);
    return w;
  }

  /** Marks the component invalid with the reason; the animation loop refuses to step its subtree. */
  invalidate(reason: string): void {
    this.componentState = 'invalid';
    this.invalidReason = reason;
  }
}
