import { Random } from './random.js';

/** One start tag of a scene text: where it is and its attributes (name, value span). */
interface Tag {
  start: number;
  end: number;
  name: string;
  attrs: Array<{ name: string; valueStart: number; valueEnd: number }>;
}

const TAG = /<([A-Za-z_][\w.-]*)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*\/?>/g;
const ATTR = /([^\s=/>]+)\s*=\s*("([^"]*)"|'([^']*)')/g;

function tagsOf(text: string): Tag[] {
  const out: Tag[] = [];
  for (const m of text.matchAll(TAG)) {
    const start = m.index!;
    const attrsText = m[2] ?? '';
    const attrsOffset = start + 1 + m[1].length;
    const attrs: Tag['attrs'] = [];
    for (const a of attrsText.matchAll(ATTR)) {
      const valueStart = attrsOffset + a.index! + a[0].indexOf(a[2]) + 1;
      attrs.push({ name: a[1], valueStart, valueEnd: valueStart + (a[3] ?? a[4] ?? '').length });
    }
    out.push({ start, end: start + m[0].length, name: m[1], attrs });
  }
  return out;
}

/** Values that probe number validation: non-finite, negative, zero, huge, tiny, not a number. */
const hostileNumbers = [
  'NaN',
  'nan',
  'inf',
  '-inf',
  '1e308',
  '-1e308',
  '1e-308',
  '-1',
  '0',
  '2147483648',
  '1e9',
  '-0.5',
  '0.7',
  'abc',
  '',
  '1 2',
  '1e400',
];
const hostileLinks = ['@nowhere', '@[-9]', '@../../../../x', '@/', '@.', '@[0]', '@./nothing.position'];
const hostileTemplates = ['Rigid3', 'Vec1', 'Vec2', 'Rigid2', 'Vec3,Rigid3', 'Bogus', ''];
const hostileTags = [
  'MechanicalObject',
  'UniformMass',
  'EulerImplicitSolver',
  'CGLinearSolver',
  'SparseLDLSolver',
  'TetrahedronFEMForceField',
  'RigidMapping',
  'BarycentricMapping',
  'FixedProjectiveConstraint',
  'FreeMotionAnimationLoop',
  'BilateralLagrangianConstraint',
  'UnknownThing',
];

/** What a mutation did, for the report. */
export interface Mutant {
  readonly text: string;
  readonly description: string;
}

type Operator = (text: string, r: Random) => Mutant | undefined;

const setAttr = (text: string, a: Tag['attrs'][number], value: string): string =>
  text.slice(0, a.valueStart) + value + text.slice(a.valueEnd);

