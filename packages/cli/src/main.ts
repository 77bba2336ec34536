import { Command, InvalidArgumentError, Option } from 'commander';
import { checkCommand, defaultJobs } from './check.js';
import { componentsCommand } from './components.js';
import { docsCommand } from './docs.js';
import { PLUGIN_KINDS, isPluginKind, newPluginCommand } from './new-plugin.js';
import { reportError, reporting } from './errors.js';
import { regressionCommand } from './regression.js';
import { runCommand } from './run.js';
import { sweepCommand, workerCommand, type SweepCommandOptions, type WorkerCommandOptions } from './sweep.js';
import { buildWebCommand, viewCommand } from './view.js';
import { setAllowPluginPathsByDefault } from 'sofa-ts';
import { EXIT_USAGE } from './exit-codes.js';
import { SOFA_TS_VERSION, versionLine } from './version.js';
import { schemaCommand } from './schema.js';

const collect = (v: string, prev: string[]): string[] => [...prev, v];
const positiveInt = (v: string): number => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a non-negative integer');
  return n;
};
const positiveNumber = (v: string): number => {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a positive number');
  return n;
};

const RUN_HELP = `
State files are appended frame by frame: whatever stops the run, the frames written stay. A write
that fails (a full disk, an I/O error, a removed folder) stops the run with the system's reason
and the file; every state file then ends on the same complete frame, other files are whole or absent.
Ctrl-C (SIGINT) or SIGTERM finishes the current step and stops with every state file ending on
the same frame (and, with --checkpoint-dir, writes a checkpoint of that step).

Checkpoints hold the whole simulation state; a run resumed from one (--resume, same scene and
options, -n the step to reach) goes on bitwise as the uninterrupted run would. With --write-state,
a resumed run continues the checkpointed run's state files when the folder holds them (cut back
to the checkpoint), or writes new ones when it holds none. See docs/checkpoints.md.

Exit codes:
  0    the run went to its end
  1    an error (scene, component, file; the message says where)
  2    bad usage
  3    the simulation diverged (NaN or infinite positions or velocities; also with
       --on-divergence continue, at the end of the run)
  130  interrupted by SIGINT, 143 by SIGTERM`;

/** A usage error found after parsing (options that need each other): said, exit code 2. */
function usage(message: string): number {
  process.stderr.write(`error: ${message}\n`);
  return EXIT_USAGE;
}

