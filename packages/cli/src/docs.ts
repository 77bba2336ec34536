import * as fs from 'node:fs';
import * as path from 'node:path';
import pc from 'picocolors';
import { BaseObject, createRegistry, describeRange, loadPlugins, type ComponentEntry, type ComponentRegistry } from 'sofa-ts';
import { host } from '@sofa-ts/core';

/**
 * `sofa-ts docs --out DIR`: the component reference as Markdown, generated from the components'
 * declarations (the same ones the XML parser and `sofa-ts components` read): one page per
 * registered component (name, aliases, SOFA module, templates, every Data with type, default, unit
 * and help, links) and an index by category (README.md). The output is deterministic (sorted, no
 * dates), so a test can compare it with the committed docs/components/.
 */

export interface DocsOptions {
  plugins?: readonly string[];
  /** Only the components of the given plugins (a plugin author's reference). */
  onlyPlugins?: boolean;
  /** Compare with DIR instead of writing; exit 1 when a page differs, is missing or is extra. */
  check?: boolean;
}

/** A bare component, to tell the Data every component has from a component's own. */
class Probe extends BaseObject {}

/** The Data every component has (BaseObject's): listed once on the index, not on every page. */
function commonData(): Set<string> {
  return new Set(new Probe().dataFields.map((d) => d.name));
}

/** Markdown table cell: no line breaks, pipes escaped. */
function cell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|').trim();
}

/** A default as SOFA's syntax prints it, shortened when long. */
function printedDefault(text: string): string {
  if (text === '') return '';
  const t = text.length > 48 ? `${text.slice(0, 45)}…` : text;
  return `\`${t.replace(/`/g, "'")}\``;
}

/** File name of a component's page. */
export function pageName(e: ComponentEntry): string {
  return `${e.info.name}.md`;
}

/** The page of one component. */
export function componentPage(e: ComponentEntry, registry: ComponentRegistry, common: ReadonlySet<string>): string {
  const inst = registry.create(e.info.name);
  const i = e.info;
  const lines: string[] = [];
  lines.push(`# ${i.name}`, '', cell(i.description), '');
  lines.push('| | |', '| --- | --- |');
  lines.push(`| Category | [${cell(i.category)}](README.md#${anchor(i.category)}) |`);
  if (i.module) lines.push(`| SOFA module | \`${i.module}\` (its RequiredPlugin name) |`);
  lines.push(`| Package | \`${e.plugin}\` |`);
  if (i.aliases?.length) lines.push(`| Aliases | ${i.aliases.map((a) => `\`${a}\``).join(', ')} |`);
  if (i.templates?.length)
    lines.push(
      `| Templates | ${i.templates.map((t) => `\`${t}\``).join(', ')}${i.defaultTemplate ? ` (default \`${i.defaultTemplate}\`)` : ''} |`,
    );
  lines.push('');
  const own = inst.dataFields.filter((d) => !common.has(d.name));
  lines.push('## Data', '');
  if (own.length === 0) lines.push('No Data of its own.');
  else {
    lines.push('| Name | Type | Default | Unit | Description |', '| --- | --- | --- | --- | --- |');
    for (const d of own) {
      const notes = [
        d.spec.output ? 'output (set by the component)' : '',
        d.spec.aliases?.length ? `alias ${d.spec.aliases.map((a) => `\`${a}\``).join(', ')}` : '',
        d.spec.renamedFrom?.length ? `formerly ${d.spec.renamedFrom.map((a) => `\`${a}\``).join(', ')}` : '',
        d.spec.type.options?.length ? `one of ${d.spec.type.options.map((o) => `\`${o}\``).join(', ')}` : '',
        d.spec.range ? `accepts ${describeRange(d.spec.range)}` : '',
        d.spec.group ? `group ${d.spec.group}` : '',
      ].filter(Boolean);
      const help = cell(d.spec.help) + (notes.length ? ` (${notes.join('; ')})` : '');
      lines.push(
        `| \`${d.name}\` | ${cell(d.spec.type.name)} | ${cell(printedDefault(d.spec.type.print(d.spec.default)))} | ${cell(d.spec.unit ?? '')} | ${help} |`,
      );
    }
  }
  lines.push('', `Every component also has the [common Data](README.md#common-data) ${[...common].map((n) => `\`${n}\``).join(', ')}.`, '');
  if (inst.links.length > 0) {
    lines.push('## Links', '', '| Name | Target | When not set | Description |', '| --- | --- | --- | --- |');
    for (const l of inst.links) {
      const search =
        l.spec.search && l.spec.search !== 'none'
          ? `searched ${l.spec.search === 'local' ? 'in its node' : l.spec.search === 'up' ? 'in its node and above' : 'in its node and below'}`
          : 'empty';
      const flags = [
        l.spec.required ? 'required' : '',
        l.spec.multi ? 'several targets' : '',
        l.spec.aliases?.length ? `alias ${l.spec.aliases.map((a) => `\`${a}\``).join(', ')}` : '',
      ].filter(Boolean);
      lines.push(
        `| \`${l.name}\` | ${cell(l.spec.expected)} | ${search}${flags.length ? ` (${flags.join('; ')})` : ''} | ${cell(l.spec.help)} |`,
      );
    }
    lines.push('');
  }
  return lines.join('\n');
}

