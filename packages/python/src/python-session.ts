/*
 * The engine's side of a Python scene (PythonSession, below).
 * Long file: the session's ops (handle) share its handle tables, pending links and reply state;
 * what is not the session is apart: the channel (channel.ts), the python3 process
 * (python-process.ts), the wire formats (wire-values.ts, wire-binary.ts), the controller
 * (python-controller.ts).
 */
import {
  BaseObject,
  Node,
  SceneBuilder,
  SofaError,
  SofaErrors,
  addSceneWarning,
  formatLocation,
  componentCall,
  getSceneFiles,
  host,
  isAnimationLoop,
  isBuiltinPluginName,
  isNode,
  resolveDataPath,
  resolvePath,
  setSceneFiles,
  resolveSearchLinks,
  sceneWarnings,
  SimulationInitDoneEvent,
  AnimateBeginEvent,
  AnimateEndEvent,
  KeypressedEvent,
  KeyreleasedEvent,
  tokens,
  type SofaEvent,
  type ComponentRegistry,
  type Data,
  type SceneElement,
  type SourceLocation,
  type DivergencePolicy,
} from '@sofa-ts/core';
import { Bool, Int, Real, RealArray, Str, StringArray, VecN, IndexArray, isMechanicalState, type DataType } from '@sofa-ts/core';
import { defaultDataPaths } from '@sofa-ts/loader';
import { SofaScene, createRegistry, loadPlugin, loadPlugins, pluginSearchFolders } from 'sofa-ts';
import { Channel, ChannelClosed, type BinaryFrame, type Frame } from './channel.js';
import { PythonController, type PythonCaller } from './python-controller.js';
import { tupleSizeOf, wireOfValue, writeWireInput, type WireInput } from './wire-values.js';
import { BinaryReader, BinaryWriter, FrameKind, readSlot, readWrites, writeValue, type BinaryWrite, type ReadSlot } from './wire-binary.js';

/** What loading a Python scene takes, as loadScene's options for XML scenes. */
export interface PythonSceneOptions {
  dataPaths?: readonly string[];
  dt?: number;
  registry?: ComponentRegistry;
  init?: boolean;
  strict?: boolean;
  skipUnknown?: boolean;
  plugins?: readonly string[];
  outputDir?: string;
  onDivergence?: DivergencePolicy;
  allowPluginPaths?: boolean;
}

/**
 * An error raised by the Python side: its exception, message and traceback, located at the line
 * of the scene's script where it was raised.
 */
export class PythonError extends SofaError {
  constructor(
    readonly pythonType: string,
    readonly pythonMessage: string,
    readonly traceback: string,
    loc: SourceLocation | undefined,
  ) {
    super(`Python ${pythonType}: ${pythonMessage}${traceback ? `\n${traceback.trimEnd()}` : ''}`, loc ? { loc } : {});
    this.name = 'PythonError';
  }
}

type Owner = Node | BaseObject;

/**
 * How long the engine polls for a handler's answer before its read blocks (µs): a handler of a
 * few Data answers within it, and the step goes on without the engine being woken by the kernel
 * (which, on a busy machine, costs more than the poll). Only there: in a handler's run of reads
 * and writes, both sides polling at once on a busy machine slow each other down.
 */
const EVENT_POLL_MICROS = 100;
type Reply = { a: unknown; blobs?: ArrayBufferView[] };

/** Links of a component created from Python that could not be resolved yet (their target comes later). */
interface PendingLinks {
  obj: BaseObject;
  builder: SceneBuilder;
}

/** What Python's attribute access found (Node.__getattr__, Object.__getattr__). */
type Found =
  | { k: 'object'; id: number; cls: string; name: string }
  | { k: 'node'; id: number; name: string }
  | { k: 'data'; owner: number; name: string; type: string; tuple: number }
  | { k: 'link'; owner: number; name: string; target: Found | null }
  | { k: 'none' };

/**
 * The engine's side of a Python scene: the scene graph lives here, Python holds handles (numbers)
 * to its nodes and components and asks for everything through the channel. Every request is
 * answered synchronously; a controller's handler called from inside a step is served by the same
 * loop, so a handler may read and write Data, add objects, print, as in SofaPython3.
 */
export class PythonSession implements PythonCaller {
  private readonly byId = new Map<number, Owner>();
  private readonly idOf = new Map<Owner, number>();
  private nextId = 1;
  /** Bumped whenever a name or the graph changes through Python (Python's attribute caches follow it). */
  private rev = 0;
  private readonly pending: PendingLinks[] = [];
  readonly warnings: SofaError[] = [];
  readonly registry: ComponentRegistry;
  scene: SofaScene | undefined;
  root: Node | undefined;
  /** The root node the engine made for the scene script (newRoot): the scene's root to be. */
  private scriptRoot: Node | undefined;
  /** The scene script, when the session runs one (`sofa-ts run scene.py`). */
  sceneFile: string | undefined;
  private numpyNoteSent = false;
  /** The interpreter's version, as its greeting says. */
  pythonVersion: string | undefined;
  /** Depth of nested calls into Python (a handler calling back the engine calling Python again). */
  private depth = 0;
  /** The binary frames sent (an event, a value), refilled frame after frame. */
  private readonly writer = new BinaryWriter();
  /** Applies one write of a handler (bound once: called for each write of each frame). */
  private readonly applyWrite = (w: BinaryWrite): void => this.writeData(w);
  /** The Data found by name, per owner (findData). */
  private readonly dataByName = new WeakMap<Owner, Map<string, Data<unknown>>>();

  constructor(
    readonly channel: Channel,
    readonly options: PythonSceneOptions = {},
  ) {
    this.registry = options.registry ?? createRegistry();
  }

  // ---- handles -------------------------------------------------------------------------------

  private idFor(o: Owner): number {
    let id = this.idOf.get(o);
    if (id === undefined) {
      id = this.nextId++;
      this.idOf.set(o, id);
      this.byId.set(id, o);
    }
    return id;
  }

