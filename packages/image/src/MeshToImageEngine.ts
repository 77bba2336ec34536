import { Bool, DataEngine, IndexArray, IndexLists, Real, RealArray, UInt, VecN, sofaComponent, type Data } from '@sofa-ts/core';
import { symmetricEigen3 } from '@sofa-ts/linalg';
import { ImageData, SofaImage, castValue } from './image.js';
import { ImageLPTransform, ImageTransformData } from './image-transform.js';
import { templatePixelType } from './image-support.js';
import { eulerDegreesOfMatrix } from './io/image-file.js';
import { VectorData, findInVectors } from './mesh-vector-data.js';
import { Rasterizer, floodOutside } from './rasterize.js';

const Vec3s = RealArray(3, 'vector<Vec3d>');
const Reals = RealArray(1, 'vector<double>');
const Edges = IndexArray(2, 'vector<Edge>');
const Triangles = IndexArray(3, 'vector<Triangle>');
const Rois = IndexLists('vector<SVector<unsigned int>>');

/**
 * SOFA's MeshToImageEngine: voxelises nbMeshes meshes into one image. The grid is the meshes'
 * axis-aligned bounding box (snapped to multiples of the voxel size when gridSnap), or with
 * rotateImage the box along the eigenvectors of the vertices' covariance; padSize voxels of
 * border. Each mesh's edges and triangles are drawn with `value` (one per vertex: interpolated),
 * faces whose vertices all belong to an ROI with that ROI's value; then, with fillInside, every
 * voxel the background flood from voxel (0,0,0) does not reach gets insideValue. Later meshes
 * write over earlier ones.
 */
@sofaComponent({
  name: 'MeshToImageEngine',
  category: 'Engine',
  module: 'image',
  description: 'Compute a rasterized image from a set of closed meshes.',
  templates: ['ImageB', 'ImageUC', 'ImageUS', 'ImageD'],
  defaultTemplate: 'ImageB',
})
export class MeshToImageEngine extends DataEngine {
  readonly voxelSize = this.initData({
    name: 'voxelSize',
    type: Reals,
    default: Float64Array.of(1, 1, 1),
    help: 'voxel Size (redondant with and not priority over nbVoxels)',
  });
  readonly nbVoxels = this.initData({
    name: 'nbVoxels',
    type: VecN(3, 'Vec3u'),
    default: Float64Array.of(0, 0, 0),
    help: 'number of voxel (redondant with and priority over voxelSize)',
  });
  readonly rotateImage = this.initData({
    name: 'rotateImage',
    type: Bool,
    default: false,
    help: 'orient the image bounding box according to the mesh (OBB)',
  });
  readonly padSize = this.initData({ name: 'padSize', type: UInt, default: 0, help: 'size of border in number of voxels' });
  readonly subdiv = this.initData({
    name: 'subdiv',
    type: UInt,
    default: 4,
    help: 'number of subdivisions for face rasterization (if needed, increase to avoid holes)',
  });
  readonly image = this.initData({ name: 'image', type: ImageData, default: SofaImage.empty('B'), help: 'output image', output: true });
  readonly transform = this.initData({
    name: 'transform',
    type: ImageTransformData,
    default: new ImageLPTransform(),
    help: 'output image transform',
    output: true,
  });
  readonly backgroundValue = this.initData({ name: 'backgroundValue', type: Real, default: 0, help: 'pixel value at background' });
  readonly nbMeshes = this.initData({
    name: 'nbMeshes',
    type: UInt,
    default: 1,
    help: 'number of meshes to voxelize (Note that the last one write on the previous ones)',
  });
  readonly gridSnap = this.initData({
    name: 'gridSnap',
    type: Bool,
    default: true,
    help: 'align voxel centers on voxelSize multiples for perfect image merging (nbVoxels and rotateImage should be off)',
  });
  readonly worldGridAligned = this.initData({
    name: 'worldGridAligned',
    type: Bool,
    default: false,
    help: 'perform rasterization on a world aligned grid using nbVoxels and voxelSize',
  });

