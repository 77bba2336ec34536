import * as path from 'node:path';
import {
  BaseObject,
  Bool,
  Int,
  Node,
  Real,
  UInt,
  createRegistry,
  loadPlugins,
  type ComponentEntry,
  type Data,
  type DataType,
} from 'sofa-ts';
import { host } from '@sofa-ts/core';

/**
 * `sofa-ts schema --out FILE.xsd`: an XML Schema of the scenes sofa-ts reads, for editors that
 * complete and check XML (docs/editors.md), and FILE.json, the same description for programs.
 * Generated from the components' declarations (those the scene reader uses):
 *  - one global element per registered component, and one per SOFA alias of its name, whose
 *    attributes are its Data (and their aliases and former names) and its links; the Data's help is
 *    the attribute's annotation, with its type, default and unit;
 *  - a Data's value is checked by a pattern where XSD can say what the reader accepts (numbers,
 *    vectors of numbers, booleans, option names); a pattern never refuses what the reader takes
 *    (tokens split at spaces, commas and brackets; inf and nan; SOFA's numbers written without a
 *    space between them), and every Data also takes a link (`@path`);
 *  - unknown attributes are allowed (SOFA warns about them and goes on) and so are unknown
 *    elements (include files add tags of their own; `sofa-ts check` reports unknown components):
 *    children are lax wildcards, validated where a declaration exists.
 */
export interface SchemaOptions {
  plugins?: readonly string[];
}

/** A Data or link as the JSON description gives it. */
export interface SchemaAttribute {
  name: string;
  /** SOFA's type name ("double", "vector<Vec3d>"); links: "link". */
  type: string;
  default?: string;
  unit?: string;
  help: string;
  /** Other names accepted for it. */
  aliases?: string[];
  /** Option names (enumerations). */
  options?: string[];
  output?: boolean;
}

export interface SchemaComponent {
  name: string;
  aliases: string[];
  category: string;
  description: string;
  module?: string;
  templates?: string[];
  attributes: SchemaAttribute[];
}

export interface SchemaDescription {
  sofaTs: string;
  node: SchemaAttribute[];
  components: SchemaComponent[];
}

// What the reader takes (core's data-types.ts): tokens separated by spaces, commas and brackets.
const SEP = '[\\s,\\[\\]]';
const NUMBER = '[+\\-]?((\\d+\\.?\\d*|\\.\\d+)([eE][+\\-]?\\d+)?|[Ii][Nn][Ff]([Ii][Nn][Ii][Tt][Yy])?|[Nn][Aa][Nn])';
const LINK = '\\s*@.*';
// A scalar given more numbers reads the first (SOFA's `in >> double`): at least one number.
const SOME_NUMBERS = `${SEP}*(${NUMBER})+(${SEP}+(${NUMBER})+)*${SEP}*`;
// SOFA's stream reading takes numbers written without a space between them ("0-0.707107").
const NUMBERS = `(${SEP}*(${NUMBER})+)*${SEP}*`;
const BOOLEAN = `${SEP}*([01]|[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])${SEP}*`;

/** SOFA type names whose values are numbers only: scalars, vectors, matrices, quaternions, the
 *  coordinates of any template, element index tuples, and vectors of these. */
const NUMERIC =
  /^(vector<)*(Vec\d+[dfiu]?|double|float|int|unsigned int|fixed_array<unsigned int,\s*\d+>|Coord|Deriv|VecCoord|VecDeriv|Edge|Triangle|Quad|Tetrahedron|Hexahedron|Pyramid|Pentahedron|Prism|Mat\d+x\d+[df]?|Quat|Rigid3[df]?Types::(Coord|Deriv)|CPos|set<int>)(>)*$/;

/** The pattern of a type, or undefined where the value is free text for XSD. */
function patternOf(t: DataType<unknown>): string | undefined {
  if (t.options?.length) return `${SEP}*(${t.options.map(escapeRegex).join('|')}|\\d+)${SEP}*`;
  // one value: the reader's own scalar types (a type's name alone can be a template's, an array)
  if (t === (Bool as DataType<unknown>)) return BOOLEAN;
  if (t === (Real as DataType<unknown>) || t === (Int as DataType<unknown>) || t === (UInt as DataType<unknown>)) return SOME_NUMBERS;
  // numbers, any count (what a vector's size must be is the component's to say)
  if (NUMERIC.test(t.name)) return NUMBERS;
  return undefined;
}

