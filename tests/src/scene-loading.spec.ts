import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SofaError, SofaErrors, loadScene, loadSceneFromString, createScene, addObject, solvers, mechanics } from 'sofa-ts';

async function errorOf(p: Promise<unknown>): Promise<SofaError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof SofaError) return e;
    throw e;
  }
  throw new Error('expected a SofaError');
}

const particle = (extra = '') => `<?xml version="1.0"?>
<Node name="root" dt="0.01" gravity="0 0 -10">
  <DefaultAnimationLoop/>
  <Node name="body">
    <EulerImplicitSolver/>
    <CGLinearSolver iterations="100" tolerance="1e-12" threshold="1e-30"/>
    <MechanicalObject name="dofs" position="0 0 0"/>
    <UniformMass totalMass="2"/>${extra}
  </Node>
</Node>`;

describe('scenes through the XML path', () => {
  it('loads a scene from a string and integrates free fall as implicit Euler does', async () => {
    const scene = await loadSceneFromString(particle());
    const dofs = scene.get<mechanics.MechanicalObject>('/body/dofs')!;
    const h = 0.01;
    scene.step(100);
    // Backward Euler on free fall: v_n = n·h·g exactly; x_n = h²·g·n(n+1)/2.
    expect(dofs.v[2]).to.be.closeTo(-10 * 100 * h, 1e-10);
    expect(dofs.x[2]).to.be.closeTo((-10 * h * h * (100 * 101)) / 2, 1e-10);
    expect(scene.time).to.be.closeTo(1, 1e-12);
  });

  it('reports errors of real XML with the file, line and column of the attribute', async () => {
    const xml = particle('\n    <SpringForceField spring="0 0 1 a 1"/>\n    <UniformMas/>');
    const e = await errorOf(loadSceneFromString(xml, { fileName: 'bad.scn' }));
    expect(e).to.be.instanceOf(SofaErrors);
    const msgs = (e as SofaErrors).errors.map((x) => x.message);
    expect(msgs[0]).to.equal(
      `${path.resolve('bad.scn')}:9:23: SpringForceField '': bad value for 'spring' (vector<LinearSpring>): expected numbers in groups of 5, got 'a'`,
    );
    expect(msgs[1]).to.equal(`${path.resolve('bad.scn')}:10:5: unknown component 'UniformMas' (did you mean 'UniformMass'?)`);
  });

  it('reports a component that cannot initialise, naming it and its location', async () => {
    const e = await errorOf(loadSceneFromString(particle('\n    <FixedProjectiveConstraint indices="3"/>'), { fileName: 'fix.scn' }));
    expect(e.message).to.equal(
      `${path.resolve('fix.scn')}:9:5: FixedProjectiveConstraint 'FixedProjectiveConstraint1': index 3 is out of range: MechanicalObject 'dofs' has 1 points`,
    );
  });

  it('reports a solver without a linear solver', async () => {
    const xml = `<Node name="root"><Node name="n"><EulerImplicitSolver/><MechanicalObject/></Node></Node>`;
    const e = await errorOf(loadSceneFromString(xml, { fileName: 'nols.scn' }));
    expect(e.message).to.equal(
      `${path.resolve('nols.scn')}:1:34: EulerImplicitSolver 'EulerImplicitSolver1': link 'linearSolver' needs a linear solver, none in this node or its ancestors (add one, or set linearSolver="@path")`,
    );
  });

  it('reports malformed XML at its position', async () => {
    const e = await errorOf(
      loadSceneFromString('<Node name="root">\n  <MechanicalObject position="0 0 0"\n</Node>', { fileName: 'broken.scn' }),
    );
    expect(e.message.startsWith(`${path.resolve('broken.scn')}:3:1: `), e.message).to.equal(true);
  });

  it('reports an unknown plugin clearly', async () => {
    const e = await errorOf(
      loadSceneFromString('<Node name="root"><RequiredPlugin pluginName="no-such-sofa-plugin-xyz"/></Node>', { fileName: 'p.scn' }),
    );
    expect(e.message).to.equal(
      `${path.resolve('p.scn')}:1:35: RequiredPlugin 'no-such-sofa-plugin-xyz': cannot load plugin 'no-such-sofa-plugin-xyz': no npm package of that name is installed (npm install no-such-sofa-plugin-xyz), and it is not a SOFA module`,
    );
  });

  it('expands includes and Objects/<Tag>.xml with the positions of the included file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-inc-'));
    fs.mkdirSync(path.join(dir, 'Objects'));
    fs.writeFileSync(
      path.join(dir, 'Objects', 'Blob.xml'),
      '<Node name="Blob">\n  <EulerImplicitSolver/>\n  <CGLinearSolver/>\n  <MechanicalObject name="dofs" position="1 2 3"/>\n  <UniformMass totalMass="1"/>\n</Node>\n',
    );
    fs.writeFileSync(
      path.join(dir, 'part.xml'),
      '<Node name="part">\n  <MechanicalObject name="m" position="0 0 0" bogus="1"/>\n</Node>\n',
    );
    fs.writeFileSync(path.join(dir, 'ok.scn'), '<Node name="root">\n  <Blob name="b1"/>\n</Node>\n');
    const scene = await loadScene(path.join(dir, 'ok.scn'));
    expect(scene.root.children.map((c) => c.getName())).to.deep.equal(['b1']);
    expect(Array.from(scene.get<mechanics.MechanicalObject>('/b1/dofs')!.x)).to.deep.equal([1, 2, 3]);
    fs.writeFileSync(path.join(dir, 'bad.scn'), '<Node name="root">\n  <include href="part.xml"/>\n</Node>\n');
    const warned = await loadScene(path.join(dir, 'bad.scn'));
    expect(warned.warnings.map((w) => w.message)).to.deep.equal([
      `${path.join(dir, 'part.xml')}:2:47: MechanicalObject 'm': unused attribute 'bogus' (MechanicalObject has no Data of that name)`,
    ]);
    const e = await errorOf(loadScene(path.join(dir, 'bad.scn'), { strict: true }));
    expect(e.message).to.equal(
      `${path.join(dir, 'part.xml')}:2:47: MechanicalObject 'm': unused attribute 'bogus' (MechanicalObject has no Data of that name)`,
    );
  });

  it('builds a scene in code through the same checks', () => {
    const scene = createScene({ dt: 0.01, gravity: '0 0 -10' });
    addObject(scene, scene.root, 'DefaultAnimationLoop');
    const n = scene.root.createChild('body');
    addObject(scene, n, 'EulerImplicitSolver');
    addObject(scene, n, 'SparseLDLSolver', { template: 'CompressedRowSparseMatrixd' });
    const mo = addObject(scene, n, 'MechanicalObject', { position: '0 0 0 1 0 0' }) as mechanics.MechanicalObject;
    addObject(scene, n, 'UniformMass', { totalMass: '1' });
    addObject(scene, n, 'FixedProjectiveConstraint', { indices: '0' });
    expect(() => addObject(scene, n, 'SpringForceField', { sping: '0 1 10 0 1' })).to.throw(SofaError, "did you mean 'spring'?");
    scene.init().step(5);
    expect(mo.x[0]).to.equal(0);
    expect(mo.x[5]).to.be.below(0);
    expect(scene.root.objects[0]).to.be.instanceOf(solvers.DefaultAnimationLoop);
  });

  it('a second init does nothing (a translated state is not translated twice)', async () => {
    const scene = await loadSceneFromString(
      '<Node name="root"><MechanicalObject name="dofs" position="1 2 3" translation="10 0 0"/></Node>',
    );
    const mo = scene.get<mechanics.MechanicalObject>('dofs')!;
    expect(Array.from(mo.x)).to.deep.equal([11, 2, 3]);
    scene.init();
    expect(Array.from(mo.x)).to.deep.equal([11, 2, 3]);
  });

  it('a visual model with an unknown attribute or a src that finds nothing loads, with warnings', async () => {
    const scene = await loadSceneFromString(
      '<Node name="root"><MechanicalObject name="dofs" position="0 0 0"/><OglModel name="v" normals="0" src="@nowhere"/></Node>',
      { fileName: 'visual.scn' },
    );
    expect(scene.warnings.map((w) => w.message)).to.have.length(2);
    expect(scene.warnings[0].message).to.match(/visual\.scn:1:\d+: OglModel 'v': unused attribute 'normals'/);
    expect(scene.warnings[1].message).to.match(/src: no object at '@nowhere'/);
    // A physics component's broken src or link stops the scene: its result would depend on it.
    const e = await errorOf(loadSceneFromString('<Node name="root"><MechanicalObject name="dofs" src="@nowhere"/></Node>'));
    expect(e.message).to.match(/src: no object at '@nowhere'/);
  });
});
