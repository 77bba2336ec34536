import { DataEngine, host, RealArray, requireDataFile, sofaComponent, Str, Vec3 } from '@sofa-ts/core';
import { MeshFileError, TextScanner } from './text-scanner.js';
import { applyTransform4, isIdentity4, trsMatrix } from './transform.js';

/**
 * SOFA's SphereLoader: sphere sets in the .sph format, after a first header line (`sph 1.0`):
 *   sphe <index> <cx> <cy> <cz> <radius>      one sphere
 *   nums <count>                               announced count (informative)
 *   # ...                                      comment to the end of the line
 * Centers go to `position`, radii to `listRadius`. The centers are then transformed by
 * T(translation)·R(rotation, Euler degrees, x then y then z)·S(scale); the radii are kept as read,
 * as SOFA does.
 */
@sofaComponent({
  name: 'SphereLoader',
  category: 'Loader',
  module: 'Sofa.Component.IO.Mesh',
  description: 'Loader for sphere model description files.',
})
export class SphereLoader extends DataEngine {
  readonly filename = this.initData({
    name: 'filename',
    type: Str,
    default: '',
    help: 'path of the .sph file (relative to the scene, the data paths or SOFA_DATA_PATH)',
  });
  readonly position = this.initData({
    name: 'position',
    type: RealArray(3, 'vector<Vec3d>'),
    default: new Float64Array(0),
    help: 'sphere centers',
    output: true,
    aliases: ['sphere_centers'],
  });
  readonly listRadius = this.initData({
    name: 'listRadius',
    type: RealArray(1, 'vector<double>'),
    default: new Float64Array(0),
    help: 'radius of each sphere',
    output: true,
  });
  readonly scale = this.initData({
    name: 'scale',
    type: Vec3,
    default: Float64Array.of(1, 1, 1),
    help: 'scale applied to the sphere centers',
    aliases: ['scale3d'],
  });
  readonly rotation = this.initData({
    name: 'rotation',
    type: Vec3,
    default: new Float64Array(3),
    unit: 'deg',
    help: 'rotation of the sphere centers (Euler angles in degrees, about x, then y, then z)',
  });
  readonly translation = this.initData({
    name: 'translation',
    type: Vec3,
    default: new Float64Array(3),
    help: 'translation applied to the sphere centers',
  });

  constructor() {
    super();
    this.addInput(this.filename, this.scale, this.rotation, this.translation);
    this.addOutput(this.position, this.listRadius);
  }

  override init(): void {
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const name = this.filename.value.trim();
    if (name === '') throw this.error('no sphere file given', "set filename='path/to/file.sph'");
    const path = requireDataFile(this, name, 'sphere file');
    let centers: number[], radii: number[];
    try {
      ({ centers, radii } = readSph(host().readText(path, 'latin1'), path));
    } catch (e) {
      if (e instanceof MeshFileError) throw this.error(`cannot read sphere file ${e.message}`);
      throw e;
    }
    const c = Float64Array.from(centers);
    const m = trsMatrix(this.translation.value, this.rotation.value, this.scale.value);
    if (!isIdentity4(m)) applyTransform4(m, c);
    this.position.value = c;
    this.listRadius.value = Float64Array.from(radii);
  }
}

/** Parses the text of a .sph file. */
export function readSph(text: string, file: string): { centers: number[]; radii: number[] } {
  const s = new TextScanner(text, file);
  s.readLine();
  const centers: number[] = [];
  const radii: number[] = [];
  // Until a keyword of the format is seen the file may be anything: its text is not quoted.
  let recognised = false;
  for (let t = s.token(); t !== undefined; t = s.token()) {
    if (t === 'nums' || t === 'sphe') recognised = true;
    if (t === 'nums') s.int('the number of spheres');
    else if (t === 'sphe') {
      s.int('the sphere index');
      centers.push(s.number('x'), s.number('y'), s.number('z'));
      radii.push(s.number('the radius'));
    } else if (t.startsWith('#')) s.readLine();
    else if (!recognised) throw s.fail("not a sphere file: a line starts with neither 'sphe', 'nums' nor a '#' comment");
    else throw s.fail(`unknown keyword '${t}' (expected 'sphe', 'nums' or a '#' comment)`);
  }
  return { centers, radii };
}
