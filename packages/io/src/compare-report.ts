/** Human-readable summary of a regression comparison: the verdict first, then what helps debugging
 *  (the largest error and where it is, the relative error, and why a comparison failed). */
import type { ComparisonResult } from './compare.js';
import { formatSofaNumber } from './number-format.js';

export function formatComparison(result: ComparisonResult): string {
  const g = formatSofaNumber;
  const verdict = result.passed ? 'PASS' : 'FAIL';
  const lines = [`${verdict}: ERRORBYDOF = ${g(result.errorByDof)} (epsilon ${g(result.epsilon)}, ${result.stateCount} state(s))`];
  const at = result.maxErrorAt;
  if (at !== undefined) {
    const name = at.stateName === undefined ? '' : ` '${at.stateName}'`;
    lines.push(
      `  max abs error ${g(result.maxAbsError)} at state ${at.state}${name}, T=${g(at.time)}, ` +
        `${at.vector}[${at.scalar}] (point ${at.point}, component ${at.component}): ref ${g(at.ref)}, cur ${g(at.cur)}`,
    );
    lines.push(`  relative error ${g(result.relativeError)} (max |ref| ${g(result.maxAbsRef)})`);
  }
  for (const f of result.failures) lines.push(`  ${f}`);
  return lines.join('\n');
}