/** GitHub's heading anchor of a title. */
function anchor(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');
}

/** The index page: components by category, then the common Data. */
export function indexPage(entries: readonly ComponentEntry[], common: ReadonlySet<string>): string {
  const byCat = new Map<string, ComponentEntry[]>();
  for (const e of entries) byCat.set(e.info.category, [...(byCat.get(e.info.category) ?? []), e]);
  const cats = [...byCat.keys()].sort((a, b) => a.localeCompare(b, 'en'));
  const lines: string[] = ['# Component reference', ''];
  lines.push(
    `${entries.length} components, generated from their declarations by \`sofa-ts docs --out DIR\` (in this repository: \`npm run docs:components\`; do not edit by hand). ` +
      'Names and aliases are what a scene writes as the XML tag; every Data is an XML attribute.',
    '',
  );
  lines.push(cats.map((c) => `[${c}](#${anchor(c)})`).join(' · '), '');
  for (const c of cats) {
    lines.push(`## ${c}`, '', '| Component | Description | Package |', '| --- | --- | --- |');
    for (const e of byCat.get(c)!.sort((a, b) => a.info.name.localeCompare(b.info.name, 'en'))) {
      const aliases = e.info.aliases?.length ? ` (alias ${e.info.aliases.map((a) => `\`${a}\``).join(', ')})` : '';
      lines.push(`| [${e.info.name}](${pageName(e)})${aliases} | ${cell(e.info.description)} | \`${e.plugin}\` |`);
    }
    lines.push('');
  }
  lines.push(
    '## Common Data',
    '',
    "Every component has these Data (SOFA's BaseObject):",
    '',
    '| Name | Type | Default | Description |',
    '| --- | --- | --- | --- |',
  );
  const probe = new Probe();
  for (const d of probe.dataFields)
    if (common.has(d.name))
      lines.push(
        `| \`${d.name}\` | ${cell(d.spec.type.name)} | ${cell(printedDefault(d.spec.type.print(d.spec.default)))} | ${cell(d.spec.help)} |`,
      );
  lines.push('');
  return lines.join('\n');
}

/** Every page of the reference, by file name. */
export function referencePages(registry: ComponentRegistry, only?: ReadonlySet<string>): Map<string, string> {
  const common = commonData();
  const entries = registry
    .entries()
    .filter((e) => !only || only.has(e.plugin))
    .sort((a, b) => a.info.name.localeCompare(b.info.name, 'en'));
  const pages = new Map<string, string>();
  for (const e of entries) pages.set(pageName(e), componentPage(e, registry, common));
  pages.set('README.md', indexPage(entries, common));
  return new Map([...pages].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The CLI action. */
export async function docsCommand(out: string, o: DocsOptions = {}): Promise<number> {
  const registry = createRegistry();
  await loadPlugins(o.plugins ?? [], registry);
  const pages = referencePages(registry, o.onlyPlugins ? new Set(o.plugins) : undefined);
  const existing = fs.existsSync(out)
    ? fs
        .readdirSync(out)
        .filter((f) => f.endsWith('.md'))
        .sort()
    : [];
  if (o.check) {
    const stale: string[] = [];
    for (const [f, text] of pages) {
      const p = path.join(out, f);
      if (!fs.existsSync(p)) stale.push(`missing ${f}`);
      else if (fs.readFileSync(p, 'utf8') !== text) stale.push(`differs ${f}`);
    }
    for (const f of existing) if (!pages.has(f)) stale.push(`extra ${f}`);
    if (stale.length > 0) {
      process.stderr.write(
        `${pc.red('stale')}: ${out} is not the generated reference (${stale.length} page(s)):\n${stale.map((s) => `  ${s}`).join('\n')}\nregenerate it: sofa-ts docs --out ${out}${(o.plugins ?? []).map((p) => ` --plugin ${p}`).join('')}\n`,
      );
      return 1;
    }
    process.stdout.write(`${out}: ${pages.size} pages, up to date\n`);
    return 0;
  }
  fs.mkdirSync(out, { recursive: true });
  // Pages of components that no longer exist are removed (only the .md files this command writes).
  for (const f of existing) if (!pages.has(f)) fs.rmSync(path.join(out, f));
  for (const [f, text] of pages) host().writeFile(path.join(out, f), text);
  process.stdout.write(`${out}: ${pages.size} pages (${pages.size - 1} component page(s) and the index README.md)\n`);
  return 0;
}
