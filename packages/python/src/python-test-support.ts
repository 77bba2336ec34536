import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * python3 scene runners whose working directory is `folder` (the engine starts them there): none
 * may be left once the engine ended. Linux's /proc.
 */
export function pythonRunnersIn(folder: string): string[] {
  const found: string[] = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (
        fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('sofats_scene_runner.py') &&
        fs.readlinkSync(`/proc/${pid}/cwd`) === folder
      )
        found.push(pid);
    } catch {
      // the process ended meanwhile
    }
  }
  return found;
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const bin = path.join(repoRoot, 'packages/cli/bin/sofa-ts.js');

/** `sofa-ts ARGS` in a child process (no colours), with extra environment variables. */
export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  cwd: string = process.cwd(),
): { status: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...env },
    timeout: 120_000,
    cwd,
  });
  return { status: r.status, out: r.stdout, err: r.stderr };
}
