import type { BaseObject } from './base-object.js';
import { DataParseError } from './data-types.js';
import type { Data } from './data.js';
import { SofaError, SofaErrors, didYouMean, type SourceLocation } from './errors.js';
import { isAnimationLoop } from './behavior/solvers.js';
import { Node } from './node.js';
import { resolveDataPath, resolvePath, splitDataPath } from './paths.js';
import type { Link } from './link.js';
import type { ComponentRegistry } from './registry.js';
import type { SceneAttribute, SceneElement } from './scene-description.js';
import { canonicalTemplate } from './state-types.js';

/** Data names never copied through a `src` link: those every component has, and (as SOFA)
 *  `filename` and `type`. Source Data declared with `autoLink: false` are not copied either. */
const notCopiedBySrc = new Set(['name', 'printLog', 'tags', 'bbox', 'listening', 'filename', 'type']);

/**
 * Builds the scene graph from loaded elements: nodes and components created through the
 * registry, attributes parsed into Data, unnamed components named ClassName + per-node counter,
 * then every `@` link resolved. All problems are collected and thrown together as SofaErrors.
 */
export function buildScene(rootElement: SceneElement, registry: ComponentRegistry, warnings?: SofaError[]): Node {
  const b = new SceneBuilder(registry);
  const root = b.buildNode(rootElement, undefined);
  if (!root.objects.some(isAnimationLoop) && registry.find('DefaultAnimationLoop')) {
    // SOFA adds a DefaultAnimationLoop to a root that has none.
    const loop = registry.create('DefaultAnimationLoop');
    loop.name.value = 'DefaultAnimationLoop';
    loop.loc = rootElement.loc;
    root.objects.unshift(loop);
    loop.setContext(root);
  }
  b.resolveLinks(root);
  b.throwIfErrors();
  warnings?.push(...b.warnings);
  return root;
}

/**
 * Adds one component to an existing scene from SOFA attribute strings, with the same parsing,
 * checks and link resolution as a scene file (the way to build scenes in code).
 */
export function addObjectFromAttributes(registry: ComponentRegistry, node: Node, type: string, attributes: Record<string, string>, loc: SourceLocation = { file: '<code>', line: 1, column: 1 }): BaseObject {
  const b = new SceneBuilder(registry);
  const el: SceneElement = { tag: type, attributes: Object.entries(attributes).map(([name, value]) => ({ name, value, loc })), children: [], loc, file: loc.file };
  const obj = b.buildObject(el, node);
  if (obj) {
    b.resolveObjectLinks(obj);
    b.resolveSrcLinks();
  }
  if (obj && b.errors.length > 0) node.removeObject(obj);
  b.throwIfErrors();
  return obj!;
}

/** Makes `name` unique in its node the SOFA way: ClassName1, ClassName2, ... */
export function autoName(node: Node, obj: BaseObject): void {
  if (obj.getName() !== '') return;
  const base = obj.className;
  let k = 1;
  const taken = new Set(node.objects.map((o) => o.getName()));
  while (taken.has(`${base}${k}`)) k++;
  obj.name.value = `${base}${k}`;
}

export class SceneBuilder {
  readonly errors: SofaError[] = [];
  /**
   * Problems of visual components (category 'Visual'): an unknown attribute or a `src` that finds
   * nothing. They cannot change the simulated result, so the scene still loads, as SOFA's does.
   */
  readonly warnings: SofaError[] = [];
  /** Component elements whose `src` attribute asks to copy same-named Data from another object. */
  private readonly srcLinks: Array<{ obj: BaseObject; path: string; loc: SourceLocation; visual: boolean }> = [];

  constructor(private readonly registry: ComponentRegistry) {}

  throwIfErrors(): void {
    if (this.errors.length > 0) throw this.errors.length === 1 ? this.errors[0]! : new SofaErrors(this.errors);
  }

  buildNode(el: SceneElement, parent: Node | undefined): Node {
    const node = new Node();
    node.loc = el.loc;
    if (parent) parent.addChild(node);
    for (const a of el.attributes) this.setNodeAttribute(node, a);
    for (const child of el.children) {
      if (child.tag === 'Node' || child.tag === 'node') this.buildNode(child, node);
      else this.buildObject(child, node);
    }
    return node;
  }

  private setNodeAttribute(node: Node, a: SceneAttribute): void {
    const d = node.findData(a.name);
    if (!d) {
      this.errors.push(new SofaError(`unknown attribute '${a.name}' of Node`, { loc: a.loc, component: `Node '${node.getName()}'`, ...hint(a.name, node.dataFields.map((f) => f.name)) }));
      return;
    }
    this.readData(d, a, `Node '${node.getName()}'`);
  }