  private owner(id: unknown): Owner {
    const o = typeof id === 'number' ? this.byId.get(id) : undefined;
    if (!o) throw new TypeError(`no scene object with handle ${String(id)} (it was removed)`);
    return o;
  }

  private node(id: unknown): Node {
    const o = this.owner(id);
    if (!isNode(o)) throw new TypeError(`${o.describe()} is not a Node`);
    return o;
  }

  private object(id: unknown): BaseObject {
    const o = this.owner(id);
    if (isNode(o)) throw new TypeError(`Node '${o.getName()}' is not an object`);
    return o;
  }

  private objectRef(o: BaseObject): Found {
    return { k: 'object', id: this.idFor(o), cls: o.className, name: o.getName() };
  }

  private dataRef(owner: Owner, d: Data<unknown>): Found {
    return { k: 'data', owner: this.idFor(owner), name: d.name, type: d.spec.type.name, tuple: tupleSizeOf(d) };
  }

  /**
   * A Data by name or alias (or, for a component, a name SOFA renamed), remembered per owner: a
   * handler writes the same Data step after step, and a component's list is searched once.
   */
  private findData(owner: Owner, name: string): Data<unknown> | undefined {
    let known = this.dataByName.get(owner);
    if (!known) this.dataByName.set(owner, (known = new Map()));
    let d = known.get(name);
    if (d) return d;
    d = owner.findData(name) ?? (isNode(owner) ? undefined : owner.findRenamedData(name));
    if (d) known.set(name, d);
    return d;
  }

  /**
   * SOFA's mesh loaders read their file when the scene gives it (at parse), so a scene script can
   * read their outputs, or a Data that follows them, before init (STLIB's Rigidify reads a
   * topology's positions while it builds the graph); sofa-ts loaders read it at init: a loader
   * met through a Data read from Python before the scene's init is initialised then.
   */
  private loadLoadersBehind(d: Data<unknown>): void {
    if (this.scene) return;
    for (let x: Data<unknown> | undefined = d; x; x = x.parent) {
      const o = x.owner as unknown as BaseObject & { isMeshLoader?: boolean };
      if (o.isMeshLoader === true && o.componentState === 'undefined' && o.hasContext) runComponent(o, () => o.init());
    }
  }

  /** A new root node "root" (SofaPython3's loader names it so), with its handle. */
  newRoot(): { node: Node; id: number } {
    const n = new Node('root');
    if (this.sceneFile) n.loc = { file: this.sceneFile, line: 1, column: 1 };
    this.scriptRoot = n;
    return { node: n, id: this.idFor(n) };
  }

  /** The interpreter's first word: it says whether numpy is there; answered before anything else. */
  acceptHello(): void {
    const f = this.channel.receive();
    if (f.binary || f.header['t'] !== 'call' || f.header['op'] !== 'hello')
      throw new SofaError(`python3 did not greet the engine (got ${f.binary ? `binary frame ${f.kind}` : JSON.stringify(f.header)})`);
    const r = this.handle(f);
    if (r instanceof Error || r instanceof Promise) throw new SofaError('python3 greeting failed');
    this.sendReply(r);
  }

  // ---- Node → Python -------------------------------------------------------------------------

  /**
   * Calls Python and serves its requests until it answers (synchronously: the engine waits, as a
   * step waits for a SofaPython3 controller). A Python exception comes back as a PythonError.
   */
  callPython(op: string, args: Record<string, unknown>, blobs: readonly ArrayBufferView[] = []): unknown {
    this.channel.send({ t: 'call', op, a: args, rev: this.revision() }, blobs);
    const f = this.awaitReturn();
    if (f.binary) throw new SofaError(`python3 answered '${op}' with a binary frame (${f.kind})`);
    this.applyWrites(f);
    return f.header['a'];
  }

  /**
   * A controller's handler called with an event (PythonCaller.callEvent): one binary frame each
   * way, the values of the Data it read last time sent with the event.
   */
  callEvent(
    obj: number,
    method: string,
    event: SofaEvent,
    reads: readonly ReadSlot[],
  ): { handled: boolean; reads: Array<{ owner: number; name: string }> | undefined; pythonMs: number } {
    const w = this.writer;
    w.begin(FrameKind.EVENT);
    this.writeRevision(w);
    w.u32(obj);
    w.str(method);
    w.str(event.type);
    w.u8(event.handled ? 1 : 0);
    if (event instanceof AnimateBeginEvent || event instanceof AnimateEndEvent) {
      w.u8(1);
      w.f64(event.dt);
    } else if (event instanceof KeypressedEvent || event instanceof KeyreleasedEvent) {
      w.u8(2);
      w.str(event.key);
    } else w.u8(0); // ResetEvent, SimulationInitDoneEvent and the others: their class name only
    w.u32(reads.length);
    for (const s of reads) {
      w.u32(s.slot);
      const at = w.pos;
      w.u32(0);
      writeValue(w, s, s.data.value);
      w.patchU32(at, w.pos - at - 4);
    }
    this.channel.sendRaw(w.finish());
    const f = this.awaitReturn(EVENT_POLL_MICROS);
    if (!f.binary || f.kind !== FrameKind.EVENT_RET)
      throw new SofaError(`python3 answered an event with ${!f.binary ? 'a JSON frame' : `binary frame ${f.kind}`}`);
    const r = f.reader;
    readWrites(r, this.applyWrite);
    const handled = r.u8() !== 0;
    let list: Array<{ owner: number; name: string }> | undefined;
    if (r.u8() !== 0) {
      const n = r.u32();
      list = [];
      for (let i = 0; i < n; i++) {
        const owner = r.u32();
        list.push({ owner, name: r.str() });
      }
    }
    return { handled, reads: list, pythonMs: 1000 * r.f64() };
  }

