/**
 * What the generic component harnesses (force-field-, mapping-, mass-harness.spec.ts) share: a
 * seeded generator, scenes built through the XML path, the components of a kind enumerated from
 * the registry, a dense matrix accumulator, and a state perturbation in derivative coordinates
 * (a Rigid3d rotation as a small world-frame rotation of its quaternion).
 */
import {
  createRegistry,
  loadSceneFromString,
  type BaseObject,
  type MatrixAccumulator,
  type Node,
  type SofaScene,
  type StateType,
} from 'sofa-ts';

/** Deterministic uniform [0, 1) generator (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `HARNESS_CAMPAIGN=n` runs n random states per component instead of the few of `npm test`. */
export function campaignSize(small: number): number {
  const n = Number(process.env['HARNESS_CAMPAIGN'] ?? '');
  return Number.isInteger(n) && n > 0 ? n : small;
}

/** SOFA names of the registered components whose instances satisfy `is`, sorted. */
export function registeredOfKind(is: (o: BaseObject) => boolean): string[] {
  const r = createRegistry();
  return r
    .entries()
    .filter((e) => {
      try {
        return is(r.create(e.info.name));
      } catch {
        return false;
      }
    })
    .map((e) => e.info.name);
}

/** Loads and initialises a scene whose root holds `body` (no gravity unless given). */
export async function sceneOf(body: string, rootAttrs = 'gravity="0 0 0" dt="0.01"'): Promise<SofaScene> {
  return loadSceneFromString(`<Node name="root" ${rootAttrs}><DefaultAnimationLoop/>${body}</Node>`);
}

/** The first object named `name` anywhere in the tree. */
export function findNamed<T extends BaseObject>(root: Node, name: string): T {
  let found: BaseObject | undefined;
  root.visit((n) => {
    found ??= n.objects.find((o) => o.getName() === name);
    return found === undefined;
  });
  if (!found) throw new Error(`no object named ${name}`);
  return found as T;
}

/** A dense accumulator of an n×n matrix (the local index space of a component). */
export class DenseAccumulator implements MatrixAccumulator {
  readonly a: Float64Array;
  constructor(readonly n: number) {
    this.a = new Float64Array(n * n);
  }
  add(row: number, col: number, value: number): void {
    if (!(row >= 0 && row < this.n && col >= 0 && col < this.n)) throw new Error(`entry (${row}, ${col}) outside ${this.n}×${this.n}`);
    this.a[row * this.n + col] += value;
  }
  get(i: number, j: number): number {
    return this.a[i * this.n + j];
  }
  /** y = A·x */
  times(x: Float64Array): Float64Array {
    const y = new Float64Array(this.n);
    for (let i = 0; i < this.n; i++) {
      let s = 0;
      for (let j = 0; j < this.n; j++) s += this.a[i * this.n + j] * x[j];
      y[i] = s;
    }
    return y;
  }
}

/** q ← exp(θ·e_axis/2) ⊗ q, the unit quaternion (x, y, z, w) at x[off..off+4). */
function rotateQuat(x: Float64Array, off: number, axis: number, theta: number): void {
  const s = Math.sin(theta / 2),
    c = Math.cos(theta / 2);
  const ax = axis === 0 ? s : 0,
    ay = axis === 1 ? s : 0,
    az = axis === 2 ? s : 0;
  const bx = x[off],
    by = x[off + 1],
    bz = x[off + 2],
    bw = x[off + 3];
  x[off] = c * bx + ax * bw + ay * bz - az * by;
  x[off + 1] = c * by - ax * bz + ay * bw + az * bx;
  x[off + 2] = c * bz + ax * by - ay * bx + az * bw;
  x[off + 3] = c * bw - ax * bx - ay * by - az * bz;
}

/** x ⊕ h·e_j, j a derivative coordinate of the state type (rigid rotations as world-frame rotations). */
export function perturb(type: StateType, x: Float64Array, j: number, h: number): void {
  const d = type.derivSize;
  const p = Math.floor(j / d),
    a = j % d;
  if (type.coordSize === 7 && d === 6) {
    if (a < 3) x[7 * p + a] += h;
    else rotateQuat(x, 7 * p + 3, a - 3, h);
  } else {
    x[p * type.coordSize + a] += h;
  }
}

