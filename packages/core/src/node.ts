import type { BaseObject } from './base-object.js';
import { componentCall } from './component-call.js';
import { Data, type DataOwner, type DataSpec } from './data.js';
import { Bool, Real, RealArray, Str, StringArray, Vec3 } from './data-types.js';
import { positive } from './data-rules.js';
import type { SourceLocation } from './errors.js';
import type { SofaEvent } from './events.js';

export type SearchDirection = 'local' | 'up' | 'down' | 'root';

/** How many nodes have more than one parent: while none does, traversals are plain tree recursions. */
let multiParentNodes = 0;

/**
 * A node of the scene graph (SOFA simulation::Node) and its context: dt, gravity, time.
 *
 * Context semantics follow SOFA: from init on, every node takes its parent's dt, gravity and time,
 * whatever its own attributes said (SOFA copies the parent context into the child), so a child's
 * `gravity` attribute has no effect; set them on the root. Objects and children keep document order.
 *
 * The graph is SOFA's DAG: a node may have several parents (added to a second node by addChild).
 * Its context, its path and the `..` of link paths are those of its first parent (SOFA's
 * getFirstParent); a traversal visits it once, after all of its parents that the traversal
 * reaches (SOFA's DAG visitor with its per-traversal "visited" status).
 */
export class Node implements DataOwner {
  private readonly _data: Data<unknown>[] = [];
  readonly objects: BaseObject[] = [];
  readonly children: Node[] = [];
  /** The parents, in the order they adopted this node: the first one gives the context. */
  readonly parents: Node[] = [];
  loc: SourceLocation | undefined;
  readonly className = 'Node';
  /**
   * Incremented whenever an object or a child is added to or removed from this node or any node
   * below it: a solver that compiled its subtree compares it to know the graph changed (contact
   * force fields created and removed by the collision response).
   */
  subtreeRevision = 0;
  /**
   * Incremented whenever a topology of this node or of a node below it changed its elements or its
   * points (a topology modifier at work: cutting, carving, a TopologicalChangeProcessor): a solver
   * compiles its system again, as SOFA recomputes matrix patterns only when the topology changes.
   */
  topologyRevision = 0;

  readonly name = this.initData({ name: 'name', type: Str, default: '', help: 'node name' });
  readonly gravity = this.initData({
    name: 'gravity',
    type: Vec3,
    default: Float64Array.of(0, -9.81, 0),
    unit: 'm/s²',
    help: 'gravity in the world frame',
  });
  readonly dt = this.initData({ name: 'dt', type: Real, default: 0.01, unit: 's', range: positive, help: 'time step' });
  readonly time = this.initData({ name: 'time', type: Real, default: 0, unit: 's', help: 'current simulated time' });
  readonly animate = this.initData({ name: 'animate', type: Bool, default: false, help: 'animate the simulation' });
  readonly activated = this.initData({
    name: 'activated',
    type: Bool,
    default: true,
    help: 'a deactivated node is skipped by every visitor',
  });
  readonly multiThreading = this.initData({
    name: 'multiThreading',
    type: Bool,
    default: false,
    help: 'accepted for compatibility; steps run on one thread',
  });
  readonly multiThreadSimulation = this.initData({
    name: 'multiThreadSimulation',
    type: Bool,
    default: false,
    help: "old SOFA node flag (SOFA's former multithreaded scheduler); accepted for compatibility, steps run on one thread",
  });
  readonly printLog = this.initData({ name: 'printLog', type: Bool, default: false, help: 'if true, emits extra messages at runtime' });
  readonly tags = this.initData({ name: 'tags', type: StringArray, default: [], help: 'list of the subsets the node belongs to' });
  readonly depend = this.initData({
    name: 'depend',
    type: Str,
    default: '',
    help: 'dependencies of the node (old SOFA attribute, accepted and unused)',
  });
  readonly showBoundingTree = this.initData({
    name: 'showBoundingTree',
    type: Bool,
    default: false,
    help: 'display the bounding tree of collision models',
    group: 'Visualization',
  });
  readonly bbox = this.initData({
    name: 'bbox',
    type: RealArray(0, 'BoundingBox'),
    default: new Float64Array(0),
    help: 'bounding box of the node',
    group: 'Visualization',
  });

  constructor(name = '') {
    if (name) this.name.value = name;
  }

  /** Whether some node of the process has several parents (traversals then follow the DAG rules). */
  static hasSharedNodes(): boolean {
    return multiParentNodes > 0;
  }

  getName(): string {
    return this.name.value;
  }

  private initData<T>(spec: DataSpec<T>): Data<T> {
    const d = new Data<T>(spec, this);
    this._data.push(d as Data<unknown>);
    return d;
  }

