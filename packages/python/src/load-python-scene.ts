import * as path from 'node:path';
import { SofaError, host } from '@sofa-ts/core';
import type { SofaScene } from 'sofa-ts';
import { PythonSession, type PythonSceneOptions } from './python-session.js';
import { startPython } from './python-process.js';
import { openInProcessPython } from './in-process-python.js';
import { InProcessChannel } from './in-process-channel.js';

export interface LoadPythonSceneOptions extends PythonSceneOptions {
  /** Folders put on sys.path after the scene's own (a user's STLIB checkout: `--python-path`). */
  pythonPath?: readonly string[];
  /** sys.argv[1:] of the script. */
  argv?: readonly string[];
}

/**
 * Loads a SofaPython3 scene script: python3 runs its `createScene(rootNode)` against the engine
 * (every addObject creates the component here, with the rules of a scene file), then the scene is
 * finished and initialised as an XML scene is. The interpreter stays to answer the controllers'
 * handlers during the steps; `scene.dispose()` ends it (so does the end of this process).
 * Errors: a Python exception is a PythonError located at the script's line (with its traceback),
 * a component's refusal a located SofaError, python3 missing or dying a SofaError that says so.
 */
export async function loadPythonScene(file: string, options: LoadPythonSceneOptions = {}): Promise<SofaScene> {
  const abs = host().path.resolve(file);
  if (!host().isFile(abs)) throw new SofaError(`no scene file ${abs}`);
  const where = { ...(options.pythonPath ? { pythonPath: options.pythonPath } : {}), cwd: path.dirname(abs) };
  const inProcess = openInProcessPython(where);
  const py = 'channel' in inProcess ? inProcess : await startPython(where);
  const session = new PythonSession(py.channel, options);
  session.sceneFile = abs;
  if (py.channel instanceof InProcessChannel) py.channel.server = (f) => session.serveRequest(f);
  else if ('reason' in inProcess && !inProcess.byDesign) session.noteOutOfProcess(inProcess.reason);
  try {
    session.acceptHello();
    await session.loadCommandLinePlugins();
    const root = session.newRoot();
    await session.callPythonAsync('createScene', {
      file: abs,
      root: root.id,
      argv: [...(options.argv ?? [])],
      pythonPath: [...(options.pythonPath ?? [])],
    });
    // from now on the engine's thread serves the in-process interpreter itself (in-process-python.ts)
    if (py.channel instanceof InProcessChannel) session.callPython('direct', {});
    const scene = session.initScene(root.node);
    scene.python = { version: `Python ${session.pythonVersion ?? '?'}`, inProcess: py.channel instanceof InProcessChannel };
    scene.addDisposer(() => py.close());
    return scene;
  } catch (e) {
    py.close();
    throw e;
  }
}
