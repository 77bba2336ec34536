import { expect } from 'chai';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { referencePages } from '@sofa-ts/cli';
import { createRegistry, loadPlugins } from 'sofa-ts';
import { repoRoot } from './corpus-test-support.js';

/**
 * docs/components/ is generated from the components' declarations by `sofa-ts docs` (npm run
 * docs:components): this test fails when a component, a Data or a help text changed and the pages
 * were not regenerated.
 */
describe('component reference (docs/components, sofa-ts docs)', () => {
  const dir = path.join(repoRoot, 'docs', 'components');

  it('docs/components is the generated reference — regenerate with: npm run docs:components', () => {
    const pages = referencePages(createRegistry());
    const onDisk = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.md'))
      .sort();
    expect(onDisk, 'pages missing or extra').to.deep.equal([...pages.keys()].sort());
    const stale = [...pages].filter(([f, text]) => fs.readFileSync(path.join(dir, f), 'utf8') !== text).map(([f]) => f);
    expect(stale, 'stale pages').to.deep.equal([]);
  });

  it('one page per registered component with its Data (type, default, unit, help) and links; an index by category', () => {
    const registry = createRegistry();
    const pages = referencePages(registry);
    expect(pages.size).to.equal(registry.entries().length + 1);
    const mass = pages.get('UniformMass.md')!;
    expect(mass).to.contain('| SOFA module | `Sofa.Component.Mass` (its RequiredPlugin name) |');
    expect(mass).to.match(/\| `totalMass` \| double \| `1` \| kg \| .+ \|/);
    expect(mass).to.match(/\| `mstate` \| a MechanicalObject \| searched in its node and above \(required\) \|/);
    const fixed = pages.get('FixedProjectiveConstraint.md')!;
    expect(fixed).to.contain('| Aliases | `FixedConstraint`');
    const index = pages.get('README.md')!;
    expect(index).to.contain('## Mass');
    expect(index).to.contain('| [UniformMass](UniformMass.md) |');
  });

  it('is deterministic (same text twice, no dates) and documents a plugin on its own', async () => {
    const a = referencePages(createRegistry()),
      b = referencePages(createRegistry());
    expect([...a]).to.deep.equal([...b]);
    for (const text of a.values()) expect(text).to.not.match(/\b20\d\d-\d\d-\d\d\b/);
    const r = createRegistry();
    await loadPlugins(['sofa-ts-plugin-example'], r);
    const only = referencePages(r, new Set(['sofa-ts-plugin-example']));
    expect([...only.keys()]).to.deep.equal(['LinearDragForceField.md', 'README.md']);
    expect(only.get('LinearDragForceField.md')).to.contain(
      '| `dragCoefficient` | double | `1` | N·s/m | drag coefficient c: force per unit of relative velocity |',
    );
  });
});
