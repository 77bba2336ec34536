import { expect } from 'chai';
import { buildScene } from './scene-builder.js';
import { resolvePath } from './paths.js';
import { TestLoop, testRegistry } from './components-test-support.js';
import { el } from './xml-test-support.js';

// SOFA's Node::findLinkDestClass rules, on one tree:
//   root: loop, loader          A: a1     A/B: b1     C: c1     C/D: d1
describe('scene paths (SOFA link resolution)', () => {
  const root = buildScene(
    el('Node', { name: 'root' }, [
      el('TestLoop', { name: 'loop' }),
      el('TestSource', { name: 'loader' }),
      el('Node', { name: 'A' }, [el('TestSource', { name: 'a1' }), el('Node', { name: 'B' }, [el('TestSource', { name: 'b1' })])]),
      el('Node', { name: 'C' }, [
        el('TestSource', { name: 'c1' }),
        el('TestSource', { name: 'c2' }),
        el('Node', { name: 'D' }, [el('TestSource', { name: 'd1' })]),
      ]),
    ]),
    testRegistry(),
  );
  const d1 = root.children[1].children[0].objects[0];
  const c2 = root.children[1].objects[1];
  const name = (t: ReturnType<typeof resolvePath>): string | undefined =>
    t === undefined ? undefined : t.kind === 'object' ? t.object.getName() : `node ${t.node.getName()}`;

  it('resolves absolute, relative and indexed paths', () => {
    expect(name(resolvePath(d1, '@/A/B/b1'))).to.equal('b1');
    expect(name(resolvePath(d1, '@/root/A/a1'))).to.equal('a1'); // the root's own name may be given
    expect(name(resolvePath(d1, '@../c1'))).to.equal('c1');
    expect(name(resolvePath(d1, '@./'))).to.equal('node D');
    expect(name(resolvePath(c2, '@[-1]'))).to.equal('c1');
    expect(root.objects[0]).to.be.instanceOf(TestLoop);
  });

  it('searches the first name of a relative path in the ancestors, nearest first', () => {
    expect(name(resolvePath(d1, '@loader'))).to.equal('loader');
    expect(name(resolvePath(d1, '@c1'))).to.equal('c1');
    // A multi-segment path: its first name is found from an ancestor (SOFA), then followed down.
    expect(name(resolvePath(d1, '@A/B/b1'))).to.equal('b1');
    // The node a component sits in, named from inside it (`output="@Collis"` in node Collis).
    expect(name(resolvePath(d1, '@D'))).to.equal('node D');
  });

  it('does not search ancestors once a path is anchored', () => {
    expect(resolvePath(d1, '@./loader')).to.equal(undefined);
    expect(resolvePath(d1, '@../A/b1')).to.equal(undefined);
    expect(resolvePath(d1, '@/B/b1')).to.equal(undefined);
    expect(resolvePath(d1, '@A/c1')).to.equal(undefined);
  });
});
