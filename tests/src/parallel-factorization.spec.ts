import { expect } from 'chai';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadSceneFromString, type SofaScene } from 'sofa-ts';
import { repoRoot } from './corpus-test-support.js';

/**
 * SparseLDLSolver's parallelFactorization: two independent subtrees of the elimination tree on two
 * threads, then the rest on one. The diamond robot of scenes/softrobots (QPInverseProblemSolver,
 * a SparseLDLSolver factorized at every step) steps to the bit as with one thread, with a split
 * found; a task scheduler of one thread says so and runs on one.
 */
const dir = path.join(repoRoot, 'scenes', 'softrobots');
const file = path.join(dir, 'diamond.scn');
const withFlag = (xml: string, extra = '') => xml.replace('<SparseLDLSolver ', `${extra}<SparseLDLSolver parallelFactorization="true" `);

const solverOf = (s: SofaScene) =>
  s.root.children.find((c) => c.getName() === 'diamond')!.objects.find((o) => o.className === 'SparseLDLSolver') as unknown as {
    factorizationSplit: { m: number; r: number } | undefined;
  };

const positions = (s: SofaScene) => (s.get('/diamond/dofs') as unknown as { position: { value: Float64Array } }).position.value;

describe('SparseLDLSolver parallelFactorization', () => {
  it('the diamond robot steps bit for bit as with one thread, its factorization split between two threads', async () => {
    const xml = fs.readFileSync(file, 'utf8');
    const one = await loadSceneFromString(xml, { dataPaths: [dir], fileName: file });
    const two = await loadSceneFromString(withFlag(xml), { dataPaths: [dir], fileName: file });
    try {
      for (let i = 0; i < 12; i++) {
        one.step();
        two.step();
      }
      expect(solverOf(two).factorizationSplit, 'split').to.not.equal(undefined);
      expect(solverOf(one).factorizationSplit).to.equal(undefined);
      const a = positions(one);
      const b = positions(two);
      expect(Array.from(b, String)).to.deep.equal(Array.from(a, String));
      expect(two.warnings.map((w) => w.message).join('\n')).to.not.include('parallelFactorization');
    } finally {
      one.dispose();
      two.dispose();
    }
  });

  it('a task scheduler of one thread: a located warning, one thread', async () => {
    const xml = withFlag(fs.readFileSync(file, 'utf8'), '<TaskSchedulerSettings nbThreads="1"/>\n        ');
    const s = await loadSceneFromString(xml, { dataPaths: [dir], fileName: file });
    try {
      s.step();
      const w = s.warnings.find((x) => x.message.includes('parallelFactorization'));
      expect(w?.message).to.include('the task scheduler has 1 thread');
      expect(w?.loc?.line, 'located').to.be.a('number');
      expect(solverOf(s).factorizationSplit).to.equal(undefined);
    } finally {
      s.dispose();
    }
  });
});
