// Test support: the results files read back by other code than the writer's (hyparquet, a CSV
// reader of RFC 4180), and scenes for the sweep tests.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parquetReadObjects } from 'hyparquet';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const cliBin = path.join(repoRoot, 'packages/cli/bin/sofa-ts.js');

export type Row = Record<string, unknown>;

export async function readParquet(file: string): Promise<Row[]> {
  const b = fs.readFileSync(file);
  const ab = b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
  return (await parquetReadObjects({ file: ab })) as Row[];
}

/** RFC 4180 CSV: the header's names as keys, cells as texts ('' for an empty cell). */
export function readCsv(file: string): Record<string, string>[] {
  const text = fs.readFileSync(file, 'utf8');
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') ((cell += '"'), i++);
      else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') (row.push(cell), (cell = ''));
    else if (ch === '\n') (row.push(cell), rows.push(row), (row = []), (cell = ''));
    else cell += ch;
  }
  const [header, ...body] = rows;
  return body.map((r) => Object.fromEntries(header!.map((h, k) => [h, r[k] ?? ''])));
}

/** A ball under gravity, implicit Euler without damping: after n steps of h, v = n·h·g and
 *  x = h²·g·n(n+1)/2 (the velocity is updated first, then x with the new velocity). */
export const BALL_SCENE = `<?xml version="1.0"?>
<Node name="root" dt="0.01" gravity="0 -9.81 0">
    <DefaultAnimationLoop/>
    <Node name="ball">
        <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
        <CGLinearSolver iterations="25" tolerance="1e-12" threshold="1e-12"/>
        <MechanicalObject name="dofs" template="Vec3d" position="0 0 0"/>
        <UniformMass name="mass" totalMass="1"/>
    </Node>
</Node>
`;

/** Two points and a spring, symplectic explicit Euler: stable for k = 100, diverging for k = 1e9
 *  (ω·h = 316 > 2). */
export const SPRING_SCENE = `<?xml version="1.0"?>
<Node name="root" dt="0.01" gravity="0 0 0">
    <Node name="s">
        <EulerExplicitSolver symplectic="1"/>
        <MechanicalObject name="dofs" position="0 0 0  1 0 0" velocity="0 0 0  0.1 0 0"/>
        <UniformMass name="mass" vertexMass="1"/>
        <StiffSpringForceField name="spring" spring="0 1 100 0 1"/>
    </Node>
</Node>
`;
