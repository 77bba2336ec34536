import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { InProcessChannel, type PythonAddon } from './in-process-channel.js';
import { pythonExecutable, pythonPackageDir } from './python-process.js';

/**
 * CPython in the engine's process (native/sofats_python.c), for `sofa-ts run scene.py`: a
 * controller's event is then two function calls on the engine's thread, where the two-process mode
 * wakes python3 and waits to be woken (tens of µs each way, the bulk of a Python-driven step).
 *
 * The addon is compiled at first use for the python3 that runs scenes (SOFATS_PYTHON, else python3
 * on PATH), against its headers and shared libpython, into a cache folder (SOFATS_CACHE_DIR, else
 * $XDG_CACHE_HOME/sofa-ts or ~/.cache/sofa-ts), keyed by the source, that python3 and Node's ABI.
 * It needs a C compiler (CC, else cc) and the interpreter's headers (Debian: python3-dev). When
 * any of this is missing, or SOFATS_PYTHON_INPROCESS=0, or the interpreter is taken (one scene of
 * a process at a time, on its main thread: CPython is one per process), the caller runs python3 as
 * a separate process and says why (`reason`).
 */
export interface InProcessPython {
  readonly channel: InProcessChannel;
  close(): void;
}

/** What python3 says of itself: where its headers and shared library are. */
interface PythonBuildInfo {
  executable: string;
  version: string;
  include: string;
  libdir: string;
  library: string;
}

const PROBE = `
import json, os, sys, sysconfig as s
v = s.get_config_var
lib = ""
for d in (v("LIBDIR"), v("LIBPL")):
    for name in (v("LDLIBRARY"), "libpython%s%s.so" % (v("VERSION"), v("ABIFLAGS") or "")):
        if d and name and name.endswith(".so") and os.path.exists(os.path.join(d, name)):
            lib = lib or os.path.join(d, name)
print(json.dumps({"executable": sys.executable, "version": sys.version.split()[0], "include": s.get_paths()["include"], "libdir": os.path.dirname(lib), "library": lib}))
`;

let busy = false;
/** The addon this process loaded, and for which python3 (the first one it embedded stays). */
let embedded: { addon: string; executable: string } | undefined;
/** Why the last attempt fell back (per python3 and process: said once, not rebuilt each time). */
const failures = new Map<string, string>();

function sourceFile(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'native', 'sofats_python.c');
}

function cacheDir(): string {
  const base = process.env['SOFATS_CACHE_DIR'] || path.join(process.env['XDG_CACHE_HOME'] || path.join(os.homedir(), '.cache'), 'sofa-ts');
  return path.join(base, 'python-inprocess');
}

function probe(exe: string): PythonBuildInfo | string {
  const r = spawnSync(exe, ['-I', '-c', PROBE], { encoding: 'utf8', timeout: 30_000 });
  if (r.error) return `${exe} cannot be started (${(r.error as NodeJS.ErrnoException).code ?? r.error.message})`;
  if (r.status !== 0) return `${exe} failed to describe itself: ${(r.stderr || '').trim().split('\n').pop() ?? ''}`;
  try {
    const info = JSON.parse(r.stdout) as PythonBuildInfo;
    // CPython is one per process: a second python3 (another SOFATS_PYTHON) runs apart
    if (embedded !== undefined && embedded.executable !== info.executable)
      return `this process embeds ${embedded.executable} already, not ${info.executable}`;
    if (!info.library) return `${exe} (${info.executable}) has no shared libpython to embed (a Python built with --enable-shared has one)`;
    if (!fs.existsSync(path.join(info.include, 'Python.h')))
      return `${exe} has no headers (${info.include}/Python.h is missing: install python3-dev, or your Python's development files)`;
    return info;
  } catch {
    return `${exe} described itself in a way this engine cannot read`;
  }
}