/** max |a_i| */
export function maxAbs(a: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]));
  return m;
}

/** max |a_i − b_i| */
export function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** Random vector of n entries in [−amp, amp). */
export function randomVector(n: number, amp: number, rand: () => number): Float64Array {
  const v = new Float64Array(n);
  for (let i = 0; i < n; i++) v[i] = amp * (2 * rand() - 1);
  return v;
}

/** Small inline meshes: a unit cube as 8 points split into 5 or 6 tetrahedra, its faces, a strip. */
export const meshes = {
  /** Unit cube points, grid order (i + 2j + 4k). */
  cube: '0 0 0  1 0 0  0 1 0  1 1 0  0 0 1  1 0 1  0 1 1  1 1 1',
  /** The cube in 5 tetrahedra (one central), positively oriented. */
  cubeTetra: '0 1 2 4  1 3 2 7  1 2 4 7  1 4 5 7  2 4 7 6',
  cubeHexa: '0 1 3 2 4 5 7 6',
  /** 4 points of a square in z = 0 and one above; two triangles, a quad. */
  square: '0 0 0  1 0 0  1 1 0  0 1 0',
  squareTriangles: '0 1 2  0 2 3',
  squareQuad: '0 1 2 3',
  /** A 3×2 triangle strip in the plane z = 0 (6 points, 4 triangles, 2 quads). */
  strip: '0 0 0  1 0 0  2 0 0  0 1 0  1 1 0  2 1 0',
  stripTriangles: '0 1 4  0 4 3  1 2 5  1 5 4',
  stripQuads: '0 1 4 3  1 2 5 4',
  stripEdges: '0 1  1 2  3 4  4 5  0 3  1 4  2 5  0 4  1 5',
  ...gridOfCubes(2),
};

/**
 * The cube [0, 2]³ as n³ unit cells (points in grid order i + (n+1)(j + (n+1)k)): the second mesh
 * size of the harnesses. Each cell is 8 hexahedron corners in SOFA's order and 6 tetrahedra around
 * its diagonal 0–7 (Kuhn's split: conforming across cells, all positively oriented).
 */
function gridOfCubes(n: number): { grid: string; gridTetra: string; gridHexa: string } {
  const m = n + 1;
  const id = (i: number, j: number, k: number): number => i + m * (j + m * k);
  const points: number[] = [];
  for (let k = 0; k < m; k++) for (let j = 0; j < m; j++) for (let i = 0; i < m; i++) points.push(i, j, k);
  const hexa: number[] = [],
    tetra: number[] = [];
  for (let k = 0; k < n; k++)
    for (let j = 0; j < n; j++)
      for (let i = 0; i < n; i++) {
        // c[b] = corner (i + b&1, j + b>>1&1, k + b>>2)
        const c = [0, 1, 2, 3, 4, 5, 6, 7].map((b) => id(i + (b & 1), j + ((b >> 1) & 1), k + (b >> 2)));
        hexa.push(c[0], c[1], c[3], c[2], c[4], c[5], c[7], c[6]);
        // the 6 monotone paths 0 → a → b → 7 through the cell's corners, ordered to a positive volume
        const bit = (b: number): number[] => [b & 1, (b >> 1) & 1, b >> 2];
        for (const [a, b] of [
          [1, 3],
          [2, 3],
          [2, 6],
          [4, 6],
          [4, 5],
          [1, 5],
        ] as const) {
          const [u, v, w] = [bit(a), bit(b), bit(7)];
          const det = u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0]);
          tetra.push(c[0], det > 0 ? c[a] : c[b], det > 0 ? c[b] : c[a], c[7]);
        }
      }
  return { grid: points.join(' '), gridTetra: tetra.join(' '), gridHexa: hexa.join(' ') };
}
