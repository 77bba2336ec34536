import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { SofaError } from '@sofa-ts/core';
import { LineIndex } from './line-index.js';
import { scanStartTag } from './start-tag.js';
import { decodeXmlText } from './xml-entities.js';
import type { ElementDraft, SceneElement } from './scene-types.js';

const METADATA = XMLParser.getMetaDataSymbol() as unknown as symbol;

/** One node of fast-xml-parser's `preserveOrder` output: `{ [tag]: children, ':@'?: attrs }`. */
type OrderedNode = Record<string, unknown> & { [METADATA]?: { startIndex?: number } };

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  parseAttributeValue: false,
  parseTagValue: false,
  captureMetaData: true,
  ignorePiTags: true,
  ignoreDeclaration: true,
});

/** The tag of an ordered node, or undefined for text, comments and processing instructions. */
function elementTag(node: OrderedNode): string | undefined {
  for (const key of Object.keys(node)) {
    if (key === ':@' || key.startsWith('#') || key.startsWith('?') || key.startsWith('!')) continue;
    return key;
  }
  return undefined;
}

/** At most this many leniency repairs per document (each one re-validates the text). */
const MAX_REPAIRS = 1000;

/**
 * Parses one XML document into its root element, with positions; no include is expanded.
 * `file` is the name used in positions. Malformed XML raises a SofaError at the fault.
 *
 * What SOFA's XML reader (TinyXML) accepts beyond the standard is accepted too, with a warning in
 * `warnings`: an attribute written directly after the closing quote of the previous one
 * (`a="1"b="2"`), and a second root element (tinyxml2 reads several; SOFA's scene is the first).
 * A comment before the XML declaration stays an error, as in tinyxml2 (XML_ERROR_PARSING_DECLARATION).
 */
export function parseXmlDocument(source: string, file: string, warnings?: SofaError[]): SceneElement {
  const original = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source; // drop a BOM
  const lines = new LineIndex(original);
  // Say what is wrong with a file that is not XML at all without quoting it (it may be any file).
  if (original.includes('\u0000'))
    throw new SofaError('not an XML scene file: it holds binary data', { loc: { file, line: 1, column: 1 } });
  if (!/^\s*</.test(original))
    throw new SofaError("not an XML scene file: it does not start with '<'", { loc: { file, line: 1, column: 1 } });
  const { text, toOriginal, cut } = repairLenientXml(original, file, lines, warnings);

  let nodes: OrderedNode[];
  try {
    nodes = parser.parse(text) as OrderedNode[];
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    throw new SofaError(`malformed XML: ${msg}`, { loc: { file, line: 1, column: 1 }, cause: e });
  }

  const convert = (node: OrderedNode, tag: string): ElementDraft => {
    const offset = node[METADATA]?.startIndex;
    if (offset === undefined) throw new Error(`internal: no source position for <${tag}>`);
    const attributes = scanStartTag(text, offset).map((a) => ({
      name: a.name,
      value: decodeXmlText(a.rawValue),
      loc: lines.location(file, toOriginal(a.offset)),
    }));
    return { tag, attributes, children: convertAll(node[tag] as OrderedNode[]), loc: lines.location(file, toOriginal(offset)), file };
  };
  const convertAll = (list: OrderedNode[]): ElementDraft[] => {
    const out: ElementDraft[] = [];
    for (const child of list) {
      const tag = elementTag(child);
      if (tag !== undefined) out.push(convert(child, tag));
    }
    return out;
  };

  const roots = convertAll(nodes);
  if (roots.length === 0) throw new SofaError('the document has no root element', { loc: { file, line: 1, column: 1 } });
  // one warning, at the first element after the first root (the parser's, else where the text was cut)
  const second = roots.length > 1 ? roots[1].loc : cut;
  if (second) warnings?.push(secondRootWarning(second));
  return roots[0];
}

/**
 * Validates `original`, inserting a space where an attribute follows a closing quote directly
 * (SOFA's reader accepts it) and cutting the text before a second root element the validator
 * refuses (SOFA reads the first root only; `cut` says where), and returns the repaired text with a
 * map from its offsets back to the original's. Any other fault is a located SofaError.
 */
function repairLenientXml(
  original: string,
  file: string,
  lines: LineIndex,
  warnings: SofaError[] | undefined,
): { text: string; toOriginal: (offset: number) => number; cut: SceneElement['loc'] | undefined } {
  let text = original;
  /** Where a second root element was cut off (the validator refuses several), if it was. */
  let cut: SceneElement['loc'] | undefined;
  /** Offsets in `text` where a space was inserted, ascending. */
  const inserted: number[] = [];
  const toOriginal = (offset: number): number => {
    let k = 0;
    while (k < inserted.length && inserted[k] < offset) k++;
    return offset - k;
  };
  for (let repairs = 0; ; repairs++) {
    const valid = XMLValidator.validate(text, { allowBooleanAttributes: false });
    if (valid === true) return { text, toOriginal, cut };
    const { msg, line, col, code } = valid.err;
    const repaired = new LineIndex(text);
    const at = line !== undefined && col !== undefined ? repaired.offsetOf(line, col) : undefined;
    const glued =
      code === 'InvalidAttr' && /has no space in starting/.test(msg) && at !== undefined && (text[at - 1] === '"' || text[at - 1] === "'");
    const secondRoot = /Multiple possible root nodes/.test(msg) && at !== undefined ? text.lastIndexOf('<', at) : -1;
    if (secondRoot > 0 && repairs < MAX_REPAIRS) {
      // SOFA's reader (tinyxml2) takes a document's first element as the scene: what follows it is not read.
      cut ??= lines.location(file, toOriginal(secondRoot));
      text = text.slice(0, secondRoot);
      continue;
    }
    if (!glued || repairs >= MAX_REPAIRS) {
      const loc = at !== undefined ? lines.location(file, toOriginal(at)) : { file, line: line ?? 1, column: col ?? 1 };
      throw new SofaError(`malformed XML: ${msg}`, { loc });
    }
    warnings?.push(
      new SofaError(`no space between two attributes (SOFA's reader accepts it; XML does not)`, {
        loc: lines.location(file, toOriginal(at)),
        code: 'xml-leniency',
      }),
    );
    text = text.slice(0, at) + ' ' + text.slice(at);
    let k = 0;
    while (k < inserted.length && inserted[k] < at) k++;
    for (let j = k; j < inserted.length; j++) inserted[j] += 1;
    inserted.splice(k, 0, at);
  }
}

/** SOFA's reader (tinyxml2) takes a document's first element as the scene: what follows it is not read. */
function secondRootWarning(loc: SceneElement['loc']): SofaError {
  return new SofaError(
    `a second root element from line ${loc.line} on: SOFA's reader keeps the first root element only, so the rest of the file is not read (as in SOFA)`,
    { loc, code: 'xml-leniency' },
  );
}
