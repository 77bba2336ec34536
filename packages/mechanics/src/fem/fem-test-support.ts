import { BaseForceField, BaseMeshTopology, Node, type GridDescription, type MatrixAccumulator } from '@sofa-ts/core';
import { MechanicalObject } from '../MechanicalObject.js';

/** Test helpers for the volume FEM specs (not a component). */

/** A topology holding given elements (a stand-in for the topology containers). */
export class TestTopology extends BaseMeshTopology {
  constructor(
    private readonly nPoints: number,
    public tets: Uint32Array = new Uint32Array(0),
    public hexa: Uint32Array = new Uint32Array(0),
    private readonly grid?: GridDescription,
  ) {
    super();
  }
  getNbPoints(): number {
    return this.nPoints;
  }
  getPositions(): Float64Array | undefined {
    return undefined;
  }
  getEdges(): Uint32Array {
    return new Uint32Array(0);
  }
  getTriangles(): Uint32Array {
    return new Uint32Array(0);
  }
  getQuads(): Uint32Array {
    return new Uint32Array(0);
  }
  getTetrahedra(): Uint32Array {
    return this.tets;
  }
  getHexahedra(): Uint32Array {
    return this.hexa;
  }
  override getGrid(): GridDescription | undefined {
    return this.grid;
  }
}

/** A node with a MechanicalObject at `points`, a test topology and the force field, initialised. */
export function femScene<F extends BaseForceField>(
  points: Float64Array,
  topo: { tets?: Uint32Array; hexa?: Uint32Array; grid?: GridDescription },
  ff: F,
  setup: (ff: F) => void = () => {},
): { node: Node; mo: MechanicalObject; ff: F } {
  const node = new Node('root');
  const mo = node.addObject(new MechanicalObject());
  mo.position.value = Float64Array.from(points);
  mo.init();
  node.addObject(new TestTopology(points.length / 3, topo.tets, topo.hexa, topo.grid));
  node.addObject(ff);
  setup(ff);
  ff.init();
  return { node, mo, ff };
}

/** f(x) (fresh array). */
export function forceAt(ff: BaseForceField, x: Float64Array): Float64Array {
  const f = new Float64Array(x.length);
  ff.addForce([f], [x], [new Float64Array(x.length)]);
  return f;
}

/** kFactor·K as a dense (n × n) row-major matrix, from addKToMatrix. */
export function denseK(ff: BaseForceField, n: number, kFactor = 1): Float64Array {
  const M = new Float64Array(n * n);
  const acc: MatrixAccumulator = { add: (r, c, v) => (M[r * n + c] += v) };
  ff.addKToMatrix(acc, kFactor);
  return M;
}

/** Central finite differences of f at x: column j = (f(x + h·e_j) − f(x − h·e_j)) / 2h. */
export function finiteDifferenceK(ff: BaseForceField, x: Float64Array, h: number): Float64Array {
  const n = x.length;
  const M = new Float64Array(n * n);
  const xp = Float64Array.from(x);
  for (let j = 0; j < n; j++) {
    xp[j] = x[j] + h;
    const fp = forceAt(ff, xp);
    xp[j] = x[j] - h;
    const fm = forceAt(ff, xp);
    xp[j] = x[j];
    for (let i = 0; i < n; i++) M[i * n + j] = (fp[i] - fm[i]) / (2 * h);
  }
  // leave the rotations of the force field at x
  forceAt(ff, x);
  return M;
}

/** A deterministic pseudo-random generator in [0, 1). */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/** A random rotation matrix (row-major) from a random unit quaternion. */
export function randomRotation(r: () => number): Float64Array {
  let x = 0,
    y = 0,
    z = 0,
    w = 0,
    n = 0;
  do {
    x = 2 * r() - 1;
    y = 2 * r() - 1;
    z = 2 * r() - 1;
    w = 2 * r() - 1;
    n = Math.hypot(x, y, z, w);
  } while (n < 0.1 || n > 1);
  x /= n;
  y /= n;
  z /= n;
  w /= n;
  return Float64Array.of(
    1 - 2 * (y * y + z * z),
    2 * (x * y - z * w),
    2 * (x * z + y * w),
    2 * (x * y + z * w),
    1 - 2 * (x * x + z * z),
    2 * (y * z - x * w),
    2 * (x * z - y * w),
    2 * (y * z + x * w),
    1 - 2 * (x * x + y * y),
  );
}

/** Points rotated by R and translated by t. */
export function transform(x: Float64Array, R: Float64Array, t: ArrayLike<number>): Float64Array {
  const out = new Float64Array(x.length);
  for (let i = 0; i < x.length; i += 3) {
    for (let r = 0; r < 3; r++) out[i + r] = R[3 * r] * x[i] + R[3 * r + 1] * x[i + 1] + R[3 * r + 2] * x[i + 2] + t[r];
  }
  return out;
}

/** Vectors rotated by R. */
export function rotateVectors(v: Float64Array, R: Float64Array): Float64Array {
  return transform(v, R, [0, 0, 0]);
}

export function maxAbs(a: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]));
  return m;
}

export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

/** Points of a box grid (nx × ny × nz vertices, index i + nx·(j + ny·k)) and its hexahedra. */
export function boxGrid(
  n: [number, number, number],
  size: [number, number, number],
): { points: Float64Array; hexa: Uint32Array; grid: GridDescription } {
  const [nx, ny, nz] = n;
  const points = new Float64Array(nx * ny * nz * 3);
  const id = (i: number, j: number, k: number): number => i + nx * (j + ny * k);
  for (let k = 0; k < nz; k++)
    for (let j = 0; j < ny; j++)
      for (let i = 0; i < nx; i++) {
        const p = 3 * id(i, j, k);
        points[p] = (size[0] * i) / (nx - 1);
        points[p + 1] = (size[1] * j) / (ny - 1);
        points[p + 2] = (size[2] * k) / (nz - 1);
      }
  const hexa: number[] = [];
  for (let k = 0; k < nz - 1; k++)
    for (let j = 0; j < ny - 1; j++)
      for (let i = 0; i < nx - 1; i++)
        hexa.push(
          id(i, j, k),
          id(i + 1, j, k),
          id(i + 1, j + 1, k),
          id(i, j + 1, k),
          id(i, j, k + 1),
          id(i + 1, j, k + 1),
          id(i + 1, j + 1, k + 1),
          id(i, j + 1, k + 1),
        );
  return { points, hexa: Uint32Array.from(hexa), grid: { n: [nx, ny, nz], min: [0, 0, 0], max: size } };
}
