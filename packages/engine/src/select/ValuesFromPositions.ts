import { Bool, DataEngine, Enum, IndexArray, Real, sofaComponent, Vec3, type Data, type StateType } from '@sofa-ts/core';
import { Coords, Reals, Vec3s, engineStateType, followContextPositions, followContextTopology } from '../engine-support.js';

/**
 * SOFA's ValuesFromPositions: a field over the points, edges, triangles and tetrahedra of a mesh,
 * taken at each point or element centre c (the mean of its points).
 *  - fieldType Scalar: values interpolated along `direction` from `inputValues` (v_0 … v_{m−1}):
 *      s = (c·direction − bmin)/(bmax − bmin)·(m − 1),  v = v_⌊s⌋·(1 − f) + v_⌊s⌋+1·f,  f = s − ⌊s⌋,
 *    clamped to v_0 and v_{m−1}; one value gives it everywhere, none gives 0. bmin and bmax are the
 *    smallest and largest x of the positions (SOFA takes the x extent of the scene's bounding box).
 *  - fieldType Vector: the vector `direction` at every point and element.
 * Positions not given follow the rest_position of the context state (else a loader); elements the
 * context topology.
 */
@sofaComponent({
  name: 'ValuesFromPositions',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Select',
  description:
    'Assign values to primitives (vertex/edge/triangle/tetrahedron) based on a linear interpolation of values along a direction.',
  templates: ['Vec3d', 'Rigid3d'],
})
export class ValuesFromPositions extends DataEngine {
  readonly inputValues = this.initData({
    name: 'inputValues',
    type: Reals,
    default: new Float64Array(0),
    help: 'values interpolated along the direction',
  });
  readonly direction = this.initData({
    name: 'direction',
    type: Vec3,
    default: Float64Array.of(0, 1, 0),
    help: 'direction along which the values are interpolated (the vector of a Vector field)',
  });
  readonly position = this.initData({
    name: 'position',
    type: Coords,
    default: new Float64Array(0),
    help: 'rest positions of the points',
    aliases: ['rest_position'],
  });
  readonly edges = this.initData({
    name: 'edges',
    type: IndexArray(2, 'vector<Edge>'),
    default: new Uint32Array(0),
    help: 'edge topology',
  });
  readonly triangles = this.initData({
    name: 'triangles',
    type: IndexArray(3, 'vector<Triangle>'),
    default: new Uint32Array(0),
    help: 'triangle topology',
  });
  readonly tetrahedra = this.initData({
    name: 'tetrahedra',
    type: IndexArray(4, 'vector<Tetrahedron>'),
    default: new Uint32Array(0),
    help: 'tetrahedron topology',
  });
  readonly values = this.initData({
    name: 'values',
    type: Reals,
    default: new Float64Array(0),
    help: 'values of the points',
    output: true,
  });
  readonly edgeValues = this.initData({
    name: 'edgeValues',
    type: Reals,
    default: new Float64Array(0),
    help: 'values of the edges',
    output: true,
  });
  readonly triangleValues = this.initData({
    name: 'triangleValues',
    type: Reals,
    default: new Float64Array(0),
    help: 'values of the triangles',
    output: true,
  });
  readonly tetrahedronValues = this.initData({
    name: 'tetrahedronValues',
    type: Reals,
    default: new Float64Array(0),
    help: 'values of the tetrahedra',
    output: true,
  });
  readonly pointVectors = this.initData({
    name: 'pointVectors',
    type: Vec3s,
    default: new Float64Array(0),
    help: 'vectors of the points',
    output: true,
  });
  readonly edgeVectors = this.initData({
    name: 'edgeVectors',
    type: Vec3s,
    default: new Float64Array(0),
    help: 'vectors of the edges',
    output: true,
  });
  readonly triangleVectors = this.initData({
    name: 'triangleVectors',
    type: Vec3s,
    default: new Float64Array(0),
    help: 'vectors of the triangles',
    output: true,
  });
  readonly tetrahedronVectors = this.initData({
    name: 'tetrahedronVectors',
    type: Vec3s,
    default: new Float64Array(0),
    help: 'vectors of the tetrahedra',
    output: true,
  });
  readonly fieldType = this.initData({
    name: 'fieldType',
    type: Enum(['Scalar', 'Vector'] as const),
    default: 'Scalar',
    help: 'field type of the outputs',
  });
  readonly drawVectors = this.initData({
    name: 'drawVectors',
    type: Bool,
    default: false,
    help: 'draw the vectors (drawing only)',
    group: 'Visualization',
  });
  readonly drawVectorLength = this.initData({
    name: 'drawVectorLength',
    type: Real,
    default: 10,
    help: 'length of the drawn vectors',
    group: 'Visualization',
  });

