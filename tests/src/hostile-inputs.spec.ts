import { expect } from 'chai';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  MAX_DATA_FILE_BYTES,
  MAX_SCENE_FILE_BYTES,
  SofaError,
  SofaErrors,
  loadScene,
  loadSceneFromString,
  type BaseMechanicalState,
  type BaseObject,
} from 'sofa-ts';
import { corpusRoot, hasCorpus, repoRoot } from './corpus-test-support.js';

/**
 * What a scene from anywhere can make sofa-ts do: read only regular files of bounded size (a
 * device such as /dev/zero is refused), never print the content of a file that is not a scene or
 * a mesh, and run no code but installed packages that declare themselves sofa-ts plugins (file
 * paths only when allowed).
 */

const bin = path.join(repoRoot, 'packages/cli/bin/sofa-ts.js');
const SECRET = 'root:x:0:0:TOP-SECRET-LINE:/root:/bin/bash';

async function errorOf(p: Promise<unknown>): Promise<SofaError> {
  try {
    await p;
  } catch (e) {
    expect(e).to.be.instanceOf(SofaError);
    return e as SofaError;
  }
  throw new Error('expected a SofaError');
}

function messages(e: SofaError): string[] {
  return e instanceof SofaErrors ? e.errors.map((x) => x.message) : [e.message];
}

/** Two sibling temporary folders: `scene` (the scene's) and `outside` (any other file of the machine). */
function folders(): { scene: string; outside: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-hostile-'));
  const scene = path.join(root, 'scene');
  const outside = path.join(root, 'outside');
  fs.mkdirSync(scene);
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'passwd'), `${SECRET}\ndaemon:x:1:1::/usr/sbin:/usr/sbin/nologin\n`);
  return { scene, outside };
}

