/**
 * Test support for the engine specs: scenes built through the same factory and attribute parsing as
 * scene files (buildScene), with topology's components and stand-ins for those of other packages
 * (an animation loop, a mechanical state with rest positions, a consumer of indices, a topology of
 * given elements). The loop, the state and the scene helpers are also in topology's
 * loader/scene-test-support.ts: test helpers do not ship, so a package cannot import another's.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  BaseAnimationLoop,
  BaseMechanicalState,
  BaseMeshTopology,
  IndexArray,
  BaseObject,
  ComponentRegistry,
  Indices,
  RealArray,
  Simulation,
  Str,
  Vec3d,
  buildScene,
  componentModule,
  sofaComponent,
  type Node,
  type SceneElement,
  type StateType,
} from '@sofa-ts/core';
import { topologyComponents } from '@sofa-ts/topology';
import { engineComponents } from './components.js';

@sofaComponent({ name: 'TestLoop', category: 'AnimationLoop', description: 'test loop' })
export class TestLoop extends BaseAnimationLoop {
  step(dt: number): void {
    this.context.setTime(this.context.getTime() + dt);
  }
}

/** A Vec3d state whose rest_position is its position, published at init (like MechanicalObject). */
@sofaComponent({ name: 'TestState', category: 'StateContainer', description: 'test state', templates: ['Vec3d'] })
export class TestState extends BaseMechanicalState {
  readonly position = this.initData({ name: 'position', type: RealArray(3), default: new Float64Array(0), help: 'positions' });
  readonly restPosition = this.initData({
    name: 'rest_position',
    type: RealArray(3),
    default: new Float64Array(0),
    help: 'rest positions',
  });
  readonly translation = this.initData({
    name: 'translation',
    type: RealArray(3),
    default: new Float64Array(3),
    help: 'translation (unused)',
  });
  readonly filename = this.initData({ name: 'filename', type: Str, default: '', help: 'file (unused)' });
  private xs = new Float64Array(0);
  get stateType(): StateType {
    return Vec3d;
  }
  get size(): number {
    return this.xs.length / 3;
  }
  get x(): Float64Array {
    return this.xs;
  }
  get x0(): Float64Array {
    return this.xs;
  }
  get v(): Float64Array {
    return new Float64Array(this.xs.length);
  }
  get f(): Float64Array {
    return new Float64Array(this.xs.length);
  }
  get dx(): Float64Array {
    return new Float64Array(this.xs.length);
  }
  bindStorage(): void {}
  touch(): void {}
  override init(): void {
    this.xs = Float64Array.from(this.position.value);
    this.restPosition.value = Float64Array.from(this.xs);
  }
}

/** Reads `indices` at its init, as FixedProjectiveConstraint does. */
@sofaComponent({ name: 'TestIndicesUser', category: 'ProjectiveConstraintSet', description: 'test consumer' })
export class TestIndicesUser extends BaseObject {
  readonly indices = this.initData({ name: 'indices', type: Indices, default: new Uint32Array(0), help: 'indices' });
  seenAtInit: number[] = [];
  override init(): void {
    this.seenAtInit = Array.from(this.indices.value);
  }
}

/** A topology holding given points and elements in Data named as SOFA's containers name them. */
@sofaComponent({ name: 'TestTopology', category: 'Topology', description: 'test topology' })
export class TestTopology extends BaseMeshTopology {
  readonly position = this.initData({ name: 'position', type: RealArray(3), default: new Float64Array(0), help: 'points' });
  readonly edges = this.initData({ name: 'edges', type: IndexArray(2), default: new Uint32Array(0), help: 'edges' });
  readonly triangles = this.initData({ name: 'triangles', type: IndexArray(3), default: new Uint32Array(0), help: 'triangles' });
  readonly quads = this.initData({ name: 'quads', type: IndexArray(4), default: new Uint32Array(0), help: 'quads' });
  readonly tetrahedra = this.initData({ name: 'tetrahedra', type: IndexArray(4), default: new Uint32Array(0), help: 'tetrahedra' });
  readonly hexahedra = this.initData({ name: 'hexahedra', type: IndexArray(8), default: new Uint32Array(0), help: 'hexahedra' });
  getNbPoints(): number {
    return this.position.value.length / 3;
  }
  getPositions(): Float64Array {
    return this.position.value;
  }
  getEdges(): Uint32Array {
    return this.edges.value;
  }
  getTriangles(): Uint32Array {
    return this.triangles.value;
  }
  getQuads(): Uint32Array {
    return this.quads.value;
  }
  getTetrahedra(): Uint32Array {
    return this.tetrahedra.value;
  }
  getHexahedra(): Uint32Array {
    return this.hexahedra.value;
  }
}

export function testRegistry(): ComponentRegistry {
  const r = new ComponentRegistry();
  r.load('topology', componentModule('topology', topologyComponents));
  r.load('engine', componentModule('engine', engineComponents));
  r.load('test', componentModule('test', [TestLoop, TestState, TestIndicesUser, TestTopology]));
  return r;
}

/** `el('Node', {...}, [children])`: a scene element as the XML loader would give it. */
export function el(tag: string, attrs: Record<string, string>, children: SceneElement[] = [], line = 1): SceneElement {
  const file = 'test.scn';
  return {
    tag,
    attributes: Object.entries(attrs).map(([name, value]) => ({ name, value, loc: { file, line, column: 1 } })),
    children,
    loc: { file, line, column: 1 },
    file,
  };
}

/** Builds and initialises a scene whose root holds a TestLoop and `children`. */
export function initScene(children: SceneElement[]): Node {
  const root = buildScene(el('Node', { name: 'root' }, [el('TestLoop', {}), ...children]), testRegistry());
  new Simulation(root).init();
  return root;
}

/** A fresh temporary folder holding `files` (name → text or bytes); returns its path. */
export function tempFiles(files: Record<string, string | Uint8Array>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-mesh-'));
  for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), content);
  return dir;
}

/** The object named `name` anywhere in the scene. */
export function find<T extends BaseObject>(root: Node, name: string): T {
  for (const o of root.subtreeObjects()) if (o.getName() === name) return o as T;
  throw new Error(`no object '${name}'`);
}
