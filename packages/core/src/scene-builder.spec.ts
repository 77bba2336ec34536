import { expect } from 'chai';
import { SofaError, SofaErrors } from './errors.js';
import { buildScene, addObjectFromAttributes } from './scene-builder.js';
import { Simulation } from './simulation.js';
import { MakeAlias, MakeDataAlias } from './factory-alias.js';
import { componentModule } from './registry.js';
import { TestLoop, TestSink, TestSource, initOrder, testRegistry } from './components-test-support.js';
import { el } from './xml-test-support.js';

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

function aliasRegistry(): ReturnType<typeof testRegistry> {
  const r = testRegistry();
  r.load('core-aliases', componentModule('core-aliases', [MakeAlias, MakeDataAlias]));
  return r;
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
    const src = root.children[0].objects[0] as TestSource;
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
    expect(root.children[0].objects[0].getName()).to.equal('TestSource1');
  });

  it('accepts templates in any SOFA spelling; another falls back to the context with a warning (an error under strict)', () => {
    for (const t of ['Rigid3', 'Rigid', 'Rigid3f', 'Rigid3d', 'Rigid3Types']) {
      const root = buildScene(el('Node', {}, [el('TestLoop', {}), el('TestSource', { template: t })]), reg);
      expect(root.objects[1].template, t).to.equal('Rigid3d');
    }
    for (const t of ['Vec3', 'Vec3f', 'Vec3d', 'Vec3Types']) {
      const root = buildScene(el('Node', {}, [el('TestLoop', {}), el('TestSource', { template: t })]), reg);
      expect(root.objects[1].template, t).to.equal('Vec3d');
    }
    const warnings: SofaError[] = [];
    const root = buildScene(el('Node', {}, [el('TestLoop', {}), el('TestSource', { template: 'Rigid3x' }, [], 4)]), reg, warnings);
    expect(root.objects[1].template).to.equal(''); // deduced by the component from its state at init
    expect(warnings.map((w) => w.message)).to.have.length(1);
    expect(warnings[0].message).to.match(
      /^test\.scn:4:\d+: TestSource '': template 'Rigid3x' is not one of Vec3d, Rigid3d; the template is taken from the component's state \(did you mean 'Rigid3d'\?\)$/,
    );
    expect(warnings[0].code).to.equal('template-fallback');
    const [e] = errorsOf(() =>
      buildScene(el('Node', {}, [el('TestLoop', {}), el('TestSource', { template: 'Vec3,Vec3' }, [], 4)]), reg, [], { strict: true }),
    );
    expect(e!.message).to.contain("template 'Vec3,Vec3' is not one of Vec3d, Rigid3d");
  });

  it("warns about unused attributes with their location and a did-you-mean (SOFA's 'Unused attribute'), skips '_' attributes, errors under strict", () => {
    const sink = el('TestSink', { name: 's', stifness: '2', _editorHint: 'x' }, [], 4);
    const warnings: SofaError[] = [];
    const root = buildScene(el('Node', { name: 'root', _comment: 'ignored' }, [el('TestLoop', {}), sink]), reg, warnings);
    expect(warnings.map((w) => w.message)).to.deep.equal([
      `test.scn:4:${sink.attributes[1].loc.column}: TestSink 's': unused attribute 'stifness' (TestSink has no Data of that name) (did you mean 'stiffness'?)`,
    ]);
    expect(warnings[0].code).to.equal('unused-attribute');
    expect((root.objects[1] as TestSink).stiffness.value).to.equal(1); // the default: the attribute named nothing
    const errors = errorsOf(() => buildScene(el('Node', { name: 'root' }, [el('TestLoop', {}), sink]), reg, [], { strict: true }));
    expect(errors.map((e) => e.message)).to.deep.equal([warnings[0].message]);
  });

  it('accepts a Data under the name SOFA renamed it from, with a deprecation warning', () => {
    const warnings: SofaError[] = [];
    const root = buildScene(el('Node', {}, [el('TestLoop', {}), el('TestSink', { name: 's', oldCount: '5' }, [], 2)]), reg, warnings);
    expect((root.objects[1] as TestSink).count.value).to.equal(5);
    expect(warnings.map((w) => w.message)).to.deep.equal([
      `test.scn:2:${el('TestSink', { name: 's', oldCount: '5' }).attributes[1].loc.column}: TestSink 's': attribute 'oldCount' is deprecated: SOFA renamed it 'count' (write count="5")`,
    ]);
    expect(warnings[0].code).to.equal('deprecated');
  });

  it('reads vectors written with brackets and commas as SOFA does', () => {
    const root = buildScene(
      el('Node', { gravity: '[0, -10, 0]' }, [el('TestLoop', {}), el('TestSource', { position: '[1 0 0,0 1 0] [0 0 1]' })]),
      reg,
    );
    expect(Array.from(root.gravity.value)).to.deep.equal([0, -10, 0]);
    expect(Array.from((root.objects[1] as TestSource).position.value)).to.deep.equal([1, 0, 0, 0, 1, 0, 0, 0, 1]);
  });

  it('reports every unknown component at once, each located with its did-you-mean; --skip-unknown leaves them out with warnings', () => {
    const scene = el('Node', { name: 'root' }, [
      el('TestLoop', {}),
      el('TestSinc', { name: 'a' }, [], 3),
      el('TestSourse', { name: 'b' }, [], 4),
      el('Frobnicator', {}, [], 5),
      el('TestSink', { name: 's', source: '@b', position: '@a.position' }, [], 6),
    ]);
    const errors = errorsOf(() => buildScene(scene, reg));
    // The links to the missing components are consequences, not reported on their own.
    expect(errors.map((e) => e.message)).to.deep.equal([
      "test.scn:3:1: unknown component 'TestSinc' (did you mean 'TestSink'?)",
      "test.scn:4:1: unknown component 'TestSourse' (did you mean 'TestSource' or 'OldTestSource'?)",
      "test.scn:5:1: unknown component 'Frobnicator'",
    ]);
    expect(errors.every((e) => e.code === 'unknown-component')).to.equal(true);
    const warnings: SofaError[] = [];
    const root = buildScene(scene, reg, warnings, { skipUnknown: true });
    expect(root.objects.map((o) => o.className)).to.deep.equal(['TestLoop', 'TestSink']);
    expect(warnings.map((w) => w.message)).to.deep.equal([
      "test.scn:3:1: unknown component 'TestSinc': left out of the scene (--skip-unknown) (did you mean 'TestSink'?)",
      "test.scn:4:1: unknown component 'TestSourse': left out of the scene (--skip-unknown) (did you mean 'TestSource' or 'OldTestSource'?)",
      "test.scn:5:1: unknown component 'Frobnicator': left out of the scene (--skip-unknown)",
      `test.scn:6:${scene.children[4].attributes[2].loc.column}: TestSink 's': data link 'position': nothing at '@a.position' (expected @path.field) (it names a component that was left out)`,
      `test.scn:6:${scene.children[4].attributes[1].loc.column}: TestSink 's': link 'source': no object at '@b' (it names a component that was left out)`,
    ]);
  });

  it('accepts node attributes SOFA has, warns about others, and turns old visual flags into a VisualStyle warning', () => {
    const warnings: SofaError[] = [];
    const root = buildScene(
      el(
        'Node',
        {
          name: 'root',
          multiThreadSimulation: '0',
          activated: '1',
          bbox: '-1 -1 -1 1 1 1',
          showCollisionModels: '1',
          showVisual: 'false',
          colour: 'red',
        },
        [el('TestLoop', {})],
      ),
      reg,
      warnings,
    );
    expect(root.bbox.value.length).to.equal(6);
    expect(warnings.map((w) => w.code)).to.deep.equal(['unused-attribute', 'deprecated']);
    expect(warnings[0].message).to.match(/unused attribute 'colour' of Node/);
    expect(warnings[1].message).to.contain('add <VisualStyle displayFlags="showCollisionModels hideVisual"/>');
  });

  it('MakeAlias and MakeDataAlias rename a component and a Data for the elements after them', () => {
    const root = buildScene(
      el('Node', {}, [
        el('TestLoop', {}),
        el('MakeAlias', { targetcomponent: 'TestSink', alias: 'Sink' }),
        el('MakeDataAlias', { componentname: 'TestSink', dataname: 'stiffness', alias: 'rigidity' }),
        el('Sink', { name: 's', rigidity: '4' }),
      ]),
      aliasRegistry(),
    );
    const s = root.objects[3] as TestSink;
    expect(s).to.be.instanceOf(TestSink);
    expect(s.stiffness.value).to.equal(4);
    const errors = errorsOf(() =>
      buildScene(el('Node', {}, [el('TestLoop', {}), el('MakeAlias', { targetcomponent: 'TestSinc', alias: 'S' })]), aliasRegistry()),
    );
    expect(errors[0].message).to.contain("MakeAlias: unknown target component 'TestSinc' (did you mean 'TestSink'?)");
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
    expect(msgs).to.have.length(3); // the unused attribute 'stifness' is a warning (see below)
    expect(msgs[0]).to.equal("test.scn:3:1: unknown component 'TestSinc' (did you mean 'TestSink'?)");
    expect(msgs[1]).to.match(/^test\.scn:5:\d+: TestSink 't': bad value for 'stiffness' \(double\): expected a number, got 'abc'$/);
    expect(msgs[2]).to.match(/bad value for 'method'.*expected one of 'small', 'large'.*did you mean 'large'/);
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
    const [a, b] = root.children[0].objects as TestSink[];
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

  it('reports unresolved links with their location and a suggestion: a component link is an error, a Data link a warning (the Data keeps its value, as in SOFA; an error under strict)', () => {
    const sink = el('TestSink', { name: 's', source: '@lodaer', position: '@loader.positions', stiffness: '@nowhere.k' }, [], 6);
    const scene = el('Node', {}, [el('TestLoop', {}), el('TestSource', { name: 'loader' }), sink]);
    const col = (i: number) => sink.attributes[i].loc.column;
    const okCol = (i: number) =>
      el('TestSink', { name: 's', position: '@loader.positions', stiffness: '@nowhere.k' }, [], 6).attributes[i].loc.column;
    const dataLinks = [
      `test.scn:6:${okCol(1)}: TestSink 's': data link 'position': TestSource 'loader' has no Data 'positions'; the Data keeps its own value, as in SOFA (did you mean 'position'?)`,
      `test.scn:6:${okCol(2)}: TestSink 's': data link 'stiffness': nothing at '@nowhere.k' (expected @path.field); the Data keeps its own value, as in SOFA`,
    ];
    const errors = errorsOf(() => buildScene(scene, reg, []));
    expect(errors.map((e) => e.message)).to.deep.equal([
      `test.scn:6:${col(1)}: TestSink 's': link 'source': no object at '@lodaer' (did you mean 'loader'?)`,
    ]);
    const ok = el('TestSink', { name: 's', position: '@loader.positions', stiffness: '@nowhere.k' }, [], 6);
    const warnings: SofaError[] = [];
    const root = buildScene(el('Node', {}, [el('TestLoop', {}), el('TestSource', { name: 'loader' }), ok]), reg, warnings);
    expect(warnings.map((w) => w.message)).to.deep.equal(dataLinks);
    expect(warnings.map((w) => w.code)).to.deep.equal(['unresolved-data-link', 'unresolved-data-link']);
    const built = root.objects.find((o) => o.getName() === 's') as TestSink;
    expect(built.stiffness.value).to.equal(1); // its default
    expect(built.position.value).to.have.length(0);
    const strict = errorsOf(() =>
      buildScene(el('Node', {}, [el('TestLoop', {}), el('TestSource', { name: 'loader' }), ok]), reg, [], { strict: true }),
    );
    expect(strict.map((e) => e.code)).to.deep.equal(['unresolved-data-link', 'unresolved-data-link']);
  });

  it("reads reals as SOFA's stream reader does, with a warning: glued numbers split where a number ends, an incomplete last group dropped (an error under strict)", () => {
    const sink = el('TestSink', { name: 's', position: '0 0 0 0-1 2.5e-1-3 7' }, [], 3);
    const warnings: SofaError[] = [];
    const root = buildScene(el('Node', {}, [el('TestLoop', {}), sink]), reg, warnings);
    expect(Array.from((root.objects[1] as TestSink).position.value)).to.deep.equal([0, 0, 0, 0, -1, 0.25]);
    expect(warnings.map((w) => w.message)).to.deep.equal([
      `test.scn:3:${sink.attributes[1].loc.column}: TestSink 's': 'position': '0-1' read as 0 -1; '2.5e-1-3' read as 2.5e-1 -3; the last 2 number(s) of an incomplete group of 3 ignored, as SOFA's reader does`,
    ]);
    expect(warnings[0].code).to.equal('xml-leniency');
    expect(
      errorsOf(() => buildScene(el('Node', {}, [el('TestLoop', {}), sink]), reg, [], { strict: true })).map((e) => e.code),
    ).to.deep.equal(['xml-leniency']);
    // text that is not numbers stays an error
    const bad = errorsOf(() => buildScene(el('Node', {}, [el('TestLoop', {}), el('TestSink', { position: '0 0 x' }, [], 3)]), reg, []));
    expect(bad.map((e) => e.message)).to.deep.equal([
      `test.scn:3:${el('TestSink', { position: '0 0 x' }).attributes[0].loc.column}: TestSink '': bad value for 'position' (vector<Vec3d>): expected numbers in groups of 3, got 'x'`,
    ]);
  });

  it("reads SOFA's old <Attribute type=…><Data value=…/></Attribute> children as attributes (the name too); other children stay errors", () => {
    const attr = (type: string, value: string) => el('Attribute', { type }, [el('Data', { value }, [], 5)], 4);
    const root = buildScene(
      el('Node', {}, [el('TestLoop', {}), el('TestSink', { stiffness: '3' }, [attr('name', 'p'), attr('position', '1 2 3')], 3)]),
      reg,
      [],
    );
    const sink = root.objects[1] as TestSink;
    expect(sink.getName()).to.equal('p');
    expect(Array.from(sink.position.value)).to.deep.equal([1, 2, 3]);
    expect(sink.stiffness.value).to.equal(3);
    const [e] = errorsOf(() => buildScene(el('Node', {}, [el('TestLoop', {}), el('TestSink', {}, [el('Other', {}, [], 4)], 3)]), reg, []));
    expect(e!.message).to.match(/^test\.scn:4:\d+: TestSink '': a component element cannot contain other elements \(found <Other>\)$/);
  });

  it("a link to a node takes the node's object of the expected kind, else its context's (SOFA)", () => {
    const root = buildScene(
      el('Node', {}, [
        el('TestLoop', {}),
        el('TestSource', { name: 'up' }),
        el('Node', { name: 'c' }, [
          el('Node', { name: 'd' }, [el('TestSource', { name: 'own' })]),
          el('TestSink', { name: 's1', source: '@d' }),
          el('TestSink', { name: 's2', source: '@.' }),
        ]),
      ]),
      reg,
    );
    const [s1, s2] = root.children[0].objects as TestSink[];
    expect(s1!.source.get()!.getName()).to.equal('own');
    expect(s2!.source.get()!.getName()).to.equal('up');
  });

  it('refuses a src to the component itself (its Data would follow themselves), located', () => {
    const [e] = errorsOf(() => buildScene(el('Node', {}, [el('TestLoop', {}), el('TestSink', { name: 's', src: '@s' }, [], 3)]), reg));
    expect(e!.message).to.match(/^test\.scn:3:\d+: TestSink 's': src: '@s' is the component itself$/);
  });

  it('refuses a cycle of data links with its location', () => {
    const errors = errorsOf(() =>
      buildScene(
        el('Node', {}, [
          el('TestLoop', {}),
          el('TestSink', { name: 'a', count: '@b.count' }, [], 2),
          el('TestSink', { name: 'b', count: '@a.count' }, [], 3),
        ]),
        reg,
      ),
    );
    expect(errors.map((e) => e.message).join('\n')).to.match(
      /test\.scn:3:\d+: TestSink 'b': data link 'count': a cycle of data links: 'count' of TestSink 'b' would follow itself/,
    );
  });

  it('rejects a link to an object of the wrong kind', () => {
    const [e] = errorsOf(() =>
      buildScene(el('Node', {}, [el('TestLoop', {}), el('TestSink', { name: 'x' }), el('TestSink', { source: '@x' })]), reg),
    );
    expect(e!.message).to.contain("link 'source': '@x' is TestSink 'x', expected a TestSource");
  });

  it('runs init top-down in document order and bwdInit bottom-up; children take the root context', () => {
    initOrder.length = 0;
    const root = buildScene(
      el('Node', { name: 'root', dt: '0.05', gravity: '0 0 -9.81' }, [
        el('TestLoop', {}),
        el('TestSource', { name: 'r1' }),
        el('Node', { name: 'c', gravity: '0 -9.81 0', dt: '1' }, [
          el('TestSource', { name: 'c1' }),
          el('Node', { name: 'g' }, [el('TestSource', { name: 'g1' })]),
        ]),
        el('TestSource', { name: 'r2' }),
      ]),
      reg,
    );
    const sim = new Simulation(root);
    sim.init();
    expect(initOrder).to.deep.equal(['init r1', 'init r2', 'init c1', 'init g1', 'bwdInit g1', 'bwdInit c1', 'bwdInit r1', 'bwdInit r2']);
    const c = root.children[0];
    expect(Array.from(c.getGravity())).to.deep.equal([0, 0, -9.81]);
    expect(c.getDt()).to.equal(0.05);
    expect(c.children[0].getDt()).to.equal(0.05);
    sim.step();
    expect(c.children[0].getTime()).to.be.closeTo(0.05, 1e-15);
    expect((root.objects[0] as TestLoop).steps).to.equal(1);
  });

  it('fills unset links by their search rule at init', () => {
    const root = buildScene(
      el('Node', {}, [el('TestLoop', {}), el('TestSource', { name: 'up' }), el('Node', { name: 'c' }, [el('TestSink', {})])]),
      reg,
    );
    new Simulation(root).init();
    expect((root.children[0].objects[0] as TestSink).source.get()).to.equal(root.objects[1]);
  });

  it('adds components in code through the same checks', () => {
    const root = buildScene(el('Node', {}, [el('TestLoop', {}), el('TestSource', { name: 'loader', position: '1 1 1' })]), reg);
    const s = addObjectFromAttributes(reg, root, 'TestSink', { position: '@loader.position', k: '3' }) as TestSink;
    expect(s.getName()).to.equal('TestSink1');
    expect(s.stiffness.value).to.equal(3);
    expect(Array.from(s.position.value)).to.deep.equal([1, 1, 1]);
    expect(() => addObjectFromAttributes(reg, root, 'TestSink', { bogus: '1' })).to.throw(SofaError, "unused attribute 'bogus'");
    expect(root.objects).to.have.length(3);
  });
});
