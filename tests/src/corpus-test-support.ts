import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (tests/dist/ → ../..). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The SOFA regression corpus beside the checkout (../shared/sofa-regression), or SOFA_REGRESSION_DIR. */
export const corpusRoot = process.env['SOFA_REGRESSION_DIR'] ?? path.resolve(repoRoot, '..', 'shared', 'sofa-regression');
export const corpusList = path.join(corpusRoot, 'sofa', 'examples', 'Corpus.regression-tests');
export const hasCorpus = fs.existsSync(corpusList);
/** SOFA's whole state regression list (the scenes of RegressionStateScenes whose references are in the corpus). */
export const stateList = path.join(corpusRoot, 'sofa', 'examples', 'State.regression-tests');
/** SOFA's topology regression list (the scenes of RegressionTopologyScenes whose references are in the corpus). */
export const topologyList = path.join(corpusRoot, 'sofa', 'examples', 'Topology.regression-tests');