  /**
   * Serves Python's requests until it answers (synchronously: the engine waits, as a step waits
   * for a SofaPython3 controller): the JSON `ret` frame, or a binary answer (an event's), returned
   * unread. A Python exception comes back as a PythonError.
   */
  private awaitReturn(pollMicros = 0): Frame | BinaryFrame {
    this.depth++;
    try {
      for (let first = true; ; first = false) {
        const f = this.channel.receive(first ? pollMicros : 0);
        if (f.binary ? f.kind !== FrameKind.GET : f.header['t'] === 'ret') return f;
        if (!f.binary && f.header['t'] === 'err') throw this.pythonError(f.header['a']);
        this.serveRequest(f);
      }
    } finally {
      this.depth--;
    }
  }

  /**
   * One request of Python's made while the engine waits for an answer (a Data read, a call),
   * answered synchronously; also the in-process interpreter's requests (InProcessChannel.server).
   */
  serveRequest(f: Frame | BinaryFrame): void {
    if (f.binary) {
      if (f.kind !== FrameKind.GET) throw new SofaError(`python3 sent binary frame ${f.kind} where a request was due`);
      this.answerGet(f.reader);
      return;
    }
    if (f.header['t'] !== 'call') throw new SofaError(`python3 sent '${String(f.header['t'])}' where a request was due`);
    const r = this.handle(f);
    if (r instanceof Promise) {
      r.catch(() => undefined);
      this.sendError(
        new SofaError(
          `'${String(f.header['op'])}' cannot run inside a step or an event handler (it loads a plugin's code): require the plugin in createScene`,
        ),
      );
    } else if (r instanceof Error) this.sendError(r);
    else this.sendReply(r);
  }

  /** A Data read by Python (binary GET, the writes made before it applied first): its value sent back. */
  private answerGet(r: BinaryReader): void {
    let slot: ReadSlot;
    try {
      readWrites(r, this.applyWrite);
      const owner = this.owner(r.u32());
      const d = this.requireData(owner, r.str());
      this.loadLoadersBehind(d);
      slot = readSlot(d, 0);
    } catch (e) {
      this.sendError(e instanceof Error ? e : new Error(String(e)));
      return;
    }
    const w = this.writer;
    w.begin(FrameKind.VALUE);
    this.writeRevision(w);
    writeValue(w, slot, slot.data.value);
    this.channel.sendRaw(w.finish());
  }

  /** As callPython, for the scene's construction: requests that load plugins (asynchronous) are allowed. */
  async callPythonAsync(op: string, args: Record<string, unknown>): Promise<unknown> {
    this.channel.send({ t: 'call', op, a: args, rev: this.revision() });
    for (;;) {
      const f = this.channel.receive();
      if (f.binary && f.kind === FrameKind.GET) {
        this.answerGet(f.reader);
        continue;
      }
      if (f.binary) throw new SofaError(`python3 answered '${op}' with a binary frame (${f.kind})`);
      const t = f.header['t'];
      if (t === 'ret') {
        this.applyWrites(f);
        return f.header['a'];
      }
      if (t === 'err') throw this.pythonError(f.header['a']);
      await this.answer(f);
    }
  }

  /** Answers one request; a plugin load is awaited. */
  private async answer(f: Frame): Promise<void> {
    let r: Reply | Promise<Reply> | Error = this.handle(f);
    if (r instanceof Promise) r = await r.catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
    if (r instanceof Error) this.sendError(r);
    else this.sendReply(r);
  }

  /**
   * Serves Python as the engine of a Python program (`import Sofa` in python3): requests until
   * Python says goodbye or closes the channel.
   */
  async serve(): Promise<void> {
    for (;;) {
      let f: Frame | BinaryFrame;
      try {
        f = this.channel.receive();
      } catch (e) {
        if (e instanceof ChannelClosed) return;
        throw e;
      }
      if (f.binary && f.kind === FrameKind.GET) {
        this.answerGet(f.reader);
        continue;
      }
      if (f.binary || f.header['t'] !== 'call') continue;
      if (f.header['op'] === 'bye') {
        this.sendReply({ a: null });
        return;
      }
      await this.answer(f);
    }
  }

  private pythonError(a: unknown): PythonError {
    const e = (a ?? {}) as { type?: string; message?: string; traceback?: string; file?: string; line?: number };
    const loc = e.file ? { file: e.file, line: e.line ?? 1, column: 1 } : undefined;
    return new PythonError(e.type ?? 'Exception', e.message ?? '', e.traceback ?? '', loc);
  }

  private sendReply(r: Reply): void {
    this.channel.send({ t: 'ret', a: r.a, rev: this.revision() }, r.blobs ?? []);
  }

  /**
   * The revision Python's attribute caches follow: this session's changes (names, objects,
   * children) and the scene's own (contacts the collision response adds and removes).
   */
  private revision(): [number, number] {
    return [this.rev, this.root?.subtreeRevision ?? 0];
  }

  private writeRevision(w: BinaryWriter): void {
    w.f64(this.rev);
    w.f64(this.root?.subtreeRevision ?? 0);
  }

  /**
   * The Data writes a handler made, sent with its next message rather than one round trip each
   * (in a binary frame's fields, or a JSON frame's first blob when its header says `wb`): applied
   * in order before that message is acted on, each refused value located at the script's line that
   * wrote it.
   */
  private applyWrites(f: Frame): void {
    if (f.header['wb'] !== true) return;
    const b = f.blobs[0];
    if (!b) throw new SofaError('malformed frame from python3: its writes are missing');
    readWrites(new BinaryReader(Buffer.from(b.buffer, b.byteOffset, b.byteLength)), this.applyWrite);
  }

