/**
 * `sofa-ts schema`: the XML Schema of the scenes, for editors (docs/editors.md), checked by an
 * independent validator, libxml2's xmllint (Debian's libxml2-utils; CI installs it in .ci/run):
 * SOFA's example scenes give no error that `sofa-ts check` does not also report, and values the
 * scene reader refuses are refused by the schema too. The JSON description beside it has every
 * component and Data.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { corpusRoot, hasCorpus, repoRoot } from './corpus-test-support.js';

const bin = path.join(repoRoot, 'packages/cli/bin/sofa-ts.js');
const cli = (...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 1 << 26 });
const hasXmllint = !spawnSync('xmllint', ['--version']).error;

/** The scene files of a folder, recursively, sorted. */
function scenesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? scenesUnder(path.join(dir, e.name)) : e.name.endsWith('.scn') ? [path.join(dir, e.name)] : []))
    .sort();
}

/** xmllint's schema errors by file (files it cannot parse as XML at all: under `notXml`). */
function xmllint(schema: string, files: readonly string[]): { errors: Map<string, string[]>; notXml: string[] } {
  const errors = new Map<string, string[]>();
  const notXml: string[] = [];
  for (let i = 0; i < files.length; i += 100) {
    const chunk = files.slice(i, i + 100);
    const r = spawnSync('xmllint', ['--noout', '--schema', schema, ...chunk], { encoding: 'utf8', maxBuffer: 1 << 26 });
    for (const line of r.stderr.split('\n')) {
      const m = /^(.*?):(\d+): (.*)$/.exec(line);
      if (!m || !chunk.includes(m[1])) continue;
      if (/parser error/.test(m[3])) {
        if (!notXml.includes(m[1])) notXml.push(m[1]);
      } else if (/Schemas validity error/.test(m[3])) errors.set(m[1], [...(errors.get(m[1]) ?? []), `${m[2]}: ${m[3]}`]);
    }
  }
  return { errors, notXml };
}

describe('sofa-ts schema: an XML Schema of the scenes for editors, validated by xmllint', function () {
  this.timeout(600000);
  let dir = '';
  let xsd = '';
  before(function () {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-schema-'));
    xsd = path.join(dir, 'sofa-ts.xsd');
    const r = cli('schema', '--out', xsd);
    expect(r.status, r.stderr).to.equal(0);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('the JSON description: every registered component with its Data (type, default, help) and SOFA aliases', () => {
    const d = JSON.parse(fs.readFileSync(path.join(dir, 'sofa-ts.json'), 'utf8')) as {
      components: { name: string; aliases: string[]; attributes: { name: string; type: string; default?: string; help: string }[] }[];
      node: { name: string }[];
    };
    const listed = cli('components').stdout.trim().split('\n').pop()!;
    expect(`${d.components.length} components`).to.equal(listed);
    const euler = d.components.find((c) => c.name === 'EulerImplicitSolver')!;
    const rs = euler.attributes.find((a) => a.name === 'rayleighStiffness')!;
    expect(rs.type).to.equal('double');
    expect(rs.help.length).to.be.greaterThan(10);
    expect(d.components.find((c) => c.name === 'FixedProjectiveConstraint')!.aliases).to.include('FixedConstraint');
    expect(d.node.map((a) => a.name)).to.include.members(['name', 'dt', 'gravity']);
    const text = fs.readFileSync(xsd, 'utf8');
    expect(text).to.contain('<xs:element name="FixedConstraint">');
    expect(text).to.match(
      /<xs:attribute name="rayleighStiffness" type="[^"]+"><xs:annotation><xs:documentation>[^<]*type double; default 0/,
    );
  });

  it('refuses what the scene reader refuses (numbers, vectors, booleans), and sofa-ts check reports the same scenes; unknown attributes and elements pass, as in SOFA', function () {
    if (!hasXmllint) {
      console.log('    skipped: no xmllint (Debian: apt-get install libxml2-utils; CI installs it in .ci/run)');
      this.skip();
    }
    const scene = (body: string): string => `<Node name="root" dt="0.01">\n  <DefaultAnimationLoop/>\n  ${body}\n</Node>\n`;
    const bad = {
      'real.scn': scene('<EulerImplicitSolver rayleighStiffness="stiff"/><CGLinearSolver/><MechanicalObject position="0 0 0"/>'),
      'vector.scn': scene('<EulerImplicitSolver/><CGLinearSolver/><MechanicalObject position="0 0 x"/>'),
      'bool.scn': scene(
        '<EulerImplicitSolver/><CGLinearSolver/><MechanicalObject position="0 0 0"/><Node name="child" activated="maybe"/>',
      ),
    };
    const good = {
      'lenient.scn': scene(
        '<EulerImplicitSolver rayleighStiffness="0.1" printLog="true" unknownAttribute="x"/><CGLinearSolver iterations="25"/><MechanicalObject position="[0, 0, 0] [1 0 0]" translation="@other.translation"/><SomethingFromAnInclude/>',
      ),
    };
    for (const [f, text] of Object.entries({ ...bad, ...good })) fs.writeFileSync(path.join(dir, f), text);
    const { errors, notXml } = xmllint(
      xsd,
      Object.keys({ ...bad, ...good }).map((f) => path.join(dir, f)),
    );
    expect(notXml).to.deep.equal([]);
    expect([...errors.keys()].map((f) => path.basename(f)).sort()).to.deep.equal(Object.keys(bad).sort());
    const json = path.join(dir, 'bad.json');
    const r = cli('check', ...Object.keys(bad).map((f) => path.join(dir, f)), '-n', '1', '--json', json);
    const status = (JSON.parse(fs.readFileSync(json, 'utf8')) as { results: { scene: string; status: string }[] }).results.map((x) => [
      path.basename(x.scene),
      x.status,
    ]);
    expect(status.sort(), r.stdout).to.deep.equal(
      Object.keys(bad)
        .sort()
        .map((f) => [f, 'error']),
    );
  });

  it("SOFA's example scenes: no schema error that sofa-ts check does not also report", function () {
    if (!hasXmllint || !hasCorpus) {
      console.log(
        `    skipped: ${!hasXmllint ? 'no xmllint (Debian: apt-get install libxml2-utils; CI installs it in .ci/run)' : `no SOFA corpus at ${corpusRoot}`}`,
      );
      this.skip();
    }
    const examples = path.join(corpusRoot, 'sofa', 'examples');
    const scenes = scenesUnder(examples);
    expect(scenes.length).to.be.greaterThan(400);
    const { errors, notXml } = xmllint(xsd, scenes);
    // Files that are not XML (an unescaped '<' in an attribute): SOFA's parser and sofa-ts's
    // lenient reader take them, any XML editor refuses them before any schema.
    expect(notXml.length).to.be.lessThan(10);
    if (errors.size === 0) return;
    const json = path.join(dir, 'check.json');
    const r = cli('check', ...errors.keys(), '-n', '1', '--json', json, '--data-path', path.join(corpusRoot, 'sofa', 'share'));
    const reported = new Set(
      (JSON.parse(fs.readFileSync(json, 'utf8')) as { results: { scene: string; status: string }[] }).results
        .filter((x) => x.status !== 'runs')
        .map((x) => path.resolve(x.scene)),
    );
    const unreported = [...errors].filter(([f]) => !reported.has(path.resolve(f)));
    expect(unreported, `${r.stdout}\n${unreported.map(([f, e]) => `${f}: ${e[0]}`).join('\n')}`).to.deep.equal([]);
  });
});