describe('hostile inputs: files a scene names', () => {
  it('<include href="/dev/zero"> is refused as not a regular file (nothing is read)', async function () {
    if (!fs.existsSync('/dev/zero')) this.skip();
    const e = await errorOf(loadSceneFromString('<Node name="root">\n  <include href="/dev/zero"/>\n</Node>', { fileName: 'z.scn' }));
    expect(e.message).to.equal(`${path.resolve('z.scn')}:2:3: included file '/dev/zero' is not a regular file`);
  });

  it('an include of a file outside the scene folder that is not XML is refused without quoting it', async () => {
    const { scene, outside } = folders();
    const file = path.join(scene, 'a.scn');
    fs.writeFileSync(file, `<Node name="root">\n  <include href="../outside/passwd"/>\n</Node>`);
    const e = await errorOf(loadScene(file));
    expect(e.message).to.equal(
      `${path.join(outside, 'passwd')}:1:1: not an XML scene file: it does not start with '<' (included from ${file}:2:3)`,
    );
    expect(e.message).not.to.contain('TOP-SECRET');
    expect(e.message).not.to.contain('root:x');
  });

  it(`a scene file or include above ${MAX_SCENE_FILE_BYTES / 2 ** 20} MiB is refused before it is read, naming the limit`, async () => {
    const { scene } = folders();
    const big = path.join(scene, 'big.xml');
    fs.writeFileSync(big, '<Node/>');
    fs.truncateSync(big, MAX_SCENE_FILE_BYTES + 1); // sparse: no disk used
    const file = path.join(scene, 'a.scn');
    fs.writeFileSync(file, '<Node name="root"><include href="big.xml"/></Node>');
    const e = await errorOf(loadScene(file));
    expect(e.message).to.equal(
      `${file}:1:19: included file '${big}' is 16 MiB (16777217 bytes), above the limit of 16 MiB for a scene file`,
    );
    const e2 = await errorOf(loadScene(big));
    expect(e2.message).to.equal(`scene file '${big}' is 16 MiB (16777217 bytes), above the limit of 16 MiB for a scene file`);
  });

  it('mesh loaders pointed at a file that is not a mesh say so without quoting it (Gmsh, sphere, VTK)', async () => {
    const { scene, outside } = folders();
    const passwd = path.join(outside, 'passwd');
    for (const loader of ['MeshGmshLoader', 'SphereLoader', 'MeshVTKLoader']) {
      const e = await errorOf(
        loadSceneFromString(`<Node name="root"><${loader} name="l" filename="${passwd}"/></Node>`, { fileName: path.join(scene, 'a.scn') }),
      );
      expect(e.message, loader).not.to.contain('TOP-SECRET');
      expect(e.message, loader).not.to.contain('daemon');
      expect(e.message, loader).to.match(/not a (Gmsh|sphere|VTK) file/);
    }
  });

  it(`a mesh file above ${MAX_DATA_FILE_BYTES / 2 ** 20} MiB is refused before it is read; a device is not a mesh file`, async () => {
    const { scene } = folders();
    const big = path.join(scene, 'big.msh');
    fs.writeFileSync(big, '$MeshFormat\n');
    fs.truncateSync(big, MAX_DATA_FILE_BYTES + 1);
    try {
      const e = await errorOf(
        loadSceneFromString('<Node name="root"><MeshGmshLoader name="l" filename="big.msh"/></Node>', {
          fileName: path.join(scene, 'a.scn'),
        }),
      );
      expect(e.message).to.equal(
        `${path.join(scene, 'a.scn')}:1:19: MeshGmshLoader 'l': mesh file 'big.msh' is 256 MiB (268435457 bytes), above the limit of 256 MiB for a data file`,
      );
    } finally {
      fs.rmSync(big);
    }
    if (fs.existsSync('/dev/zero')) {
      const dev = await errorOf(
        loadSceneFromString('<Node name="root"><MeshOBJLoader name="l" filename="/dev/zero"/></Node>', {
          fileName: path.join(scene, 'a.scn'),
        }),
      );
      expect(dev.message).to.contain("mesh file '/dev/zero' is not a regular file");
    }
  });

  it('counts a mesh file declares are bounded by its size; a huge Gmsh node number costs nothing', async () => {
    const { scene } = folders();
    fs.writeFileSync(
      path.join(scene, 'huge.vtk'),
      '# vtk DataFile Version 2.0\nx\nASCII\nDATASET POLYDATA\nPOINTS 1000000000 float\n0 0 0\n',
    );
    const e = await errorOf(
      loadSceneFromString('<Node name="root"><MeshVTKLoader name="l" filename="huge.vtk"/></Node>', {
        fileName: path.join(scene, 'a.scn'),
      }),
    );
    expect(e.message).to.match(/the number of values \(a point coordinate\) is 3000000000, more than a file of \d+ characters can hold/);
    // version 2: node numbers may be anything; they are mapped, not used as array sizes
    fs.writeFileSync(
      path.join(scene, 'n.msh'),
      '$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n3\n1000000000000 0 0 0\n7 1 0 0\n3 0 1 0\n$EndNodes\n$Elements\n1\n1 2 2 0 0 1000000000000 7 3\n$EndElements\n',
    );
    const s = await loadSceneFromString('<Node name="root"><MeshGmshLoader name="l" filename="n.msh"/></Node>', {
      fileName: path.join(scene, 'a.scn'),
    });
    const l = s.get<BaseObject & { triangles: { value: Uint32Array } }>('l')!;
    expect(Array.from(l.triangles.value)).to.deep.equal([0, 1, 2]);
  });
});