  /** One write of a handler (or of the engine's Python program), as the dataSet request does it. */
  private writeData(w: BinaryWrite): void {
    try {
      const owner = this.owner(w.owner);
      const d = this.requireData(owner, w.name);
      if (w.from) {
        const src = this.requireData(this.owner(w.from.owner), w.from.name);
        writeWireInput(d, { text: src.print() }, []);
      } else writeWireInput(d, w.value!, w.blobs, (detail) => this.lenient(owner, detail, w as unknown as Record<string, unknown>));
      if (d.name === 'name') this.rev++;
    } catch (e) {
      const loc = locOf(w as unknown as Record<string, unknown>);
      // said in the text too: Python raises it at a later line (the message that carried the write)
      const where = loc ? ` at ${loc.file}:${loc.line}` : '';
      throw new SofaError(`the value written to '${w.name}'${where} was refused: ${(e as Error).message}`, loc ? { loc } : {});
    }
  }

  /** The Data a handle and a name designate (for a controller's prefetched reads), or undefined. */
  dataOf(owner: unknown, name: string): Data<unknown> | undefined {
    const o = typeof owner === 'number' ? this.byId.get(owner) : undefined;
    return o ? this.findData(o, name) : undefined;
  }

  private sendError(e: unknown): void {
    const err = e as Error;
    // SofaPython3 raises ValueError for what a component refuses, TypeError/AttributeError for API misuse
    const kind = err instanceof TypeError ? 'TypeError' : err instanceof AttributeError ? 'AttributeError' : 'ValueError';
    // Python locates the exception at the script's line: the same location is not repeated in its text
    let message = err instanceof Error ? err.message : String(e);
    if (err instanceof SofaError && err.loc) {
      const where = `${formatLocation(err.loc)}: `;
      message = message
        .split('\n')
        .map((l) => (l.startsWith(where) ? l.slice(where.length) : l))
        .join('\n');
    }
    this.channel.send({ t: 'err', a: { kind, message }, rev: this.revision() });
  }

  /** One request from Python, answered (or a promise of the answer: plugin loading). */
  private handle(f: Frame): Reply | Promise<Reply> | Error {
    const op = String(f.header['op']);
    const a = (f.header['a'] ?? {}) as Record<string, unknown>;
    const fn = this.ops[op];
    try {
      this.applyWrites(f);
      if (!fn) throw new TypeError(`unknown request '${op}' (the Python package and the engine are of different versions?)`);
      return fn.call(this, a, f.blobs);
    } catch (e) {
      return e instanceof Error ? e : new Error(String(e));
    }
  }

  // ---- Python → Node -------------------------------------------------------------------------

