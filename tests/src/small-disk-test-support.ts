/**
 * A small disk for the write-failure tests: a tmpfs of a few KiB mounted on a fresh folder (root
 * only: CI and the development machines run as root), so that writes fail with the system's own
 * ENOSPC. Where mounting is not permitted the tests skip and say why.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface SmallDisk {
  readonly dir: string;
  unmount(): void;
}

/** Mounts a tmpfs of `kib` KiB, or returns why it cannot. */
export function mountSmallDisk(kib: number): SmallDisk | string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-full-disk-'));
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${kib}k`, 'tmpfs', dir], { encoding: 'utf8' });
  if (r.error || r.status !== 0) {
    fs.rmSync(dir, { recursive: true, force: true });
    return `cannot mount a ${kib} KiB tmpfs (${r.error ? r.error.message : r.stderr.trim() || `mount exited with ${r.status}`}): the full-disk tests need root`;
  }
  return {
    dir,
    unmount: () => {
      spawnSync('umount', [dir]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A state file read by SOFA's rules (ReadState): frames `T= t`, then lines `X= …`, `V= …` (and
 * `X0=`, `F=`) of the state's scalars, every line ending with a newline. Throws on a torn or
 * malformed frame: the test's own reader, not the one the regression comparisons use.
 */
export function strictStateFrames(text: string, scalars: number): { time: number; x: number[]; v?: number[] }[] {
  if (text !== '' && !text.endsWith('\n')) throw new Error('the file does not end with a newline: a torn line');
  const frames: { time: number; x: number[]; v?: number[] }[] = [];
  let current: { time: number; x?: number[]; v?: number[] } | undefined;
  const close = (): void => {
    if (current && !current.x) throw new Error(`the frame at T= ${current.time} has no X= line`);
    if (current) frames.push(current as { time: number; x: number[]; v?: number[] });
  };
  for (const line of text.split('\n').slice(0, -1)) {
    const t = /^T= (\S+)$/.exec(line);
    if (t) {
      close();
      current = { time: Number(t[1]) };
      continue;
    }
    const m = /^\s*(X|V|X0|F)= (.*)$/.exec(line);
    if (!m || !current) throw new Error(`not a line of a frame: '${line.slice(0, 40)}'`);
    const v = m[2].trim().split(/\s+/).map(Number);
    if (v.length !== scalars || v.some((a) => !Number.isFinite(a)))
      throw new Error(`${m[1]}= has ${v.length} numbers, ${scalars} expected: a torn frame`);
    if (m[1] === 'X') current.x = v;
    if (m[1] === 'V') current.v = v;
  }
  close();
  return frames;
}
