import { SofaError, formatLocation, type SceneAttribute, type SceneElement, host } from '@sofa-ts/core';
import { dataFileCandidates, resolveDataFile } from './data-paths.js';
import { applyIncludeAttributes, modeForName, type IncludeMode } from './include-attributes.js';
import { mergeInto } from './merge.js';
import { parseXmlDocument } from './parse-xml.js';
import { readSceneText } from './read-scene-file.js';
import { attributeValue, type ElementDraft } from './scene-types.js';

/** An expanded element and how it joins its parent. */
interface Expansion {
  readonly mode: IncludeMode;
  readonly element: ElementDraft;
}

export interface ExpanderOptions {
  readonly dataPaths: readonly string[];
  readonly isKnownTag: (tag: string) => boolean;
  /** Folder against which files named from a pseudo-file (`<string>`) are resolved. */
  readonly baseDir: string;
  /** Receives the reader's warnings (see parseXmlDocument). */
  readonly warnings?: SofaError[];
}

/** Expands `<include>` elements and unknown tags backed by `Objects/<Tag>.xml` files, recursively,
 *  into a fresh tree; included elements keep their own file and positions. */
export class SceneExpander {
  /** Files being expanded, outermost first (real paths), to detect include cycles. */
  private readonly stack: string[] = [];
  private readonly parsed = new Map<string, SceneElement>();
  private readonly objectFiles = new Map<string, string | undefined>();

  /** The data paths searched: the options' ones, then those added by AddDataRepository elements. */
  private readonly dataPaths: string[];

  constructor(private readonly options: ExpanderOptions) {
    this.dataPaths = [...options.dataPaths];
  }

  /** Expands a document's root element (the root's own include mode, if any, is ignored). */
  expandDocument(root: SceneElement): ElementDraft {
    this.stack.push(fileKey(root.file));
    try {
      return this.expand(root).element;
    } finally {
      this.stack.pop();
    }
  }

  private dirOf(file: string): string {
    return host().path.isAbsolute(file) ? host().path.dirname(file) : this.options.baseDir;
  }

  private expand(element: SceneElement): Expansion {
    if (element.tag === 'include') return this.expandInclude(element);
    if (element.tag !== 'Node' && !this.options.isKnownTag(element.tag)) {
      const file = this.objectFile(element);
      if (file !== undefined) {
        // As in SOFA: the element's attributes act as those of an include; its children are dropped.
        const attrs = element.attributes.filter((a) => a.name !== 'href' && a.name !== 'type');
        return this.includeFile(file, attrs, element);
      }
    }
    const draft: ElementDraft = {
      tag: element.tag,
      attributes: [...element.attributes],
      children: [],
      loc: element.loc,
      file: element.file,
    };
    if (DATA_REPOSITORY_TAGS.has(element.tag)) this.addDataRepository(element);
    for (const child of element.children) {
      const { mode, element: expanded } = this.expand(child);
      if (mode === 'group') draft.children.push(...expanded.children);
      else if (mode === 'merge') mergeInto(draft, expanded);
      else draft.children.push(expanded);
    }
    return { mode: 'child', element: draft };
  }

  private expandInclude(element: SceneElement): Expansion {
    const href = attributeValue(element, 'href') ?? '';
    if (href === '') throw new SofaError("<include> needs a non-empty 'href' attribute", { loc: element.loc });
    if (href.includes('\0')) throw new SofaError(`<include> href ${JSON.stringify(href)} contains a NUL character`, { loc: element.loc });
    const search = { sceneDir: this.dirOf(element.file), dataPaths: this.dataPaths };
    const file = resolveDataFile(href, search);
    if (file === undefined) {
      throw new SofaError(`included file '${href}' not found`, {
        loc: element.loc,
        hint: `looked for ${dataFileCandidates(href, search).join(', ')}`,
      });
    }
    return this.includeFile(
      file,
      element.attributes.filter((a) => a.name !== 'href'),
      element,
    );
  }

  /** SOFA's AddDataRepository acts when parsed: the includes after it find files in its folder
   *  (the component adds it to the scene's data paths at init, for the components after it). */
  private addDataRepository(element: SceneElement): void {
    const given = attributeValue(element, 'path')?.trim();
    if (!given) return;
    const dir = host().path.resolve(this.dirOf(element.file), given);
    if (!this.dataPaths.includes(dir)) this.dataPaths.push(dir);
  }

  /** `Objects/<Tag>.xml` for an element of unknown tag, if such a file exists. */
  private objectFile(element: SceneElement): string | undefined {
    const sceneDir = this.dirOf(element.file);
    const key = `${sceneDir}\0${element.tag}`;
    if (!this.objectFiles.has(key)) {
      this.objectFiles.set(key, resolveDataFile(`Objects/${element.tag}.xml`, { sceneDir, dataPaths: this.dataPaths }));
    }
    return this.objectFiles.get(key);
  }

  /** Loads `file`, expands it and applies `attrs` (those of `via`, the include) to its root. */
  private includeFile(file: string, attrs: readonly SceneAttribute[], via: SceneElement): Expansion {
    const key = fileKey(file);
    const start = this.stack.indexOf(key);
    if (start >= 0) {
      const chain = [...this.stack.slice(start), key].map((f) => host().path.basename(f)).join(' -> ');
      throw new SofaError(`include cycle: ${chain}`, { loc: via.loc, hint: `'${file}' includes itself` });
    }
    this.stack.push(key);
    try {
      const { mode, element } = this.expand(this.parse(file, via));
      const initial = modeForName(attributeValue(element, 'name')) ?? mode;
      return { mode: applyIncludeAttributes(element, attrs, initial), element };
    } catch (e) {
      // An error inside an included file also names the include that brought it in.
      if (!(e instanceof SofaError) || e.loc === undefined || e.loc.file === via.file) throw e;
      const from = `included from ${formatLocation(via.loc)}`;
      throw new SofaError(e.detail, { loc: e.loc, component: e.component, hint: e.hint ? `${e.hint}; ${from}` : from, cause: e });
    } finally {
      this.stack.pop();
    }
  }

  private parse(file: string, via: SceneElement): SceneElement {
    let root = this.parsed.get(file);
    if (root === undefined) {
      root = parseXmlDocument(readSceneText(file, 'included file', via.loc), file, this.options.warnings);
      this.parsed.set(file, root);
    }
    return root;
  }
}

/** Tags of SOFA's AddDataRepository component (see addDataRepository). */
const DATA_REPOSITORY_TAGS = new Set(['AddDataRepository', 'AddResourceRepository']);

/** Identity of a file for cycle detection (its real path when it exists). */
function fileKey(file: string): string {
  try {
    return host().realpath(file);
  } catch {
    return file;
  }
}
