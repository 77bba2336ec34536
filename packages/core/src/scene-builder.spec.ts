import { expect } from 'chai';
import { SofaError, SofaErrors } from './errors.js';
import { buildScene, addObjectFromAttributes } from './scene-builder.js';
import { Simulation } from './simulation.js';
import { TestLoop, TestSink, TestSource, initOrder, testRegistry } from './test/fixtures.js';
import { el } from './test/xml.js';

function errorsOf(f: () => unknown): SofaError[] {
  try {
    f();
  } catch (e) {
    if (e instanceof SofaErrors) return [...e.errors];
    if (e instanceof SofaError) return [e];
    throw e;
  }
  throw new Error('expected SofaError');
}

describe('scene builder', () => {
  const reg = testRegistry();

  it('creates nodes and components in document order, parsing typed Data', () => {
    const root = buildScene(
      el('Node', { name: 'root', dt: '0.02' }, [
        el('TestLoop', {}),
        el('TestSink', { name: 'sink', stiffness: '2.5', enabled: '0', method: 'small' }),
        el('Node', { name: 'child' }, [el('TestSource', { position: '0 0 0 1 2 3' })]),
      ]),
      reg,
    );
    expect(root.objects.map((o) => o.className)).to.deep.equal(['TestLoop', 'TestSink']);
    const sink = root.objects[1] as TestSink;
    expect(sink.stiffness.value).to.equal(2.5);
    expect(sink.enabled.value).to.equal(false);
    expect(sink.method.value).to.equal('small');
    expect(sink.stiffness.isSet).to.equal(true);
    expect(sink.count.isSet).to.equal(false);
    expect(root.dt.value).to.equal(0.02);
    const src = root.children[0]!.objects[0] as TestSource;
    expect(Array.from(src.position.value)).to.deep.equal([0, 0, 0, 1, 2, 3]);
    expect(src.template).to.equal('Vec3d');
  });

  it('names unnamed components ClassName + a per-node counter (aliases give the class name)', () => {
    const root = buildScene(
      el('Node', { name: 'root' }, [
        el('TestLoop', {}),
        el('TestSource', {}),
        el('OldTestSource', {}),
        el('TestSource', { name: 'TestSource3' }),
        el('TestSource', {}),
        el('Node', { name: 'child' }, [el('TestSource', {})]),
      ]),
      reg,
    );
    expect(root.objects.map((o) => o.getName())).to.deep.equal(['TestLoop1', 'TestSource1', 'TestSource2', 'TestSource3', 'TestSource4']);
    expect(root.children[0]!.objects[0]!.getName()).to.equal('TestSource1');
  });

  it('accepts templates in any SOFA spelling and rejects others with a suggestion', () => {
    const root = buildScene(el('Node', {}, [el('TestLoop', {}), el('TestSource', { template: 'Rigid3' })]), reg);
    expect(root.objects[1]!.template).to.equal('Rigid3d');
    const [e] = errorsOf(() => buildScene(el('Node', {}, [el('TestLoop', {}), el('TestSource', { template: 'Rigid3x' }, [], 4)]), reg));
    expect(e!.message).to.match(/^test\.scn:4:\d+: TestSource '': template 'Rigid3x' is not supported; expected one of Vec3d, Rigid3d \(did you mean 'Rigid3d'\?\)$/);
  });

  it('reports unknown components, unknown attributes and bad values with file:line:column and a suggestion', () => {
    const errors = errorsOf(() =>
      buildScene(
        el('Node', { name: 'root' }, [
          el('TestLoop', {}),
          el('TestSinc', {}, [], 3),
          el('TestSink', { name: 's', stifness: '1' }, [], 4),
          el('TestSink', { name: 't', stiffness: 'abc', method: 'larg' }, [], 5),
        ]),
        reg,
      ),
    );
    const msgs = errors.map((e) => e.message);
    expect(msgs).to.have.length(4);
    expect(msgs[0]).to.equal("test.scn:3:1: unknown component 'TestSinc' (did you mean 'TestSink'?)");
    expect(msgs[1]).to.match(/^test\.scn:4:\d+: TestSink 's': unknown attribute 'stifness' \(did you mean 'stiffness'\?\)$/);
    expect(msgs[2]).to.match(/^test\.scn:5:\d+: TestSink 't': bad value for 'stiffness' \(double\): expected a number, got 'abc'$/);
    expect(msgs[3]).to.match(/bad value for 'method'.*expected one of 'small', 'large'.*did you mean 'large'/);
    expect(errors[1]!.loc!.column).to.equal(el('TestSink', { name: 's', stifness: '1' }).attributes[1]!.loc.column);
  });

  it('resolves data links (@path.field) and component links (@path), lazily following the parent', () => {
    const root = buildScene(
      el('Node', { name: 'root' }, [
        el('TestLoop', {}),
        el('TestSource', { name: 'loader', position: '1 2 3', count: '7' }),
        el('Node', { name: 'child' }, [
          el('TestSink', { name: 'a', position: '@../loader.position', source: '@../loader', count: '@/loader.count' }),
          el('TestSink', { name: 'b', position: '@[-1].position', stiffness: '@a.count' }),
        ]),
      ]),
      reg,
    );
    const loader = root.objects[1] as TestSource;
    const [a, b] = root.children[0]!.objects as TestSink[];
    expect(Array.from(a!.position.value)).to.deep.equal([1, 2, 3]);
    expect(a!.source.get()).to.equal(loader);
    expect(a!.count.value).to.equal(7);
    expect(Array.from(b!.position.value)).to.deep.equal([1, 2, 3]);
    expect(b!.stiffness.value).to.equal(7); // int → double through text
    loader.position.value = Float64Array.of(4, 5, 6);
    expect(Array.from(b!.position.value)).to.deep.equal([4, 5, 6]);
    loader.position.value[0] = 9; // in place: followers see it after touch()
    loader.position.touch();
    expect(a!.position.value[0]).to.equal(9);
  });

  it('reports unresolved links with their location and a suggestion', () => {
    const sink = el('TestSink', { name: 's', source: '@lodaer', position: '@loader.positions' }, [], 6);
    const errors = errorsOf(() => buildScene(el('Node', {}, [el('TestLoop', {}), el('TestSource', { name: 'loader' }), sink]), reg));
    const col = (i: number) => sink.attributes[i]!.loc.column;
    expect(errors.map((e) => e.message)).to.deep.equal([
      `test.scn:6:${col(2)}: TestSink 's': data link 'position': TestSource 'loader' has no Data 'positions' (did you mean 'position'?)`,
      `test.scn:6:${col(1)}: TestSink 's': link 'source': no object at '@lodaer' (did you mean 'loader'?)`,
    ]);
  });

  it('rejects a link to an object of the wrong kind', () => {
    const [e] = errorsOf(() => buildScene(el('Node', {}, [el('TestLoop', {}), el('TestSink', { name: 'x' }), el('TestSink', { source: '@x' })]), reg));
    expect(e!.message).to.contain("link 'source': '@x' is TestSink 'x', expected a TestSource");
  });

  it('runs init top-down in document order and bwdInit bottom-up; children take the root context', () => {
    initOrder.length = 0;
    const root = buildScene(
      el('Node', { name: 'root', dt: '0.05', gravity: '0 0 -9.81' }, [
        el('TestLoop', {}),
        el('TestSource', { name: 'r1' }),
        el('Node', { name: 'c', gravity: '0 -9.81 0', dt: '1' }, [el('TestSource', { name: 'c1' }), el('Node', { name: 'g' }, [el('TestSource', { name: 'g1' })])]),
        el('TestSource', { name: 'r2' }),
      ]),
      reg,
    );
    const sim = new Simulation(root);
    sim.init();
    expect(initOrder).to.deep.equal(['init r1', 'init r2', 'init c1', 'init g1', 'bwdInit g1', 'bwdInit c1', 'bwdInit r1', 'bwdInit r2']);
    const c = root.children[0]!;
    expect(Array.from(c.getGravity())).to.deep.equal([0, 0, -9.81]);
    expect(c.getDt()).to.equal(0.05);
    expect(c.children[0]!.getDt()).to.equal(0.05);
    sim.step();
    expect(c.children[0]!.getTime()).to.be.closeTo(0.05, 1e-15);
    expect((root.objects[0] as TestLoop).steps).to.equal(1);
  });

  it('fills unset links by their search rule at init', () => {
    const root = buildScene(el('Node', {}, [el('TestLoop', {}), el('TestSource', { name: 'up' }), el('Node', { name: 'c' }, [el('TestSink', {})])]), reg);
    new Simulation(root).init();
    expect((root.children[0]!.objects[0] as TestSink).source.get()).to.equal(root.objects[1]);
  });

  it('adds components in code through the same checks', () => {
    const root = buildScene(el('Node', {}, [el('TestLoop', {}), el('TestSource', { name: 'loader', position: '1 1 1' })]), reg);
    const s = addObjectFromAttributes(reg, root, 'TestSink', { position: '@loader.position', k: '3' }) as TestSink;
    expect(s.getName()).to.equal('TestSink1');
    expect(s.stiffness.value).to.equal(3);
    expect(Array.from(s.position.value)).to.deep.equal([1, 1, 1]);
    expect(() => addObjectFromAttributes(reg, root, 'TestSink', { bogus: '1' })).to.throw(SofaError, "unknown attribute 'bogus'");
    expect(root.objects).to.have.length(3);
  });
});
