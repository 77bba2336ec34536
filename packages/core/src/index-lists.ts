import { DataParseError, type DataType } from './data-types.js';

/**
 * A list of index lists of varying lengths (polygons, polylines, OBJ face definitions), written
 * as bracketed groups: `[0 1 2 3] [4 5 6]` (commas accepted as separators). `signed` admits -1,
 * which OBJ face lists use for a missing texture or normal index.
 */
export function IndexLists(name: string, signed = false): DataType<number[][]> {
  const expected = `groups of ${signed ? 'integers' : 'non-negative integers'} in brackets, e.g. [0 1 2] [2 3 4]`;
  return {
    name,
    parse: (text) => {
      const out: number[][] = [];
      const t = text.trim();
      if (t === '') return out;
      const re = /\[([^\]]*)\]/g;
      let m: RegExpExecArray | null;
      let consumed = '';
      while ((m = re.exec(t)) !== null) {
        consumed += m[0];
        const items = m[1].trim() === '' ? [] : m[1].trim().split(/[\s,]+/);
        out.push(
          items.map((s) => {
            if (!(signed ? /^[+-]?\d+$/ : /^\+?\d+$/).test(s)) throw new DataParseError(expected, `got '${s}'`);
            return Number(s);
          }),
        );
      }
      if (consumed.replace(/\s/g, '') !== t.replace(/\s/g, ''))
        throw new DataParseError(expected, `got '${t.length > 40 ? `${t.slice(0, 40)}…` : t}'`);
      return out;
    },
    print: (v) => v.map((l) => `[${l.join(' ')}]`).join(' '),
    clone: (v) => v.map((l) => l.slice()),
  };
}