  private readonly positions = this.vector('position', Vec3s, new Float64Array(0), 'input positions for mesh');
  private readonly edges = this.vector('edges', Edges, new Uint32Array(0), 'input edges for mesh');
  private readonly triangles = this.vector('triangles', Triangles, new Uint32Array(0), 'input triangles for mesh');
  private readonly values = this.vector('value', Reals, Float64Array.of(1), 'pixel value on mesh surface');
  private readonly fillInside = this.vector('fillInside', Bool, true, 'fill the mesh using insideValue?');
  private readonly insideValues = this.vector('insideValue', Real, 1, 'pixel value inside the mesh');
  private readonly roiIndices = this.vector('roiIndices', Rois, [] as number[][], 'List of Regions Of Interest, vertex indices');
  private readonly roiValues = this.vector('roiValue', Reals, new Float64Array(0), 'pixel value for ROIs, list of values');
  private readonly vectors = [
    this.positions,
    this.edges,
    this.triangles,
    this.values,
    this.fillInside,
    this.insideValues,
    this.roiIndices,
    this.roiValues,
  ] as VectorData<unknown>[];

  private vector<T>(base: string, type: import('@sofa-ts/core').DataType<T>, def: T, help: string): VectorData<T> {
    return new VectorData<T>(
      base,
      (spec) => {
        const d = this.initData({ ...spec, type, default: def });
        this.addInput(d as Data<unknown>);
        return d;
      },
      help,
    );
  }

  constructor() {
    super();
    this.addInput(this.voxelSize, this.nbVoxels, this.rotateImage, this.padSize, this.subdiv, this.backgroundValue, this.nbMeshes);
    this.addInput(this.gridSnap, this.worldGridAligned);
    this.addOutput(this.image, this.transform);
  }

  override findData(name: string): Data<unknown> | undefined {
    return super.findData(name) ?? findInVectors(this.vectors, name);
  }

