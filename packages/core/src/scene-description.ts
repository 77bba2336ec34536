import type { SourceLocation } from './errors.js';

/** An XML attribute of a scene element, with its position. */
export interface SceneAttribute {
  readonly name: string;
  readonly value: string;
  readonly loc: SourceLocation;
}

/** A scene element as the loader reads it: `<Node>` or a component, in document order. */
export interface SceneElement {
  readonly tag: string;
  readonly attributes: readonly SceneAttribute[];
  readonly children: readonly SceneElement[];
  readonly loc: SourceLocation;
  /** Absolute path of the file the element comes from (includes keep their own file). */
  readonly file: string;
}
