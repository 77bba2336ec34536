import {
  KeypressedEvent,
  KeyreleasedEvent,
  addObjectFromAttributes,
  createRegistry,
  isBaseMapping,
  isMapping,
  isMechanicalState,
  loadScene,
  scalarOf,
  StepProbe,
  type BaseObject,
  type Data,
  type Node,
  type SofaScene,
} from 'sofa-ts/browser';
import { collectDrawItems, describeItems, packFrame, type DrawItem } from './draw-items.js';
import { MouseSpringForceField, viewerModule } from './mouse-spring.js';
import type { FromSimulation, SceneCamera, SceneLight, ToSimulation, Vec3Tuple } from './protocol.js';
import { ownerAt, readDataFields, sceneTree, writeDataField } from './scene-tree.js';

type Post = (msg: FromSimulation, transfer?: ArrayBuffer[]) => void;

/**
 * A scene as the viewer runs it, in a Web Worker or in the server process: loads it (with an idle
 * mouse spring in every node of an unmapped Vec3 state), steps it while playing, and answers the
 * page's messages (see protocol.ts). Frames are sent with back-pressure: at most two unanswered.
 */
export class SceneSession {
  private scene: SofaScene | undefined;
  private items: DrawItem[] = [];
  private springs: MouseSpringForceField[] = [];
  private probe: StepProbe | undefined;
  private playing = false;
  private stepCount = 0;
  private framesInFlight = 0;
  private pendingFrame = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastSample: ReturnType<StepProbe['sample']> | undefined;
  private picked: { spring: MouseSpringForceField; index: number } | undefined;
  private realTime = true;
  /** Data charted live: label (`path.name`) and Data. */
  private watched: [string, Data<unknown>][] = [];
  /** Wall clock (ms) and simulated time when play started (real-time pacing). */
  private playStart = { wall: 0, time: 0 };

  constructor(private readonly post: Post) {}

  async handle(msg: ToSimulation): Promise<void> {
    try {
      await this.dispatch(msg);
    } catch (e) {
      this.playing = false;
      // SofaErrors carry several located errors: one message each
      const list = (e as { errors?: unknown[] }).errors;
      for (const x of Array.isArray(list) ? list : [e]) this.post({ type: 'error', message: x instanceof Error ? x.message : String(x) });
    }
  }

  private async dispatch(msg: ToSimulation): Promise<void> {
    if (msg.type === 'open') return this.open(msg.scene, msg.dataPaths, msg.dt);
    if (msg.type === 'frameAck') {
      this.framesInFlight = Math.max(0, this.framesInFlight - 1);
      if (this.pendingFrame) this.sendFrame();
      return;
    }
    const scene = this.scene;
    if (!scene) throw new Error('no scene loaded');
    switch (msg.type) {
      case 'play':
        this.playing = true;
        this.playStart = { wall: performance.now(), time: scene.time };
        this.schedule();
        this.sendFrame(true);
        break;
      case 'pause':
        this.playing = false;
        this.sendFrame(true);
        break;
      case 'step':
        this.playing = false;
        for (let i = 0; i < (msg.count ?? 1); i++) this.stepOnce();
        this.sendFrame(true);
        break;
      case 'reset':
        this.playing = false;
        this.release();
        scene.reset();
        this.applyVisualMappings();
        this.stepCount = 0;
        this.lastSample = undefined;
        this.sendFrame(true);
        break;
      case 'key':
        // between two steps, as runSofa sends them: to every listening component and Python controller
        scene.root.propagateEvent(msg.pressed ? new KeypressedEvent(msg.key) : new KeyreleasedEvent(msg.key));
        break;
      case 'realTime':
        this.realTime = msg.on;
        this.playStart = { wall: performance.now(), time: scene.time };
        break;
      case 'setDt':
        writeDataField(scene.root, scene.root.path, 'dt', String(msg.dt));
        break;
      case 'getData':
        this.post({ type: 'data', path: msg.path, fields: readDataFields(scene.root, msg.path) });
        break;
      case 'setData':
        writeDataField(scene.root, msg.path, msg.name, msg.value);
        this.post({ type: 'data', path: msg.path, fields: readDataFields(scene.root, msg.path) });
        break;
      case 'pick':
        this.pick(msg.origin, msg.dir);
        break;
      case 'drag':
        if (this.picked) {
          this.picked.spring.target.value = Float64Array.from(msg.target);
          this.picked.spring.index.value = this.picked.index;
        }
        break;
      case 'release':
        this.release();
        break;
      case 'watch': {
        const label = `${msg.path}.${msg.name}`;
        const i = this.watched.findIndex(([l]) => l === label);
        if (i >= 0) this.watched.splice(i, 1);
        else {
          const d = ownerAt(scene.root, msg.path)?.findData(msg.name);
          if (!d) throw new Error(`no Data '${msg.name}' in '${msg.path}'`);
          this.watched.push([label, d]);
        }
        this.post({ type: 'watching', names: this.watched.map(([l]) => l) });
        break;
      }
    }
  }

