import * as fs from 'node:fs';

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