  override init(): void {
    const nb = this.nbMeshes.value;
    for (const v of this.vectors) v.resize(nb);
    // backward compatibility: insideValue not set → the first value (SOFA warns too)
    for (let m = 0; m < nb; m++) {
      const inside = this.insideValues.items[m],
        value = this.values.items[m];
      if (!inside.isSet && value.isSet && this.fillInside.items[m].value && value.value.length > 0) {
        inside.value = value.value[0];
        this.warnAbout(value, `insideValue${m === 0 ? '' : m + 1} is not set: value[0] = ${value.value[0]} is used instead`);
      }
    }
    const vs = this.voxelSize.value;
    if (vs.length === 0 || Array.from(vs).some((v) => !(v > 0)))
      throw this.dataError(this.voxelSize, 'voxelSize must hold positive numbers');
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const nb = this.nbMeshes.value;
    for (const v of this.vectors) v.resize(nb);
    const vsIn = this.voxelSize.value;
    const vs = [0, 1, 2].map((i) => vsIn[Math.min(i, vsIn.length - 1)]);
    const nv = this.nbVoxels.value;
    const useNb = nv[0] !== 0 && nv[1] !== 0 && nv[2] !== 0;
    const pad = this.padSize.value;
    const tr = new ImageLPTransform();
    const p = tr.params;
    const lo = [Infinity, Infinity, Infinity],
      hi = [-Infinity, -Infinity, -Infinity];
    let total = 0;
    for (let m = 0; m < nb; m++) total += this.positions.items[m].value.length / 3;
    if (total === 0) throw this.error('no mesh vertices to voxelise (position is empty)');
    if (this.worldGridAligned.value) {
      for (let j = 0; j < 3; j++) {
        hi[j] = nv[j] * vs[j] * 0.5;
        lo[j] = -hi[j];
      }
    } else if (!this.rotateImage.value) {
      this.eachPoint((x, j) => {
        if (x < lo[j]) lo[j] = x;
        if (x > hi[j]) hi[j] = x;
      });
      enlarge(lo, hi);
      for (let j = 0; j < 3; j++) p[6 + j] = useNb ? (hi[j] - lo[j]) / nv[j] : vs[j];
      if (this.gridSnap.value && !useNb)
        for (let j = 0; j < 3; j++) {
          lo[j] = p[6 + j] * Math.floor(lo[j] / p[6 + j]);
          hi[j] = p[6 + j] * Math.ceil(hi[j] / p[6 + j]);
        }
      for (let j = 0; j < 3; j++) p[j] = lo[j] + p[6 + j] * 0.5 - p[6 + j] * pad;
    } else {
      // oriented box: the eigenvectors of the covariance of the vertices, a proper rotation M
      const mean = [0, 0, 0];
      this.eachPoint((x, j) => (mean[j] += x / total));
      const C = new Float64Array(9);
      for (let m = 0; m < nb; m++) {
        const x = this.positions.items[m].value;
        for (let i = 0; i + 2 < x.length; i += 3)
          for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) C[3 * a + b] += ((x[i + a] - mean[a]) * (x[i + b] - mean[b])) / total;
      }
      const V = new Float64Array(9),
        w = new Float64Array(3);
      symmetricEigen3(V, w, C);
      // columns by decreasing eigenvalue, as the singular vectors of SOFA's JacobiSVD
      const order = [0, 1, 2].sort((a, b) => w[b] - w[a]);
      const M = new Array<number>(9);
      for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) M[3 * r + c] = V[3 * r + order[c]];
      const det = M[0] * (M[4] * M[8] - M[5] * M[7]) - M[1] * (M[3] * M[8] - M[5] * M[6]) + M[2] * (M[3] * M[7] - M[4] * M[6]);
      if (det < 0) for (let k = 0; k < 9; k++) M[k] = -M[k];
      p.set(eulerDegreesOfMatrix(M), 3);
      for (let m = 0; m < nb; m++) {
        const x = this.positions.items[m].value;
        for (let i = 0; i + 2 < x.length; i += 3)
          for (let j = 0; j < 3; j++) {
            // Mᵀ·x
            const v = M[j] * x[i] + M[3 + j] * x[i + 1] + M[6 + j] * x[i + 2];
            if (v < lo[j]) lo[j] = v;
            if (v > hi[j]) hi[j] = v;
          }
      }
      enlarge(lo, hi);
      for (let j = 0; j < 3; j++) p[6 + j] = useNb ? (hi[j] - lo[j]) / nv[j] : vs[j];
      const P = [0, 1, 2].map((j) => lo[j] + p[6 + j] * 0.5 - p[6 + j] * pad);
      for (let j = 0; j < 3; j++) p[j] = M[3 * j] * P[0] + M[3 * j + 1] * P[1] + M[3 * j + 2] * P[2];
    }
    p[9] = 0;
    p[10] = 1;
    p[11] = 0;
    const dim = [0, 1, 2].map((j) => Math.ceil((hi[j] - lo[j]) / p[6 + j] + 2 * pad));
    if (this.worldGridAligned.value)
      for (let j = 0; j < 3; j++) {
        dim[j] = Math.ceil((hi[j] - lo[j]) / vs[j]);
        p[6 + j] = vs[j];
      }
    tr.update();
    const n = dim[0] * dim[1] * dim[2];
    if (!(n > 0) || n > 2 ** 28)
      throw this.error(
        `an image of ${dim.join('×')} voxels cannot be made (voxelSize ${vs.join(' ')} for a box of ${[0, 1, 2].map((j) => hi[j] - lo[j]).join(' × ')})`,
      );
    const type = templatePixelType(this, 0, 'B');
    const im = SofaImage.create(type, dim[0], dim[1], dim[2], 1, 1);
    im.data.fill(castValue(type, this.backgroundValue.value));
    const mask = new Uint8Array(n);
    for (let m = 0; m < nb; m++) this.rasterizeAndFill(m, im, mask, tr);
    this.transform.value = tr;
    this.image.value = im;
  }

  private eachPoint(f: (x: number, j: number) => void): void {
    for (let m = 0; m < this.nbMeshes.value; m++) {
      const x = this.positions.items[m].value;
      for (let i = 0; i + 2 < x.length; i += 3) for (let j = 0; j < 3; j++) f(x[i + j], j);
    }
  }

  private rasterizeAndFill(m: number, im: SofaImage, mask: Uint8Array, tr: ImageLPTransform): void {
    const pos = this.positions.items[m].value;
    const tri = this.triangles.items[m].value,
      edg = this.edges.items[m].value;
    const nbp = pos.length / 3;
    if (nbp === 0 || (tri.length === 0 && edg.length === 0)) {
      this.warn(`no topology defined for mesh ${m + 1}: it is not voxelised`);
      return;
    }
    mask.fill(0);
    const vals = this.values.items[m].value;
    const rois = this.roiIndices.items[m].value;
    const roiVals = this.roiValues.items[m].value;
    if (rois.length > 0 && roiVals.length === 0) this.warn(`mesh ${m + 1} has ROIs but no roiValue: the ROIs get 1`);
    const valueAt = (i: number): number => (vals.length === 0 ? 1 : i < vals.length ? vals[i] : vals[0]);
    const roiValue = (r: number): number => (roiVals.length === 0 ? 1 : r < roiVals.length ? roiVals[r] : roiVals[0]);
    const type = im.pixelType;
    const cast = (v: number): number => castValue(type, v);
    const fill = valueAt(0);
    const perVertex = vals.length > 1;
    const ip = new Float64Array(3 * nbp);
    for (let i = 0; i < nbp; i++) tr.toImage(pos[3 * i], pos[3 * i + 1], pos[3 * i + 2], ip, 3 * i);
    const roiSets = rois.map((r) => new Set(r));
    // the ROI (last matching) a face belongs to: all its vertices in the ROI
    const roiOf = (face: ArrayLike<number>): number => {
      let found = -1;
      for (let r = 0; r < roiSets.length; r++) {
        let all = true;
        for (let k = 0; k < face.length; k++) if (!roiSets[r].has(face[k])) all = false;
        if (all && cast(roiValue(r)) !== cast(fill)) found = r;
      }
      return found;
    };
    const ras = new Rasterizer(im, mask, this.subdiv.value, cast);
    const P = (i: number): Float64Array => ip.subarray(3 * i, 3 * i + 3);
    const later: Array<[number, number]> = [];
    for (let e = 0; e + 1 < edg.length; e += 2) {
      const a = edg[e],
        b = edg[e + 1];
      const r = roiOf([a, b]);
      if (r >= 0) later.push([e, r]);
      else if (perVertex) ras.line(P(a), P(b), valueAt(a), valueAt(b));
      else ras.line(P(a), P(b), fill, fill);
    }
    for (const [e, r] of later) ras.line(P(edg[e]), P(edg[e + 1]), roiValue(r), roiValue(r));
    later.length = 0;
    for (let t = 0; t + 2 < tri.length; t += 3) {
      const a = tri[t],
        b = tri[t + 1],
        c = tri[t + 2];
      const r = roiOf([a, b, c]);
      if (r >= 0) later.push([t, r]);
      else if (perVertex) ras.triangle(P(a), P(b), P(c), valueAt(a), valueAt(b), valueAt(c));
      else ras.triangle(P(a), P(b), P(c), fill, fill, fill);
    }
    for (const [t, r] of later) {
      const v = roiValue(r);
      ras.triangle(P(tri[t]), P(tri[t + 1]), P(tri[t + 2]), v, v, v);
    }
    if (this.fillInside.items[m].value) {
      floodOutside(mask, im.width, im.height, im.depth);
      const inside = cast(this.insideValues.items[m].value);
      const n = im.voxelCount;
      for (let o = 0; o < n; o++) if (mask[o] === 0) im.data[o] = inside;
    }
  }
}

/** Enlarges a box by 1e-10 of its size (SOFA: against rounding in the rasterisation). */
function enlarge(lo: number[], hi: number[]): void {
  for (let j = 0; j < 3; j++) {
    const eps = (hi[j] - lo[j]) * 1e-10;
    hi[j] += eps;
    lo[j] -= eps;
  }
}
