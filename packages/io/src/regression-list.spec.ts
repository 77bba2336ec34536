import { expect } from 'chai';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SofaError } from '@sofa-ts/core';
import { parseRegressionList, readRegressionList } from './regression-list.js';
import { corpusRoot } from './corpus-test-support.js';

const CORPUS = corpusRoot();
const LIST = path.join(CORPUS, 'sofa/examples/Corpus.regression-tests');

function errorOf(fn: () => unknown): SofaError {
  try {
    fn();
  } catch (e) {
    expect(e).to.be.instanceOf(SofaError);
    return e as SofaError;
  }
  throw new Error('expected a SofaError');
}

describe('parseRegressionList', () => {
  const file = '/lists/examples/my.regression-tests';

  it('skips comments and blank lines, resolves paths against the list folder', () => {
    const list = parseRegressionList('# a comment\n\n  # indented comment\n../refs\r\nA/b.scn 100 1e-08 1 0\n\nc.scn\t7  0.01 0 1\n', file);
    expect(list.file).to.equal(file);
    expect(list.dir).to.equal('/lists/examples');
    expect(list.referenceRoot).to.equal('/lists/refs');
    expect(list.entries).to.deep.equal([
      {
        scene: '/lists/examples/A/b.scn',
        sceneRelative: 'A/b.scn',
        steps: 100,
        epsilon: 1e-8,
        mecaInMapping: true,
        lastStepOnly: false,
        line: 5,
      },
      {
        scene: '/lists/examples/c.scn',
        sceneRelative: 'c.scn',
        steps: 7,
        epsilon: 0.01,
        mecaInMapping: false,
        lastStepOnly: true,
        line: 7,
      },
    ]);
  });

  it('reports malformed lines with file and line', () => {
    const cases: Array<[string, string, number, number]> = [
      ['refs\nA.scn 100 0.0001\n', 'found 3', 2, 17],
      ['refs\nA.scn 100 0.0001 0 1 extra\n', 'found 6', 2, 22],
      ['refs\nA.scn ten 0.0001 0 1\n', "steps must be a non-negative integer, got 'ten'", 2, 7],
      ['refs\nA.scn -5 0.0001 0 1\n', 'steps must be', 2, 7],
      ['refs\nA.scn 10 tiny 0 1\n', "epsilon must be a finite number >= 0, got 'tiny'", 2, 10],
      ['refs\nA.scn 10 -1 0 1\n', 'epsilon must be', 2, 10],
      ['refs\nA.scn 10 0.1 yes 1\n', "meca_in_mapping must be 0 or 1, got 'yes'", 2, 14],
      ['refs\nA.scn 10 0.1 0 2\n', "last_step_only must be 0 or 1, got '2'", 2, 16],
      ['ref dir\n', 'reference root folder alone', 1, 5],
      ['# only comments\n', 'no reference root', 2, 1],
    ];
    for (const [text, message, line, column] of cases) {
      const err = errorOf(() => parseRegressionList(text, file));
      expect(err.message, text).to.contain(message);
      expect(err.message, text).to.contain(`${file}:${line}:${column}`);
      expect(err.loc, text).to.deep.equal({ file, line, column });
    }
  });

  it("reads SOFA's 4-column topology lines as dumping every step", () => {
    const list = parseRegressionList('refs\nA.scn 30 1e-4 1\n', file);
    expect(list.entries[0]).to.include({ steps: 30, mecaInMapping: true, lastStepOnly: false });
  });

  it('reports an unreadable list file', () => {
    expect(() => readRegressionList('/nonexistent/x.regression-tests')).to.throw(SofaError, /x\.regression-tests/);
  });
});

describe('the corpus regression list', () => {
  before(function () {
    if (!fs.existsSync(LIST)) this.skip();
  });

  it('lists the 23 scenes of the corpus', () => {
    const list = readRegressionList(LIST);
    expect(list.referenceRoot).to.equal(path.join(CORPUS, 'regression/references/examples'));
    expect(list.entries).to.have.length(23);
    expect(list.entries[0]).to.deep.equal({
      scene: path.join(CORPUS, 'sofa/examples/Benchmark/Analysis/Pendulum.scn'),
      sceneRelative: 'Benchmark/Analysis/Pendulum.scn',
      steps: 300,
      epsilon: 1e-4,
      mecaInMapping: false,
      lastStepOnly: true,
      line: 4,
    });
    const liver = list.entries.find((e) => e.sceneRelative === 'Demos/liver.scn')!;
    expect(liver).to.include({ steps: 100, epsilon: 1e-4, mecaInMapping: true, lastStepOnly: true });
    const ldl = list.entries.find((e) => e.sceneRelative.endsWith('FEMBAR_SparseLDLSolver.scn'))!;
    expect(ldl.epsilon).to.equal(1e-8);
    for (const e of list.entries) expect(fs.existsSync(e.scene), e.scene).to.equal(true);
  });
});
