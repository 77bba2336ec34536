import { DataParseError, printNumber, tokens, type DataType } from '@sofa-ts/core';

/** Named colors accepted in scenes (SOFA's RGBAColor names, and the usual web ones scenes use). */
const NAMED: Readonly<Record<string, readonly [number, number, number, number]>> = {
  white: [1, 1, 1, 1],
  black: [0, 0, 0, 1],
  red: [1, 0, 0, 1],
  green: [0, 1, 0, 1],
  blue: [0, 0, 1, 1],
  cyan: [0, 1, 1, 1],
  magenta: [1, 0, 1, 1],
  yellow: [1, 1, 0, 1],
  gray: [0.5, 0.5, 0.5, 1],
  grey: [0.5, 0.5, 0.5, 1],
  darkgray: [0.25, 0.25, 0.25, 1],
  lightgray: [0.75, 0.75, 0.75, 1],
  orange: [1, 0.5, 0, 1],
  purple: [0.5, 0, 0.5, 1],
  pink: [1, 0, 0.5, 1],
  brown: [0.6, 0.3, 0, 1],
  lime: [0.5, 1, 0, 1],
  navy: [0, 0, 0.5, 1],
  gold: [1, 0.84, 0, 1],
  silver: [0.75, 0.75, 0.75, 1],
  teal: [0, 0.5, 0.5, 1],
  olive: [0.5, 0.5, 0, 1],
  maroon: [0.5, 0, 0, 1],
  transparent: [0, 0, 0, 0],
};

const EXPECTED = 'a color: 3 or 4 numbers (r g b [a]), a name (red, navy, ...) or #rrggbb[aa]';

/** SOFA's RGBAColor: (r, g, b, a) in [0, 1]; from 4 or 3 numbers (a = 1), a color name or a hex code. */
export const RGBAColor: DataType<Float64Array> = {
  name: 'RGBAColor',
  parse: (text) => {
    const ts = tokens(text);
    if (ts.length === 1) {
      const t = ts[0];
      const named = NAMED[t.toLowerCase()];
      if (named) return Float64Array.from(named);
      const hex = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(t);
      if (hex) return fromHex(hex[1]);
      throw new DataParseError(EXPECTED, `got '${t}'`);
    }
    if (ts.length !== 3 && ts.length !== 4) throw new DataParseError(EXPECTED, `got ${ts.length} values`);
    const out = Float64Array.of(0, 0, 0, 1);
    for (let i = 0; i < ts.length; i++) {
      const v = Number(ts[i]);
      if (!Number.isFinite(v)) throw new DataParseError(EXPECTED, `got '${ts[i]}'`);
      out[i] = v;
    }
    return out;
  },
  print: (v) => Array.from(v, printNumber).join(' '),
  clone: (v) => Float64Array.from(v),
};

/** #rgb, #rgba, #rrggbb or #rrggbbaa. */
function fromHex(h: string): Float64Array {
  const full = h.length <= 4 ? [...h].map((c) => c + c).join('') : h;
  const out = Float64Array.of(0, 0, 0, 1);
  for (let i = 0; i < full.length / 2; i++) out[i] = parseInt(full.slice(2 * i, 2 * i + 2), 16) / 255;
  return out;
}