function escapeRegex(s: string): string {
  return s.replace(/[.\\+*?^$()[\]{}|-]/g, '\\$&');
}

const xml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function dataAttributes(fields: readonly Data<unknown>[]): SchemaAttribute[] {
  return fields.map((d) => {
    const s = d.spec;
    const names = [...(s.aliases ?? []), ...(s.renamedFrom ?? [])].filter((a) => a !== d.name);
    const printed = s.type.print(s.default);
    return {
      name: d.name,
      type: s.type.name,
      ...(printed !== '' ? { default: printed } : {}),
      ...(s.unit ? { unit: s.unit } : {}),
      help: s.help,
      ...(names.length ? { aliases: names } : {}),
      ...(s.type.options?.length ? { options: [...s.type.options] } : {}),
      ...(s.output ? { output: true } : {}),
    };
  });
}

/** The description of every registered component (sorted by name) and of the Node element. */
export async function schemaDescription(
  version: string,
  o: SchemaOptions = {},
): Promise<{ description: SchemaDescription; types: Map<string, DataType<unknown>> }> {
  const registry = createRegistry();
  await loadPlugins(o.plugins ?? [], registry);
  const types = new Map<string, DataType<unknown>>();
  const keep = (fields: readonly Data<unknown>[]): readonly Data<unknown>[] => {
    for (const d of fields) if (!types.has(typeKey(d.spec.type))) types.set(typeKey(d.spec.type), d.spec.type);
    return fields;
  };
  const node = dataAttributes(keep(new Node('root').dataFields));
  const components: SchemaComponent[] = [];
  for (const e of [...registry.entries()].sort((a, b) => a.info.name.localeCompare(b.info.name))) {
    const inst = registry.create(e.info.name) as BaseObject;
    const attributes = dataAttributes(keep(inst.dataFields));
    for (const l of inst.links)
      attributes.push({
        name: l.name,
        type: 'link',
        help: `${l.spec.help} (${l.spec.expected})`,
        ...(l.spec.aliases?.length ? { aliases: [...l.spec.aliases] } : {}),
      });
    components.push(componentOf(e, attributes));
  }
  return { description: { sofaTs: version, node, components }, types };
}

function componentOf(e: ComponentEntry, attributes: SchemaAttribute[]): SchemaComponent {
  const i = e.info;
  return {
    name: i.name,
    aliases: [...(i.aliases ?? [])],
    category: i.category,
    description: i.description,
    ...(i.module ? { module: i.module } : {}),
    ...(i.templates?.length ? { templates: [...i.templates] } : {}),
    attributes,
  };
}

/** A type's XSD name: its SOFA name, made an NCName, with its options when it has some. */
function typeKey(t: DataType<unknown>): string {
  return t.options?.length ? `${t.name}:${t.options.join('|')}` : t.name;
}

function xsdTypeName(key: string, index: Map<string, string>): string {
  let n = index.get(key);
  if (!n) {
    n = `t${index.size}_${key
      .replace(/[^A-Za-z0-9]+/g, '_')
      .replace(/^_|_$/g, '')
      .slice(0, 60)}`;
    index.set(key, n);
  }
  return n;
}