/** The mutation operators, each a plausible mistake or a hostile input. */
export const operators: Readonly<Record<string, Operator>> = {
  number(text, r) {
    const attrs = tagsOf(text)
      .flatMap((t) => t.attrs.map((a) => ({ t, a })))
      .filter(({ a }) => /^[\s\d.eE+-]+$/.test(text.slice(a.valueStart, a.valueEnd)) && a.valueEnd > a.valueStart);
    if (attrs.length === 0) return undefined;
    const { t, a } = r.pick(attrs);
    const tokens = text.slice(a.valueStart, a.valueEnd).trim().split(/\s+/);
    const v = r.pick(hostileNumbers);
    if (tokens.length > 1 && r.next() < 0.5) tokens[r.int(tokens.length)] = v;
    else tokens.splice(0, tokens.length, ...tokens.map(() => v));
    return { text: setAttr(text, a, tokens.join(' ')), description: `${t.name}.${a.name} = "${tokens.join(' ').slice(0, 60)}"` };
  },
  scale(text, r) {
    const attrs = tagsOf(text)
      .flatMap((t) => t.attrs.map((a) => ({ t, a })))
      .filter(({ a }) =>
        /^\s*-?\d+(\.\d*)?([eE][+-]?\d+)?(\s+-?\d+(\.\d*)?([eE][+-]?\d+)?)*\s*$/.test(text.slice(a.valueStart, a.valueEnd)),
      );
    if (attrs.length === 0) return undefined;
    const { t, a } = r.pick(attrs);
    const f = r.pick([1e6, -1, 1e-6, 1000, 0]);
    const v = text
      .slice(a.valueStart, a.valueEnd)
      .trim()
      .split(/\s+/)
      .map((x) => String(Number(x) * f))
      .join(' ');
    return { text: setAttr(text, a, v), description: `${t.name}.${a.name} ×${f}` };
  },
  dropAttribute(text, r) {
    const attrs = tagsOf(text).flatMap((t) => t.attrs.map((a) => ({ t, a })));
    if (attrs.length === 0) return undefined;
    const { t, a } = r.pick(attrs);
    const nameStart = text.lastIndexOf(a.name, a.valueStart);
    return { text: text.slice(0, nameStart) + text.slice(a.valueEnd + 1), description: `drop ${t.name}.${a.name}` };
  },
  link(text, r) {
    const attrs = tagsOf(text)
      .flatMap((t) => t.attrs.map((a) => ({ t, a })))
      .filter(({ a }) => text.slice(a.valueStart, a.valueEnd).trim().startsWith('@'));
    if (attrs.length === 0) return undefined;
    const { t, a } = r.pick(attrs);
    const v = r.pick(hostileLinks);
    return { text: setAttr(text, a, v), description: `${t.name}.${a.name} = "${v}"` };
  },
  template(text, r) {
    const tags = tagsOf(text).filter((t) => t.name !== 'Node');
    if (tags.length === 0) return undefined;
    const t = r.pick(tags);
    const v = r.pick(hostileTemplates);
    const existing = t.attrs.find((a) => a.name === 'template');
    const out = existing
      ? setAttr(text, existing, v)
      : text.slice(0, t.start + 1 + t.name.length) + ` template="${v}"` + text.slice(t.start + 1 + t.name.length);
    return { text: out, description: `${t.name}.template = "${v}"` };
  },
  dropElement(text, r) {
    const tags = tagsOf(text).filter((t) => text[t.end - 2] === '/');
    if (tags.length === 0) return undefined;
    const t = r.pick(tags);
    return { text: text.slice(0, t.start) + text.slice(t.end), description: `drop <${t.name}>` };
  },
  duplicateElement(text, r) {
    const tags = tagsOf(text).filter((t) => text[t.end - 2] === '/');
    if (tags.length === 0) return undefined;
    const t = r.pick(tags);
    return { text: text.slice(0, t.end) + text.slice(t.start, t.end) + text.slice(t.end), description: `duplicate <${t.name}>` };
  },
  retag(text, r) {
    const tags = tagsOf(text).filter((t) => t.name !== 'Node' && text[t.end - 2] === '/');
    if (tags.length === 0) return undefined;
    const t = r.pick(tags);
    const v = r.pick(hostileTags);
    return { text: text.slice(0, t.start + 1) + v + text.slice(t.start + 1 + t.name.length), description: `<${t.name}> → <${v}>` };
  },
  truncate(text, r) {
    const at = r.int(text.length);
    return { text: text.slice(0, at), description: `truncated at ${at}` };
  },
  junk(text, r) {
    const at = r.int(text.length);
    const j = r.pick(['<', '>', '"', '&', '&#0;', '\u0000', ']]>', '<!--', '</Node>', '<Node>']);
    return { text: text.slice(0, at) + j + text.slice(at), description: `insert ${JSON.stringify(j)} at ${at}` };
  },
  hostile(text, r) {
    const rootEnd = text.indexOf('>', text.search(/<Node\b/)) + 1;
    if (rootEnd <= 0) return undefined;
    const insert = (s: string, d: string): Mutant => ({ text: text.slice(0, rootEnd) + s + text.slice(rootEnd), description: d });
    switch (r.int(7)) {
      case 0:
        return {
          text:
            `<?xml version="1.0"?><!DOCTYPE Node [<!ENTITY a "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;">]>` +
            text.replace(/<\?xml[^>]*\?>/, '').replace(/name="([^"]*)"/, 'name="&e;"'),
          description: 'entity bomb',
        };
      case 1:
        return insert('<Node>'.repeat(5000) + '</Node>'.repeat(5000), 'deep nesting (5000 nodes)');
      case 2:
        return insert(
          `<RegularGridTopology n="${r.pick(['1000 1000 1000', '100000 100000 2', '-1 2 2', 'inf 2 2'])}" min="0 0 0" max="1 1 1"/>`,
          'huge grid',
        );
      case 3:
        return insert(
          `<include href="${r.pick(['/dev/zero', '/etc/passwd', '/proc/self/environ', '../../../../../../etc/hostname'])}"/>`,
          'hostile include',
        );
      case 4:
        return insert(`<MeshGmshLoader filename="${r.pick(['/etc/passwd', '/dev/zero', '/proc/self/status'])}"/>`, 'hostile mesh file');
      case 5:
        return insert(`<RequiredPlugin pluginName="${r.pick(['./evil.js', '/tmp/evil.mjs', 'fs', 'child_process'])}"/>`, 'plugin path');
      default:
        return insert(`<MechanicalObject position="${'1e308 '.repeat(3000)}"/>`, 'huge position list');
    }
  },
};

/** A mutant of `text`: one to three operators applied (each may find nothing to act on). */
export function mutate(text: string, r: Random): Mutant {
  const names = Object.keys(operators);
  let out = text;
  const what: string[] = [];
  const n = 1 + (r.next() < 0.3 ? r.int(3) : 0);
  for (let i = 0; i < n; i++) {
    const m = operators[r.pick(names)](out, r);
    if (m) {
      out = m.text;
      what.push(m.description);
    }
  }
  return { text: out, description: what.join('; ') || 'unchanged' };
}
