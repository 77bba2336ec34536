import { SofaError } from 'sofa-ts';
import { spawn } from 'node:child_process';
import { buildWeb, startViewer } from '@sofa-ts/viewer';

export interface ViewCommandOptions {
  dataPath: string[];
  port: number;
  open?: boolean;
  server?: boolean;
  /** Host names answered besides the loopback names (--allow-host). */
  allowHost?: string[];
}

/** `sofa-ts view`: serves the viewer on the loopback address until interrupted. */
export async function viewCommand(scene: string, o: ViewCommandOptions): Promise<number> {
  const v = await startViewer(scene, {
    dataPaths: o.dataPath,
    port: o.port,
    ...(o.server ? { server: true } : {}),
    allowHosts: o.allowHost ?? [],
  });
  const why = /\.py$/i.test(scene)
    ? ': a Python scene runs its interpreter beside the engine, in server mode'
    : o.server
      ? ''
      : ': it requires npm plugins';
  process.stdout.write(
    `viewer: ${v.url}  (${v.server ? `the scene runs in this process${why}` : 'the scene runs in the page'}; Ctrl+C stops)\n`,
  );
  if (o.open) {
    const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
    const child = spawn(cmd, [v.url], { detached: true, stdio: 'ignore' });
    child.on('error', () => process.stderr.write(`could not start '${cmd}': open ${v.url} in a browser\n`));
    child.unref();
  }
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await v.close();
  return 0;
}

/** `sofa-ts build-web`: a static folder with the page, its bundles, the scene and its files. */
export async function buildWebCommand(scene: string, o: { out: string; dataPath: string[] }): Promise<number> {
  if (/\.py$/i.test(scene))
    throw new SofaError(
      `${scene}: a Python scene needs its interpreter beside the engine, which a static page cannot have; show it with \`sofa-ts view ${scene}\` (server mode)`,
    );
  const files = await buildWeb(scene, o.out, { dataPaths: o.dataPath });
  process.stdout.write(`${files.length} files in ${o.out} (serve the folder with any static web server and open index.html through it)\n`);
  return 0;
}
