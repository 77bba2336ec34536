/**
 * SOFA's rigid mass files (`BehaviorModels/*.rigid`, read by UniformMass for Rigid3 states):
 *
 *   Xsp 3.0                               first line: skipped
 *   vertexMass 5                          the frame's mass m
 *   volm 8.745                            its volume (kept; no part in the dynamics)
 *   inrt 1.39 0 0  0 3.22 0  0 0 1.95     the inertia matrix per unit mass J (row-major);
 *                                         the rotational mass is m·J
 *   center 0.018 0 0   (or cntr)          the centre of mass: read and not used (SOFA takes the
 *                                         frame's origin as the centre of mass)
 *
 * frme (4 numbers), grav (3), visc, stck, step, prec (1 each) are read and not used, as in SOFA;
 * `#` starts a comment running to the end of the line; any other keyword is reported and its line
 * skipped. Note that SOFA's keyword for the mass is `vertexMass` (a line `mass 5` is unknown).
 */
export interface RigidMassFile {
  mass?: number;
  volume?: number;
  /** (9) row-major inertia per unit mass. */
  inertia?: Float64Array;
  /** Values that could not be read (SOFA's errors): a keyword without its numbers. */
  readonly errors: string[];
  /** What SOFA warns about: unknown keywords, unread values of the keywords it does not use. */
  readonly warnings: string[];
}

/** Numbers each keyword is followed by; the ones SOFA reads and does not use included. */
const ARITY: Record<string, number> = {
  vertexMass: 1,
  volm: 1,
  inrt: 9,
  cntr: 3,
  center: 3,
  frme: 4,
  grav: 3,
  visc: 1,
  stck: 1,
  step: 1,
  prec: 1,
};

export function parseRigidMassFile(text: string): RigidMassFile {
  const out: RigidMassFile = { errors: [], warnings: [] };
  const lines = text.split(/\r?\n/);
  // The words after the first line, each with its line number, so that comments and unknown
  // keywords skip to the end of their line as SOFA's reader does.
  const words: { w: string; line: number }[] = [];
  for (let l = 1; l < lines.length; l++) for (const w of lines[l].trim().split(/\s+/)) if (w) words.push({ w, line: l });
  let i = 0;
  const skipLine = (line: number): void => {
    while (i < words.length && words[i].line === line) i++;
  };
  while (i < words.length) {
    const { w: key, line } = words[i++];
    if (key.startsWith('#')) {
      skipLine(line);
      continue;
    }
    const n = ARITY[key];
    if (n === undefined) {
      out.warnings.push(`line ${line + 1}: unknown keyword '${key}' (its line is skipped)`);
      skipLine(line);
      continue;
    }
    const values: number[] = [];
    while (values.length < n && i < words.length) {
      const v = Number(words[i].w);
      if (!Number.isFinite(v)) break;
      values.push(v);
      i++;
    }
    if (values.length < n) {
      const unused = key === 'grav' || key === 'visc' || key === 'stck' || key === 'step' || key === 'prec';
      (unused ? out.warnings : out.errors).push(`line ${line + 1}: '${key}' needs ${n} number${n > 1 ? 's' : ''}, found ${values.length}`);
      continue;
    }
    if (key === 'vertexMass') out.mass = values[0];
    else if (key === 'volm') out.volume = values[0];
    else if (key === 'inrt') out.inertia = Float64Array.from(values);
  }
  return out;
}
