import type { SceneAttribute, SceneElement, SofaError } from '@sofa-ts/core';

export type { SceneAttribute, SceneElement } from '@sofa-ts/core';

/** A SceneElement under construction (expansion edits a fresh copy, never a parsed tree). */
export interface ElementDraft {
  tag: string;
  attributes: SceneAttribute[];
  children: ElementDraft[];
  loc: SceneElement['loc'];
  file: string;
}

/** Options of loadSceneFile and loadSceneString. */
export interface LoadSceneOptions {
  /** Directories searched for relative files (includes, `Objects/<Tag>.xml`) after the folder
   *  of the file that names them, in order. */
  readonly dataPaths?: readonly string[];
  /** Whether a tag is a registered component. `Node` and `include` are always known. A tag for
   *  which this is false is replaced by `Objects/<Tag>.xml` when such a file exists.
   *  Default: no tag is known (every tag with an `Objects/<Tag>.xml` file is expanded). */
  readonly isKnownTag?: (tag: string) => boolean;
  /** Receives what the reader accepts with a warning (XML that SOFA's reader tolerates). */
  readonly warnings?: SofaError[];
}

/** Options of loadSceneString. */
export interface LoadSceneStringOptions extends LoadSceneOptions {
  /** File name used in positions (made absolute) and for resolving relative includes (its
   *  folder). Default `<string>`; a pseudo-name in angle brackets is kept as is and includes are
   *  then resolved from the current directory. */
  readonly fileName?: string;
}

/** Value of the attribute `name` of an element, if any. */
export function attributeValue(element: { readonly attributes: readonly SceneAttribute[] }, name: string): string | undefined {
  return element.attributes.find((a) => a.name === name)?.value;
}
