/** One attribute as written in a start tag. */
export interface RawAttribute {
  readonly name: string;
  /** The value between the quotes, entities not decoded. */
  readonly rawValue: string;
  /** Offset of the first character of the attribute name. */
  readonly offset: number;
}

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/** Reads the start tag beginning at `offset` (the `<`) of a well-formed document and returns its
 *  attributes in source order with the offsets of their names. */
export function scanStartTag(text: string, offset: number): RawAttribute[] {
  if (text[offset] !== '<') throw new Error(`internal: no start tag at offset ${offset}`);
  let i = offset + 1;
  while (i < text.length && !isSpace(text[i]) && text[i] !== '/' && text[i] !== '>') i++;
  const attributes: RawAttribute[] = [];
  for (;;) {
    while (isSpace(text[i])) i++;
    if (i >= text.length || text[i] === '/' || text[i] === '>') return attributes;
    const nameStart = i;
    while (i < text.length && !isSpace(text[i]) && text[i] !== '=' && text[i] !== '/' && text[i] !== '>') i++;
    const name = text.slice(nameStart, i);
    while (isSpace(text[i])) i++;
    if (text[i] !== '=') throw new Error(`internal: attribute '${name}' without value at offset ${nameStart}`);
    i++;
    while (isSpace(text[i])) i++;
    const quote = text[i];
    if (quote !== '"' && quote !== "'") throw new Error(`internal: unquoted value of '${name}' at offset ${nameStart}`);
    const close = text.indexOf(quote, i + 1);
    if (close < 0) throw new Error(`internal: unterminated value of '${name}' at offset ${nameStart}`);
    attributes.push({ name, rawValue: text.slice(i + 1, close), offset: nameStart });
    i = close + 1;
  }
}
