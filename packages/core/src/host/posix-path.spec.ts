import { expect } from 'chai';
import * as path from 'node:path';
import { createPosixPath } from './posix-path.js';

describe("host: POSIX path rules (a browser host's) agree with Node's path.posix", () => {
  const p = createPosixPath(() => '/scene');
  const posix = path.posix;
  const cases = ['/a/b/../c', 'a/./b', '/scene/mesh/x.obj', '../x', '/', 'a//b/', '/data/0/mesh/liver.msh', 'x.tar.gz', '.hidden'];
  it('normalize, dirname, basename, extname, isAbsolute', () => {
    for (const c of cases) {
      expect(p.normalize(c), c).to.equal(posix.normalize(c));
      expect(p.dirname(c), c).to.equal(posix.dirname(c));
      expect(p.basename(c), c).to.equal(posix.basename(c));
      expect(p.extname(c), c).to.equal(posix.extname(c));
      expect(p.isAbsolute(c), c).to.equal(posix.isAbsolute(c));
    }
    expect(p.basename('/a/b.obj', '.obj')).to.equal('b');
  });
  it("resolve (against the host's folder), join, relative", () => {
    const cwd = '/scene';
    for (const [a, b] of [
      ['mesh', 'x.obj'],
      ['/data/0', '../1/y'],
      ['', 'z'],
      ['/a', '/b/c'],
    ] as const) {
      expect(p.resolve(a, b), `${a} ${b}`).to.equal(posix.resolve(cwd, a, b));
      expect(p.join(a, b), `${a} ${b}`).to.equal(posix.join(a, b));
    }
    expect(p.relative('/data/0/mesh', '/data/0/tex/a.png')).to.equal(posix.relative('/data/0/mesh', '/data/0/tex/a.png'));
  });
});