  /** Creates the component of `el` in `node` (links are resolved later). */
  buildObject(el: SceneElement, node: Node): BaseObject | undefined {
    const entry = this.registry.find(el.tag);
    if (!entry) {
      this.errors.push(new SofaError(`unknown component '${el.tag}'`, { loc: el.loc, ...hint(el.tag, this.registry.names()) }));
      return undefined;
    }
    let obj: BaseObject;
    try {
      obj = this.registry.create(el.tag);
    } catch (e) {
      this.errors.push(new SofaError(`cannot create component '${el.tag}': ${(e as Error).message}`, { loc: el.loc }));
      return undefined;
    }
    obj.loc = el.loc;
    const nameAttr = el.attributes.find((a) => a.name === 'name');
    const who = `${entry.info.name} '${nameAttr?.value ?? ''}'`;
    if (el.children.length > 0) {
      this.errors.push(new SofaError(`a component element cannot contain other elements (found <${el.children[0]!.tag}>)`, { loc: el.children[0]!.loc, component: who }));
    }
    for (const a of el.attributes) {
      if (a.name === 'template') {
        this.setTemplate(obj, entry.info.templates, a, who);
        continue;
      }
      if (a.name === 'src') {
        this.srcLinks.push({ obj, path: a.value.trim(), loc: a.loc, visual: entry.info.category === 'Visual' });
        continue;
      }
      const d = obj.findData(a.name);
      if (d) {
        this.readData(d, a, who);
        continue;
      }
      const l = obj.findLink(a.name);
      if (l) {
        const v = a.value.trim();
        if (v === '') continue;
        if (!v.startsWith('@')) {
          this.errors.push(new SofaError(`attribute '${a.name}' is a link and expects '@path' (e.g. '@../${v}')`, { loc: a.loc, component: who }));
          continue;
        }
        l.linkPath = v;
        l.loc = a.loc;
        continue;
      }
      const names = [...obj.dataFields.map((f) => f.name), ...obj.links.map((f) => f.name), 'template', 'src'];
      (entry.info.category === 'Visual' ? this.warnings : this.errors).push(new SofaError(`unknown attribute '${a.name}'`, { loc: a.loc, component: who, ...hint(a.name, names) }));
    }
    if (!obj.template && entry.info.defaultTemplate) obj.template = entry.info.defaultTemplate;
    node.addObject(obj);
    autoName(node, obj);
    return obj;
  }

  private setTemplate(obj: BaseObject, accepted: readonly string[] | undefined, a: SceneAttribute, who: string): void {
    // template="" is SOFA's "not given": the component deduces it (from its states, as SOFA's factory does).
    if (a.value.trim() === '') return;
    const t = canonicalTemplate(a.value);
    if (accepted && accepted.length > 0 && !accepted.includes(t)) {
      this.errors.push(new SofaError(`template '${a.value}' is not supported; expected one of ${accepted.join(', ')}`, { loc: a.loc, component: who, ...hint(a.value, accepted) }));
      return;
    }
    obj.template = t;
  }

  private readData(d: Data<unknown>, a: SceneAttribute, who: string): void {
    d.loc = a.loc;
    const v = a.value.trim();
    if (v.startsWith('@')) {
      d.linkPath = v;
      return;
    }
    try {
      d.read(a.value);
    } catch (e) {
      if (e instanceof DataParseError) {
        const got = e.hint ? `, ${e.hint}` : '';
        this.errors.push(new SofaError(`bad value for '${a.name}' (${d.spec.type.name}): expected ${e.expected}${got}`, { loc: a.loc, component: who, ...(d.spec.type.options ? hint(v, d.spec.type.options) : {}) }));
      } else {
        this.errors.push(new SofaError(`bad value for '${a.name}': ${(e as Error).message}`, { loc: a.loc, component: who }));
      }
    }
  }

  /** Resolves data links, component links and `src` links of the whole tree. */
  resolveLinks(root: Node): void {
    root.visit((node) => {
      for (const d of node.dataFields) this.resolveDataLink(node, d, `Node '${node.getName()}'`);
      for (const obj of node.objects) this.resolveObjectLinks(obj);
    });
    this.resolveSrcLinks();
  }

