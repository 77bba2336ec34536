import pc from 'picocolors';
import { createRegistry, describeRange, didYouMean, loadPlugins, type ComponentEntry } from 'sofa-ts';

/** `sofa-ts components [NAME]`: the registry, or one component's Data fields and links. */
export async function componentsCommand(name: string | undefined, plugins: readonly string[] = []): Promise<number> {
  const registry = createRegistry();
  await loadPlugins(plugins, registry);
  const out = process.stdout;
  if (!name) {
    const entries = registry.entries();
    const byCat = new Map<string, ComponentEntry[]>();
    for (const e of entries) byCat.set(e.info.category, [...(byCat.get(e.info.category) ?? []), e]);
    for (const [cat, es] of [...byCat].sort((a, b) => a[0].localeCompare(b[0]))) {
      out.write(pc.bold(cat) + '\n');
      for (const e of es) {
        const aliases = e.info.aliases?.length ? pc.dim(` (alias ${e.info.aliases.join(', ')})`) : '';
        out.write(`  ${e.info.name}${aliases} — ${e.info.description}\n`);
      }
    }
    out.write(`${entries.length} components\n`);
    return 0;
  }
  const e = registry.find(name);
  if (!e) {
    const hint = didYouMean(name, registry.names());
    process.stderr.write(`${pc.red('error')}: unknown component '${name}'${hint ? ` (${hint})` : ''}\n`);
    return 1;
  }
  out.write(describeComponent(e, registry.create(e.info.name)));
  return 0;
}

/** The reference text of one component, generated from its declarations. */
export function describeComponent(e: ComponentEntry, instance: ReturnType<ReturnType<typeof createRegistry>['create']>): string {
  const lines: string[] = [];
  lines.push(`${pc.bold(e.info.name)} — ${e.info.description}`);
  lines.push(`  category   ${e.info.category}`);
  if (e.info.module) lines.push(`  module     ${e.info.module} (RequiredPlugin name)`);
  lines.push(`  package    ${e.plugin}`);
  if (e.info.aliases?.length) lines.push(`  aliases    ${e.info.aliases.join(', ')}`);
  if (e.info.templates?.length)
    lines.push(`  templates  ${e.info.templates.join(', ')}${e.info.defaultTemplate ? ` (default ${e.info.defaultTemplate})` : ''}`);
  lines.push('  data');
  for (const d of instance.dataFields) {
    const dflt = d.spec.type.print(d.spec.default);
    const unit = d.spec.unit ? ` [${d.spec.unit}]` : '';
    const flags = [d.spec.output ? 'output' : '', d.spec.aliases?.length ? `alias ${d.spec.aliases.join(', ')}` : '']
      .filter(Boolean)
      .join('; ');
    lines.push(
      `    ${d.name.padEnd(26)} ${pc.dim(d.spec.type.name)}${unit} = ${JSON.stringify(dflt.length > 40 ? dflt.slice(0, 37) + '...' : dflt)}${flags ? pc.dim(` (${flags})`) : ''}`,
    );
    lines.push(`      ${d.spec.help}`);
    if (d.spec.range) lines.push(`      ${pc.dim(`accepts: ${describeRange(d.spec.range)}`)}`);
  }
  if (instance.links.length > 0) {
    lines.push('  links');
    for (const l of instance.links)
      lines.push(
        `    ${l.name.padEnd(26)} ${pc.dim(l.spec.expected)}${l.spec.search && l.spec.search !== 'none' ? pc.dim(` (default: searched ${l.spec.search})`) : ''}\n      ${l.spec.help}`,
      );
  }
  return lines.join('\n') + '\n';
}
