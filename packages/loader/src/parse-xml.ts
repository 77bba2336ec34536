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

/** Parses one XML document into its root element, with positions; no include is expanded.
 *  `file` is the name used in positions. Malformed XML raises a SofaError at the fault. */
export function parseXmlDocument(source: string, file: string): SceneElement {
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source; // drop a BOM
  const lines = new LineIndex(text);

  const valid = XMLValidator.validate(text, { allowBooleanAttributes: false });
  if (valid !== true) {
    const { msg, line, col } = valid.err;
    throw new SofaError(`malformed XML: ${msg}`, { loc: { file, line: line ?? 1, column: col ?? 1 } });
  }

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
      loc: lines.location(file, a.offset),
    }));
    return { tag, attributes, children: convertAll(node[tag] as OrderedNode[]), loc: lines.location(file, offset), file };
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
  if (roots.length > 1) throw new SofaError(`a document has a single root element; found a second one <${roots[1]!.tag}>`, { loc: roots[1]!.loc });
  return roots[0]!;
}