  get dataFields(): readonly Data<unknown>[] {
    return this._data;
  }

  /** Declares a Data at run time (SofaPython3's `addData` on a node: a prefab's parameters). */
  addDynamicData<T>(spec: DataSpec<T>): Data<T> {
    if (this.findData(spec.name)) throw new Error(`Node '${this.getName()}' already has a Data '${spec.name}'`);
    return this.initData(spec);
  }

  findData(name: string): Data<unknown> | undefined {
    return this._data.find((d) => d.spec.name === name);
  }

  // ---- tree ---------------------------------------------------------------------------------

  /** The first parent (SOFA's getFirstParent), undefined for a root. */
  get parent(): Node | undefined {
    return this.parents[0];
  }

  /**
   * Attaches `child` below this node. A child that already has a parent gets this node as one more
   * parent (SOFA's DAG scene graph); adding it twice to the same node, or below itself, is refused.
   */
  addChild(child: Node): Node {
    if (child.parents.includes(this)) throw new Error(`Node '${child.getName()}' is already a child of Node '${this.getName()}'`);
    if (child === this || child.isAncestorOf(this))
      throw new Error(
        `Node '${child.getName()}' cannot be a child of Node '${this.getName()}': it is one of its ancestors (the graph would have a cycle)`,
      );
    child.parents.push(this);
    if (child.parents.length === 2) multiParentNodes++;
    this.children.push(child);
    this.structureChanged();
    return child;
  }

  /** Creates, attaches and returns a child node. */
  createChild(name: string): Node {
    return this.addChild(new Node(name));
  }

  removeChild(child: Node): void {
    const i = this.children.indexOf(child);
    if (i >= 0) {
      this.children.splice(i, 1);
      const k = child.parents.indexOf(this);
      if (k >= 0) child.parents.splice(k, 1);
      if (child.parents.length === 1) multiParentNodes--;
      this.structureChanged();
    }
  }

  /** True when this node is `node` or one of its ancestors through any parent. */
  isAncestorOf(node: Node): boolean {
    if (node === this) return true;
    for (const p of node.parents) if (this.isAncestorOf(p)) return true;
    return false;
  }

  /** This node and its ancestors through every parent, each once, nearest first (breadth first). */
  ancestorsAndSelf(): Node[] {
    const out: Node[] = [this];
    for (let k = 0; k < out.length; k++) for (const p of out[k].parents) if (!out.includes(p)) out.push(p);
    return out;
  }

  addObject<T extends BaseObject>(obj: T): T {
    obj.setContext(this);
    this.objects.push(obj);
    this.structureChanged();
    return obj;
  }

  removeObject(obj: BaseObject): void {
    const i = this.objects.indexOf(obj);
    if (i >= 0) {
      this.objects.splice(i, 1);
      obj.setContext(undefined);
      this.structureChanged();
    }
  }

  /** Bumps subtreeRevision on this node and its ancestors (through every parent). */
  private structureChanged(): void {
    if (multiParentNodes === 0) for (let n: Node | undefined = this; n; n = n.parent) n.subtreeRevision++;
    else for (const n of this.ancestorsAndSelf()) n.subtreeRevision++;
  }

  /** Bumps topologyRevision on this node and its ancestors (called after a topological change). */
  topologyChanged(): void {
    if (multiParentNodes === 0) for (let n: Node | undefined = this; n; n = n.parent) n.topologyRevision++;
    else for (const n of this.ancestorsAndSelf()) n.topologyRevision++;
  }

  get root(): Node {
    let n: Node = this;
    while (n.parent) n = n.parent;
    return n;
  }

  /** `/root/child/grandchild`-style path, as SOFA prints node paths. */
  get path(): string {
    return this.parent ? `${this.parent.path}/${this.getName()}` : `/${this.getName()}`;
  }

  getChild(name: string): Node | undefined {
    return this.children.find((c) => c.getName() === name);
  }

  getObjectByName(name: string): BaseObject | undefined {
    return this.objects.find((o) => o.getName() === name);
  }

  // ---- context ------------------------------------------------------------------------------

  getDt(): number {
    return this.dt.value;
  }

  getTime(): number {
    return this.time.value;
  }

  getGravity(): Float64Array {
    return this.gravity.value;
  }

  /**
   * SOFA's context inheritance: a child node's dt, gravity and time are its parent's. SOFA copies
   * them at init and again at every step (UpdateSimulationContextVisitor); here the child's Data
   * follow the parent's through a data link, read lazily: a value set on the root between steps is
   * what every node reads at the next step, and nothing is copied while it does not change.
   */
  inheritContextFromParent(): void {
    const p = this.parent;
    if (!p) return;
    this.dt.setParent(p.dt);
    this.gravity.setParent(p.gravity);
    this.time.setParent(p.time);
  }