  private readonly ops: Record<string, (this: PythonSession, a: Record<string, unknown>, blobs: Uint8Array[]) => Reply | Promise<Reply>> = {
    hello(a) {
      this.pythonVersion = typeof a['python'] === 'string' ? a['python'] : undefined;
      if (a['numpy'] === false && !this.numpyNoteSent) {
        this.numpyNoteSent = true;
        this.addWarning(
          new SofaError('numpy is not importable in this python3: Data values are plain lists (install python3-numpy for arrays)'),
        );
      }
      return { a: { engine: 'sofa-ts', version: '0.1.0' } };
    },
    newNode(a) {
      const n = new Node(String(a['name'] ?? 'unnamed'));
      n.loc = locOf(a);
      this.rev++;
      return { a: this.idFor(n) };
    },
    addChild(a) {
      const parent = this.node(a['node']);
      let child: Node;
      if (a['child'] !== undefined) {
        // a node that already has a parent gets a second one: SOFA's DAG scene graph
        child = this.node(a['child']);
        if (child.parents.includes(parent)) {
          // SOFA lists it twice among the children and visits it once: nothing changes
          this.addWarning(
            new SofaError(`Node '${child.getName()}' is already a child of Node '${parent.getName()}': added once`, { loc: locOf(a) }),
          );
          return { a: this.idFor(child) };
        }
      } else {
        child = new Node(String(a['name']));
        child.loc = locOf(a);
      }
      this.setNodeAttributes(child, (a['attrs'] ?? {}) as Record<string, string>, locOf(a));
      // what the components of a prefab warned about while it was detached (an init from Python) joins the scene's warnings
      if (child.parents.length === 0) this.warnings.push(...sceneWarnings(child).splice(0));
      parent.addChild(child);
      if (this.scene) child.inheritContextFromParent();
      this.rev++;
      return { a: this.idFor(child) };
    },
    removeChild(a) {
      const parent = this.node(a['node']);
      parent.removeChild(this.node(a['child']));
      this.rev++;
      return { a: null };
    },
    addObject(a) {
      const node = this.node(a['node']);
      const type = String(a['type']);
      const attrs = { ...((a['attrs'] ?? {}) as Record<string, string>) };
      const loc = locOf(a) ?? { file: '<python>', line: 1, column: 1 };
      if (type === 'RequiredPlugin') {
        const p = this.requirePlugins(attrs, loc);
        if (p) return p.then(() => ({ a: this.createObject(node, type, attrs, loc) }));
      }
      return { a: this.createObject(node, type, attrs, loc) };
    },
    newController(a) {
      const methods = new Set((a['methods'] as string[] | undefined) ?? []);
      const c = new PythonController(this, Number(a['py']), methods);
      c.pythonClass = String(a['cls'] ?? 'Controller');
      c.loc = locOf(a);
      c.name.value = String(a['name'] ?? c.pythonClass);
      const attrs = (a['attrs'] ?? {}) as Record<string, string>;
      for (const [k, v] of Object.entries(attrs)) {
        const d = c.findData(k);
        if (d) d.read(v);
      }
      return { a: this.idFor(c) };
    },
    attachObject(a) {
      const node = this.node(a['node']);
      const obj = this.object(a['obj']);
      if (obj.hasContext) throw new ValueError(`${obj.describe()} is already in Node '${obj.context.getName()}'`);
      node.addObject(obj);
      this.rev++;
      return { a: this.objectRef(obj) };
    },
    removeObject(a) {
      const node = this.node(a['node']);
      node.removeObject(this.object(a['obj']));
      this.rev++;
      return { a: null };
    },
    nodeInfo(a) {
      const n = this.node(a['node']);
      return {
        a: {
          name: n.getName(),
          path: nodePathName(n),
          parent: n.parent ? this.idFor(n.parent) : null,
          parents: n.parents.map((p) => this.idFor(p)),
          objects: n.objects.map((o) => this.objectRef(o)),
          children: n.children.map((c) => ({ k: 'node', id: this.idFor(c), name: c.getName() })),
          data: n.dataFields.map((d) => d.name),
        },
      };
    },
    objInfo(a) {
      const o = this.object(a['obj']);
      return {
        a: {
          cls: o.className,
          name: o.getName(),
          template: o.template,
          node: o.hasContext ? this.idFor(o.context) : null,
          path: o.hasContext ? objectPath(o) : null,
          data: o.dataFields.map((d) => d.name),
          links: o.links.map((l) => l.name),
        },
      };
    },
    /** node.name: an object, then a child, then a Data (SofaPython3's Node.__getattr__ order). */
    nodeAttr(a) {
      const n = this.node(a['node']);
      const name = String(a['name']);
      const obj = n.getObjectByName(name);
      if (obj) return { a: this.objectRef(obj) };
      const child = n.getChild(name);
      if (child) return { a: { k: 'node', id: this.idFor(child), name: child.getName() } };
      const d = n.findData(name);
      if (d) return { a: this.dataRef(n, d) };
      return { a: { k: 'none' } };
    },
    /** object.name: a Data, then a link (its target). */
    objAttr(a) {
      const o = this.object(a['obj']);
      const name = String(a['name']);
      const d = this.findData(o, name);
      if (d) return { a: this.dataRef(o, d) };
      const l = o.findLink(name);
      if (l) {
        const t = l.get();
        const target: Found | null =
          t === undefined
            ? null
            : isNode(t)
              ? { k: 'node', id: this.idFor(t), name: t.getName() }
              : t instanceof BaseObject
                ? this.objectRef(t)
                : null;
        return { a: { k: 'link', owner: this.idFor(o), name: l.name, target, path: l.linkPath ?? '' } };
      }
      return { a: { k: 'none' } };
    },
    getMechanicalState(a) {
      const n = this.node(a['node']);
      const s = n.objects.find((o) => isMechanicalState(o));
      return { a: s ? this.objectRef(s) : null };
    },
    dataGet(a) {
      const owner = this.owner(a['owner']);
      const d = this.requireData(owner, String(a['name']));
      this.loadLoadersBehind(d);
      const blobs: ArrayBufferView[] = [];
      const v = wireOfValue(d, d.value, blobs);
      return { a: v, blobs };
    },
    dataSet(a, blobs) {
      const owner = this.owner(a['owner']);
      const d = this.requireData(owner, String(a['name']));
      const from = a['from'] as { owner: number; name: string } | undefined;
      if (from) {
        const src = this.requireData(this.owner(from.owner), from.name);
        writeWireInput(d, { text: src.print() }, []);
      } else writeWireInput(d, a['value'] as WireInput, blobs, (detail) => this.lenient(owner, detail, a));
      if (d.name === 'name') this.rev++;
      return { a: null };
    },
    dataInfo(a) {
      const owner = this.owner(a['owner']);
      const d = this.requireData(owner, String(a['name']));
      const p = d.parent;
      const parentOwner = p?.owner as Owner | undefined;
      const parentPath =
        p && parentOwner
          ? `@${isNode(parentOwner) ? nodePathName(parentOwner) : parentOwner instanceof BaseObject && parentOwner.hasContext ? objectPath(parentOwner) : parentOwner.getName()}.${p.name}`
          : '';
      // the text first: reading the value may compute it (a container's derived list), which sets it
      const text = d.print();
      return {
        a: {
          type: d.spec.type.name,
          tuple: tupleSizeOf(d),
          isSet: d.isSet,
          help: d.spec.help,
          group: d.spec.group ?? '',
          parent: parentPath,
          text,
        },
      };
    },
    dataText(a) {
      const d = this.requireData(this.owner(a['owner']), String(a['name']));
      return { a: d.print() };
    },
    dataSetParent(a) {
      const owner = this.owner(a['owner']);
      const d = this.requireData(owner, String(a['name']));
      const from = a['from'] as { owner: number; name: string } | undefined;
      let parent: Data<unknown> | undefined;
      if (from) parent = this.requireData(this.owner(from.owner), from.name);
      else {
        const path = String(a['path'] ?? '');
        parent = resolveDataPath(owner, path.startsWith('@') ? path : `@${path}`);
        if (!parent) throw new ValueError(`setParent: no Data at '${path}'`);
      }
      d.setParent(parent);
      return { a: null };
    },
    addData(a, blobs) {
      const owner = this.owner(a['owner']);
      const name = String(a['name']);
      if (owner.findData(name))
        throw new ValueError(`${isNode(owner) ? `Node '${owner.getName()}'` : owner.describe()} already has a Data '${name}'`);
      const value = a['value'] as WireInput | undefined;
      const help = String(a['help'] ?? ''),
        group = String(a['group'] ?? '');
      // SofaPython3: a link ('@path/to.data') as the value makes a Data of the linked one's type
      // (`type` is not read), whose parent it is
      const link = value && 'text' in value && value.text.trim().startsWith('@') ? value.text.trim() : undefined;
      if (link !== undefined) {
        const parent = resolveDataPath(owner, link);
        if (!parent) throw new TypeError(`addData '${name}': no Data at '${link}' to take its type from`);
        const d = (owner as unknown as { addDynamicData: (spec: unknown) => Data<unknown> }).addDynamicData({
          name,
          type: parent.spec.type,
          default: parent.spec.default,
          help,
          ...(group ? { group } : {}),
        });
        d.setParent(parent);
        return { a: this.dataRef(owner, d) };
      }
      const d = addDynamicData(owner, name, String(a['type'] ?? ''), help, group);
      if (value) writeWireInput(d, value, blobs, (detail) => this.lenient(owner, detail, a));
      return { a: this.dataRef(owner, d) };
    },
    objInit(a) {
      const o = this.object(a['obj']);
      this.resolvePending();
      for (const d of o.dataFields) this.loadLoadersBehind(d);
      runComponent(o, () => o.init());
      return { a: null };
    },
    objMethod(a) {
      const o = this.object(a['obj']);
      const m = String(a['method']);
      if (m === 'reinit' || m === 'bwdInit' || m === 'reset' || m === 'cleanup') {
        const f = (o as unknown as Record<string, unknown>)[m];
        if (typeof f === 'function') runComponent(o, () => (f as () => void).call(o));
        return { a: null };
      }
      throw new AttributeError(`'${o.className}' object has no method '${m}'`);
    },
    /**
     * node.init(): SOFA's InitVisitor on the node's subtree. The scene's root (or a parentless node
     * when no root is known yet) starts the scene as Sofa.Simulation.init does; another node (a
     * prefab being built, as SoftFingerDesign's ActuatedFinger initialises its ElasticBody) has the
     * objects of its subtree initialised now, and again at the scene's init (as in SOFA).
     */
    nodeInit(a) {
      const n = this.node(a['node']);
      const isSceneRoot = n === this.root || n === this.scriptRoot || (!this.scriptRoot && !this.root && n.parents.length === 0);
      if (isSceneRoot || this.scene) {
        this.initScene(n.root);
        return { a: null };
      }
      this.resolvePending();
      n.visitDownUp(
        (m) => {
          m.inheritContextFromParent();
          for (const o of m.objects) {
            for (const d of o.dataFields) this.loadLoadersBehind(d);
            runComponent(o, () => {
              resolveSearchLinks(o);
              o.init();
            });
          }
        },
        (m) => {
          for (const o of m.objects) runComponent(o, () => o.bwdInit());
        },
      );
      return { a: null };
    },
    /** Sofa.Simulation.init(node): the scene is finished and initialised. */
    simInit(a) {
      const n = this.node(a['node']);
      this.initScene(n.root);
      return { a: null };
    },
    simAnimate(a) {
      const n = this.node(a['node']);
      const scene = this.initScene(n.root);
      const dt = a['dt'];
      scene.step(1, typeof dt === 'number' && dt > 0 ? dt : undefined);
      return { a: scene.time };
    },
    simReset(a) {
      const scene = this.initScene(this.node(a['node']).root);
      scene.reset();
      return { a: null };
    },
    simLoad(a) {
      return this.loadXmlScene(String(a['file']));
    },
    msg(a) {
      const level = String(a['level']);
      const text = String(a['text']);
      const emitter = a['emitter'] ? String(a['emitter']) : undefined;
      const loc = locOf(a);
      const e = new SofaError(text, { ...(loc ? { loc } : {}), ...(emitter ? { component: emitter } : {}) });
      if (level === 'error' || level === 'warning' || level === 'deprecated') {
        if (this.scene) addSceneWarning(this.scene.root, e);
        else this.addWarning(e);
      } else {
        process.stderr.write(`[INFO] ${emitter ? `${emitter}: ` : ''}${text}\n`);
      }
      return { a: null };
    },
    linkPathOf(a) {
      const o = this.owner(a['id']);
      return { a: `@${isNode(o) ? nodePathName(o) : objectPath(o)}` };
    },
    getItem(a) {
      // node['child/obj.data'] or node['obj']
      const n = this.node(a['node']);
      const path = String(a['path']);
      const dot = path.lastIndexOf('.');
      const slash = path.lastIndexOf('/');
      if (dot > slash) {
        const d = resolveDataPath(n, `@${path}`);
        if (d) return { a: this.dataRef(d.owner as Owner, d) };
      }
      const t = resolvePath(n, path.startsWith('/') ? path : `./${path}`);
      if (t?.kind === 'object') return { a: this.objectRef(t.object) };
      if (t?.kind === 'node') return { a: { k: 'node', id: this.idFor(t.node), name: t.node.getName() } };
      return { a: { k: 'none' } };
    },
  };

