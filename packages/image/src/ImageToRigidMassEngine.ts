import { Bool, DataEngine, Real, RealArray, sofaComponent, type SofaEvent } from '@sofa-ts/core';
import { symmetricEigen3 } from '@sofa-ts/linalg';
import { ImageData, SofaImage } from './image.js';
import { ImageLPTransform, ImageTransformData } from './image-transform.js';
import { eulerDegreesOfMatrix } from './io/image-file.js';

/**
 * SOFA's ImageToRigidMassEngine: the rigid body of the non-zero voxels, each a point mass
 * m = density·(voxel volume) (times its value with `multiply`) at its centre: mass, centre of
 * mass, inertia I = tr(C)·1 − C of the centred second moments C = Σ m (p − c)(p − c)ᵀ, its
 * principal axes as the frame's orientation (position = centre + quaternion), the principal
 * inertias (`inertia`), and rigidMass = "mass volume I/mass" (diagonal, per unit mass, in the
 * principal frame) as Rigid3d masses read it.
 */
@sofaComponent({
  name: 'ImageToRigidMassEngine',
  category: 'Engine',
  module: 'image',
  description: 'Compute the rigid mass (mass, centre, principal inertia) of the non-zero voxels of an image.',
  templates: ['ImageD', 'ImageUC', 'ImageB'],
  defaultTemplate: 'ImageD',
})
export class ImageToRigidMassEngine extends DataEngine {
  readonly image = this.initData({ name: 'image', type: ImageData, default: SofaImage.empty('D'), help: 'input image' });
  readonly transform = this.initData({
    name: 'transform',
    type: ImageTransformData,
    default: new ImageLPTransform(),
    help: 'image transform',
  });
  readonly position = this.initData({
    name: 'position',
    type: RealArray(7, 'Rigid3d::Coord'),
    default: Float64Array.of(0, 0, 0, 0, 0, 0, 1),
    help: 'position',
    output: true,
  });
  readonly mass = this.initData({ name: 'mass', type: Real, default: 0, help: 'mass', unit: 'kg', output: true });
  readonly inertia = this.initData({
    name: 'inertia',
    type: RealArray(3, 'Vec3d'),
    default: new Float64Array(3),
    help: 'axis-aligned inertia tensor',
    output: true,
  });
  readonly rigidMass = this.initData({
    name: 'rigidMass',
    type: RealArray(1, 'RigidMass'),
    default: Float64Array.of(0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1),
    help: 'rigidMass: mass, volume, inertia matrix per unit mass (row-major)',
    output: true,
  });
  readonly density = this.initData({ name: 'density', type: Real, default: 1000, help: 'density (in kg/m^3)', unit: 'kg/m^3' });
  readonly multiply = this.initData({ name: 'multiply', type: Bool, default: false, help: 'multiply density by image intensity?' });
  private time = 0;

  constructor() {
    super();
    this.addInput(this.image, this.transform, this.density, this.multiply);
    this.addOutput(this.position, this.rigidMass, this.inertia, this.mass);
  }

  override init(): void {
    this.startUpdates();
  }

  override handleEvent(event: SofaEvent): void {
    if (event.type !== 'AnimateEndEvent') return;
    const frames = this.image.value.frames;
    if (frames <= 1) return;
    let t = this.transform.value.timeToImage(this.context.getTime());
    t -= Math.trunc(Math.trunc(t) / frames) * frames;
    t = Math.min(frames - 1, Math.max(0, t - Math.floor(t) > 0.5 ? Math.ceil(t) : Math.floor(t)));
    if (t !== this.time) {
      this.time = t;
      this.update();
    }
  }

  protected updateOutputs(): void {
    const im = this.image.value,
      tr = this.transform.value;
    if (im.isEmpty) return;
    const d = this.density.value,
      mult = this.multiply.value;
    const s = tr.scale;
    const voxelVol = s[0] * s[1] * s[2];
    const base = Math.min(this.time, im.frames - 1) * im.spectrum * im.voxelCount;
    let M = 0,
      vol = 0;
    const c = [0, 0, 0];
    const C = new Float64Array(9);
    const p = [0, 0, 0];
    for (let z = 0; z < im.depth; z++)
      for (let y = 0; y < im.height; y++)
        for (let x = 0; x < im.width; x++) {
          const v = im.data[base + x + im.width * (y + im.height * z)];
          if (v === 0) continue;
          const m = (mult ? v * d : d) * voxelVol;
          vol += voxelVol;
          M += m;
          tr.fromImage(x, y, z, p);
          for (let a = 0; a < 3; a++) {
            c[a] += p[a] * m;
            for (let b = 0; b < 3; b++) C[3 * a + b] += p[a] * p[b] * m;
          }
        }
    if (M === 0) {
      this.warn('the image has no non-zero voxel: no mass');
      return;
    }
    for (let a = 0; a < 3; a++) c[a] /= M;
    for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) C[3 * a + b] -= c[a] * c[b] * M;
    const tr3 = C[0] + C[4] + C[8];
    const I = new Float64Array(9);
    for (let k = 0; k < 9; k++) I[k] = (k % 4 === 0 ? tr3 : 0) - C[k];
    const R = new Float64Array(9),
      w = new Float64Array(3);
    symmetricEigen3(R, w, I);
    // a proper rotation (det +1) for the frame
    const det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) + R[2] * (R[3] * R[7] - R[4] * R[6]);
    if (det < 0) for (let r = 0; r < 3; r++) R[3 * r + 2] = -R[3 * r + 2];
    const q = quatOfMatrix(R);
    this.position.value = Float64Array.of(c[0], c[1], c[2], q[0], q[1], q[2], q[3]);
    this.mass.value = M;
    this.inertia.value = Float64Array.from(w);
    this.rigidMass.value = Float64Array.of(M, vol, w[0] / M, 0, 0, 0, w[1] / M, 0, 0, 0, w[2] / M);
  }
}

/** The unit quaternion (x, y, z, w) of a row-major rotation matrix, through its Euler angles. */
function quatOfMatrix(R: ArrayLike<number>): [number, number, number, number] {
  const [a, b, c] = eulerDegreesOfMatrix(Array.from(R)).map((v) => (v * Math.PI) / 180);
  const t = new ImageLPTransform([0, 0, 0, (a * 180) / Math.PI, (b * 180) / Math.PI, (c * 180) / Math.PI]);
  return [t.q[0], t.q[1], t.q[2], t.q[3]];
}
