/**
 * Test stand-ins for the collision specs (not exported): a state holding plain arrays, a topology
 * holding element arrays, and a node builder that initialises collision models on them.
 */
import { ArrayMechanicalState, BaseMeshTopology, Node, Rigid3d, Vec3d, type BaseObject, type StateType } from '@sofa-ts/core';

/** Deterministic pseudo-random numbers in [−1, 1). */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
}

/** A state over plain arrays (core's ArrayMechanicalState). */
export class TestState extends ArrayMechanicalState {
  constructor(type: StateType, x: ArrayLike<number>) {
    super(type, x);
  }
}

export class TestTopology extends BaseMeshTopology {
  constructor(
    private readonly n: number,
    private readonly edges: Uint32Array = new Uint32Array(0),
    private readonly triangles: Uint32Array = new Uint32Array(0),
    private readonly quads: Uint32Array = new Uint32Array(0),
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
    return this.edges;
  }
  getTriangles(): Uint32Array {
    return this.triangles;
  }
  getQuads(): Uint32Array {
    return this.quads;
  }
  getTetrahedra(): Uint32Array {
    return new Uint32Array(0);
  }
  getHexahedra(): Uint32Array {
    return new Uint32Array(0);
  }
}

/** The edges of a triangle list, in order of first appearance (as a mesh topology derives them). */
export function edgesOf(triangles: ArrayLike<number>): Uint32Array {
  const seen = new Set<string>();
  const out: number[] = [];
  for (let t = 0; t < triangles.length / 3; t++) {
    for (let j = 0; j < 3; j++) {
      const a = triangles[3 * t + j],
        b = triangles[3 * t + ((j + 1) % 3)];
      const key = a < b ? `${a},${b}` : `${b},${a}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(a, b);
    }
  }
  return Uint32Array.from(out);
}

/**
 * A node holding a state (Vec3d points, or Rigid3d frames), a topology (when elements are given)
 * and the given components, initialised in order.
 */
export function meshNode(
  parent: Node | undefined,
  name: string,
  x: ArrayLike<number>,
  elements: { triangles?: number[]; edges?: number[]; quads?: number[]; rigid?: boolean },
  ...objects: BaseObject[]
): Node {
  const node = new Node(name);
  parent?.addChild(node);
  const type = elements.rigid ? Rigid3d : Vec3d;
  const state = new TestState(type, x);
  state.name.value = `${name}State`;
  node.addObject(state);
  const tris = Uint32Array.from(elements.triangles ?? []);
  const edges = elements.edges ? Uint32Array.from(elements.edges) : edgesOf(tris);
  node.addObject(new TestTopology(state.size, edges, tris, Uint32Array.from(elements.quads ?? [])));
  for (const o of objects) {
    node.addObject(o);
    o.init();
    o.componentState = 'valid';
  }
  return node;
}
