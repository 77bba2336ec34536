import { Bool, DataEngine, Int, Real, RealArray, sofaComponent } from '@sofa-ts/core';
import { Vec3s } from '../engine-support.js';
import { quatFromAxisAngle, quatFromFrame, quatMul } from '../rigid-math.js';

const EPSILON = Number.EPSILON;

/**
 * SOFA's Vertex2Frame: a rigid frame at each vertex.
 *  - useNormals (default): z = unit(±normal) (− with invertNormals), x = unit(y0 × z) with
 *    y0 = (0, 1, 0), or (0, 0, 1) when z is along y (1 − |y0·z| ≤ ε), and y = unit(z × x);
 *  - otherwise along the polyline of the vertices: x = unit(p_{i+1} − p_i), y = unit(z0 × x) with
 *    z0 = (1, 0, 0), or (0, 0, 1) when x is along it, z = unit(x × y); the last vertex takes the
 *    orientation of the one before.
 * The orientation is the rotation of the frame (x, y, z), turned by `rotationAngle` degrees about
 * its own x, y or z axis (`rotation` = 0, 1 or 2): q = q_axis(angle) ⊗ q_frame.
 */
@sofaComponent({
  name: 'Vertex2Frame',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Transform',
  description: 'Return a rigid position from a vertex and its normal.',
  templates: ['Rigid3d'],
  defaultTemplate: 'Rigid3d',
})
export class Vertex2Frame extends DataEngine {
  readonly position = this.initData({ name: 'position', type: Vec3s, default: new Float64Array(0), help: 'vertices of the mesh loaded' });
  readonly texCoords = this.initData({
    name: 'texCoords',
    type: RealArray(2, 'vector<Vec2d>'),
    default: new Float64Array(0),
    help: 'texture coordinates of the mesh loaded (not used)',
  });
  readonly normals = this.initData({ name: 'normals', type: Vec3s, default: new Float64Array(0), help: 'normals of the mesh loaded' });
  readonly frames = this.initData({
    name: 'frames',
    type: RealArray(7, 'vector<Rigid3dTypes::Coord>'),
    default: new Float64Array(0),
    help: 'frames at output',
    output: true,
  });
  readonly useNormals = this.initData({
    name: 'useNormals',
    type: Bool,
    default: true,
    help: 'use the normals to orient the frames; if false, the x axis of a frame points to the next vertex',
  });
  readonly invertNormals = this.initData({ name: 'invertNormals', type: Bool, default: false, help: 'swap the normals' });
  readonly rotation = this.initData({ name: 'rotation', type: Int, default: 0, help: 'local axis of the extra rotation: 0 x, 1 y, 2 z' });
  readonly rotationAngle = this.initData({
    name: 'rotationAngle',
    type: Real,
    default: 0,
    unit: 'deg',
    help: 'angle of the extra rotation',
  });

  constructor() {
    super();
    this.addInput(this.position, this.texCoords, this.normals, this.rotation, this.rotationAngle, this.useNormals, this.invertNormals);
    this.addOutput(this.frames);
  }

  override init(): void {
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const v = this.position.value;
    const n = v.length / 3;
    if (n === 0) return;
    const out = new Float64Array(7 * n);
    const at = (a: Float64Array, i: number): number[] => [a[3 * i], a[3 * i + 1], a[3 * i + 2]];
    if (this.useNormals.value) {
      const nrm = this.normals.value;
      if (nrm.length < v.length)
        throw this.error(`${nrm.length / 3} normals for ${n} vertices: give one normal per vertex, or set useNormals='false'`);
      const sign = this.invertNormals.value ? -1 : 1;
      for (let i = 0; i < n; i++) {
        const z = unit(at(nrm, i).map((c) => sign * c));
        let y = [0, 1, 0];
        if (1 - Math.abs(dot(y, z)) <= EPSILON) y = [0, 0, 1];
        const x = unit(cross(y, z));
        y = unit(cross(z, x));
        out.set(at(v, i), 7 * i);
        out.set(this.orientation(x, y, z), 7 * i + 3);
      }
    } else {
      if (n < 2)
        throw this.error('one vertex only: the frames along the vertices need at least two', "give the normals and set useNormals='true'");
      for (let i = 0; i < n - 1; i++) {
        const x = unit(sub(at(v, i + 1), at(v, i)));
        let z = [1, 0, 0];
        if (1 - Math.abs(dot(z, x)) <= EPSILON) z = [0, 0, 1];
        const y = unit(cross(z, x));
        z = unit(cross(x, y));
        out.set(at(v, i), 7 * i);
        out.set(this.orientation(x, y, z), 7 * i + 3);
      }
      out.set(at(v, n - 1), 7 * (n - 1));
      out.set(out.subarray(7 * (n - 2) + 3, 7 * (n - 1)), 7 * (n - 1) + 3);
    }
    this.frames.value = out;
  }

  private orientation(x: number[], y: number[], z: number[]): number[] {
    const axis = [x, y, z][this.rotation.value] ?? [0, 0, 0];
    return quatMul(quatFromAxisAngle(axis, (this.rotationAngle.value * Math.PI) / 180), quatFromFrame(x, y, z));
  }
}

const sub = (a: number[], b: number[]): number[] => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: number[], b: number[]): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: number[], b: number[]): number[] => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
function unit(a: number[]): number[] {
  const r = Math.sqrt(dot(a, a));
  return r > EPSILON ? [a[0] / r, a[1] / r, a[2] / r] : a;
}
