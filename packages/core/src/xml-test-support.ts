import type { SceneElement, SceneAttribute } from './scene-description.js';

/**
 * A minimal element-tree builder for core tests (the real XML loader lives in @sofa-ts/loader):
 * `el('Node', {name: 'root'}, [...], line)` with attribute columns counted from the tag.
 */
export function el(tag: string, attrs: Record<string, string>, children: SceneElement[] = [], line = 1): SceneElement {
  const file = 'test.scn';
  let col = tag.length + 3;
  const attributes: SceneAttribute[] = Object.entries(attrs).map(([name, value]) => {
    const a = { name, value, loc: { file, line, column: col } };
    col += name.length + value.length + 4;
    return a;
  });
  return { tag, attributes, children, loc: { file, line, column: 1 }, file };
}