  private stateType: StateType | undefined;

  constructor() {
    super();
    this.addInput(this.inputValues, this.direction, this.position, this.edges, this.triangles, this.tetrahedra, this.fieldType);
    this.addOutput(
      this.values,
      this.edgeValues,
      this.triangleValues,
      this.tetrahedronValues,
      this.pointVectors,
      this.edgeVectors,
      this.triangleVectors,
      this.tetrahedronVectors,
    );
  }

  override init(): void {
    this.stateType = engineStateType(this, ['Vec3d', 'Rigid3d']);
    followContextPositions(this, this.position, { stateData: 'rest_position', search: 'up', required: false });
    followContextTopology(
      this,
      [
        [this.edges, 'edges'],
        [this.triangles, 'triangles'],
        [this.tetrahedra, 'tetrahedra'],
      ],
      'up',
    );
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const cs = this.stateType!.coordSize;
    const x = this.position.value;
    const n = x.length / cs;
    const dir = this.direction.value;
    const vals = this.inputValues.value;
    let bmin = Infinity,
      bmax = -Infinity;
    for (let i = 0; i < n; i++) {
      bmin = Math.min(bmin, x[i * cs]);
      bmax = Math.max(bmax, x[i * cs]);
    }
    const value = (c: number[]): number => {
      const m = vals.length;
      if (m === 0) return 0;
      if (m === 1) return vals[0];
      const s = ((c[0] * dir[0] + c[1] * dir[1] + c[2] * dir[2] - bmin) / (bmax - bmin)) * (m - 1);
      const k = Math.floor(s);
      if (k < 0) return vals[0];
      if (k >= m - 1) return vals[m - 1];
      const f = s - k;
      return vals[k] * (1 - f) + vals[k + 1] * f;
    };
    const centre = (el: ArrayLike<number>): number[] => {
      const c = [0, 0, 0];
      for (let j = 0; j < el.length; j++) {
        if (el[j] >= n) throw this.error(`an element names point ${el[j]}, but there are ${n} points`);
        for (let k = 0; k < 3; k++) c[k] += x[el[j] * cs + k] / el.length;
      }
      return c;
    };
    const scalar = this.fieldType.value === 'Scalar';
    const fill = (elems: Uint32Array | undefined, nv: number, vOut: Data<Float64Array>, wOut: Data<Float64Array>): void => {
      const count = elems ? elems.length / nv : n;
      if (scalar) {
        const v = new Float64Array(count);
        for (let e = 0; e < count; e++) v[e] = value(centre(elems ? elems.subarray(e * nv, e * nv + nv) : [e]));
        vOut.value = v;
      } else {
        const w = new Float64Array(3 * count);
        for (let e = 0; e < count; e++) w.set(dir, 3 * e);
        wOut.value = w;
      }
    };
    fill(undefined, 1, this.values, this.pointVectors);
    fill(this.edges.value, 2, this.edgeValues, this.edgeVectors);
    fill(this.triangles.value, 3, this.triangleValues, this.triangleVectors);
    fill(this.tetrahedra.value, 4, this.tetrahedronValues, this.tetrahedronVectors);
  }
}
