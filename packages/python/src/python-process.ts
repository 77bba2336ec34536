import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SofaError } from '@sofa-ts/core';
import { Channel } from './channel.js';

/** The folder of the Python package `Sofa` (what PYTHONPATH needs for `import Sofa`). */
export function pythonPackageDir(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'python');
}

/** The python3 that runs scenes: SOFATS_PYTHON, else `python3` from PATH. */
export function pythonExecutable(): string {
  return process.env['SOFATS_PYTHON'] || 'python3';
}

/** A python3 started for a scene, and the channel to it. */
export interface PythonProcess {
  readonly child: ChildProcess;
  readonly channel: Channel;
  /** Ends the interpreter: the channel closed (it exits on end of file), killed if it lingers. */
  close(): void;
}

const live = new Set<ChildProcess>();
/** How long python3 may take to start and open its end of the channel. */
const CONNECT_TIMEOUT_MS = 60_000;
let exitHookInstalled = false;

/** Interpreters whose channel the engine closed: they are ending (their atexit functions, their files flushed). */
const ending = new Set<ChildProcess>();
/** How long the engine's exit waits for an ending interpreter before it kills it. */
const ENDING_GRACE_MS = 2000;

/** Whether a child still runs (Linux: an exited child is a zombie until Node's loop reaps it). */
function stillRunning(c: ChildProcess): boolean {
  if (c.exitCode !== null || c.signalCode !== null || c.pid === undefined) return false;
  if (process.platform !== 'linux') return true;
  try {
    return !/^\d+ \(.*\) [ZX]/s.test(fs.readFileSync(`/proc/${c.pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/**
 * No orphan: every interpreter still running when the engine's process exits is killed — at once
 * if its channel is still open, after up to 2 s if the engine closed it (it is ending, and ends
 * on its own: killing it then would lose what its atexit functions and open files still write).
 */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    const sleeper = new Int32Array(new SharedArrayBuffer(4));
    const until = Date.now() + ENDING_GRACE_MS;
    for (const c of live) {
      if (ending.has(c)) while (stillRunning(c) && Date.now() < until) Atomics.wait(sleeper, 0, 0, 5);
      if (stillRunning(c)) c.kill('SIGKILL');
    }
  });
}

/**
 * Starts python3 on the scene runner with a channel of two named pipes (blocking file descriptors:
 * the engine reads them synchronously inside a step). The pipes are opened asynchronously, so a
 * python3 that dies before opening them (missing, a broken install) is reported, not waited for;
 * once open, their files are removed (the descriptors stay) and the end of either process is an
 * end of file for the other.
 */
export async function startPython(options: { pythonPath?: readonly string[]; cwd?: string } = {}): Promise<PythonProcess> {
  const exe = pythonExecutable();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-python-'));
  const toEngine = path.join(dir, 'to-engine');
  const toPython = path.join(dir, 'to-python');
  const cleanup = (): void => fs.rmSync(dir, { recursive: true, force: true });
  try {
    execFileSync('mkfifo', ['-m', '600', toEngine, toPython], { stdio: 'ignore' });
  } catch (e) {
    cleanup();
    throw new SofaError(`cannot create the pipes to python3 (mkfifo: ${(e as Error).message}); Python scenes need a POSIX system`);
  }
  const runner = path.join(pythonPackageDir(), 'sofats_scene_runner.py');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SOFATS_CHANNEL: `${toEngine}\n${toPython}`,
    // prints of the scene appear as they happen, and no __pycache__ is written beside the user's scripts
    PYTHONUNBUFFERED: '1',
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONPATH: [pythonPackageDir(), ...(options.pythonPath ?? []).map((p) => path.resolve(p)), process.env['PYTHONPATH'] ?? '']
      .filter((p) => p !== '')
      .join(path.delimiter),
  };
  const child = spawn(exe, [runner], { stdio: ['ignore', 'inherit', 'inherit'], env, ...(options.cwd ? { cwd: options.cwd } : {}) });
  installExitHook();
  live.add(child);
  child.unref();
  let exited: string | undefined;
  const died = new Promise<void>((resolve) => {
    child.once('error', (e) => {
      exited =
        (e as NodeJS.ErrnoException).code === 'ENOENT'
          ? `no ${exe} found (install python3, or set SOFATS_PYTHON to a Python 3.9+ interpreter)`
          : `cannot start ${exe}: ${e.message}`;
      resolve();
    });
    child.once('exit', (code, signal) => {
      live.delete(child);
      exited ??= `${exe} exited${signal ? ` on ${signal}` : ` with code ${code}`} before connecting to the engine`;
      resolve();
    });
  });
  const opening = Promise.all([fs.promises.open(toEngine, 'r'), fs.promises.open(toPython, 'w')]);
  // a python3 that starts but never connects (a broken site setup) is not waited for forever
  let timer: NodeJS.Timeout | undefined;
  const tooLong = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), CONNECT_TIMEOUT_MS);
  });
  let first = await Promise.race([opening.then(() => 'open' as const), died.then(() => 'died' as const), tooLong]);
  clearTimeout(timer);
  if (first === 'late') {
    exited = `${exe} started but did not connect to the engine within ${CONNECT_TIMEOUT_MS / 1000} s (killed)`;
    child.kill('SIGKILL');
    first = 'died';
  }
  if (first === 'died') {
    // Release the opens waiting for the other end: a descriptor open for reading and writing
    // satisfies both (Linux), also for an open the thread pool has not started yet; closed after.
    const holders: number[] = [];
    for (const p of [toEngine, toPython]) {
      try {
        holders.push(fs.openSync(p, fs.constants.O_RDWR | fs.constants.O_NONBLOCK));
      } catch {
        // nothing to release on this one
      }
    }
    await opening.then((hs) => Promise.all(hs.map((h) => h.close()))).catch(() => undefined);
    for (const fd of holders) fs.closeSync(fd);
    cleanup();
    throw new SofaError(exited ?? `${exe} could not be started`);
  }
  const [rh, wh] = await opening;
  cleanup();
  const channel = new Channel(rh.fd, wh.fd, exe, () => {
    void rh.close().catch(() => undefined);
    void wh.close().catch(() => undefined);
  });
  let closed = false;
  return {
    child,
    channel,
    close(): void {
      if (closed) return;
      closed = true;
      ending.add(child);
      child.once('exit', () => ending.delete(child));
      channel.close();
      if (child.exitCode === null && child.signalCode === null) {
        const t = setTimeout(() => child.kill('SIGKILL'), 2000);
        t.unref();
        child.once('exit', () => clearTimeout(t));
      }
    },
  };
}
