import type { BaseObject } from './base-object.js';
import { DataParseError, printNumber, sofaStreamReading } from './data-types.js';
import type { Data } from './data.js';
import { SofaError, SofaErrors, didYouMean, type SourceLocation } from './errors.js';
import { isAnimationLoop } from './behavior/solvers.js';
import { Node } from './node.js';
import { componentInfoOf } from './component-info.js';
import { isNode, resolveDataPath, resolvePath, splitDataPath } from './paths.js';
import type { Link } from './link.js';
import type { ComponentRegistry } from './registry.js';
import type { SceneAttribute, SceneElement } from './scene-description.js';
import { canonicalTemplate } from './state-types.js';

/** Data names never copied through a `src` link: those every component has, and (as SOFA)
 *  `filename` and `type`. Source Data declared with `autoLink: false` are not copied either. */
const notCopiedBySrc = new Set(['name', 'printLog', 'tags', 'bbox', 'listening', 'filename', 'type']);

/** How strictly a scene is read. */
export interface BuildOptions {
  /** Every warning is an error (for scene authors who want a clean scene). */
  readonly strict?: boolean;
  /** Unknown components are reported as warnings and left out, as SOFA does; without it they are
   *  errors (a scene without them would not be the scene its author wrote). */
  readonly skipUnknown?: boolean;
}

/**
 * Builds the scene graph from loaded elements: nodes and components created through the
 * registry, attributes parsed into Data, unnamed components named ClassName + per-node counter,
 * then every `@` link resolved. All problems are collected and thrown together as SofaErrors;
 * what SOFA only warns about (unused attributes, renamed Data, a template it falls back from)
 * goes to `warnings`.
 */