  private requireData(owner: Owner, name: string): Data<unknown> {
    const d = this.findData(owner, name);
    if (!d) throw new AttributeError(`${isNode(owner) ? `Node '${owner.getName()}'` : owner.describe()} has no Data '${name}'`);
    return d;
  }

  private setNodeAttributes(node: Node, attrs: Record<string, string>, loc: SourceLocation | undefined): void {
    for (const [k, v] of Object.entries(attrs)) {
      if (k === 'name') continue;
      const d = node.findData(k);
      if (!d) {
        this.warn(
          new SofaError(`unused attribute '${k}' of Node (it names no Data of a Node)`, {
            ...(loc ? { loc } : {}),
            component: `Node '${node.getName()}'`,
            code: 'unused-attribute',
          }),
        );
        continue;
      }
      d.loc = loc;
      if (v.trim().startsWith('@')) {
        const p = resolveDataPath(node, v.trim());
        if (!p) throw new ValueError(`Node '${node.getName()}': data link '${k}': nothing at '${v}'`);
        d.setParent(p);
      } else d.read(v);
    }
  }

  /** A value read as SOFA would, though not as written: a located warning. */
  private lenient(owner: Owner, detail: string, a: Record<string, unknown>): void {
    const loc = locOf(a);
    this.warn(
      new SofaError(detail, {
        ...(loc ? { loc } : {}),
        component: isNode(owner) ? `Node '${owner.getName()}'` : owner.describe(),
        code: 'xml-leniency',
      }),
    );
  }

  private warn(w: SofaError): void {
    if (this.options.strict) throw w;
    this.addWarning(w);
  }

  /**
   * Where warnings go: to `warningSink` as they come (the engine of a Python program prints them),
   * else kept for the scene, whose warnings the CLI reports.
   */
  warningSink: ((w: SofaError) => void) | undefined;

  /** Python runs as a separate process though it could have run in this one: said once, with why. */
  noteOutOfProcess(reason: string): void {
    this.addWarning(
      new SofaError(
        `python3 runs as a separate process, not in the engine's (${reason}): the scene's results are the same, its controllers' calls slower`,
        this.sceneFile ? { loc: { file: this.sceneFile, line: 1, column: 1 } } : {},
      ),
    );
  }

