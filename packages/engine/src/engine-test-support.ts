/** Helpers of the engine specs: scenes from elements, as scene files build them (buildScene). */
import type { BaseObject, Node, SceneElement } from '@sofa-ts/core';
import { el, find, initScene } from './scene-test-support.js';

export { el, find, initScene };

/** The component named `name` of a scene whose root holds `children` (initialised). */
export function engine<T extends BaseObject>(children: SceneElement[], name: string): T {
  return find<T>(initScene(children), name);
}

/** The only engine of a scene: `<tag name="e" …attrs/>`, after `before`. */
export function one<T extends BaseObject>(tag: string, attrs: Record<string, string>, before: SceneElement[] = []): T {
  return engine<T>([...before, el(tag, { name: 'e', ...attrs })], 'e');
}

export const arr = (a: ArrayLike<number>): number[] => Array.from(a);

/** Points (i, j, k) of an n×n×n grid of spacing h, index i + n·(j + n·k), as attribute text. */
export function gridPoints(n: number, h = 1): string {
  const p: number[] = [];
  for (let k = 0; k < n; k++) for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) p.push(i * h, j * h, k * h);
  return p.join(' ');
}

/** Every element of a and b within tol. */
export function close(a: ArrayLike<number>, b: ArrayLike<number>, tol = 1e-12): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!(Math.abs(a[i] - b[i]) <= tol)) return false;
  return true;
}

/** The triangulated surface of the unit cube [0,1]³ with outward normals: 8 points, 12 triangles. */
export const CUBE = {
  points: '0 0 0  1 0 0  1 1 0  0 1 0  0 0 1  1 0 1  1 1 1  0 1 1',
  triangles: '0 2 1  0 3 2  4 5 6  4 6 7  0 1 5  0 5 4  1 2 6  1 6 5  2 3 7  2 7 6  3 0 4  3 4 7',
  quads: '0 3 2 1  4 5 6 7  0 1 5 4  1 2 6 5  2 3 7 6  3 0 4 7',
};

export type { Node };
