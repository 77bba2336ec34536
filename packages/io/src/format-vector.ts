import { formatSofaNumber } from './number-format.js';

/** The scalars of one vector, space separated (SOFA writes no trailing separator). */
export function formatSofaVector(values: ArrayLike<number>): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) parts[i] = formatSofaNumber(values[i]);
  return parts.join(' ');
}
