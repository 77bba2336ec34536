import { expect } from 'chai';
import * as path from 'node:path';
import { dataFileCandidates, defaultDataPaths, resolveDataFile, splitPathList } from './data-paths.js';
import { removeTempTree, writeTempTree } from './loader-test-support.js';

describe('data paths', () => {
  let dir: string;
  before(() => {
    dir = writeTempTree({
      'scene/mesh/local.obj': '',
      'share/mesh/local.obj': '',
      'share/mesh/shared.obj': '',
      'extra/mesh/shared.obj': '',
      'extra/mesh/extra.obj': '',
    });
  });
  after(() => removeTempTree(dir));

  it('looks in the scene folder first, then the data paths in order', () => {
    const search = { sceneDir: path.join(dir, 'scene'), dataPaths: [path.join(dir, 'share'), path.join(dir, 'extra')] };
    expect(resolveDataFile('mesh/local.obj', search)).to.equal(path.join(dir, 'scene/mesh/local.obj'));
    expect(resolveDataFile('mesh/shared.obj', search)).to.equal(path.join(dir, 'share/mesh/shared.obj'));
    expect(resolveDataFile('./mesh/extra.obj', search)).to.equal(path.join(dir, 'extra/mesh/extra.obj'));
    expect(resolveDataFile('mesh/none.obj', search)).to.equal(undefined);
    expect(dataFileCandidates('mesh/none.obj', search)).to.deep.equal([
      path.join(dir, 'scene/mesh/none.obj'),
      path.join(dir, 'share/mesh/none.obj'),
      path.join(dir, 'extra/mesh/none.obj'),
    ]);
  });

  it('takes an absolute path as is', () => {
    const abs = path.join(dir, 'extra/mesh/extra.obj');
    expect(resolveDataFile(abs, { sceneDir: path.join(dir, 'scene') })).to.equal(abs);
    expect(resolveDataFile(path.join(dir, 'nope.obj'), { dataPaths: [dir] })).to.equal(undefined);
  });

  it('reads SOFA_DATA_PATH, separated by ":" or ";"', () => {
    expect(splitPathList('/a:/b;/c::')).to.deep.equal(['/a', '/b', '/c']);
    expect(defaultDataPaths({ SOFA_DATA_PATH: '/x/share;/x/examples:rel' })).to.deep.equal([
      '/x/share',
      '/x/examples',
      path.resolve('rel'),
    ]);
    expect(defaultDataPaths({})).to.deep.equal([]);
  });
});
