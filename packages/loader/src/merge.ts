import { attributeValue, type ElementDraft } from './scene-types.js';
import { setAttribute } from './include-attributes.js';

/** Merges an included `_Merge_` root into `dest` as SOFA's recursiveMergeNode does: its
 *  attributes other than `name` are set on `dest`; each child with a non-empty name that matches
 *  a child of `dest` already present (same tag, same name) is merged into it recursively, any
 *  other child is appended to `dest`. */
export function mergeInto(dest: ElementDraft, src: ElementDraft): void {
  for (const attr of src.attributes) {
    if (attr.name !== 'name') setAttribute(dest, attr);
  }
  for (const child of src.children) {
    const name = attributeValue(child, 'name');
    const match = name ? dest.children.find((d) => d.tag === child.tag && attributeValue(d, 'name') === name) : undefined;
    if (match) mergeInto(match, child);
    else dest.children.push(child);
  }
}
