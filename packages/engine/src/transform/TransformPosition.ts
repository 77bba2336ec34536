import { Bool, DataEngine, Enum, host, Indices, Int, Real, requireDataFile, sofaComponent, Str, Vec3 } from '@sofa-ts/core';
import { IDENTITY4, Mat4, Vec3s, seededRandom } from '../engine-support.js';
import { quatFromEulerDeg, quatRotate } from '../rigid-math.js';

const METHODS = [
  'projectOnPlane',
  'translation',
  'rotation',
  'random',
  'scale',
  'scaleTranslation',
  'scaleRotationTranslation',
  'affine',
  'fromFile',
] as const;

/**
 * SOFA's TransformPosition: output_position = f(input_position) by `method`:
 *   projectOnPlane  p + n·((origin − p)·n)          (n = unit normal)
 *   translation     p + t
 *   rotation        R·p                              (R: Euler angles in degrees, x then y then z)
 *   scale           origin + s∘(p − origin)          (∘: per axis)
 *   scaleTranslation  s∘p + t;   scaleRotationTranslation  R·(s∘p) + t
 *   affine          (M·[p; 1]) divided by its 4th coordinate (points where it is ~0 keep their input)
 *   fromFile        affine, with M read from `filename`: .tfm (the 12 numbers of its 'Parameters'
 *                   line: 3×3 matrix row by row, then the translation), .trm (a translation line,
 *                   then 3 rows of the rotation), .txt / .xfm (4 rows of 4 numbers)
 *   random          p + a uniform random vector in [−maxRandomDisplacement, maxRandomDisplacement]³,
 *                   from seedValue (sofa-ts's own generator: SOFA's draws differ)
 * Points listed in fixedIndices keep their input coordinates.
 */
@sofaComponent({
  name: 'TransformPosition',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Transform',
  description: 'Transform position of 3d points.',
  templates: ['Vec3d'],
})
export class TransformPosition extends DataEngine {
  readonly origin = this.initData({
    name: 'origin',
    type: Vec3,
    default: new Float64Array(3),
    help: 'a point on the plane / the centre of the scale',
  });
  readonly inputPosition = this.initData({
    name: 'input_position',
    type: Vec3s,
    default: new Float64Array(0),
    help: 'input array of 3d points',
    aliases: ['inputPosition'],
  });
  readonly outputPosition = this.initData({
    name: 'output_position',
    type: Vec3s,
    default: new Float64Array(0),
    help: 'output array of 3d points',
    output: true,
    aliases: ['outputPosition'],
  });
  readonly normal = this.initData({ name: 'normal', type: Vec3, default: new Float64Array(3), help: 'plane normal (normalised at init)' });
  readonly translation = this.initData({ name: 'translation', type: Vec3, default: new Float64Array(3), help: 'translation vector' });
  readonly rotation = this.initData({
    name: 'rotation',
    type: Vec3,
    default: new Float64Array(3),
    unit: 'deg',
    help: 'rotation vector (Euler angles in degrees)',
  });
  readonly scale = this.initData({ name: 'scale', type: Vec3, default: Float64Array.of(1, 1, 1), help: 'scale factors' });
  readonly matrix = this.initData({
    name: 'matrix',
    type: Mat4,
    default: Float64Array.from(IDENTITY4),
    help: '4x4 affine matrix (row-major)',
  });
  readonly method = this.initData({ name: 'method', type: Enum(METHODS), default: 'projectOnPlane', help: 'transformation method' });
  readonly seedValue = this.initData({ name: 'seedValue', type: Int, default: 0, help: 'seed of the random generator (method random)' });
  readonly maxRandomDisplacement = this.initData({
    name: 'maxRandomDisplacement',
    type: Real,
    default: 1,
    help: 'maximum displacement around the initial position (method random)',
  });
  readonly fixedIndices = this.initData({
    name: 'fixedIndices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the entries that are not transformed',
  });
  readonly filename = this.initData({
    name: 'filename',
    type: Str,
    default: '',
    help: 'file of an affine matrix: .trm, .tfm, .xfm or .txt (method fromFile)',
  });
  readonly drawInput = this.initData({
    name: 'drawInput',
    type: Bool,
    default: false,
    help: 'draw input points (drawing only)',
    group: 'Visualization',
  });
  readonly drawOutput = this.initData({
    name: 'drawOutput',
    type: Bool,
    default: false,
    help: 'draw output points (drawing only)',
    group: 'Visualization',
  });
  readonly pointSize = this.initData({ name: 'pointSize', type: Real, default: 1, help: 'point size', group: 'Visualization' });

  constructor() {
    super();
    this.addInput(
      this.inputPosition,
      this.origin,
      this.normal,
      this.translation,
      this.rotation,
      this.scale,
      this.matrix,
      this.fixedIndices,
      this.method,
      this.filename,
      this.seedValue,
      this.maxRandomDisplacement,
    );
    this.addOutput(this.outputPosition);
  }