/** Entry point of the `sofa-ts` command; returns the process exit code. */
export async function main(argv: string[]): Promise<number> {
  let code = 0;
  const program = new Command('sofa-ts')
    .description('Run SOFA scenes (.scn) with sofa-ts, compare them with SOFA references, list components.')
    .version(versionLine(), '-V, --version', 'print the version of sofa-ts (and of Node)')
    .showHelpAfterError()
    .exitOverride();

  program
    .command('run')
    .description('load a scene, run it, print a summary')
    .argument('<scene>', 'a SOFA scene file (.scn or .xml), or a SofaPython3 scene (.py)')
    .option('-n, --steps <N>', 'number of time steps', positiveInt, 100)
    .option('--dt <DT>', "time step, overriding the root's dt", positiveNumber)
    .option('--data-path <DIR>', 'folder searched for meshes and includes (repeatable)', collect, [])
    .option('--write-state <DIR>', 'write every mechanical state in WriteState format to DIR/<i>_<name>.state.txt')
    .option('--write-period <K>', 'write states every K steps', positiveInt, 1)
    .option(
      '--out <DIR>',
      "folder the files written by the scene's components go into (exporters, WriteState, Monitor, ...; default: beside the scene file)",
    )
    .option('--strict', 'treat every warning as an error (unused attributes, renamed Data, template fallbacks, lenient XML)')
    .option('--skip-unknown', 'leave unknown components out of the scene with a warning, as SOFA does (default: an error)')
    .option('--plot <FILE.svg>', 'write an SVG plot of per-step energies, solver iterations and residuals, constraint forces')
    .option('--plot-data <PATH>', 'also plot this Data per step (/node/object.field, its norm for vectors; repeatable)', collect, [])
    .option('--export-vtk <DIR>', 'write every 3D mechanical state as VTK files for ParaView (.vtu per step, a .pvd series per state)')
    .addOption(
      new Option('--on-divergence <policy>', 'when a step leaves a NaN or infinite position or velocity: stop, or warn once and continue')
        .choices(['stop', 'continue'])
        .default('stop'),
    )
    .option('--debug', 'print the stack of internal errors (a component that threw something else than a scene error)')
    .option('--plugin <NAME>', 'load this plugin package first, resolved as RequiredPlugin names are (repeatable)', collect, [])
    .option(
      '--allow-plugin-path',
      'let RequiredPlugin load a JavaScript file by its path (the file runs when the scene loads); by default only installed sofa-ts plugin packages are loaded',
    )
    .option('--checkpoint-every <K>', 'write a checkpoint every K steps (needs --checkpoint-dir)', positiveInt)
    .option(
      '--checkpoint-dir <DIR>',
      'write checkpoints to DIR/step-<N>.ckpt: every --checkpoint-every steps, at the end, and when SIGINT/SIGTERM stops the run',
    )
    .option('--resume <CHECKPOINT>', 'continue from a checkpoint file (or the last one of a folder) of this scene, up to step -n')
    .option(
      '--python-path <DIR>',
      "Python scenes: a folder put on sys.path after the scene's own, e.g. a clone of STLIB's python3/src (repeatable)",
      collect,
      [],
    )
    .option(
      '--key <STEP:KEY>',
      'send a key press and release before step STEP (KEY: a character, or left, right, up, down, space, plus, minus), as the viewer does (repeatable)',
      collect,
      [],
    )
    .addHelpText('after', RUN_HELP)
    .action(
      async (
        scene: string,
        o: {
          pythonPath: string[];
          key: string[];
          steps: number;
          dt?: number;
          dataPath: string[];
          writeState?: string;
          writePeriod: number;
          out?: string;
          strict?: boolean;
          skipUnknown?: boolean;
          onDivergence: 'stop' | 'continue';
          debug?: boolean;
          plugin: string[];
          plot?: string;
          plotData: string[];
          exportVtk?: string;
          allowPluginPath?: boolean;
          checkpointEvery?: number;
          checkpointDir?: string;
          resume?: string;
        },
      ) => {
        if (o.debug) reporting.debug = true;
        if (o.allowPluginPath) setAllowPluginPathsByDefault(true);
        if (o.checkpointEvery !== undefined && !o.checkpointDir) {
          code = usage('--checkpoint-every needs --checkpoint-dir');
          return;
        }
        code = await runCommand(scene, { ...o, writePeriod: Math.max(1, o.writePeriod), plugins: o.plugin, keys: o.key });
      },
    );

  program
    .command('check')
    .description(
      'load and run every scene of the given files and folders; one line per scene (runs / missing components / error), then the counts',
    )
    .argument('<paths...>', 'scene files, or folders searched for .scn files')
    .option('-n, --steps <N>', 'time steps run per scene', positiveInt, 20)
    .option(
      '--data-path <DIR>',
      "folder searched for meshes and includes (repeatable; a SOFA tree's share/ and examples/ are added by themselves)",
      collect,
      [],
    )
    .option('--json <FILE>', 'also write the results as JSON')
    .option('--strict', 'treat every warning as an error')
    .option('--skip-unknown', 'leave unknown components out with a warning, as SOFA does')
    .option('--timeout <S>', 'seconds a scene may take before it is stopped and reported', positiveNumber, 120)
    .option('-j, --jobs <J>', 'scenes checked at once (worker threads)', positiveInt, defaultJobs())
    .option('--max-memory <MB>', "memory a scene's worker may use before it is stopped and reported", positiveInt, 4096)
    .option('--plugin <NAME>', 'load this plugin package before each scene, resolved as RequiredPlugin names are (repeatable)', collect, [])
    .option('--allow-plugin-path', "let the scenes' RequiredPlugin load JavaScript files by their path (the files run)")
    .option(
      '--checkpoint-at <K>',
      'also check that a run resumed from a checkpoint of step K (0 < K < N) goes on bitwise as the uninterrupted one',
      positiveInt,
    )
    .action(
      async (
        paths: string[],
        o: {
          steps: number;
          dataPath: string[];
          json?: string;
          strict?: boolean;
          skipUnknown?: boolean;
          timeout: number;
          jobs: number;
          maxMemory: number;
          plugin: string[];
          allowPluginPath?: boolean;
          checkpointAt?: number;
        },
      ) => {
        if (o.checkpointAt !== undefined && !(o.checkpointAt > 0 && o.checkpointAt < o.steps)) {
          code = usage(`--checkpoint-at must be between 1 and ${o.steps - 1} (the steps -n run)`);
          return;
        }
        code = await checkCommand(paths, { ...o, jobs: Math.max(1, o.jobs), maxMemoryMb: o.maxMemory, plugins: o.plugin });
      },
    );

  program
    .command('regression')
    .description("run the scenes of a SOFA .regression-tests list and judge them by SOFA's rule")
    .argument('<list>', 'a .regression-tests list file')
    .option('--out <DIR>', 'where compared states are written', 'out/regression')
    .option('--data-path <DIR>', 'folder searched for meshes and includes (repeatable)', collect, [])
    .option('--json <FILE>', 'also write the results as JSON')
    .option('--only <TEXT>', 'only scenes whose path contains TEXT (repeatable)', collect, [])
    .action(async (list: string, o: { out: string; dataPath: string[]; json?: string; only: string[] }) => {
      code = await regressionCommand(list, { out: o.out, dataPath: o.dataPath, ...(o.json ? { json: o.json } : {}), filter: o.only });
    });

  program
    .command('view')
    .description('open a scene in the web viewer: serves a page on the loopback address (the scene runs in the page) and prints its URL')
    .argument('<scene>', 'a SOFA scene file (.scn or .xml), or a SofaPython3 scene (.py)')
    .option('--port <P>', 'port to listen on (0: any free port)', positiveInt, 8080)
    .option('--open', 'open the page in the default browser')
    .option('--server', 'run the scene in this process and stream its states to the page (for plugins that cannot run in a browser)')
    .option('--data-path <DIR>', 'folder searched for meshes and includes (repeatable)', collect, [])
    .option(
      '--allow-host <NAME>',
      'also answer requests for this host name (a name of this machine, a proxy); by default only 127.0.0.1, localhost and [::1] are answered, against DNS rebinding (repeatable)',
      collect,
      [],
    )
    .action(async (scene: string, o: { port: number; open?: boolean; server?: boolean; dataPath: string[]; allowHost: string[] }) => {
      code = await viewCommand(scene, o);
    });

  program
    .command('build-web')
    .description('write a self-contained static folder (page, bundles, scene and its files) that any static web server serves')
    .argument('<scene>', 'a SOFA scene file (.scn or .xml)')
    .requiredOption('--out <DIR>', 'output folder')
    .option('--data-path <DIR>', 'folder searched for meshes and includes (repeatable)', collect, [])
    .action(async (scene: string, o: { out: string; dataPath: string[] }) => {
      code = await buildWebCommand(scene, o);
    });

  program
    .command('python-path')
    .description("print the folder of sofa-ts's Python package Sofa (for PYTHONPATH: `import Sofa` in your own python3)")
    .action(async () => {
      const { pythonPackageDir } = await import('@sofa-ts/python');
      process.stdout.write(`${pythonPackageDir()}\n`);
    });

  program
    .command('components')
    .description('list the registered components, or show one with its Data fields')
    .argument('[name]', 'a component name or alias')
    .option(
      '--plugin <NAME>',
      'also load this plugin package, resolved from the working directory (and its parents), then beside sofa-ts (repeatable)',
      collect,
      [],
    )
    .action(async (name: string | undefined, o: { plugin: string[] }) => {
      code = await componentsCommand(name, o.plugin);
    });

  program
    .command('schema')
    .description(
      'write an XML Schema of the scenes (every component and its Data: types, defaults, help) for editors, and a JSON description beside it (FILE.json); see docs/editors.md',
    )
    .requiredOption('--out <FILE.xsd>', 'the schema file')
    .option('--plugin <NAME>', 'also describe this plugin package (repeatable)', collect, [])
    .action(async (o: { out: string; plugin: string[] }) => {
      code = await schemaCommand(o.out, SOFA_TS_VERSION, { plugins: o.plugin });
    });

  const create = program.command('new').description('create a new package: `sofa-ts new plugin NAME`');
  create
    .command('plugin')
    .description('write a ready npm package of one component (its scene, its test): npm install && npm test in it is green at once')
    .argument('<name>', 'the npm package name of the plugin (the RequiredPlugin pluginName)')
    .addOption(new Option('--kind <KIND>', 'the kind of component written').choices(Object.keys(PLUGIN_KINDS)).default('forcefield'))
    .option('--component <CLASS>', 'the component class name (default: from the package name and the kind)')
    .option('--dir <DIR>', 'folder the package folder is created in', '.')
    .option('--tarballs <DIR>', 'depend on the sofa-ts tarballs of DIR (npm run pack:tarballs) instead of a registry')
    .option('--force', 'write into a non-empty folder')
    .action((name: string, o: { kind: string; component?: string; dir: string; tarballs?: string; force?: boolean }) => {
      if (!isPluginKind(o.kind)) throw new InvalidArgumentError(`unknown kind '${o.kind}'`);
      code = newPluginCommand(name, {
        kind: o.kind,
        dir: o.dir,
        ...(o.component ? { component: o.component } : {}),
        ...(o.tarballs ? { tarballs: o.tarballs } : {}),
        ...(o.force ? { force: true } : {}),
      });
    });

  program
    .command('docs')
    .description('write the component reference: one Markdown page per registered component and an index by category')
    .requiredOption('--out <DIR>', 'folder the pages are written to')
    .option('--plugin <NAME>', 'also document this plugin package (repeatable)', collect, [])
    .option('--only-plugins', 'document only the components of the given plugins')
    .option('--check', 'write nothing; exit 1 and list the pages that differ from DIR (stale reference)')
    .action(async (o: { out: string; plugin: string[]; onlyPlugins?: boolean; check?: boolean }) => {
      code = await docsCommand(o.out, {
        plugins: o.plugin,
        ...(o.onlyPlugins ? { onlyPlugins: true } : {}),
        ...(o.check ? { check: true } : {}),
      });
    });

  program
    .command('sweep')
    .description(
      'run a scene for every case of a parameter grid or sample, on the cores of this machine or through a Redis job queue; results as Parquet and CSV',
    )
    .argument('<scene>', 'a SOFA scene file (.scn or .xml), or a SofaPython3 scene (.py)')
    .option(
      '--param <PATH=SPEC>',
      'a Data by scene path and its values: v1,v2 | lin:A:B:N | log:A:B:N | rand:A:B | logrand:A:B | lhs:A:B | loglhs:A:B | text{SPEC}text (repeatable)',
      collect,
      [],
    )
    .option('-n, --steps <N>', 'time steps per case', positiveInt, 100)
    .option(
      '--record <WHAT>',
      'what to keep per case: a Data path (/node/object.field, [i,j] for items), states, solver, energy, wall; :K for every K steps (repeatable; default states)',
      collect,
      [],
    )
    .requiredOption(
      '--out <DIR>',
      'folder of the results (results.parquet, results.csv, failures.csv, summary.svg) and of the journal a re-run resumes from',
    )
    .option('--samples <N>', 'cases drawn for the sampled parameters (rand, lhs, ...)', positiveInt)
    .option('--seed <S>', 'seed of the sampled parameters', positiveInt, 1)
    .option('-j, --jobs <J>', 'worker threads (default: one per core)', positiveInt)
    .option(
      '--queue <URL>',
      'run the cases on a BullMQ queue in Redis (redis://HOST:PORT); start `sofa-ts worker --queue URL` on any machine',
    )
    .option('--queue-name <NAME>', "the queue's name (default sofa-ts-sweep)")
    .option('--retries <R>', 'runs after the first for a failing case', positiveInt, 1)
    .option('--rerun-failed', 'run again the cases an earlier run recorded as failed')
    .option('--timeout <S>', 'seconds a case may take before it is stopped as failed', positiveNumber)
    .option('--max-memory <MB>', 'memory a case may use before it is stopped as failed', positiveInt, 4096)
    .option('--data-path <DIR>', 'folder searched for meshes and includes (repeatable)', collect, [])
    .option('--strict', 'treat every warning as an error')
    .option('--skip-unknown', 'leave unknown components out with a warning, as SOFA does')
    .option('--plugin <NAME>', 'load this plugin package first (installed on every worker; repeatable)', collect, [])
    .addHelpText(
      'after',
      `
A case is the scene with its parameters set, before init, by the rules of a scene attribute; it
runs as \`sofa-ts run\` runs it (bitwise the same numbers). Its identity (the scene and the files it
reads, the values, the steps, what is recorded) makes a re-run of the same command resume: the
finished cases are kept, the others run. See docs/sweep.md.

Exit codes: 0 every case has an outcome (failed ones are in failures.csv), 1 an error before the
cases ran (scene, parameter, record), 2 bad usage, 130/143 interrupted (the finished cases are kept).`,
    )
    .action(async (scene: string, o: SweepCommandOptions) => {
      code = await sweepCommand(scene, o);
    });

  program
    .command('worker')
    .description(
      'take cases of sweeps from a Redis job queue and run them, until SIGINT or SIGTERM (then the cases in progress are finished)',
    )
    .requiredOption('--queue <URL>', 'the Redis of the queue (redis://HOST:PORT)')
    .option('--queue-name <NAME>', "the queue's name (default sofa-ts-sweep)")
    .option('-j, --jobs <J>', 'cases run at once, each on a worker thread (default: one per core)', positiveInt)
    .option('--lock-ms <MS>', "a case's lock: the case of a worker that died goes back to the queue after it", positiveInt, 30000)
    .option('--timeout <S>', 'seconds a case may take before it is stopped as failed', positiveNumber)
    .option('--max-memory <MB>', 'memory a case may use before it is stopped as failed', positiveInt, 4096)
    .option('--quiet', 'print only failures (not a line per case started and done)')
    .option(
      '--allow-python',
      "run the cases of Python scenes (a scene script is a program, run with this worker's rights); refused otherwise, with the reason",
    )
    .action(async (o: WorkerCommandOptions) => {
      code = await workerCommand(o);
    });

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    const ce = e as { code?: string; exitCode?: number };
    if (typeof ce.code === 'string' && ce.code.startsWith('commander.')) {
      return ce.code === 'commander.helpDisplayed' || ce.code === 'commander.version' || ce.code === 'commander.help'
        ? 0
        : (ce.exitCode ?? 2);
    }
    reportError(e);
    return 1;
  }
  return code;
}
