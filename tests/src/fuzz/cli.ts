// `npm run fuzz`: a long mutation campaign over the bundled scenes (and the corpus scenes with
// --corpus); prints the counts by class and saves the defective mutants.
import * as os from 'node:os';
import * as path from 'node:path';
import { readRegressionList } from '@sofa-ts/io';
import { corpusList, corpusRoot, hasCorpus, repoRoot } from '../corpus-test-support.js';
import { bundledScenes, runCampaign } from './campaign.js';
import { defectClasses } from './classes.js';

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(`usage: node tests/dist/fuzz/cli.js [--corpus] [--mutants N] [--seed S] [--steps N] [--jobs J]
                                  [--timeout S] [--max-memory MB] [--out DIR]
A mutation campaign over the bundled scenes (npm run fuzz): prints the counts by class and saves the
defective mutants.
  --corpus          also mutate the scenes of the SOFA corpus's Corpus list
  --mutants N       mutants run (default 10000)
  --seed S          seed of the mutations (default 1)
  --steps N         time steps run per mutant (default 5)
  --jobs J          mutants run at once (default one per core)
  --timeout S       seconds a mutant may take (default 20)
  --max-memory MB   memory a mutant may use (default 1024)
  --out DIR         folder of the defective mutants (default out/fuzz)
  -h, --help        print this and exit`);
  process.exit(0);
}
const opt = (name: string, dflt: string): string => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : dflt;
};
const sources = bundledScenes(repoRoot);
if (args.includes('--corpus')) {
  if (!hasCorpus) throw new Error(`--corpus: no SOFA corpus at ${corpusRoot} (set SOFA_REGRESSION_DIR)`);
  for (const e of readRegressionList(corpusList).entries) sources.push(e.scene);
}
const mutants = Number(opt('--mutants', '10000'));
const t0 = Date.now();
const result = await runCampaign({
  sources,
  dataPaths: hasCorpus ? [path.join(corpusRoot, 'sofa', 'share'), path.join(corpusRoot, 'sofa', 'examples')] : [],
  mutants,
  seed: Number(opt('--seed', '1')),
  steps: Number(opt('--steps', '5')),
  jobs: Number(opt('--jobs', String(os.availableParallelism()))),
  timeout: Number(opt('--timeout', '20')),
  maxMemoryMb: Number(opt('--max-memory', '1024')),
  out: opt('--out', 'out/fuzz'),
  onProgress: (n) => {
    if (n % 100 === 0 || n === mutants) process.stderr.write(`\r${n}/${mutants} mutants, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  },
});
process.stderr.write('\n');
console.log(`${mutants} mutants of ${sources.length} scenes in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
for (const [k, v] of Object.entries(result.counts))
  console.log(`  ${k.padEnd(16)} ${v}${defectClasses.includes(k as never) ? '  (defect)' : ''}`);
for (const d of result.defects.slice(0, 30))
  console.log(
    `  #${d.index} ${d.outcome.kind}: ${path.relative(repoRoot, d.source)} [${d.description.slice(0, 100)}] ${d.outcome.message ?? ''}`,
  );
if (result.defects.length > 0) console.log(`defective mutants saved in ${opt('--out', 'out/fuzz')}`);
process.exitCode = result.defects.length > 0 ? 1 : 0;