  /** Resolves the `@` links of one object (its data links and component links). */
  resolveObjectLinks(obj: BaseObject): void {
    for (const d of obj.dataFields) this.resolveDataLink(obj, d, obj.describe());
    for (const l of obj.links) {
      if (l.linkPath === undefined) continue;
      // A multi-link lists several '@path's separated by spaces; a single link has one.
      const paths = l.spec.multi ? l.linkPath.split(/\s+/).filter((p) => p !== '') : [l.linkPath];
      const values: unknown[] = [];
      for (const path of paths) {
        const value = this.resolveLinkTarget(obj, l, path);
        if (value !== undefined) values.push(value);
      }
      if (values.length !== paths.length) continue;
      if (l.spec.multi) l.setAll(values);
      else l.set(values[0]);
    }
  }

  /** The target of one '@path' of a link, or undefined (with an error recorded). */
  private resolveLinkTarget(obj: BaseObject, l: Link<unknown>, path: string): unknown {
    if (!path.startsWith('@')) {
      this.errors.push(new SofaError(`link '${l.name}': '${path}' is not a path (expected '@path')`, { ...locOf(l.loc, obj.loc), component: obj.describe() }));
      return undefined;
    }
    const target = resolvePath(obj, path);
    let value: unknown = target?.kind === 'object' ? target.object : undefined;
    if (target?.kind === 'node') value = target.node.objects.find((o) => l.spec.accepts(o)) ?? (l.spec.accepts(target.node) ? target.node : undefined);
    if (target === undefined) {
      this.errors.push(new SofaError(`link '${l.name}': no object at '${path}'`, { ...locOf(l.loc, obj.loc), component: obj.describe(), ...pathHint(obj, path) }));
      return undefined;
    }
    if (value === undefined || !l.spec.accepts(value)) {
      const what = target.kind === 'object' ? target.object.describe() : `node '${target.node.getName()}'`;
      this.errors.push(new SofaError(`link '${l.name}': '${path}' is ${what}, expected ${l.spec.expected}`, { ...locOf(l.loc, obj.loc), component: obj.describe() }));
      return undefined;
    }
    return value;
  }

  /** `src="@loader"`: unset Data follow the same-named Data of the source object. */
  resolveSrcLinks(): void {
    for (const { obj, path, loc, visual } of this.srcLinks) {
      const target = resolvePath(obj, path);
      if (!target || target.kind !== 'object') {
        (visual ? this.warnings : this.errors).push(new SofaError(`src: no object at '${path}'`, { loc, component: obj.describe(), ...pathHint(obj, path) }));
        continue;
      }
      for (const d of obj.dataFields) {
        if (notCopiedBySrc.has(d.name) || d.isSet || d.linkPath !== undefined) continue;
        const sd = target.object.findData(d.name);
        if (sd && sd.spec.autoLink !== false) d.setParent(sd);
      }
    }
    this.srcLinks.length = 0;
  }

  private resolveDataLink(owner: BaseObject | Node, d: Data<unknown>, who: string): void {
    if (d.linkPath === undefined) return;
    const parent = resolveDataPath(owner, d.linkPath);
    if (!parent) {
      const split = splitDataPath(d.linkPath);
      const target = split ? resolvePath(owner, split.objectPath) : undefined;
      let detail = `data link '${d.name}': nothing at '${d.linkPath}' (expected @path.field)`;
      let h: { hint?: string } = {};
      if (split && target) {
        const fields = target.kind === 'object' ? target.object.dataFields : target.node.dataFields;
        const what = target.kind === 'object' ? target.object.describe() : `node '${target.node.getName()}'`;
        detail = `data link '${d.name}': ${what} has no Data '${split.field}'`;
        h = hint(split.field, fields.map((f) => f.name));
      }
      this.errors.push(new SofaError(detail, { ...locOf(d.loc, owner.loc), component: who, ...h }));
      return;
    }
    try {
      d.setParent(parent);
    } catch (e) {
      this.errors.push(new SofaError(`data link '${d.name}': '${d.linkPath}' cannot be read as ${d.spec.type.name}: ${(e as Error).message}`, { ...locOf(d.loc, undefined), component: who }));
    }
  }
}

function hint(name: string, candidates: Iterable<string>): { hint?: string } {
  const h = didYouMean(name, candidates);
  return h ? { hint: h } : {};
}

function locOf(a: SourceLocation | undefined, b: SourceLocation | undefined): { loc?: SourceLocation } {
  const l = a ?? b;
  return l ? { loc: l } : {};
}

function pathHint(obj: BaseObject, path: string): { hint?: string } {
  const p = path.replace(/^@/, '');
  const slash = p.lastIndexOf('/');
  const last = p.slice(slash + 1);
  const names = obj.context.objects.map((o) => o.getName()).concat(obj.context.children.map((c) => c.getName()));
  return hint(last, names);
}
