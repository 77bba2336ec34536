import type { SceneAttribute } from '@sofa-ts/core';
import { attributeValue, type ElementDraft } from './scene-types.js';

/** How an included root joins the element holding the `<include>`:
 *  `child` — as one child (the default);
 *  `group` — its children are inserted in its place, its own attributes are dropped
 *            (included root named `Group` or `_Group_`);
 *  `merge` — merged into the parent (included root named `_Merge_`), see mergeInto. */
export type IncludeMode = 'child' | 'group' | 'merge';

/** The mode a root name asks for, if any. */
export function modeForName(name: string | undefined): IncludeMode | undefined {
  if (name === 'Group' || name === '_Group_') return 'group';
  if (name === '_Merge_') return 'merge';
  return undefined;
}

/** Sets `attr` on `element`: replaces the value (and position) in place, or appends it. */
export function setAttribute(element: ElementDraft, attr: SceneAttribute, prepend = false): void {
  const i = element.attributes.findIndex((a) => a.name === attr.name);
  if (i >= 0) element.attributes[i] = attr;
  else if (prepend) element.attributes.unshift(attr);
  else element.attributes.push(attr);
}

/** Replaces `attr.name` by `attr` in every component element of the subtree that already has it
 *  (and, when `onlyNamed` is given, whose `name` is that). `<Node>` elements are not touched. */
function replaceInSubtree(element: ElementDraft, attr: SceneAttribute, onlyNamed: string | undefined): void {
  if (element.tag !== 'Node' && (onlyNamed === undefined || (attributeValue(element, 'name') ?? '') === onlyNamed)) {
    const i = element.attributes.findIndex((a) => a.name === attr.name);
    if (i >= 0) element.attributes[i] = attr;
  }
  for (const child of element.children) replaceInSubtree(child, attr, onlyNamed);
}

/**
 * Applies the attributes written on an `<include>` (or on an element expanded from
 * `Objects/<Tag>.xml`) to the included root `root`, following SOFA's XML loader
 * (simulation/common/xml/XML.cpp, includeNode), in the order they are written:
 *
 * - `href` is the file and is not applied;
 * - `name="N"` renames the included root (the attribute replaces the root's `name`, or is added
 *   first); the names `Group`/`_Group_`/`_Merge_` then select the group/merge mode;
 * - `C__attr="v"` (two underscores) sets `attr` to `v` in the component elements of the included
 *   subtree (root included) whose name is `C` and that already have `attr`;
 * - any other `attr="v"` sets `attr` to `v` in every component element of the included subtree
 *   that already has `attr` (e.g. `dx="2.5"` moves the MechanicalObject and OglModel of a torus).
 *
 * As in SOFA, a replacement never adds an attribute, never touches `<Node>` elements (SOFA's
 * NodeElement ignores replacements) nor `name`/`type` (which SOFA keeps apart from the other
 * attributes). Replaced attributes keep their place in their element but take the value and
 * position of the include's attribute. Returns the resulting mode.
 */
export function applyIncludeAttributes(root: ElementDraft, attributes: readonly SceneAttribute[], mode: IncludeMode): IncludeMode {
  for (const attr of attributes) {
    if (attr.name === 'href') continue;
    if (attr.name === 'name') {
      setAttribute(root, attr, true);
      mode = modeForName(attr.value) ?? mode;
      continue;
    }
    const sep = attr.name.indexOf('__');
    const target = sep >= 0 ? attr.name.slice(sep + 2) : attr.name;
    if (target === 'name' || target === 'type') continue;
    replaceInSubtree(root, { ...attr, name: target }, sep >= 0 ? attr.name.slice(0, sep) : undefined);
  }
  return mode;
}
