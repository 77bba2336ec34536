import { BaseAnimationLoop, BaseMeshTopology, Node, Simulation, type BaseObject } from '@sofa-ts/core';
import { MechanicalObject } from '../MechanicalObject.js';

/**
 * Test fixtures shared by the specs of mass/, load/ and projective/: a topology stub holding
 * given element arrays, and a node with a state, that topology and the components under test.
 */
export class StubTopology extends BaseMeshTopology {
  constructor(
    private readonly n: number,
    readonly elems: { edges?: number[]; triangles?: number[]; quads?: number[]; tetrahedra?: number[]; hexahedra?: number[] } = {},
  ) {
    super();
  }
  getNbPoints(): number {
    return this.n;
  }
  getPositions(): Float64Array | undefined {
    return undefined;
  }
  getEdges(): Uint32Array {
    return Uint32Array.from(this.elems.edges ?? []);
  }
  getTriangles(): Uint32Array {
    return Uint32Array.from(this.elems.triangles ?? []);
  }
  getQuads(): Uint32Array {
    return Uint32Array.from(this.elems.quads ?? []);
  }
  getTetrahedra(): Uint32Array {
    return Uint32Array.from(this.elems.tetrahedra ?? []);
  }
  getHexahedra(): Uint32Array {
    return Uint32Array.from(this.elems.hexahedra ?? []);
  }
}

export interface NodeOptions {
  template?: string;
  gravity?: number[];
  /** Rest positions, when they differ from the positions. */
  rest?: number[];
}

/** A loop that does nothing: these fixtures only initialise components. */
class IdleLoop extends BaseAnimationLoop {
  step(): void {}
}

/** A root node with a MechanicalObject at `positions`, an optional topology and `objects`, initialised. */
export function buildNode(
  positions: ArrayLike<number>,
  topology: BaseMeshTopology | undefined,
  objects: BaseObject[],
  options: NodeOptions = {},
): { node: Node; state: MechanicalObject } {
  const template = options.template ?? 'Vec3d';
  const node = new Node('root');
  node.addObject(new IdleLoop());
  node.gravity.value = Float64Array.from(options.gravity ?? [0, -9.81, 0]);
  const state = new MechanicalObject();
  state.template = template;
  state.name.value = 'dofs';
  state.position.value = Float64Array.from(positions);
  if (options.rest) state.restPosition.value = Float64Array.from(options.rest);
  node.addObject(state);
  if (topology) node.addObject(topology);
  for (const o of objects) {
    if (!o.template) o.template = template;
    node.addObject(o);
  }
  new Simulation(node).init();
  return { node, state };
}

/** A regular grid of nx × ny × nz points on [0, sx] × [0, sy] × [0, sz]; index i + nx·(j + ny·k). */
export function gridPoints(nx: number, ny: number, nz: number, sx: number, sy: number, sz: number): number[] {
  const p: number[] = [];
  for (let k = 0; k < nz; k++)
    for (let j = 0; j < ny; j++)
      for (let i = 0; i < nx; i++) p.push((i * sx) / Math.max(1, nx - 1), (j * sy) / Math.max(1, ny - 1), (k * sz) / Math.max(1, nz - 1));
  return p;
}

/** Hexahedra of such a grid, SOFA's vertex order (bottom face counter-clockwise, then top). */
export function gridHexahedra(nx: number, ny: number, nz: number): number[] {
  const id = (i: number, j: number, k: number): number => i + nx * (j + ny * k);
  const h: number[] = [];
  for (let k = 0; k + 1 < nz; k++) {
    for (let j = 0; j + 1 < ny; j++) {
      for (let i = 0; i + 1 < nx; i++) {
        h.push(
          id(i, j, k),
          id(i + 1, j, k),
          id(i + 1, j + 1, k),
          id(i, j + 1, k),
          id(i, j, k + 1),
          id(i + 1, j, k + 1),
          id(i + 1, j + 1, k + 1),
          id(i, j + 1, k + 1),
        );
      }
    }
  }
  return h;
}

/** Each grid hexahedron cut into 6 tetrahedra around its main diagonal (0, 6). */
export function gridTetrahedra(nx: number, ny: number, nz: number): number[] {
  const hexa = gridHexahedra(nx, ny, nz);
  const cuts = [
    [0, 1, 2, 6],
    [0, 2, 3, 6],
    [0, 3, 7, 6],
    [0, 7, 4, 6],
    [0, 4, 5, 6],
    [0, 5, 1, 6],
  ];
  const t: number[] = [];
  for (let h = 0; h < hexa.length / 8; h++) for (const c of cuts) for (const v of c) t.push(hexa[8 * h + v]);
  return t;
}

/** Dense matrix (size × size) from a component's matrix emission. */
export function denseFromEmission(size: number, emit: (acc: { add(r: number, c: number, v: number): void }) => void): number[][] {
  const M = Array.from({ length: size }, () => new Array<number>(size).fill(0));
  emit({ add: (r, c, v) => (M[r][c] += v) });
  return M;
}

/** Deterministic pseudo-random numbers in [-1, 1). */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
}
