/**
 * Test support for the loader specs: scenes built through the same factory and attribute parsing as
 * scene files (buildScene), with stand-ins for components of other packages (an animation loop, a
 * mechanical state with rest positions). @sofa-ts/engine's specs have their own copy of these
 * stand-ins (engine/src/scene-test-support.ts): test helpers do not ship, so a package cannot
 * import another's.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BaseAnimationLoop,
  BaseMechanicalState,
  BaseObject,
  ComponentRegistry,
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
import { topologyComponents } from '../components.js';

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

export function testRegistry(): ComponentRegistry {
  const r = new ComponentRegistry();
  r.load('topology', componentModule('topology', topologyComponents));
  r.load('test', componentModule('test', [TestLoop, TestState]));
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

/** SOFA's mesh folder of the regression corpus (absent on machines without the corpus). */
export const corpusShare = path.join(corpusRoot(), 'sofa', 'share');

/** The object named `name` anywhere in the scene. */
export function find<T extends BaseObject>(root: Node, name: string): T {
  for (const o of root.subtreeObjects()) if (o.getName() === name) return o as T;
  throw new Error(`no object '${name}'`);
}

/**
 * SOFA's regression corpus, found as tests/src/corpus.ts finds it: SOFA_REGRESSION_DIR, else
 * ../shared/sofa-regression beside the repository (the first folder above this file holding
 * packages/ and package.json). Specs that need it skip when it is absent.
 */
export function corpusRoot(): string {
  const fromEnv = process.env['SOFA_REGRESSION_DIR'];
  if (fromEnv) return fromEnv;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!(fs.existsSync(path.join(dir, 'packages')) && fs.existsSync(path.join(dir, 'package.json'))) && path.dirname(dir) !== dir)
    dir = path.dirname(dir);
  return path.resolve(dir, '..', 'shared', 'sofa-regression');
}
