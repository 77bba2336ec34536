import { resolvePath, type BaseObject, type Data, type Node } from '@sofa-ts/core';

/** The scene graph as the page's tree shows it. */
export interface TreeNode {
  name: string;
  path: string;
  objects: { name: string; path: string; className: string; template: string }[];
  children: TreeNode[];
}

/** One Data of a component, as the Data panel shows it. */
export interface DataField {
  name: string;
  type: string;
  /** SOFA's text form (numbers in shortest round-trip form), cut after `maxChars` (see `truncated`). */
  value: string;
  truncated: boolean;
  help: string;
  group: string;
  /** False for outputs (a component sets them) and linked Data (their parent sets them). */
  editable: boolean;
  /** True when the value is a number or numbers (the panel edits those). */
  numeric: boolean;
  linkedFrom?: string;
}

export function sceneTree(node: Node): TreeNode {
  const np = node.path;
  return {
    name: node.getName(),
    path: np,
    objects: node.objects.map((o) => ({
      name: o.getName(),
      path: `${np === '/' ? '' : np}/${o.getName()}`,
      className: o.className,
      template: o.template,
    })),
    children: node.children.map(sceneTree),
  };
}

/**
 * The node or component at a tree path. The tree's paths join names with '/', unnamed nodes
 * included (`/root//TORUS`), so they are looked up by walking the tree, not as scene links.
 */
export function ownerAt(root: Node, path: string): BaseObject | Node | undefined {
  let found: BaseObject | Node | undefined;
  root.visit((n) => {
    if (found) return false;
    if (n.path === path) found = n;
    const np = n.path === '/' ? '' : n.path;
    for (const o of n.objects) if (`${np}/${o.getName()}` === path) found = o;
    return found === undefined && path.startsWith(n.path);
  });
  return (
    found ??
    (() => {
      const t = resolvePath(root, path);
      return t?.kind === 'object' ? t.object : t?.kind === 'node' ? t.node : undefined;
    })()
  );
}

const isNumeric = (v: unknown): boolean => typeof v === 'number' || (ArrayBuffer.isView(v) && !(v instanceof DataView));

/** The Data of the component or node at `path`. */
export function readDataFields(root: Node, path: string, maxChars = 200000): DataField[] {
  const owner = ownerAt(root, path);
  if (!owner) throw new Error(`no component or node at '${path}'`);
  return owner.dataFields.map((d: Data<unknown>) => {
    const text = d.print();
    return {
      name: d.name,
      type: d.spec.type.name,
      value: text.length > maxChars ? text.slice(0, maxChars) : text,
      truncated: text.length > maxChars,
      help: d.spec.help,
      group: d.spec.group ?? '',
      editable: !d.spec.output && d.parent === undefined,
      numeric: isNumeric(d.value),
      ...(d.parent ? { linkedFrom: `${d.parent.owner.getName()}.${d.parent.name}` } : {}),
    };
  });
}

/**
 * Sets a Data from its text, as an edit in runSofa's Data panel: it takes effect at the next
 * step. An array of the same length is written in place (the arrays of a state are views of the
 * solver's vectors, which must stay bound). A node's dt or gravity reaches its subtree, as the
 * context does at init.
 */
export function writeDataField(root: Node, path: string, name: string, text: string): void {
  const owner = ownerAt(root, path);
  if (!owner) throw new Error(`no component or node at '${path}'`);
  const d = owner.findData(name);
  if (!d) throw new Error(`no Data '${name}' in '${path}'`);
  if (d.parent !== undefined) throw new Error(`'${name}' follows a link; edit its source`);
  const value = d.spec.type.parse(text);
  const cur = d.value;
  if (
    ArrayBuffer.isView(value) &&
    ArrayBuffer.isView(cur) &&
    value.constructor === cur.constructor &&
    (value as unknown as ArrayLike<number>).length === (cur as unknown as ArrayLike<number>).length
  ) {
    (cur as unknown as Float64Array).set(value as unknown as Float64Array);
    d.touch();
  } else {
    d.value = value;
  }
  if ('children' in owner && (name === 'gravity' || name === 'dt')) {
    owner.visit((n) => {
      if (n !== owner) n.findData(name)!.value = d.spec.type.clone(d.value);
    });
  }
}
