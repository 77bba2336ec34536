import { expect } from 'chai';
import * as path from 'node:path';
import { corpusRoot, hasCorpus, repoRoot } from './corpus-test-support.js';
import { bundledScenes, runCampaign } from './fuzz/campaign.js';

/**
 * A seeded mutation campaign over the bundled scenes (npm run fuzz runs long ones): hostile numbers,
 * broken links, dropped or duplicated elements, wrong templates, truncated or junk XML, entity
 * bombs, deep nesting, huge grids, hostile includes, mesh files and plugin paths. Every mutant must
 * run, stop with a located error, or be stopped by the divergence guard: no JavaScript exception,
 * no dead worker, no hang, no run ending with a non-finite state.
 */
describe('fuzzing: 300 mutants of the bundled scenes', function () {
  this.timeout(300_000);
  it('no crash, hang or silent NaN; every error located', async () => {
    const t0 = performance.now();
    const result = await runCampaign({
      sources: bundledScenes(repoRoot),
      dataPaths: hasCorpus ? [path.join(corpusRoot, 'sofa', 'share')] : [],
      mutants: 300,
      seed: 20261125,
      steps: 5,
      jobs: 2,
      // 10 s: a small mutant answering later is a hang; a large problem (a scaled grid) is 'slow'.
      timeout: 10,
      maxMemoryMb: 1024,
    });
    const seconds = (performance.now() - t0) / 1000;
    console.log(
      `      ${Object.entries(result.counts)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')} (${seconds.toFixed(1)} s)`,
    );
    expect(
      result.defects.map((d) => `#${d.index} ${d.outcome.kind}: ${path.basename(d.source)} [${d.description}] ${d.outcome.message ?? ''}`),
    ).to.deep.equal([]);
    expect(result.counts['unlocated-error']).to.equal(0);
    // Most mutants do something: not all of them are refused at load.
    expect(result.counts.ran + result.counts.diverged).to.be.greaterThan(50);
  });
});
