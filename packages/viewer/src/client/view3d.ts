import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import type { DrawItemInfo } from '../session/draw-items.js';
import type { FromSimulation, Vec3Tuple } from '../session/protocol.js';

type Loaded = Extract<FromSimulation, { type: 'loaded' }>;
type Frame = Extract<FromSimulation, { type: 'frame' }>;

interface Drawn {
  info: DrawItemInfo;
  object: any;
  geometry: any;
  /** Frames: vertices of the axes (n × 6 points × 3). */
  axes?: Float32Array;
}

/**
 * The 3D view: one three.js object per draw item, updated from each frame; an orbit camera
 * (the scene's camera when it has one); shift-drag picks a point and pulls it with the mouse spring.
 */
export class View3D {
  readonly renderer: any;
  readonly scene = new THREE.Scene();
  readonly camera: any;
  readonly controls: any;
  private drawn: Drawn[] = [];
  private pending: Frame | undefined;
  private size = 1;
  private dragLine: any;
  private drag: { plane: any; path: string; index: number; target?: Vec3Tuple } | undefined;
  /** Frames drawn per second, measured over the last second. */
  fps = 0;
  framesDrawn = 0;
  private fpsCount = 0;
  private fpsSince = performance.now();

  /** Where the scene's files are served (worker mode), for textures; undefined with --server. */
  filesBase: string | undefined;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly send: { pick(o: Vec3Tuple, d: Vec3Tuple): void; drag(t: Vec3Tuple): void; release(): void; consumed(): void },
  ) {
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: false, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(1);
    this.camera = new THREE.PerspectiveCamera(45, 1, 0.01, 1000);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.enableDamping = false;
    this.scene.background = new THREE.Color(0x1c2230);
    const dragGeom = new THREE.BufferGeometry();
    dragGeom.setAttribute('position', new THREE.BufferAttribute(new Float32Array(6), 3));
    this.dragLine = new THREE.Line(dragGeom, new THREE.LineBasicMaterial({ color: 0xff8800 }));
    this.dragLine.visible = false;
    this.dragLine.frustumCulled = false;
    this.scene.add(this.dragLine);
    this.installPicking();
    new ResizeObserver(() => this.resize()).observe(canvas);
    this.resize();
    const loop = (): void => {
      this.render();
      requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  }

  private resize(): void {
    const w = this.canvas.clientWidth || 800,
      h = this.canvas.clientHeight || 600;
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
  }

  load(msg: Loaded): void {
    for (const d of this.drawn) this.scene.remove(d.object);
    this.drawn = [];
    const { min, max } = msg.bbox;
    const center = new THREE.Vector3((min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2);
    this.size = Math.max(1e-6, Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]));
    if (msg.background) this.scene.background = new THREE.Color(msg.background[0], msg.background[1], msg.background[2]);
    // lights: an ambient term, a headlight (runSofa's default light follows the camera), the scene's own
    this.scene.add(new THREE.AmbientLight(0xffffff, msg.lights.length ? 0.25 : 0.35));
    const head = new THREE.DirectionalLight(0xffffff, msg.lights.length ? 0.6 : 1.4);
    head.position.set(0, 0, 1);
    this.camera.add(head);
    this.scene.add(this.camera);
    for (const l of msg.lights) {
      const color = new THREE.Color(l.color[0], l.color[1], l.color[2]);
      if (l.kind === 'directional' && l.direction) {
        const d = new THREE.DirectionalLight(color, 1);
        d.position.set(-l.direction[0], -l.direction[1], -l.direction[2]);
        this.scene.add(d);
      } else if (l.position) {
        const p = new THREE.PointLight(color, 1, 0, 0);
        p.position.set(...l.position);
        this.scene.add(p);
      }
    }
    for (const info of msg.items) this.drawn.push(this.create(info));
    this.setShown(new Set(msg.shown));
    // camera: the scene's, else looking down −z at the bounding box
    const cam = msg.camera;
    this.camera.near = this.size / 1000;
    this.camera.far = this.size * 100;
    if (cam?.fieldOfView) this.camera.fov = cam.fieldOfView;
    if (cam?.position) {
      this.camera.position.set(...cam.position);
      if (cam.lookAt) this.controls.target.set(...cam.lookAt);
      else if (cam.orientation) {
        const q = new THREE.Quaternion(...cam.orientation);
        const fwd = new THREE.Vector3(0, 0, -1).applyQuaternion(q);
        const dist = this.camera.position.distanceTo(center);
        this.controls.target.copy(this.camera.position).addScaledVector(fwd, dist);
      } else this.controls.target.copy(center);
    } else {
      this.controls.target.copy(center);
      const fovRad = (this.camera.fov * Math.PI) / 180;
      this.camera.position.set(center.x, center.y, center.z + (0.6 * this.size) / Math.tan(fovRad / 2));
    }
    this.camera.updateProjectionMatrix();
    this.controls.update();
  }

  setShown(shown: Set<number>): void {
    for (const d of this.drawn) d.object.visible = shown.has(d.info.id);
  }

  private create(info: DrawItemInfo): Drawn {
    const geometry = new THREE.BufferGeometry();
    const color = new THREE.Color(info.color[0], info.color[1], info.color[2]);
    const transparent = info.color[3] < 1;
    let object: any;
    if (info.kind === 'mesh') {
      if (info.indices) geometry.setIndex(new THREE.BufferAttribute(info.indices, 1));
      if (info.texcoords) geometry.setAttribute('uv', new THREE.BufferAttribute(info.texcoords, 2));
      const mat = new THREE.MeshPhongMaterial({
        color,
        side: THREE.DoubleSide,
        wireframe: info.wireframe,
        transparent,
        opacity: info.color[3],
        shininess: 30,
        specular: 0x222222,
      });
      if (info.texture && this.filesBase) {
        // the texture is one of the scene's files, served beside it
        mat.map = new THREE.TextureLoader().load(new URL(info.texture.replace(/^\//, ''), this.filesBase).href);
        mat.map.colorSpace = THREE.SRGBColorSpace;
        mat.color = new THREE.Color(1, 1, 1);
      }
      object = new THREE.Mesh(geometry, mat);
    } else if (info.kind === 'lines') {
      if (info.indices) geometry.setIndex(new THREE.BufferAttribute(info.indices, 1));
      object = new THREE.LineSegments(geometry, new THREE.LineBasicMaterial({ color, transparent, opacity: info.color[3] }));
    } else if (info.kind === 'points') {
      const size = info.size > 0 ? 2 * info.size : this.size / 150;
      object = new THREE.Points(
        geometry,
        new THREE.PointsMaterial({ color, size, sizeAttenuation: true, transparent, opacity: info.color[3] }),
      );
    } else {
      // rigid frames: three colored axes each (x red, y green, z blue)
      object = new THREE.LineSegments(geometry, new THREE.LineBasicMaterial({ vertexColors: true }));
    }
    object.frustumCulled = false;
    this.scene.add(object);
    return { info, object, geometry };
  }

  /** Keeps the latest frame; it is drawn at the next animation frame. */
  setFrame(f: Frame): void {
    // a frame replaced before it was drawn is acknowledged now (every frame is acknowledged once)
    if (this.pending) this.send.consumed();
    this.pending = f;
  }

  /** Current coordinates of point `index` of the item drawing the state at `path`, from the last frame. */
  private pointOf(f: Frame, path: string, index: number): Vec3Tuple | undefined {
    const d = this.drawn.find((x) => x.info.path === path && x.info.kind === 'points');
    if (!d) return undefined;
    const o = f.offsets[d.info.id] + 3 * index;
    return [f.data[o], f.data[o + 1], f.data[o + 2]];
  }

  private lastFrame: Frame | undefined;

  private apply(f: Frame): void {
    for (const d of this.drawn) {
      const a = f.data.subarray(f.offsets[d.info.id], f.offsets[d.info.id + 1]);
      if (d.info.kind === 'frames') this.updateAxes(d, a);
      else {
        const attr = d.geometry.getAttribute('position');
        if (attr && attr.array.length === a.length) {
          attr.array.set(a);
          attr.needsUpdate = true;
        } else {
          d.geometry.setAttribute('position', new THREE.BufferAttribute(Float32Array.from(a), 3));
        }
        if (d.info.kind === 'mesh' && d.object.visible) d.geometry.computeVertexNormals();
      }
    }
    this.lastFrame = f;
  }

  private updateAxes(d: Drawn, a: Float32Array): void {
    const n = a.length / 7;
    if (!d.axes || d.axes.length !== n * 18) {
      d.axes = new Float32Array(n * 18);
      const colors = new Float32Array(n * 18);
      for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) for (let e = 0; e < 2; e++) colors[18 * i + 6 * k + 3 * e + k] = 1;
      d.geometry.setAttribute('position', new THREE.BufferAttribute(d.axes, 3));
      d.geometry.setAttribute('color', new THREE.BufferAttribute(colors, 3));
    }
    const len = d.info.size > 0 ? d.info.size : this.size / 10;
    const q = new THREE.Quaternion();
    const v = new THREE.Vector3();
    for (let i = 0; i < n; i++) {
      const o = 7 * i;
      q.set(a[o + 3], a[o + 4], a[o + 5], a[o + 6]);
      for (let k = 0; k < 3; k++) {
        v.set(k === 0 ? len : 0, k === 1 ? len : 0, k === 2 ? len : 0).applyQuaternion(q);
        const b = 18 * i + 6 * k;
        ((d.axes[b] = a[o]), (d.axes[b + 1] = a[o + 1]), (d.axes[b + 2] = a[o + 2]));
        ((d.axes[b + 3] = a[o] + v.x), (d.axes[b + 4] = a[o + 1] + v.y), (d.axes[b + 5] = a[o + 2] + v.z));
      }
    }
    d.geometry.getAttribute('position').needsUpdate = true;
  }

  private render(): void {
    if (this.pending) {
      this.apply(this.pending);
      this.pending = undefined;
      this.send.consumed();
    }
    if (this.drag && this.drag.target && this.lastFrame) {
      const p = this.pointOf(this.lastFrame, this.drag.path, this.drag.index);
      if (p) {
        const attr = this.dragLine.geometry.getAttribute('position');
        attr.array.set([...p, ...this.drag.target]);
        attr.needsUpdate = true;
        this.dragLine.visible = true;
      }
    } else this.dragLine.visible = false;
    this.controls.update();
    this.renderer.render(this.scene, this.camera);
    this.framesDrawn++;
    this.fpsCount++;
    const now = performance.now();
    if (now - this.fpsSince >= 1000) {
      this.fps = (1000 * this.fpsCount) / (now - this.fpsSince);
      this.fpsCount = 0;
      this.fpsSince = now;
    }
  }

  private rayAt(e: PointerEvent): any {
    const r = this.canvas.getBoundingClientRect();
    const ndc = new THREE.Vector2(((e.clientX - r.left) / r.width) * 2 - 1, -((e.clientY - r.top) / r.height) * 2 + 1);
    const ray = new THREE.Raycaster();
    ray.setFromCamera(ndc, this.camera);
    return ray.ray;
  }

  /** Shift-drag: pick the nearest point of a deformable body, then move the cursor point in the plane facing the camera. */
  private installPicking(): void {
    this.canvas.addEventListener('pointerdown', (e: PointerEvent) => {
      if (!e.shiftKey || e.button !== 0) return;
      this.controls.enabled = false;
      this.canvas.setPointerCapture(e.pointerId);
      const ray = this.rayAt(e);
      this.send.pick([ray.origin.x, ray.origin.y, ray.origin.z], [ray.direction.x, ray.direction.y, ray.direction.z]);
    });
    this.canvas.addEventListener('pointermove', (e: PointerEvent) => {
      if (!this.drag) return;
      const hit = new THREE.Vector3();
      if (this.rayAt(e).intersectPlane(this.drag.plane, hit)) {
        this.drag.target = [hit.x, hit.y, hit.z];
        this.send.drag(this.drag.target);
      }
    });
    const end = (): void => {
      if (!this.controls.enabled || this.drag) {
        this.drag = undefined;
        this.controls.enabled = true;
        this.send.release();
      }
    };
    this.canvas.addEventListener('pointerup', end);
    this.canvas.addEventListener('pointercancel', end);
  }

  /** Client (CSS pixel) coordinates of a scene point in the canvas, for scripted mouse input. */
  toScreen(p: Vec3Tuple): [number, number] {
    const v = new THREE.Vector3(...p).project(this.camera);
    const r = this.canvas.getBoundingClientRect();
    return [r.left + ((v.x + 1) / 2) * r.width, r.top + ((1 - v.y) / 2) * r.height];
  }

  /** The simulation's answer to a pick. */
  picked(path: string | undefined, index: number | undefined, point: Vec3Tuple | undefined): void {
    if (!path || index === undefined || !point || this.controls.enabled) {
      this.controls.enabled = true;
      return;
    }
    const normal = new THREE.Vector3();
    this.camera.getWorldDirection(normal);
    const plane = new THREE.Plane().setFromNormalAndCoplanarPoint(normal, new THREE.Vector3(...point));
    this.drag = { plane, path, index, target: point };
  }
}