/** The XML Schema text of a description. */
export function schemaXsd(d: SchemaDescription, types: ReadonlyMap<string, DataType<unknown>>): string {
  const names = new Map<string, string>();
  const simpleTypes: string[] = [];
  const typeOf = (a: SchemaAttribute): string => {
    if (a.type === 'link') return 'xs:string';
    const key = a.options?.length ? `${a.type}:${a.options.join('|')}` : a.type;
    const t = types.get(key);
    const pattern = t ? patternOf(t) : undefined;
    if (!pattern) return 'xs:string';
    if (!names.has(key)) {
      const n = xsdTypeName(key, names);
      simpleTypes.push(
        `  <xs:simpleType name="${n}">\n    <xs:annotation><xs:documentation>${xml(a.type)}${a.options?.length ? `: one of ${xml(a.options.join(', '))} (or its index)` : ''}; or a link @path</xs:documentation></xs:annotation>\n    <xs:restriction base="xs:string"><xs:pattern value="${xml(`${pattern}|${LINK}`)}"/></xs:restriction>\n  </xs:simpleType>\n`,
      );
    }
    return names.get(key)!;
  };
  const attribute = (a: SchemaAttribute, name: string, seen: Set<string>): string => {
    if (seen.has(name) || name.includes(':') || !/^[A-Za-z_][\w.-]*$/.test(name)) return '';
    seen.add(name);
    const doc = [
      a.help,
      `type ${a.type}`,
      a.default !== undefined ? `default ${a.default.length > 80 ? `${a.default.slice(0, 77)}...` : a.default}` : '',
      a.unit ? `unit ${a.unit}` : '',
      name !== a.name ? `alias of ${a.name}` : '',
      a.output ? 'output (set by the component)' : '',
    ]
      .filter(Boolean)
      .join('; ');
    return `      <xs:attribute name="${name}" type="${typeOf(a)}"><xs:annotation><xs:documentation>${xml(doc)}</xs:documentation></xs:annotation></xs:attribute>\n`;
  };
  const attributes = (list: readonly SchemaAttribute[]): string => {
    const seen = new Set<string>();
    let s = '';
    for (const a of list) s += attribute(a, a.name, seen);
    for (const a of list) for (const alias of a.aliases ?? []) s += attribute(a, alias, seen);
    return s;
  };
  const children = '      <xs:sequence><xs:any processContents="lax" minOccurs="0" maxOccurs="unbounded"/></xs:sequence>\n';
  let body = '';
  body += `  <xs:element name="Node">\n    <xs:annotation><xs:documentation>A node of the scene graph: its components and child nodes.</xs:documentation></xs:annotation>\n    <xs:complexType mixed="true">\n${children}${attributes(d.node)}      <xs:anyAttribute processContents="skip"/>\n    </xs:complexType>\n  </xs:element>\n`;
  const declared = new Set(['Node']);
  for (const c of d.components) {
    const doc = `${c.description} (${c.category}${c.module ? `; RequiredPlugin ${c.module}` : ''}${c.templates?.length ? `; templates ${c.templates.join(', ')}` : ''})`;
    for (const name of [c.name, ...c.aliases]) {
      if (declared.has(name) || !/^[A-Za-z_][\w.-]*$/.test(name)) continue;
      declared.add(name);
      const what = name === c.name ? doc : `SOFA alias of ${c.name}: ${doc}`;
      body += `  <xs:element name="${name}">\n    <xs:annotation><xs:documentation>${xml(what)}</xs:documentation></xs:annotation>\n    <xs:complexType mixed="true">\n${children}${attributes(c.attributes)}      <xs:anyAttribute processContents="skip"/>\n    </xs:complexType>\n  </xs:element>\n`;
    }
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<!-- sofa-ts ${xml(d.sofaTs)}: the scenes it reads (sofa-ts schema). Generated; do not edit. -->\n<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" elementFormDefault="qualified">\n${simpleTypes.join('')}${body}</xs:schema>\n`;
}

/** `sofa-ts schema --out FILE`: FILE (the XSD) and, beside it, the JSON description. */
export async function schemaCommand(out: string, version: string, o: SchemaOptions = {}): Promise<number> {
  const { description, types } = await schemaDescription(version, o);
  const json = out.replace(/\.xsd$/i, '') + '.json';
  host().writeFile(out, schemaXsd(description, types));
  host().writeFile(json, JSON.stringify(description, null, 1) + '\n');
  process.stdout.write(
    `${description.components.length} components: ${out}, ${json}${path.extname(out).toLowerCase() === '.xsd' ? '' : ' (name the schema FILE.xsd for editors)'}\n`,
  );
  return 0;
}