  override init(): void {
    const n = this.normal.value;
    const len = Math.hypot(n[0], n[1], n[2]);
    if (Math.abs(len * len - 1) > 1e-10) {
      if (len === 0) {
        if (this.method.value === 'projectOnPlane')
          throw this.error("the 'normal' of the projection plane is zero", "give normal='nx ny nz'");
      } else this.normal.value = Float64Array.from(n, (v) => v / len);
    }
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const input = this.inputPosition.value;
    const out = Float64Array.from(input);
    const np = input.length / 3;
    const o = this.origin.value,
      n = this.normal.value,
      t = this.translation.value,
      s = this.scale.value;
    const each = (f: (i: number) => void): void => {
      for (let i = 0; i < np; i++) f(3 * i);
    };
    switch (this.method.value) {
      case 'projectOnPlane':
        each((i) => {
          const d = (o[0] - input[i]) * n[0] + (o[1] - input[i + 1]) * n[1] + (o[2] - input[i + 2]) * n[2];
          for (let k = 0; k < 3; k++) out[i + k] = input[i + k] + n[k] * d;
        });
        break;
      case 'translation':
        each((i) => {
          for (let k = 0; k < 3; k++) out[i + k] = input[i + k] + t[k];
        });
        break;
      case 'scale':
        each((i) => {
          for (let k = 0; k < 3; k++) out[i + k] = o[k] + (input[i + k] - o[k]) * s[k];
        });
        break;
      case 'scaleTranslation':
        each((i) => {
          for (let k = 0; k < 3; k++) out[i + k] = input[i + k] * s[k] + t[k];
        });
        break;
      case 'rotation':
      case 'scaleRotationTranslation': {
        const q = quatFromEulerDeg(this.rotation.value);
        const full = this.method.value === 'scaleRotationTranslation';
        each((i) => {
          if (full) {
            quatRotate(q, input[i] * s[0], input[i + 1] * s[1], input[i + 2] * s[2], out, i);
            for (let k = 0; k < 3; k++) out[i + k] += t[k];
          } else quatRotate(q, input[i], input[i + 1], input[i + 2], out, i);
        });
        break;
      }
      case 'random': {
        const rand = seededRandom(this.seedValue.value === 0 ? 0x5eed : this.seedValue.value);
        const a = this.maxRandomDisplacement.value;
        each((i) => {
          for (let k = 0; k < 3; k++) out[i + k] = input[i + k] + (2 * rand() - 1) * a;
        });
        break;
      }
      case 'affine':
      case 'fromFile': {
        const m = this.method.value === 'fromFile' ? this.matrixFromFile() : this.matrix.value;
        each((i) => {
          const w = m[12] * input[i] + m[13] * input[i + 1] + m[14] * input[i + 2] + m[15];
          if (Math.abs(w) <= 1e-10) return;
          for (let k = 0; k < 3; k++)
            out[i + k] = (m[4 * k] * input[i] + m[4 * k + 1] * input[i + 1] + m[4 * k + 2] * input[i + 2] + m[4 * k + 3]) / w;
        });
        break;
      }
    }
    for (const i of this.fixedIndices.value) {
      if (i >= np) throw this.error(`fixedIndices names point ${i}, but there are ${np} points`);
      out.set(input.subarray(3 * i, 3 * i + 3), 3 * i);
    }
    this.outputPosition.value = out;
  }

  /** The affine matrix of `filename` (published in `matrix`, as SOFA does). */
  private matrixFromFile(): Float64Array {
    const name = this.filename.value.trim();
    if (name === '') throw this.error("method 'fromFile' needs a filename", "set filename='transform.tfm'");
    const path = requireDataFile(this, name, 'transform file');
    const lines = host().readText(path, 'utf8').split(/\r?\n/);
    const m = Float64Array.from(IDENTITY4);
    const numbers = (l: string): number[] =>
      l
        .trim()
        .split(/\s+/)
        .filter((w) => /[0-9.-]/.test(w))
        .map(Number);
    const ext = name.slice(name.lastIndexOf('.')).toLowerCase();
    if (ext === '.tfm') {
      const line = lines.find((l) => l.includes('Parameters'));
      if (!line) throw this.error(`${name}: no 'Parameters' line with the transformation`);
      const v = numbers(line.slice(line.indexOf('Parameters') + 'Parameters'.length).replace(':', ' '));
      if (v.length !== 12)
        throw this.error(`${name}: the 'Parameters' line has ${v.length} numbers, expected 12 (a 3x3 matrix and a translation)`);
      // Rotation row by row, then the translation, read (as SOFA does) from the last value backwards.
      for (let i = 0; i < 3; i++) {
        for (let j = 0; j < 3; j++) m[4 * i + j] = v[3 * i + j];
        m[4 * i + 3] = v[11 - i];
      }
    } else if (ext === '.trm' || ext === '.txt' || ext === '.xfm') {
      const rows = lines.filter((l) => l.trim() !== '').map(numbers);
      const width = ext === '.trm' ? 3 : 4;
      if (rows.length !== 4 || rows.some((r) => r.length !== width)) throw this.error(`${name}: expected 4 lines of ${width} numbers`);
      if (ext === '.trm') {
        for (let i = 0; i < 3; i++) {
          m[4 * i + 3] = rows[0][i];
          for (let j = 0; j < 3; j++) m[4 * i + j] = rows[i + 1][j];
        }
      } else rows.forEach((r, i) => r.forEach((v, j) => (m[4 * i + j] = v)));
    } else {
      throw this.error(`${name}: unknown extension '${ext}' (expected .tfm, .trm, .txt or .xfm)`);
    }
    this.matrix.value = m;
    return m;
  }
}
