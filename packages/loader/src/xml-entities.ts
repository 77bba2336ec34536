const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Decodes the XML predefined entities and character references (`&#65;`, `&#x41;`) of an
 *  attribute value, and normalizes line breaks to `\n` as tinyxml2 (SOFA's parser) does.
 *  Unknown entities are left as written. */
export function decodeXmlText(raw: string): string {
  const normalized = raw.replace(/\r\n?/g, '\n');
  if (!normalized.includes('&')) return normalized;
  return normalized.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z_][\w.-]*);/g, (whole, ref: string) => {
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return PREDEFINED[ref] ?? whole;
  });
}