  /** Releases the scene's outside resources (a Python scene's python3). */
  dispose(): void {
    this.playing = false;
    this.scene?.dispose();
  }

  private async open(file: string, dataPaths: string[], dt: number | undefined): Promise<void> {
    this.scene?.dispose();
    const registry = createRegistry();
    registry.load('@sofa-ts/viewer', viewerModule);
    const scene = await loadScene(file, { registry, dataPaths, init: false, ...(dt !== undefined ? { dt } : {}) });
    // An idle mouse spring beside every unmapped Vec3 state (before init: part of the compiled system).
    scene.root.visit((n) => {
      const s = n.objects.find(isMechanicalState);
      if (s && (s.template === '' || s.template.startsWith('Vec3')) && !n.objects.some(isMapping)) {
        this.springs.push(addObjectFromAttributes(registry, n, 'MouseSpringForceField', { name: 'mouseSpring' }) as MouseSpringForceField);
      }
    });
    scene.init();
    this.scene = scene;
    this.applyVisualMappings();
    const warnings = scene.warnings.map((w) => w.message);
    const { items, flags } = collectDrawItems(scene.root, (m) => warnings.push(m));
    this.items = items;
    this.probe = new StepProbe(scene.root);
    const { items: infos, shown } = describeItems(items, flags, scene.root);
    this.post({
      type: 'loaded',
      tree: sceneTree(scene.root),
      items: infos,
      shown,
      dt: scene.root.getDt(),
      bbox: this.bbox(),
      ...cameraOf(scene.root),
      lights: lightsOf(scene.root),
      ...backgroundOf(scene.root),
      warnings,
    });
    this.sendFrame(true);
  }

  /** One step, timed and sampled. */
  private stepOnce(): void {
    const t0 = performance.now();
    this.scene!.step();
    const ms = performance.now() - t0;
    this.stepCount++;
    this.lastSample = this.probe!.sample(this.stepCount, ms);
    for (const [label, d] of this.watched) this.lastSample.data[label] = scalarOf(d.value);
  }

  private schedule(): void {
    if (this.timer !== undefined) return;
    // real time: wait while the simulation is ahead of the wall clock
    const ahead =
      this.realTime && this.scene ? 1000 * (this.scene.time - this.playStart.time) - (performance.now() - this.playStart.wall) : 0;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        if (!this.playing) return;
        if (this.realTime && 1000 * (this.scene!.time - this.playStart.time) > performance.now() - this.playStart.wall) {
          this.schedule();
          return;
        }
        try {
          this.stepOnce();
        } catch (e) {
          this.playing = false;
          this.post({ type: 'error', message: (e as Error).message });
        }
        this.sendFrame();
        this.schedule();
      },
      Math.max(0, Math.min(ahead, 100)),
    );
  }

  /** Posts the current state unless two frames are unanswered (`force`: always). */
  private sendFrame(force = false): void {
    if (!force && this.framesInFlight >= 2) {
      this.pendingFrame = true;
      return;
    }
    this.pendingFrame = false;
    this.framesInFlight++;
    const { data, offsets } = packFrame(this.items);
    this.post(
      {
        type: 'frame',
        step: this.stepCount,
        time: this.scene!.time,
        data,
        offsets,
        ...(this.lastSample ? { sample: this.lastSample } : {}),
        playing: this.playing,
      },
      [data.buffer as ArrayBuffer, offsets.buffer as ArrayBuffer],
    );
  }

  /** The point of a draggable state nearest to the ray, within 3% of the scene's size. */
  private pick(origin: Vec3Tuple, dir: Vec3Tuple): void {
    const [dx, dy, dz] = normalize(dir);
    const b = this.bbox();
    const tol = 0.03 * Math.hypot(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]);
    let best: { spring: MouseSpringForceField; index: number; d: number; t: number } | undefined;
    for (const spring of this.springs) {
      const x = spring.getMechanicalStates()[0].x;
      for (let i = 0; i < x.length / 3; i++) {
        const px = x[3 * i] - origin[0],
          py = x[3 * i + 1] - origin[1],
          pz = x[3 * i + 2] - origin[2];
        const t = px * dx + py * dy + pz * dz;
        if (t <= 0) continue;
        const d = Math.hypot(px - t * dx, py - t * dy, pz - t * dz);
        // nearest to the ray; among points as near, the closest to the eye
        if (d < tol && (!best || d < best.d - 1e-3 * tol || (Math.abs(d - best.d) <= 1e-3 * tol && t < best.t)))
          best = { spring, index: i, d, t };
      }
    }
    if (!best) {
      this.post({ type: 'picked' });
      return;
    }
    this.picked = { spring: best.spring, index: best.index };
    const x = best.spring.getMechanicalStates()[0].x;
    const p: Vec3Tuple = [x[3 * best.index], x[3 * best.index + 1], x[3 * best.index + 2]];
    const s = best.spring;
    this.post({
      type: 'picked',
      path: `${s.context.path === '/' ? '' : s.context.path}/${s.getMechanicalStates()[0].getName()}`,
      index: best.index,
      point: p,
    });
  }

  /** Visual models follow their mappings now (runSofa updates them before drawing; steps do it after moving). */
  private applyVisualMappings(): void {
    this.scene!.root.visit((n) => {
      for (const o of n.objects) if (isBaseMapping(o) && o.getTo() === undefined) o.apply();
    });
  }

  private release(): void {
    if (this.picked) this.picked.spring.index.value = -1;
    this.picked = undefined;
  }

  /** Bounding box of every mechanical state and visual model. */
  private bbox(): { min: Vec3Tuple; max: Vec3Tuple } {
    const min: Vec3Tuple = [Infinity, Infinity, Infinity];
    const max: Vec3Tuple = [-Infinity, -Infinity, -Infinity];
    for (const it of this.items) {
      const a = it.read();
      for (let i = 0; i + 2 < a.length; i += it.stride) {
        for (let k = 0; k < 3; k++) {
          min[k] = Math.min(min[k], a[i + k]);
          max[k] = Math.max(max[k], a[i + k]);
        }
      }
    }
    if (!Number.isFinite(min[0])) return { min: [-1, -1, -1], max: [1, 1, 1] };
    return { min, max };
  }
}

