import { Command, InvalidArgumentError, Option } from 'commander';
import { checkCommand, defaultJobs } from './check.js';
import { componentsCommand } from './components.js';
import { reportError, reporting } from './errors.js';
import { regressionCommand } from './regression.js';
import { runCommand } from './run.js';
import { setAllowPluginPathsByDefault } from 'sofa-ts';

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
State files are appended frame by frame: whatever stops the run, the frames written stay.
Ctrl-C (SIGINT) or SIGTERM finishes the current step and stops with every state file ending on
the same frame.

Exit codes:
  0    the run went to its end
  1    an error (scene, component, file; the message says where)
  2    bad usage
  3    the simulation diverged (NaN or infinite positions or velocities; also with
       --on-divergence continue, at the end of the run)
  130  interrupted by SIGINT, 143 by SIGTERM`;

/** Entry point of the `sofa-ts` command; returns the process exit code. */
export async function main(argv: string[]): Promise<number> {
  let code = 0;
  const program = new Command('sofa-ts')
    .description('Run SOFA scenes (.scn) with sofa-ts, compare them with SOFA references, list components.')
    .showHelpAfterError()
    .exitOverride();

  program
    .command('run')
    .description('load a scene, run it, print a summary')
    .argument('<scene>', 'a SOFA scene file (.scn or .xml)')
    .option('-n, --steps <N>', 'number of time steps', positiveInt, 100)
    .option('--dt <DT>', "time step, overriding the root's dt", positiveNumber)
    .option('--data-path <DIR>', 'folder searched for meshes and includes (repeatable)', collect, [])
    .option('--write-state <DIR>', 'write every mechanical state in WriteState format to DIR/<i>_<name>.state.txt')
    .option('--write-period <K>', 'write states every K steps', positiveInt, 1)
    .option('--strict', 'treat every warning as an error (unused attributes, renamed Data, template fallbacks, lenient XML)')
    .option('--skip-unknown', 'leave unknown components out of the scene with a warning, as SOFA does (default: an error)')
    .addOption(new Option('--on-divergence <policy>', 'when a step leaves a NaN or infinite position or velocity: stop, or warn once and continue').choices(['stop', 'continue']).default('stop'))
    .option('--debug', 'print the stack of internal errors (a component that threw something else than a scene error)')
    .option('--allow-plugin-path', 'let RequiredPlugin load a JavaScript file by its path (the file runs when the scene loads); by default only installed sofa-ts plugin packages are loaded')
    .addHelpText('after', RUN_HELP)
    .action(async (scene: string, o: { steps: number; dt?: number; dataPath: string[]; writeState?: string; writePeriod: number; strict?: boolean; skipUnknown?: boolean; onDivergence: 'stop' | 'continue'; debug?: boolean; allowPluginPath?: boolean }) => {
      if (o.debug) reporting.debug = true;
      if (o.allowPluginPath) setAllowPluginPathsByDefault(true);
      code = await runCommand(scene, { ...o, writePeriod: Math.max(1, o.writePeriod) });
    });

  program
    .command('check')
    .description('load and run every scene of the given files and folders; one line per scene (runs / missing components / error), then the counts')
    .argument('<paths...>', 'scene files, or folders searched for .scn files')
    .option('-n, --steps <N>', 'time steps run per scene', positiveInt, 20)
    .option('--data-path <DIR>', 'folder searched for meshes and includes (repeatable; a SOFA tree\'s share/ and examples/ are added by themselves)', collect, [])
    .option('--json <FILE>', 'also write the results as JSON')
    .option('--strict', 'treat every warning as an error')
    .option('--skip-unknown', 'leave unknown components out with a warning, as SOFA does')
    .option('--timeout <S>', 'seconds a scene may take before it is stopped and reported', positiveNumber, 120)
    .option('-j, --jobs <J>', 'scenes checked at once (worker threads)', positiveInt, defaultJobs())
    .option('--max-memory <MB>', "memory a scene's worker may use before it is stopped and reported", positiveInt, 4096)
    .action(async (paths: string[], o: { steps: number; dataPath: string[]; json?: string; strict?: boolean; skipUnknown?: boolean; timeout: number; jobs: number; maxMemory: number }) => {
      code = await checkCommand(paths, { ...o, jobs: Math.max(1, o.jobs), maxMemoryMb: o.maxMemory });
    });

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
    .command('components')
    .description('list the registered components, or show one with its Data fields')
    .argument('[name]', 'a component name or alias')
    .option('--plugin <NAME>', 'also load this plugin package (repeatable)', collect, [])
    .action(async (name: string | undefined, o: { plugin: string[] }) => {
      code = await componentsCommand(name, o.plugin);
    });

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    const ce = e as { code?: string; exitCode?: number };
    if (typeof ce.code === 'string' && ce.code.startsWith('commander.')) {
      return ce.code === 'commander.helpDisplayed' || ce.code === 'commander.version' || ce.code === 'commander.help' ? 0 : (ce.exitCode ?? 2);
    }
    reportError(e);
    return 1;
  }
  return code;
}
