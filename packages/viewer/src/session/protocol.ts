import type { StepSample } from 'sofa-ts/browser';
import type { DrawItemInfo } from './draw-items.js';
import type { DataField, TreeNode } from './scene-tree.js';

export type Vec3Tuple = [number, number, number];

/** Page → simulation (a Web Worker, or the server over a WebSocket with --server). */
export type ToSimulation =
  | { type: 'open'; scene: string; dataPaths: string[]; dt?: number }
  | { type: 'play' }
  | { type: 'pause' }
  | { type: 'step'; count?: number }
  | { type: 'reset' }
  | { type: 'setDt'; dt: number }
  /** Real time: simulated time does not run ahead of the wall clock (on by default). */
  | { type: 'realTime'; on: boolean }
  | { type: 'getData'; path: string }
  | { type: 'setData'; path: string; name: string; value: string }
  | { type: 'pick'; origin: Vec3Tuple; dir: Vec3Tuple }
  | { type: 'drag'; target: Vec3Tuple }
  | { type: 'release' }
  /** A key pressed or released in the page (SOFA's Keypressed/KeyreleasedEvent: `key` is the character). */
  | { type: 'key'; key: string; pressed: boolean }
  | { type: 'frameAck' }
  /** Chart this Data live (again: stop); `path` is a tree path, `name` the Data's. */
  | { type: 'watch'; path: string; name: string };

export interface SceneCamera {
  position?: Vec3Tuple;
  lookAt?: Vec3Tuple;
  /** Unit quaternion x y z w. */
  orientation?: [number, number, number, number];
  fieldOfView?: number;
}

export interface SceneLight {
  kind: 'directional' | 'positional' | 'spot';
  color: [number, number, number];
  position?: Vec3Tuple;
  direction?: Vec3Tuple;
}

/** Simulation → page. */
export type FromSimulation =
  | {
      type: 'loaded';
      tree: TreeNode;
      items: DrawItemInfo[];
      shown: number[];
      dt: number;
      bbox: { min: Vec3Tuple; max: Vec3Tuple };
      camera?: SceneCamera;
      lights: SceneLight[];
      background?: [number, number, number, number];
      warnings: string[];
    }
  | { type: 'frame'; step: number; time: number; data: Float32Array; offsets: Uint32Array; sample?: StepSample; playing: boolean }
  | { type: 'watching'; names: string[] }
  | { type: 'data'; path: string; fields: DataField[] }
  | { type: 'picked'; path?: string; index?: number; point?: Vec3Tuple }
  | { type: 'error'; message: string };
