/**
 * Test support for the image specs: scenes built through the same factory and attribute parsing
 * as scene files, with the image components and a loop that only advances time; closed meshes
 * (a UV sphere, a box) with their exact volume.
 */
import {
  BaseAnimationLoop,
  ComponentRegistry,
  Simulation,
  buildScene,
  componentModule,
  sofaComponent,
  type BaseObject,
  type Node,
  type SceneElement,
} from '@sofa-ts/core';
import { imageComponents } from './components.js';

@sofaComponent({ name: 'TestLoop', category: 'AnimationLoop', description: 'test loop' })
export class TestLoop extends BaseAnimationLoop {
  step(dt: number): void {
    this.context.setTime(this.context.getTime() + dt);
  }
}

export function el(tag: string, attrs: Record<string, string>, file = 'test.scn'): SceneElement {
  return {
    tag,
    attributes: Object.entries(attrs).map(([name, value]) => ({ name, value, loc: { file, line: 1, column: 1 } })),
    children: [],
    loc: { file, line: 1, column: 1 },
    file,
  };
}

export function initScene(children: SceneElement[]): Node {
  const r = new ComponentRegistry();
  r.load('image', componentModule('image', imageComponents));
  r.load('test', componentModule('test', [TestLoop]));
  const root = buildScene({ ...el('Node', { name: 'root' }), children: [el('TestLoop', {}), ...children] }, r);
  new Simulation(root).init();
  return root;
}

export function find<T extends BaseObject>(root: Node, name: string): T {
  for (const o of root.subtreeObjects()) if (o.getName() === name) return o as T;
  throw new Error(`no object '${name}'`);
}

/** A closed UV sphere (outward triangles): positions, triangles, its volume and area. */
export function uvSphere(r: number, nu: number, nv: number, c: readonly number[] = [0, 0, 0]): Mesh {
  const p: number[] = [c[0], c[1], c[2] + r];
  for (let i = 1; i < nv; i++) {
    const th = (Math.PI * i) / nv;
    for (let j = 0; j < nu; j++) {
      const ph = (2 * Math.PI * j) / nu;
      p.push(c[0] + r * Math.sin(th) * Math.cos(ph), c[1] + r * Math.sin(th) * Math.sin(ph), c[2] + r * Math.cos(th));
    }
  }
  p.push(c[0], c[1], c[2] - r);
  const south = p.length / 3 - 1;
  const ring = (i: number, j: number): number => 1 + (i - 1) * nu + (j % nu);
  const t: number[] = [];
  for (let j = 0; j < nu; j++) t.push(0, ring(1, j), ring(1, j + 1));
  for (let i = 1; i < nv - 1; i++)
    for (let j = 0; j < nu; j++) t.push(ring(i, j), ring(i + 1, j), ring(i + 1, j + 1), ring(i, j), ring(i + 1, j + 1), ring(i, j + 1));
  for (let j = 0; j < nu; j++) t.push(south, ring(nv - 1, j + 1), ring(nv - 1, j));
  return withMeasures(p, t);
}

/** The closed box [lo, hi] as 12 outward triangles. */
export function box(lo: readonly number[], hi: readonly number[]): Mesh {
  const p: number[] = [];
  for (let k = 0; k < 8; k++) p.push(k & 1 ? hi[0] : lo[0], k & 2 ? hi[1] : lo[1], k & 4 ? hi[2] : lo[2]);
  // faces as quads (outward), split in two
  const q = [
    [0, 2, 3, 1],
    [4, 5, 7, 6],
    [0, 1, 5, 4],
    [2, 6, 7, 3],
    [0, 4, 6, 2],
    [1, 3, 7, 5],
  ];
  const t: number[] = [];
  for (const [a, b, c, d] of q) t.push(a, b, c, a, c, d);
  return withMeasures(p, t);
}

export interface Mesh {
  readonly position: number[];
  readonly triangles: number[];
  /** Σ a·(b×c)/6 over the triangles (divergence theorem). */
  readonly volume: number;
  readonly area: number;
}

function withMeasures(p: number[], t: number[]): Mesh {
  let v = 0,
    a = 0;
  for (let i = 0; i < t.length; i += 3) {
    const A = p.slice(3 * t[i], 3 * t[i] + 3),
      B = p.slice(3 * t[i + 1], 3 * t[i + 1] + 3),
      C = p.slice(3 * t[i + 2], 3 * t[i + 2] + 3);
    const cx = B[1] * C[2] - B[2] * C[1],
      cy = B[2] * C[0] - B[0] * C[2],
      cz = B[0] * C[1] - B[1] * C[0];
    v += (A[0] * cx + A[1] * cy + A[2] * cz) / 6;
    const u = [B[0] - A[0], B[1] - A[1], B[2] - A[2]],
      w = [C[0] - A[0], C[1] - A[1], C[2] - A[2]];
    a += Math.hypot(u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]) / 2;
  }
  return { position: p, triangles: t, volume: v, area: a };
}