  private addWarning(w: SofaError): void {
    if (this.warningSink) this.warningSink(w);
    else this.warnings.push(w);
  }

  /** RequiredPlugin: SOFA modules are built in; other names are npm plugin packages, loaded now. */
  private requirePlugins(attrs: Record<string, string>, loc: SourceLocation): Promise<void> | undefined {
    const names =
      attrs['pluginName'] !== undefined && attrs['pluginName'].trim() !== ''
        ? tokens(attrs['pluginName'])
        : attrs['name']
          ? [attrs['name'].trim()]
          : [];
    const missing = names.filter((n) => !isBuiltinPluginName(n) && n !== 'SofaPython3' && !this.registry.hasPlugin(n));
    if (missing.length === 0) return undefined;
    return (async () => {
      for (const name of missing) {
        try {
          await loadPlugin(
            name,
            this.registry,
            pluginSearchFolders(this.sceneFile),
            this.options.allowPluginPaths !== undefined ? { allowPaths: this.options.allowPluginPaths } : {},
          );
        } catch (e) {
          throw new SofaError(`cannot load plugin '${name}': ${(e as Error).message}`, {
            loc,
            component: `RequiredPlugin '${name}'`,
            code: 'missing-plugin',
          });
        }
      }
    })();
  }

  /**
   * Creates a component with SOFA's attribute rules (the same parsing, aliases, templates and
   * warnings as a scene file), named after the type it was asked by when unnamed (SofaPython3's
   * rule: its object description is named by the type string, with no counter, so an alias such as
   * GenericConstraintSolver names the object it creates `GenericConstraintSolver`, which scenes
   * then find by that name). Its links are resolved now when their targets exist, else at init
   * (SOFA resolves links lazily).
   */
  private createObject(node: Node, type: string, attrs: Record<string, string>, loc: SourceLocation): Found {
    if (this.registry.find(type) && (attrs['name'] === undefined || attrs['name'] === '')) attrs['name'] = type;
    const builder = new SceneBuilder(this.registry, {
      ...(this.options.strict ? { strict: true } : {}),
      ...(this.options.skipUnknown ? { skipUnknown: true } : {}),
    });
    const el: SceneElement = {
      tag: type,
      attributes: Object.entries(attrs).map(([name, value]) => ({ name, value, loc })),
      children: [],
      loc,
      file: loc.file,
    };
    const obj = builder.buildObject(el, node);
    if (!obj) {
      builder.throwIfErrors();
      // left out under --skip-unknown: said in the warnings
      for (const w of builder.warnings) this.addWarning(w);
      return { k: 'none' };
    }
    if (builder.errors.length > 0) {
      node.removeObject(obj);
      builder.throwIfErrors();
    }
    for (const w of builder.warnings) this.addWarning(w);
    builder.warnings.length = 0;
    if (linksResolvable(obj)) this.resolveLinks({ obj, builder });
    else this.pending.push({ obj, builder });
    this.rev++;
    return this.objectRef(obj);
  }

  private resolveLinks(p: PendingLinks): void {
    p.builder.resolveObjectLinks(p.obj);
    p.builder.resolveSrcLinks();
    for (const w of p.builder.warnings) this.addWarning(w);
    p.builder.warnings.length = 0;
    if (p.builder.errors.length > 0) {
      const errors = p.builder.errors.splice(0);
      throw errors.length === 1 ? errors[0] : new SofaErrors(errors);
    }
  }

  /** Resolves the links left for later (their targets were created after them). */
  resolvePending(): void {
    const errors: SofaError[] = [];
    for (const p of this.pending.splice(0)) {
      try {
        this.resolveLinks(p);
      } catch (e) {
        if (e instanceof SofaErrors) errors.push(...e.errors);
        else if (e instanceof SofaError) errors.push(e);
        else throw e;
      }
    }
    if (errors.length > 0) throw errors.length === 1 ? errors[0] : new SofaErrors(errors);
  }

  /**
   * The scene finished (after createScene, or at Sofa.Simulation.init): links resolved, a
   * DefaultAnimationLoop added to a root that has none (as SOFA), data paths set, and init run.
   */
  initScene(root: Node): SofaScene {
    if (this.scene && this.scene.root === root) return this.scene;
    if (this.scene) throw new ValueError(`the engine already runs the scene of Node '${this.scene.root.getName()}'; one scene per engine`);
    this.resolvePending();
    if (!root.objects.some(isAnimationLoop)) {
      const loop = this.registry.create('DefaultAnimationLoop');
      loop.name.value = 'DefaultAnimationLoop';
      root.objects.unshift(loop);
      loop.setContext(root);
    }
    const h = host();
    const dataPaths = [...(this.options.dataPaths ?? []), ...defaultDataPaths()].map((p) => h.path.resolve(p));
    if (!getSceneFiles(root))
      setSceneFiles(root, {
        ...(this.sceneFile ? { sceneFile: this.sceneFile } : {}),
        dataPaths,
        ...(this.options.outputDir ? { outputDir: h.path.resolve(this.options.outputDir) } : {}),
      });
    if (this.options.dt !== undefined) root.dt.value = this.options.dt;
    const scene = new SofaScene(root, this.registry, this.sceneFile);
    if (this.options.onDivergence) scene.onDivergence = this.options.onDivergence;
    scene.warnings.push(...this.warnings.splice(0));
    if (this.warningSink) scene.onWarning(this.warningSink);
    this.scene = scene;
    this.root = root;
    this.rev++;
    if (this.options.init ?? true) {
      const before = scene.warnings.length;
      scene.init();
      root.propagateEvent(new SimulationInitDoneEvent());
      const late = scene.warnings.slice(before);
      if (this.options.strict && late.length > 0) throw late.length === 1 ? late[0] : new SofaErrors(late);
    }
    return scene;
  }