export function buildScene(
  rootElement: SceneElement,
  registry: ComponentRegistry,
  warnings?: SofaError[],
  options: BuildOptions = {},
): Node {
  const b = new SceneBuilder(registry, options);
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
export function addObjectFromAttributes(
  registry: ComponentRegistry,
  node: Node,
  type: string,
  attributes: Record<string, string>,
  loc: SourceLocation = { file: '<code>', line: 1, column: 1 },
): BaseObject {
  // Code gets no warning channel: what a scene file would only be warned about is an error here.
  const b = new SceneBuilder(registry, { strict: true });
  const el: SceneElement = {
    tag: type,
    attributes: Object.entries(attributes).map(([name, value]) => ({ name, value, loc })),
    children: [],
    loc,
    file: loc.file,
  };
  const obj = b.buildObject(el, node);
  if (obj) {
    b.resolveObjectLinks(obj);
    b.resolveSrcLinks();
  }
  if (obj && b.errors.length > 0) node.removeObject(obj);
  b.throwIfErrors();
  return obj!;
}

/**
 * Sets the Data at a scene path (`/Beam/FEM.youngModulus`, `/root.gravity`) from attribute text,
 * after the scene is built and before init, by the rules of a scene attribute: the same parsing
 * (a bad value names what was expected), Data aliases, a renamed name accepted with a warning, and
 * a link or `src` the scene gave replaced by the value. Its range is checked at init, as for an
 * attribute, located at `loc` (where the value comes from: a command line, a script). Throws a
 * SofaError when nothing is at the path or the text does not parse.
 */
export function setDataByPath(root: Node, dataPath: string, text: string, loc: SourceLocation, warnings?: SofaError[]): Data<unknown> {
  const split = splitDataPath(dataPath);
  if (!split) throw new SofaError(`'${dataPath}' is not a Data path (expected /node/object.field or /node.field)`, { loc });
  const target = resolvePath(root, split.objectPath === '' ? '/' : split.objectPath);
  if (!target) throw new SofaError(`no node or object at '${split.objectPath}' (in '${dataPath}')`, { loc });
  const owner = target.kind === 'object' ? target.object : target.node;
  const who = target.kind === 'object' ? target.object.describe() : `Node '${target.node.getName()}'`;
  let d = owner.findData(split.field);
  if (!d && target.kind === 'object') {
    d = target.object.findRenamedData(split.field);
    if (d)
      warnings?.push(
        new SofaError(`'${split.field}' is deprecated: SOFA renamed it '${d.name}'`, { loc, component: who, code: 'deprecated' }),
      );
  }
  if (!d)
    throw new SofaError(`${who} has no Data '${split.field}'`, {
      loc,
      ...hint(
        split.field,
        owner.dataFields.map((f) => f.name),
      ),
    });
  if (text.trim().startsWith('@'))
    throw new SofaError(`'${dataPath}': a value is expected, not a link ('${text.trim()}')`, { loc, component: who });
  // The value replaces what the scene gave, a link included (as the attribute would have).
  d.setParent(undefined);
  d.linkPath = undefined;
  const errors: SofaError[] = [];
  readAttribute(d, { name: split.field, value: text, loc }, who, errors);
  if (errors.length > 0) throw errors[0];
  return d;
}

/** Reads one attribute into its Data: a `@` value becomes a data link (resolved later), else the
 *  text is parsed; a value that does not parse is an error naming what was expected. */
function readAttribute(d: Data<unknown>, a: SceneAttribute, who: string, errors: SofaError[], warnings?: SofaError[]): void {
  d.loc = a.loc;
  const v = a.value.trim();
  if (v.startsWith('@')) {
    d.linkPath = v;
    return;
  }
  try {
    d.read(a.value);
  } catch (e) {
    const sofa = e instanceof DataParseError && e.group !== undefined && warnings ? sofaStreamReading(a.value, e.group) : undefined;
    if (sofa) {
      // SOFA's stream reader accepts this text: read it as SOFA does, and say what was made of it.
      d.read(Array.from(sofa.values, printNumber).join(' '));
      warnings!.push(
        new SofaError(`'${a.name}': ${sofa.changes.join('; ')}, as SOFA's reader does`, {
          loc: a.loc,
          component: who,
          code: 'xml-leniency',
        }),
      );
      return;
    }
    if (e instanceof DataParseError) {
      const got = e.hint ? `, ${e.hint}` : '';
      errors.push(
        new SofaError(`bad value for '${a.name}' (${d.spec.type.name}): expected ${e.expected}${got}`, {
          loc: a.loc,
          component: who,
          ...(d.spec.type.options ? hint(v, d.spec.type.options) : {}),
        }),
      );
    } else {
      errors.push(new SofaError(`bad value for '${a.name}': ${(e as Error).message}`, { loc: a.loc, component: who }));
    }
  }
}

/**
 * SOFA's old XML form of an attribute, still read by its parser: `<Attribute type="position"><Data
 * value="0 0 0"/></Attribute>` inside a component is `position="0 0 0"` (located at the Data
 * element). Other child elements are left for the caller to refuse.
 */
function attributeElementsRead(el: SceneElement): SceneElement {
  const isAttribute = (c: SceneElement) =>
    c.tag === 'Attribute' &&
    c.attributes.some((a) => a.name === 'type') &&
    c.children.length === 1 &&
    c.children[0].tag === 'Data' &&
    c.children[0].attributes.some((a) => a.name === 'value');
  if (!el.children.some(isAttribute)) return el;
  const attributes = [...el.attributes];
  for (const c of el.children.filter(isAttribute)) {
    const data = c.children[0];
    const value = data.attributes.find((a) => a.name === 'value')!;
    attributes.push({ name: c.attributes.find((a) => a.name === 'type')!.value.trim(), value: value.value, loc: value.loc });
  }
  return { ...el, attributes, children: el.children.filter((c) => !isAttribute(c)) };
}

/** Node attributes of SOFA's old visual flags (SOFA turns them into a VisualStyle). */
const oldVisualFlags = [
  'showAll',
  'showVisual',
  'showBehavior',
  'showCollision',
  'showMapping',
  'showVisualModels',
  'showBehaviorModels',
  'showCollisionModels',
  'showBoundingCollisionModels',
  'showMappings',
  'showMechanicalMappings',
  'showForceFields',
  'showInteractionForceFields',
  'showWireFrame',
  'showNormals',
];

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
  /** Problems SOFA only warns about: the scene still loads (errors under `strict`). */
  readonly warnings: SofaError[] = [];
  /** Component elements whose `src` attribute asks to copy same-named Data from another object. */
  private readonly srcLinks: Array<{ obj: BaseObject; path: string; loc: SourceLocation }> = [];
  /** Component names given by MakeAlias (alias → registered name), for the elements after it. */
  private readonly componentAliases = new Map<string, string>();
  /** Data aliases given by MakeDataAlias: class name → (alias → Data name). */
  private readonly dataAliases = new Map<string, Map<string, string>>();
  /** Names of the elements left out because their component is unknown: a link to one of them
   *  is a consequence, not a problem of its own. */
  private readonly missingNames = new Set<string>();

  constructor(
    private readonly registry: ComponentRegistry,
    private readonly options: BuildOptions = {},
  ) {}

  throwIfErrors(): void {
    if (this.errors.length > 0) throw this.errors.length === 1 ? this.errors[0] : new SofaErrors(this.errors);
  }

  /** A problem SOFA warns about: a warning, or an error under `strict`. */
  private warn(e: SofaError): void {
    (this.options.strict ? this.errors : this.warnings).push(e);
  }

  buildNode(el: SceneElement, parent: Node | undefined): Node {
    const node = new Node();
    node.loc = el.loc;
    if (parent) parent.addChild(node);
    const flags: string[] = [];
    for (const a of el.attributes) {
      if (oldVisualFlags.includes(a.name)) flags.push(visualFlag(a.name, a.value));
      else this.setNodeAttribute(node, a);
    }
    if (flags.length > 0) this.addVisualStyle(node, el, flags.filter((f) => f !== '').join(' '));
    for (const child of el.children) {
      if (child.tag === 'Node' || child.tag === 'node') this.buildNode(child, node);
      else this.buildObject(child, node);
    }
    return node;
  }

  private setNodeAttribute(node: Node, a: SceneAttribute): void {
    if (a.name.startsWith('_')) return; // SOFA skips attributes starting with '_'
    const d = node.findData(a.name);
    if (!d) {
      this.warn(
        new SofaError(`unused attribute '${a.name}' of Node (it names no Data of a Node)`, {
          loc: a.loc,
          component: `Node '${node.getName()}'`,
          code: 'unused-attribute',
          ...hint(
            a.name,
            node.dataFields.map((f) => f.name),
          ),
        }),
      );
      return;
    }
    this.readData(d, a, `Node '${node.getName()}'`);
  }

  /** SOFA's old node visual flags become a VisualStyle of the node, with a deprecation warning. */
  private addVisualStyle(node: Node, el: SceneElement, displayFlags: string): void {
    const loc = el.attributes.find((a) => oldVisualFlags.includes(a.name))!.loc;
    this.warn(
      new SofaError(
        `visual flag attributes of a Node are deprecated; add <VisualStyle displayFlags="${displayFlags}"/> to the node instead`,
        { loc, component: `Node '${node.getName()}'`, code: 'deprecated' },
      ),
    );
    if (!this.registry.find('VisualStyle')) return;
    const style = this.registry.create('VisualStyle');
    style.loc = loc;
    style.findData('displayFlags')?.read(displayFlags);
    node.addObject(style);
    autoName(node, style);
  }

  /** Creates the component of `el` in `node` (links are resolved later). */
  buildObject(element: SceneElement, node: Node): BaseObject | undefined {
    const el = attributeElementsRead(element);
    const tag = this.componentAliases.get(el.tag) ?? el.tag;
    const entry = this.registry.find(tag);
    const nameAttr = el.attributes.find((a) => a.name === 'name');
    if (!entry) {
      if (nameAttr && nameAttr.value.trim() !== '') this.missingNames.add(nameAttr.value.trim());
      const e = new SofaError(`unknown component '${el.tag}'`, {
        loc: el.loc,
        code: 'unknown-component',
        ...hint(el.tag, this.registry.names()),
      });
      if (this.options.skipUnknown)
        this.warn(
          new SofaError(`${e.detail}: left out of the scene (--skip-unknown)`, {
            loc: el.loc,
            code: 'skipped-component',
            ...(e.hint ? { hint: e.hint } : {}),
          }),
        );
      else this.errors.push(e);
      return undefined;
    }
    let obj: BaseObject;
    try {
      obj = this.registry.create(tag);
    } catch (e) {
      this.errors.push(new SofaError(`cannot create component '${el.tag}': ${(e as Error).message}`, { loc: el.loc }));
      return undefined;
    }
    obj.loc = el.loc;
    const who = `${entry.info.name} '${nameAttr?.value ?? ''}'`;
    if (el.children.length > 0) {
      this.errors.push(
        new SofaError(`a component element cannot contain other elements (found <${el.children[0].tag}>)`, {
          loc: el.children[0].loc,
          component: who,
        }),
      );
    }
    const dataAliases = this.dataAliases.get(entry.info.name);
    for (const a of el.attributes) {
      if (a.name.startsWith('_')) continue; // SOFA skips attributes starting with '_'
      if (a.name === 'template') {
        this.setTemplate(obj, entry.info.templates, a, who);
        continue;
      }
      if (a.name === 'src') {
        // SOFA ignores a lone '@' (Objects/*.xml include files use src="@"), with a warning
        if (a.value.trim() === '@') this.warn(new SofaError("'src=@' does nothing", { loc: a.loc, component: obj.describe() }));
        else this.srcLinks.push({ obj, path: a.value.trim(), loc: a.loc });
        continue;
      }
      const d = obj.findData(a.name) ?? (dataAliases?.has(a.name) ? obj.findData(dataAliases.get(a.name)!) : undefined);
      if (d) {
        this.readData(d, a, who);
        continue;
      }
      const l = obj.findLink(a.name);
      if (l) {
        const v = a.value.trim();
        if (v === '') continue;
        if (!v.startsWith('@')) {
          this.errors.push(
            new SofaError(`attribute '${a.name}' is a link and expects '@path' (e.g. '@../${v}')`, { loc: a.loc, component: who }),
          );
          continue;
        }
        l.linkPath = v;
        l.loc = a.loc;
        continue;
      }
      const renamed = obj.findRenamedData(a.name);
      if (renamed) {
        this.warn(
          new SofaError(`attribute '${a.name}' is deprecated: SOFA renamed it '${renamed.name}'`, {
            loc: a.loc,
            component: who,
            code: 'deprecated',
            hint: `write ${renamed.name}="${a.value.trim()}"`,
          }),
        );
        if (!renamed.isSet) this.readData(renamed, a, who);
        continue;
      }
      const names = [...obj.dataFields.map((f) => f.name), ...obj.links.map((f) => f.name), 'template', 'src'];
      this.warn(
        new SofaError(`unused attribute '${a.name}' (${entry.info.name} has no Data of that name)`, {
          loc: a.loc,
          component: who,
          code: 'unused-attribute',
          ...hint(a.name, names),
        }),
      );
    }
    if (!obj.template && entry.info.defaultTemplate && !el.attributes.some((a) => a.name === 'template'))
      obj.template = entry.info.defaultTemplate;
    node.addObject(obj);
    autoName(node, obj);
    this.applyFactoryAlias(obj, who);
    return obj;
  }

  /** MakeAlias and MakeDataAlias act on the factory for the elements that follow them. */
  private applyFactoryAlias(obj: BaseObject, who: string): void {
    if (obj.className === 'MakeAlias') {
      const target = String(obj.findData('targetcomponent')?.value ?? '').trim();
      const alias = String(obj.findData('alias')?.value ?? '').trim();
      const entry = this.registry.find(target);
      if (!entry) {
        this.errors.push(
          new SofaError(`MakeAlias: unknown target component '${target}'`, {
            ...locOf(obj.loc, undefined),
            component: who,
            ...hint(target, this.registry.names()),
          }),
        );
      } else if (alias !== '') {
        this.componentAliases.set(alias, entry.info.name);
      }
    } else if (obj.className === 'MakeDataAlias') {
      const target = String(obj.findData('componentname')?.value ?? '').trim();
      const dataName = String(obj.findData('dataname')?.value ?? '').trim();
      const alias = String(obj.findData('alias')?.value ?? '').trim();
      const entry = this.registry.find(target);
      if (!entry) {
        this.errors.push(
          new SofaError(`MakeDataAlias: unknown component '${target}'`, {
            ...locOf(obj.loc, undefined),
            component: who,
            ...hint(target, this.registry.names()),
          }),
        );
        return;
      }
      const probe = this.registry.create(entry.info.name);
      if (!probe.findData(dataName)) {
        this.errors.push(
          new SofaError(`MakeDataAlias: ${entry.info.name} has no Data '${dataName}'`, {
            ...locOf(obj.loc, undefined),
            component: who,
            ...hint(
              dataName,
              probe.dataFields.map((f) => f.name),
            ),
          }),
        );
        return;
      }
      const map = this.dataAliases.get(entry.info.name) ?? new Map<string, string>();
      map.set(alias, dataName);
      this.dataAliases.set(entry.info.name, map);
    }
  }

  /**
   * A template the component does not have: SOFA falls back to the template the context allows
   * and says so; here the component deduces it from its state at init, after a warning.
   */
  private setTemplate(obj: BaseObject, accepted: readonly string[] | undefined, a: SceneAttribute, who: string): void {
    // template="" is SOFA's "not given": the component deduces it (from its states, as SOFA's factory does).
    if (a.value.trim() === '') return;
    const t = canonicalTemplate(a.value);
    if (accepted && accepted.length > 0 && !accepted.includes(t)) {
      this.warn(
        new SofaError(`template '${a.value}' is not one of ${accepted.join(', ')}; the template is taken from the component's state`, {
          loc: a.loc,
          component: who,
          code: 'template-fallback',
          ...hint(a.value, accepted),
        }),
      );
      return;
    }
    obj.template = t;
  }

  private readData(d: Data<unknown>, a: SceneAttribute, who: string): void {
    readAttribute(d, a, who, this.errors, this.options.strict ? this.errors : this.warnings);
  }

  /**
   * A link problem: an error, unless the link names a component that was left out (unknown):
   * then it is a consequence of that, a warning under --skip-unknown and nothing more otherwise
   * (the unknown component is the error to fix).
   */
  private linkProblem(e: SofaError, path: string, owner: BaseObject | Node, dataLink = false): void {
    const names = path.replace(/^@/, '').split(/[/.]/);
    if (!names.some((n) => this.missingNames.has(n))) {
      // A visual component's link cannot change the simulated result: SOFA goes on, so do we.
      if (!isNode(owner) && componentInfoOf(owner.constructor)?.category === 'Visual') this.warn(e);
      // A Data whose parent is not found keeps its own value: SOFA warns ("Could not setup Data
      // link") and goes on; so do we (an error under --strict). A component link that finds nothing
      // stays an error: the component cannot work without what it names.
      else if (dataLink)
        this.warn(
          new SofaError(`${e.detail}; the Data keeps its own value, as in SOFA`, {
            ...locOf(e.loc, undefined),
            ...(e.component ? { component: e.component } : {}),
            ...(e.hint ? { hint: e.hint } : {}),
            code: 'unresolved-data-link',
          }),
        );
      else this.errors.push(e);
      return;
    }
    if (this.options.skipUnknown)
      this.warn(
        new SofaError(`${e.detail} (it names a component that was left out)`, {
          ...locOf(e.loc, undefined),
          ...(e.component ? { component: e.component } : {}),
          code: 'skipped-component',
        }),
      );
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
      this.errors.push(
        new SofaError(`link '${l.name}': '${path}' is not a path (expected '@path')`, {
          ...locOf(l.loc, obj.loc),
          component: obj.describe(),
        }),
      );
      return undefined;
    }
    const target = resolvePath(obj, path);
    let value: unknown = target?.kind === 'object' ? target.object : undefined;
    // A node designates its object of the expected kind; with none, SOFA takes the node's context
    // one (a state, topology, solver... searched in its ancestors), as Node::findLinkDestClass.
    if (target?.kind === 'node')
      value =
        (l.spec.accepts(target.node) ? target.node : undefined) ?? target.node.getObject((o): o is BaseObject => l.spec.accepts(o), 'up');
    if (target === undefined) {
      this.linkProblem(
        new SofaError(`link '${l.name}': no object at '${path}'`, {
          ...locOf(l.loc, obj.loc),
          component: obj.describe(),
          ...pathHint(obj, path),
        }),
        path,
        obj,
      );
      return undefined;
    }
    if (value === undefined || !l.spec.accepts(value)) {
      const what = target.kind === 'object' ? target.object.describe() : `node '${target.node.getName()}'`;
      this.errors.push(
        new SofaError(`link '${l.name}': '${path}' is ${what}, expected ${l.spec.expected}`, {
          ...locOf(l.loc, obj.loc),
          component: obj.describe(),
        }),
      );
      return undefined;
    }
    return value;
  }

  /** `src="@loader"`: unset Data follow the same-named Data of the source object. */
  resolveSrcLinks(): void {
    for (const { obj, path, loc } of this.srcLinks) {
      const target = resolvePath(obj, path);
      if (!target || target.kind !== 'object') {
        this.linkProblem(
          new SofaError(`src: no object at '${path}'`, { loc, component: obj.describe(), ...pathHint(obj, path) }),
          path,
          obj,
        );
        continue;
      }
      if (target.object === obj) {
        this.errors.push(new SofaError(`src: '${path}' is the component itself`, { loc, component: obj.describe() }));
        continue;
      }
      for (const d of obj.dataFields) {
        if (notCopiedBySrc.has(d.name) || d.isSet || d.linkPath !== undefined) continue;
        const sd = target.object.findData(d.name);
        if (!sd || sd.spec.autoLink === false) continue;
        try {
          d.setParent(sd);
        } catch (e) {
          this.errors.push(new SofaError(`src '${path}': ${(e as Error).message}`, { loc, component: obj.describe() }));
        }
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
        h = hint(
          split.field,
          fields.map((f) => f.name),
        );
      }
      this.linkProblem(new SofaError(detail, { ...locOf(d.loc, owner.loc), component: who, ...h }), d.linkPath, owner, true);
      d.linkPath = undefined;
      return;
    }
    try {
      d.setParent(parent);
    } catch (e) {
      const cycle = /cycle of data links/.test((e as Error).message);
      this.errors.push(
        new SofaError(
          cycle
            ? `data link '${d.name}': ${(e as Error).message}`
            : `data link '${d.name}': '${d.linkPath}' cannot be read as ${d.spec.type.name}: ${(e as Error).message}`,
          { ...locOf(d.loc, undefined), component: who },
        ),
      );
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

/** One old visual flag as SOFA's Node reads it: `showX` when true, `hideX` when false, '' when unreadable. */
function visualFlag(name: string, value: string): string {
  const v = value.trim();
  let on: boolean;
  if (/^[tT]/.test(v)) on = true;
  else if (/^[fF]/.test(v)) on = false;
  else if (/^-?\d/.test(v)) on = parseInt(v, 10) !== 0;
  else return '';
  return on ? name : `hide${name.slice(4)}`;
}