describe('hostile inputs: plugins run only when meant to', () => {
  function evilScene(dir: string, name: string): string {
    const file = path.join(dir, 'p.scn');
    fs.writeFileSync(file, `<Node name="root">\n  <RequiredPlugin pluginName="${name}"/>\n</Node>`);
    return file;
  }

  it('a file path is refused and not executed, relative or absolute; with allowPluginPaths it is imported', async () => {
    const { scene } = folders();
    const flag = `__sofaTsEvil${Date.now()}`;
    fs.writeFileSync(path.join(scene, 'evil.mjs'), `globalThis.${flag} = true; export default 42;`);
    for (const name of ['./evil.mjs', path.join(scene, 'evil.mjs')]) {
      const e = await errorOf(loadScene(evilScene(scene, name)));
      expect(e.message).to.equal(
        `${path.join(scene, 'p.scn')}:2:19: RequiredPlugin '${name}': cannot load plugin '${name}': it is a file path, and loading a file runs its code: a scene may only name installed npm packages that declare themselves sofa-ts plugins; to load this file, allow it with --allow-plugin-path (loadScene option allowPluginPaths)`,
      );
      expect((globalThis as Record<string, unknown>)[flag]).to.equal(undefined);
    }
    const allowed = await errorOf(loadScene(evilScene(scene, './evil.mjs'), { allowPluginPaths: true }));
    expect((globalThis as Record<string, unknown>)[flag]).to.equal(true);
    expect(allowed.message).to.contain('the file does not export a ContainerModule as its default export');
  });

  it('a real plugin given by its path loads with allowPluginPaths, and its component acts', async () => {
    const { scene } = folders();
    const plugin = path.join(repoRoot, 'examples/plugin-example/dist/index.js');
    const file = path.join(scene, 'drag.scn');
    fs.writeFileSync(
      file,
      `<Node name="root" gravity="0 0 0" dt="0.1">
  <RequiredPlugin pluginName="${plugin}"/>
  <EulerImplicitSolver/><CGLinearSolver iterations="25" tolerance="1e-12" threshold="1e-20"/>
  <MechanicalObject name="p" position="0 0 0" velocity="1 0 0"/><UniformMass totalMass="1"/>
  <LinearDragForceField dragCoefficient="1"/>
</Node>`,
    );
    const s = await loadScene(file, { allowPluginPaths: true });
    s.step(1);
    // backward Euler with drag c = 1, m = 1, h = 0.1: v₁ = v₀ / (1 + h·c)
    expect(s.get<BaseMechanicalState>('p')!.v[0]).to.be.closeTo(1 / 1.1, 1e-12);
  });

  it('an installed package without "sofa-ts": { "plugin": true } is refused; the example plugin, which has it, loads', async () => {
    const { scene } = folders();
    const e = await errorOf(loadScene(evilScene(scene, 'inversify')));
    expect(e.message).to.match(
      /RequiredPlugin 'inversify': cannot load plugin 'inversify': the package .*node_modules\/inversify is not a sofa-ts plugin: its package\.json does not declare "sofa-ts": \{ "plugin": true \} \(see docs\/plugins\.md\)$/,
    );
    await loadScene(evilScene(scene, 'sofa-ts-plugin-example'));
  });

  it('SOFA plugins sofa-ts does not provide are named as such', async () => {
    const e = await errorOf(
      loadSceneFromString(
        '<Node name="root"><RequiredPlugin pluginName="Geomagic ModelOrderReduction"/><RequiredPlugin name="VolumetricRendering"/></Node>',
        { fileName: 'p.scn' },
      ),
    );
    expect(messages(e).map((m) => m.replace(/^.*?: RequiredPlugin '[^']+': /, ''))).to.deep.equal(
      ['Geomagic', 'ModelOrderReduction', 'VolumetricRendering'].map(
        (n) =>
          `cannot load plugin '${n}': '${n}' is a SOFA plugin that sofa-ts does not provide (sofa-ts provides SOFA's Sofa.* modules, MultiThreading, SoftRobots, Compliant, BeamAdapter, CollisionOBBCapsule, SofaDistanceGrid and image; other plugins are npm packages, see docs/plugins.md)`,
      ),
    );
  });

  it('sofa-ts run refuses a plugin path (exit 1) and loads it with --allow-plugin-path', () => {
    const { scene } = folders();
    fs.writeFileSync(path.join(scene, 'evil.mjs'), `process.stdout.write('EVIL-RAN\\n'); export default 42;`);
    const file = evilScene(scene, './evil.mjs');
    const refused = spawnSync(process.execPath, [bin, 'run', file, '-n', '1'], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(refused.status).to.equal(1);
    expect(refused.stdout).not.to.contain('EVIL-RAN');
    expect(refused.stderr).to.contain('it is a file path');
    const allowed = spawnSync(process.execPath, [bin, 'run', file, '-n', '1', '--allow-plugin-path'], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(allowed.stdout).to.contain('EVIL-RAN');
    expect(allowed.stderr).to.contain('does not export a ContainerModule');
  });
});

describe('hostile inputs: non-finite geometry and broken mappings are refused, not run without end', () => {
  it('a collision model whose positions became non-finite stops the step with a located error', async () => {
    const s = await loadSceneFromString(
      `<Node name="root" dt="0.01">
  <CollisionPipeline/><BruteForceBroadPhase/><BVHNarrowPhase/>
  <MinProximityIntersection alarmDistance="0.1" contactDistance="0.05"/><CollisionResponse/>
  <Node name="a"><MechanicalObject name="dofs" position="0 0 0  1 0 0"/><PointCollisionModel name="points"/></Node>
  <Node name="b"><MechanicalObject position="0 0.05 0"/><PointCollisionModel/></Node>
</Node>`,
      { fileName: 'c.scn' },
    );
    s.step(1);
    s.get<BaseMechanicalState>('a/dofs')!.x[3] = Infinity;
    expect(() => s.step(1)).to.throw(
      /c\.scn:4:73: PointCollisionModel 'points' in \/root\/a: element 1 has a non-finite position \(Infinity\) at time 0\.01: collision detection needs finite positions of MechanicalObject 'dofs'/,
    );
  });

  it('a state that is the output of two mappings is refused, naming both', async () => {
    const s = await loadSceneFromString(
      `<Node name="root" dt="0.01">
  <EulerImplicitSolver/><CGLinearSolver iterations="25" tolerance="1e-9" threshold="1e-9"/>
  <MechanicalObject name="rigid" template="Rigid3d" position="0 0 0 0 0 0 1"/><UniformMass totalMass="1"/>
  <Node name="points"><MechanicalObject name="p" position="1 0 0"/><RigidMapping name="m1"/><RigidMapping name="m2"/></Node>
</Node>`,
      { fileName: 'm.scn' },
    );
    expect(() => s.step(1)).to.throw(
      `${path.resolve('m.scn')}:4:93: RigidMapping 'm2' in /root/points: MechanicalObject 'p' is already the output of RigidMapping 'm1' (${path.resolve('m.scn')}:4:68): a state has a single input mapping`,
    );
  });

  const examples = path.join(corpusRoot, 'sofa', 'examples');
  const dataPaths = [path.join(corpusRoot, 'sofa', 'share'), examples];
  const pgs = path.join(examples, 'Component/Constraint/Lagrangian/BilateralLagrangianConstraint_PGS.scn');
  const lcp = path.join(examples, 'Component/Constraint/Lagrangian/FrictionContact_LCP_with_friction.scn');
  /** Loads `file` with its text changed by `edit`, and runs up to 100 steps. */
  async function runMutant(file: string, edit: (xml: string) => string): Promise<SofaError> {
    return errorOf(
      (async () => {
        const s = await loadSceneFromString(edit(fs.readFileSync(file, 'utf8')), { fileName: file, dataPaths });
        s.step(100);
      })(),
    );
  }
  /** The text with the n-th (0-based) occurrence of `what` replaced by `by`. */
  function nth(xml: string, what: string, n: number, by: string): string {
    let i = -1;
    for (let k = 0; k <= n; k++) i = xml.indexOf(what, i + 1);
    return xml.slice(0, i) + by + xml.slice(i + what.length);
  }

  it('the fuzzing mutants of BilateralLagrangianConstraint_PGS.scn (dz="inf", a RigidMapping removed or doubled) end with a located error', async function () {
    if (!hasCorpus) this.skip();
    const cube2 = '<MechanicalObject template="Rigid3" scale="1.0" dx="0.0" dy="-2.5" dz="0.0" />';
    const dz = await runMutant(pgs, (x) => x.replace(cube2, cube2.replace('dz="0.0"', 'dz="inf"')));
    expect(dz.message).to.match(
      /BilateralLagrangianConstraint_PGS\.scn:79:\d+: MechanicalObject 'MechanicalObject1': 'dz' must be finite, got inf$/,
    );
    // the RigidMapping of CUBE_3's collision cube (the 5th <RigidMapping /> of the file)
    const removed = await runMutant(pgs, (x) => nth(x, '<RigidMapping />', 4, ''));
    expect(removed.message).to.match(
      /the constraint forces are not finite at time 0: constraint row \d+ \(.*\): its compliance W_ii is NaN/,
    );
    const doubled = await runMutant(pgs, (x) => nth(x, '<RigidMapping />', 4, '<RigidMapping /><RigidMapping />'));
    expect(doubled.message).to.match(
      /RigidMapping 'RigidMapping2' in \/root\/CUBE_3\/ColliCube: MechanicalObject 'MechanicalObject1' is already the output of RigidMapping 'RigidMapping1'/,
    );
  });

  it('FrictionContact_LCP_with_friction.scn with scale="inf" ends with a located error', async function () {
    if (!hasCorpus) this.skip();
    const e = await runMutant(lcp, (x) => x.replace('template="Rigid3" scale="0.3"', 'template="Rigid3" scale="inf"'));
    expect(e.message).to.match(
      /FrictionContact_LCP_with_friction\.scn:34:\d+: MechanicalObject 'MechanicalObject1': 'scale3d' must hold finite numbers, got inf at index 0$/,
    );
  });
});

describe('hostile inputs: the CLI prints init warnings', () => {
  it('sofa-ts run shows a reset value as a located warning', () => {
    const { scene } = folders();
    const file = path.join(scene, 'w.scn');
    fs.writeFileSync(
      file,
      `<Node name="root">
  <EulerImplicitSolver/><CGLinearSolver iterations="25" tolerance="1e-9" threshold="1e-9"/>
  <RegularGridTopology n="2 2 2" min="0 0 0" max="1 1 1"/><MechanicalObject/><UniformMass totalMass="1"/>
  <HexahedronFEMForceField name="ff" poissonRatio="0.7"/>
</Node>`,
    );
    const out = execFileSync(process.execPath, [bin, 'run', file, '-n', '1'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(out).to.contain('steps');
    const r = spawnSync(process.execPath, [bin, 'run', file, '-n', '1'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(r.stderr).to.contain(
      `warning: ${file}:4:38: HexahedronFEMForceField 'ff': 'poissonRatio' must hold numbers in [0, 0.5), got 0.7 at index 0: set to 0.45, as SOFA does`,
    );
  });
});

describe('hostile inputs found by the 10,000-mutant campaign', () => {
  it('a file name with a NUL character is a located error, not an exception of the file system', async () => {
    let message = '';
    try {
      // `&#0;` decodes to a NUL inside the attribute (a NUL byte in the text is refused by the reader).
      await loadSceneFromString(
        '<Node name="root"><DefaultAnimationLoop/><MeshOBJLoader name="l" filename="mesh/d&#0;ragon.obj"/></Node>',
        { fileName: 'nul.scn' },
      );
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).to.match(/nul\.scn:1:\d+: MeshOBJLoader 'l'.*: file name "mesh\/d\\u0000ragon\.obj" contains a NUL character/);
  });
});
