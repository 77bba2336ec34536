import { DataParseError, tokens, type DataType } from '@sofa-ts/core';

/** A set of integers (SOFA std::set<int>), e.g. collision groups "1 3": sorted, without repeats. */
export const IntSet: DataType<Int32Array> = {
  name: 'set<int>',
  parse: (t) => {
    const values = tokens(t).map((s) => {
      if (!/^[+-]?\d+$/.test(s)) throw new DataParseError('a list of integers', `got '${s}'`);
      return Number(s);
    });
    return Int32Array.from(new Set(values)).sort();
  },
  print: (v) => Array.from(v, String).join(' '),
  clone: (v) => Int32Array.from(v),
};
