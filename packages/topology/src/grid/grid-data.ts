import { DataParseError, Int, printNumber, tokens, type DataType } from '@sofa-ts/core';

/** Three integers, e.g. a grid resolution "5 5 20" (SOFA's Vec3i). */
export const Vec3i: DataType<Int32Array> = {
  name: 'Vec3i',
  parse: (t) => {
    const ts = tokens(t);
    if (ts.length !== 3) throw new DataParseError('3 integers', `got ${ts.length} values`);
    const v = ts.map((s) => Int.parse(s));
    // an int of SOFA is 32 bits: a larger value would wrap around in the Int32Array
    const big = v.find((x) => Math.abs(x) > 0x7fffffff);
    if (big !== undefined) throw new DataParseError('3 integers', `${printNumber(big)} does not fit in a 32-bit int`);
    return Int32Array.from(v);
  },
  print: (v) => Array.from(v, printNumber).join(' '),
  clone: (v) => Int32Array.from(v),
};

/** Two integers, e.g. a 2D resolution "5 5" (SOFA's Vec2i). */
export const Vec2i: DataType<Int32Array> = {
  name: 'Vec2i',
  parse: (t) => {
    const ts = tokens(t);
    if (ts.length !== 2) throw new DataParseError('2 integers', `got ${ts.length} values`);
    return Int32Array.from(ts, (s) => Int.parse(s));
  },
  print: (v) => Array.from(v, printNumber).join(' '),
  clone: (v) => Int32Array.from(v),
};