  /** Sofa.Simulation.load(file): an XML scene loaded by the engine, handed to Python as its root. */
  private async loadXmlScene(file: string): Promise<Reply> {
    const { loadScene } = await import('sofa-ts');
    if (this.scene) throw new ValueError('the engine already runs a scene; one scene per engine');
    const scene = await loadScene(file, {
      registry: this.registry,
      init: false,
      ...(this.options.dataPaths ? { dataPaths: this.options.dataPaths } : {}),
    });
    this.root = scene.root;
    return { a: this.idFor(scene.root) };
  }

  /** Loads --plugin packages before the scene. */
  async loadCommandLinePlugins(): Promise<void> {
    if (this.options.plugins?.length) await loadPlugins(this.options.plugins, this.registry, this.sceneFile);
  }
}

export class AttributeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AttributeError';
  }
}

export class ValueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ValueError';
  }
}

function locOf(a: Record<string, unknown>): SourceLocation | undefined {
  const file = a['file'];
  if (typeof file !== 'string' || file === '') return undefined;
  return { file, line: typeof a['line'] === 'number' ? a['line'] : 1, column: 1 };
}

/** SOFA's path name of a node: '/' for the root, '/child/grandchild' below it (the root's name left out). */
function nodePathName(n: Node): string {
  const names: string[] = [];
  for (let m: Node | undefined = n; m?.parent; m = m.parent) names.unshift(m.getName());
  return `/${names.join('/')}`;
}

/** SOFA's path name of a component: its node's, then its name. */
function objectPath(o: BaseObject): string {
  const p = nodePathName(o.context);
  return `${p === '/' ? '' : p}/${o.getName()}`;
}

/** Whether every `@` link of a new component names something that exists already. */
function linksResolvable(obj: BaseObject): boolean {
  for (const d of obj.dataFields) if (d.linkPath !== undefined && !resolveDataPath(obj, d.linkPath)) return false;
  for (const l of obj.links) {
    if (l.linkPath === undefined) continue;
    const paths = l.spec.multi ? l.linkPath.split(/\s+/).filter((p) => p !== '') : [l.linkPath];
    if (paths.some((p) => p.startsWith('@') && !resolvePath(obj, p))) return false;
  }
  return true;
}

/** Runs a component's method as the running component (its errors come out located). */
function runComponent(o: BaseObject, fn: () => void): void {
  const caller = componentCall.current;
  componentCall.current = o;
  try {
    fn();
  } finally {
    componentCall.current = caller;
  }
}

/** `addData` of SofaPython3: a Data declared at run time on a component or a node. */
function addDynamicData(owner: Owner, name: string, type: string, help: string, group: string): Data<unknown> {
  const adder = (owner as unknown as { addDynamicData?: (spec: unknown) => Data<unknown> }).addDynamicData;
  if (typeof adder !== 'function')
    throw new TypeError(`cannot add a Data to ${isNode(owner) ? `Node '${owner.getName()}'` : owner.describe()}`);
  const t = dataTypeOfPythonName(type);
  return adder.call(owner, { name, type: t.type, default: t.default, help, ...(group ? { group } : {}) });
}

/** SofaPython3's addData type names (SOFA's type names) to Data types, with their zero value. */
function dataTypeOfPythonName(type: string): { type: DataType<unknown>; default: unknown } {
  const t = type.trim();
  const u = (dt: DataType<unknown>, def: unknown) => ({ type: dt, default: def });
  const scalars: Record<string, { type: DataType<unknown>; default: unknown }> = {
    float: u(Real as DataType<unknown>, 0),
    double: u(Real as DataType<unknown>, 0),
    int: u(Int as DataType<unknown>, 0),
    'unsigned int': u(Int as DataType<unknown>, 0),
    bool: u(Bool as DataType<unknown>, false),
    string: u(Str as DataType<unknown>, ''),
    str: u(Str as DataType<unknown>, ''),
    'vector<string>': u(StringArray as DataType<unknown>, []),
    'vector<int>': u(IndexArray(1) as DataType<unknown>, new Uint32Array(0)),
    'vector<unsigned int>': u(IndexArray(1) as DataType<unknown>, new Uint32Array(0)),
    RGBAColor: u(VecN(4, 'RGBAColor') as DataType<unknown>, Float64Array.of(1, 1, 1, 1)),
    Quatd: u(VecN(4, 'Quatd') as DataType<unknown>, Float64Array.of(0, 0, 0, 1)),
    Quat: u(VecN(4, 'Quatd') as DataType<unknown>, Float64Array.of(0, 0, 0, 1)),
  };
  if (scalars[t]) return scalars[t];
  let m = /^Vec(\d)[df]?$/.exec(t);
  if (m) return u(VecN(Number(m[1])) as DataType<unknown>, new Float64Array(Number(m[1])));
  m = /^(?:vector<Vec(\d)[df]?>|Vec(\d)[df]?Vector)$/.exec(t);
  if (m) {
    const k = Number(m[1] ?? m[2]);
    return u(RealArray(k, `vector<Vec${k}d>`) as DataType<unknown>, new Float64Array(0));
  }
  if (/^vector<(double|float)>$/.test(t)) return u(RealArray(1) as DataType<unknown>, new Float64Array(0));
  if (/^(vector<Rigid3[df]?(::Coord)?>|Rigid3[df]?(Types)?::VecCoord)$/.test(t))
    return u(RealArray(7, 'vector<Rigid3d>') as DataType<unknown>, new Float64Array(0));
  if (t === 'Rigid3d' || t === 'Rigid3d::Coord')
    return u(VecN(7, 'Rigid3d::Coord') as DataType<unknown>, Float64Array.of(0, 0, 0, 0, 0, 0, 1));
  throw new TypeError(
    `addData: unknown type '${type}' (types: float, double, int, bool, string, VecNd, vector<VecNd>, vector<double>, vector<int>, vector<string>, RGBAColor, Quatd, Rigid3d)`,
  );
}