function normalize(v: Vec3Tuple): Vec3Tuple {
  const n = Math.hypot(v[0], v[1], v[2]) || 1;
  return [v[0] / n, v[1] / n, v[2] / n];
}

const vec3Of = (v: unknown): Vec3Tuple | undefined => (v instanceof Float64Array && v.length === 3 ? [v[0], v[1], v[2]] : undefined);

/** The scene's camera (InteractiveCamera / Camera), when its position was given. */
function cameraOf(root: Node): { camera?: SceneCamera } {
  let found: SceneCamera | undefined;
  root.visit((n) => {
    for (const o of n.objects) {
      if (found || !/Camera$/.test(o.className)) continue;
      const pos = o.findData('position');
      if (!pos?.isSet) continue;
      const q = o.findData('orientation');
      const look = o.findData('lookAt');
      const fov = o.findData('fieldOfView');
      found = {
        ...(vec3Of(pos.value) ? { position: vec3Of(pos.value)! } : {}),
        ...(look?.isSet && vec3Of(look.value) ? { lookAt: vec3Of(look.value)! } : {}),
        ...(q?.isSet && q.value instanceof Float64Array && q.value.length === 4
          ? { orientation: Array.from(q.value) as [number, number, number, number] }
          : {}),
        ...(fov?.isSet ? { fieldOfView: Number(fov.value) } : {}),
      };
    }
  });
  return found ? { camera: found } : {};
}

/** The scene's lights (DirectionalLight, PositionalLight, SpotLight), by their Data. */
function lightsOf(root: Node): SceneLight[] {
  const out: SceneLight[] = [];
  root.visit((n) => {
    for (const o of n.objects) {
      const kind =
        o.className === 'DirectionalLight'
          ? 'directional'
          : o.className === 'PositionalLight'
            ? 'positional'
            : o.className === 'SpotLight'
              ? 'spot'
              : undefined;
      if (!kind) continue;
      const c = o.findData('color')?.value;
      const color: [number, number, number] = c instanceof Float64Array && c.length >= 3 ? [c[0], c[1], c[2]] : [1, 1, 1];
      const position = vec3Of(o.findData('position')?.value);
      const direction = vec3Of(o.findData('direction')?.value);
      out.push({ kind, color, ...(position ? { position } : {}), ...(direction ? { direction } : {}) });
    }
  });
  return out;
}

/** The scene's BackgroundSetting color, when given. */
function backgroundOf(root: Node): { background?: [number, number, number, number] } {
  const o = root.getObject((x): x is BaseObject => x.className === 'BackgroundSetting', 'down');
  const c = o?.findData('color');
  return c?.isSet && c.value instanceof Float64Array && c.value.length >= 3
    ? { background: [c.value[0], c.value[1], c.value[2], c.value[3] ?? 1] }
    : {};
}
