/**
 * The animation file of SoftRobots' AnimationEditor (its example RigidAnimation.txt):
 *
 *   Type: Rigid3d
 *   Number of frame: 97
 *   Number of effector: 1
 *   KeyFrames: 0 33 96
 *   <frame 0: the coordinates of every point, in a row>
 *   …
 *
 * The first four lines are read after their label (SoftRobots cuts a fixed number of characters:
 * "Type: " 6, "Number of frame: " 17, "Number of effector: " 20, "KeyFrames:" 10; the labels are
 * checked here), then one line per frame of `points`·coordSize numbers. The writer gives the same
 * layout, numbers separated by one space as SoftRobots writes them.
 */
export interface Animation {
  type: string;
  points: number;
  keyFrames: number[];
  /** One flat array of points·coordSize numbers per frame. */
  frames: Float64Array[];
}

/** Thrown with the line (1-based) at fault. */
export class AnimationFileError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

const LABELS = ['Type:', 'Number of frame:', 'Number of effector:', 'KeyFrames:'] as const;

export function parseAnimation(text: string, coordSize: number): Animation {
  const lines = text.split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1].trim() === '') lines.pop();
  if (lines.length < 4)
    throw new AnimationFileError(lines.length + 1, 'the header has four lines: Type:, Number of frame:, Number of effector:, KeyFrames:');
  const field = (i: number): string => {
    const l = lines[i];
    if (!l.startsWith(LABELS[i])) throw new AnimationFileError(i + 1, `expected '${LABELS[i]}'`);
    return l.slice(LABELS[i].length).trim();
  };
  const count = (i: number): number => {
    const v = field(i);
    if (!/^\d+$/.test(v)) throw new AnimationFileError(i + 1, `'${v}' is not a count`);
    return Number(v);
  };
  const type = field(0);
  const nFrames = count(1);
  const points = count(2);
  const keys = field(3);
  const keyFrames =
    keys === ''
      ? []
      : keys.split(/\s+/).map((k) => {
          if (!/^\d+$/.test(k)) throw new AnimationFileError(4, `key frame '${k}' is not a frame number`);
          return Number(k);
        });
  if (lines.length - 4 !== nFrames)
    throw new AnimationFileError(
      Math.min(lines.length, 4 + nFrames) + 1,
      `the header announces ${nFrames} frames, the file has ${lines.length - 4}`,
    );
  for (const k of keyFrames) if (k >= nFrames) throw new AnimationFileError(4, `key frame ${k} is past the last frame (${nFrames - 1})`);
  const frames: Float64Array[] = [];
  const n = points * coordSize;
  for (let f = 0; f < nFrames; f++) {
    const t = lines[4 + f].trim();
    const tokens = t === '' ? [] : t.split(/\s+/);
    if (tokens.length !== n)
      throw new AnimationFileError(5 + f, `frame ${f} has ${tokens.length} numbers, ${points} points of ${coordSize} need ${n}`);
    const row = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const v = Number(tokens[i]);
      if (!Number.isFinite(v)) throw new AnimationFileError(5 + f, `'${tokens[i]}' is not a finite number`);
      row[i] = v;
    }
    frames.push(row);
  }
  return { type, points, keyFrames, frames };
}

export function formatAnimation(a: Animation): string {
  const out = [
    `Type: ${a.type}`,
    `Number of frame: ${a.frames.length}`,
    `Number of effector: ${a.points}`,
    `KeyFrames:${a.keyFrames.map((k) => ` ${k}`).join('')}`,
  ];
  for (const f of a.frames) out.push(Array.from(f, (v) => `${v} `).join(''));
  return out.join('\n') + '\n';
}