  /** Sets the time of this node and its whole subtree. */
  setTime(t: number): void {
    this.visit((n) => {
      n.time.setValue(t);
    });
  }

  // ---- search and traversal -------------------------------------------------------------------

  /**
   * Depth first, a node before its children, children in document order. Return false to prune.
   * In a DAG (SOFA's executeVisitorTopDown): a node is visited once, when the last of its parents
   * inside this subtree has been; it is pruned only when all those parents were.
   */
  visit(fn: (node: Node) => boolean | void): void {
    if (multiParentNodes === 0) this.visitTree(fn);
    else this.visitDag(fn, new Map(), this.descendancy(), this);
  }

  /**
   * `down` in visit order and `up` on the way back, after the node's subtree (an init then bwdInit
   * pass). In a DAG a node's `up` comes after the subtree it was visited from. Return false from
   * `down` to prune (the node's `up` is still called).
   */
  visitDownUp(down: (node: Node) => boolean | void, up: (node: Node) => void): void {
    if (multiParentNodes === 0) this.visitTree(down, up);
    else this.visitDag(down, new Map(), this.descendancy(), this, up);
  }

  private visitTree(fn: (node: Node) => boolean | void, up?: (node: Node) => void): void {
    if (fn(this) !== false) for (const c of this.children) c.visitTree(fn, up);
    up?.(this);
  }

  /** The nodes strictly below this one (SOFA's _descendancy). */
  private descendancy(): Set<Node> {
    const out = new Set<Node>();
    const add = (n: Node): void => {
      for (const c of n.children)
        if (!out.has(c)) {
          out.add(c);
          add(c);
        }
    };
    add(this);
    return out;
  }

  private visitDag(
    fn: (node: Node) => boolean | void,
    status: Map<Node, boolean>,
    below: Set<Node>,
    root: Node,
    up?: (node: Node) => void,
  ): void {
    if (status.has(this)) return;
    let allParentsPruned = true;
    let hasParent = false;
    if (this !== root) {
      for (const p of this.parents) {
        if (p !== root && !below.has(p)) continue; // a parent outside the traversed subgraph
        const visited = status.get(p);
        if (visited === undefined) return; // the other parent comes later
        allParentsPruned &&= !visited;
        hasParent = true;
      }
    }
    // status: true visited, false pruned (its children are still reached: they may have another parent)
    const executed = !(allParentsPruned && hasParent);
    status.set(this, executed && fn(this) !== false);
    for (const c of this.children) c.visitDag(fn, status, below, root, up);
    if (executed) up?.(this);
  }

  /** Every object of the subtree in visit order. */
  *subtreeObjects(): Generator<BaseObject> {
    const order: Node[] = [];
    this.visit((n) => {
      order.push(n);
    });
    for (const n of order) yield* n.objects;
  }

  /**
   * The first object accepted by `pred`, searched as SOFA's context `get<T>` does: 'local' this node
   * only, 'up' this node then its ancestors, 'down' this subtree (visit order), 'root' from the root down.
   */
  getObject<T extends BaseObject>(pred: (o: BaseObject) => o is T, dir: SearchDirection = 'local'): T | undefined {
    if (dir === 'root') return this.root.getObject(pred, 'down');
    if (dir === 'down') {
      for (const o of this.subtreeObjects()) if (pred(o)) return o;
      return undefined;
    }
    for (const o of this.objects) if (pred(o)) return o;
    if (dir === 'up') {
      // SOFA: each parent in turn, searching up from it
      for (const p of this.parents) {
        const found = p.getObject(pred, 'up');
        if (found) return found;
      }
    }
    return undefined;
  }

  getObjects<T extends BaseObject>(pred: (o: BaseObject) => o is T, dir: SearchDirection = 'local'): T[] {
    const out: T[] = [];
    if (dir === 'root') return this.root.getObjects(pred, 'down');
    if (dir === 'down') {
      for (const o of this.subtreeObjects()) if (pred(o)) out.push(o);
      return out;
    }
    for (const n of dir === 'up' ? this.ancestorsAndSelf() : [this]) {
      for (const o of n.objects) if (pred(o)) out.push(o);
    }
    return out;
  }

  /** Sends an event to every object of the subtree (visit order) that did not stop it. */
  propagateEvent(event: SofaEvent): void {
    const caller = componentCall.current;
    this.visit((n) => {
      if (!n.activated.value) return false;
      for (const o of n.objects) {
        componentCall.current = o;
        o.handleEvent(event);
        if (event.handled) return false;
      }
      return true;
    });
    componentCall.current = caller;
  }
}