/** Compiles the addon for this python3 unless the cache has it; its path, or why not. */
function build(info: PythonBuildInfo): string | { reason: string } {
  const src = sourceFile();
  let napiInclude: string;
  try {
    napiInclude = path.join(path.dirname(createRequire(import.meta.url).resolve('node-api-headers/package.json')), 'include');
  } catch {
    return { reason: 'the node-api-headers package is not installed (npm ci installs it)' };
  }
  const key = createHash('sha256')
    .update(fs.readFileSync(src))
    .update(`\0${info.executable}\0${info.version}\0${info.include}\0${info.library}\0${process.versions.modules}\0${process.arch}`)
    .digest('hex')
    .slice(0, 16);
  const dir = cacheDir();
  const out = path.join(dir, `sofats_python-${key}.node`);
  if (fs.existsSync(out)) return out;
  const cc = process.env['CC'] || 'cc';
  const lib = path.basename(info.library).replace(/^lib/, '').replace(/\.so$/, '');
  // written beside its final name and renamed: a concurrent build never sees half a file
  const tmp = `${out}.${process.pid}.tmp`;
  try {
    makeDirectories(dir);
    execFileSync(
      cc,
      [
        '-O2',
        '-shared',
        '-fPIC',
        '-o',
        tmp,
        src,
        `-I${napiInclude}`,
        `-I${info.include}`,
        `-L${info.libdir}`,
        `-l${lib}`,
        `-Wl,-rpath,${info.libdir}`,
        '-ldl',
        '-lpthread',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'], timeout: 120_000 },
    );
    fs.renameSync(tmp, out);
    return out;
  } catch (e) {
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      // no half-built file to remove: the folder itself could not be made
    }
    const stderr = String((e as { stderr?: Buffer }).stderr ?? '').trim();
    const first = stderr.split('\n').find((l) => /error/i.test(l)) ?? stderr.split('\n')[0] ?? '';
    const code = (e as NodeJS.ErrnoException).code;
    const spawning = String((e as NodeJS.ErrnoException).syscall ?? '').startsWith('spawn');
    if (code === 'ENOENT' && spawning) return { reason: `no C compiler (${cc}) to build it` };
    if (!stderr) return { reason: `building it into ${dir} failed: ${(e as Error).message}` };
    return { reason: `building it with ${cc} failed: ${first.trim()}` };
  }
}

let cwdTracked = false;
let exitHooked = false;

/**
 * Python has a working directory of its own (the scene's folder, as the two-process mode gave
 * python3), switched to while Python runs: a process.chdir of the engine's is told to the addon.
 */
function trackEngineCwd(addon: PythonAddon): void {
  if (cwdTracked) return;
  cwdTracked = true;
  const chdir = process.chdir.bind(process);
  process.chdir = (dir: string): void => {
    chdir(dir);
    addon.engineCwdChanged();
  };
}

/**
 * mkdir -p, one folder at a time (Node's recursive mkdirSync retries forever where a file system
 * refuses a folder with ENOENT, as /proc does).
 */
function makeDirectories(dir: string): void {
  const missing: string[] = [];
  for (let d = path.resolve(dir); !fs.existsSync(d); d = path.dirname(d)) {
    missing.push(d);
    if (path.dirname(d) === d) break;
  }
  for (const d of missing.reverse()) fs.mkdirSync(d);
}

/**
 * The in-process interpreter for a scene (its folder the working directory of Python's side), or
 * the reason it is not available and python3 must run apart.
 */
export function openInProcessPython(options: {
  pythonPath?: readonly string[];
  cwd: string;
}): InProcessPython | { reason: string; byDesign?: true } {
  // by design, not a fallback (docs/python.md): asked for, or a scene in a worker thread (sofa-ts check's)
  if (process.env['SOFATS_PYTHON_INPROCESS'] === '0') return { reason: 'SOFATS_PYTHON_INPROCESS=0', byDesign: true };
  if (!isMainThread)
    return { reason: 'the scene runs in a worker thread (the interpreter is one per process, on its main thread)', byDesign: true };
  if (process.platform !== 'linux') return { reason: `the in-process interpreter is built on Linux only, not on ${process.platform}` };
  if (busy) return { reason: 'another Python scene of this process holds the in-process interpreter' };
  const exe = pythonExecutable();
  const known = failures.get(exe);
  if (known) return { reason: known };
  const fail = (reason: string): { reason: string } => {
    failures.set(exe, reason);
    return { reason };
  };
  const info = probe(exe);
  if (typeof info === 'string') return fail(info);
  const built = build(info);
  if (typeof built !== 'string') return fail(built.reason);
  if (embedded !== undefined && embedded.addon !== built)
    return { reason: `this process loaded another build of the addon already (${embedded.addon})` };
  let addon: PythonAddon;
  try {
    addon = createRequire(import.meta.url)(built) as PythonAddon;
  } catch (e) {
    return fail(`its addon did not load: ${(e as Error).message}`);
  }
  busy = true;
  embedded = { addon: built, executable: info.executable };
  trackEngineCwd(addon);
  if (!exitHooked) {
    exitHooked = true;
    process.on('exit', () => addon.shutdown());
  }
  let closed = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    addon.close();
    busy = false;
  };
  const channel = new InProcessChannel(addon, close);
  try {
    addon.open(
      {
        executable: info.executable,
        packageDir: pythonPackageDir(),
        pythonPath: (options.pythonPath ?? []).map((p) => path.resolve(p)),
        cwd: options.cwd,
      },
      (frames) => channel.serveIncoming(frames),
    );
  } catch (e) {
    busy = false;
    return fail(`CPython did not start in this process: ${(e as Error).message}`);
  }
  return { channel, close: () => channel.close() };
}
