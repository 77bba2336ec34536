import { Bool, DataEngine, Enum, IndexArray, Int, Real, RealArray, sofaComponent } from '@sofa-ts/core';
import { ImageData, SofaImage } from './image.js';
import { ImageLPTransform, ImageTransformData } from './image-transform.js';
import { ONE_IMAGE_TEMPLATES } from './image-support.js';

const METHODS = [
  '0 - Regular sampling (at voxel center(0) or corners (1)) ',
  '1 - Uniform sampling using Fast Marching and Lloyd relaxation (nbSamples | bias distances=false | nbiterations=100  | FastMarching(0)/Dijkstra(1)/ParallelMarching(2)=1 | PMM max iter | PMM tolerance)',
] as const;

/**
 * SOFA's ImageSampler, regular method: one sample per non-zero voxel (any channel) at its centre,
 * or with param[0] = 1 at the corners of the non-zero voxels; edges join samples one voxel apart
 * along x, y, z; a hexahedron joins 8 samples forming a cube (SOFA's vertex order). Positions in
 * space through the image transform.
 */
@sofaComponent({
  name: 'ImageSampler',
  category: 'Engine',
  module: 'image',
  description: 'Samples an object represented by an image: regular grid of its voxels (positions, edges, hexahedra).',
  templates: ['ImageB', ...ONE_IMAGE_TEMPLATES.filter((t) => t !== 'ImageB')],
  defaultTemplate: 'ImageB',
})
export class ImageSampler extends DataEngine {
  readonly image = this.initData({ name: 'image', type: ImageData, default: SofaImage.empty('B'), help: 'input image' });
  readonly transform = this.initData({
    name: 'transform',
    type: ImageTransformData,
    default: new ImageLPTransform(),
    help: 'image transform',
  });
  readonly method = this.initData({ name: 'method', type: Enum(METHODS), default: METHODS[0], help: 'method (param)' });
  readonly computeRecursive = this.initData({
    name: 'computeRecursive',
    type: Bool,
    default: false,
    help: 'if true: insert nodes recursively and build the graph',
  });
  readonly param = this.initData({ name: 'param', type: RealArray(1), default: new Float64Array(0), help: 'Parameters' });
  readonly position = this.initData({
    name: 'position',
    type: RealArray(3),
    default: new Float64Array(0),
    help: 'output positions',
    output: true,
  });
  readonly fixedPosition = this.initData({
    name: 'fixedPosition',
    type: RealArray(3),
    default: new Float64Array(0),
    help: 'user defined sample positions',
  });
  readonly edges = this.initData({
    name: 'edges',
    type: IndexArray(2, 'vector<Edge>'),
    default: new Uint32Array(0),
    help: 'edges connecting neighboring nodes',
    output: true,
  });
  readonly graphEdges = this.initData({
    name: 'graphEdges',
    type: IndexArray(2, 'vector<Edge>'),
    default: new Uint32Array(0),
    help: 'oriented graph connecting parent to child nodes',
    output: true,
  });
  readonly hexahedra = this.initData({
    name: 'hexahedra',
    type: IndexArray(8, 'vector<Hexahedron>'),
    default: new Uint32Array(0),
    help: 'output hexahedra',
    output: true,
  });
  readonly clearData = this.initData({ name: 'clearData', type: Bool, default: true, help: 'clear distance image after computation' });
  readonly showSamplesScale = this.initData({
    name: 'showSamplesScale',
    type: Real,
    default: 0,
    help: 'show samples (drawing: inert in a batch run)',
  });
  readonly drawMode = this.initData({
    name: 'drawMode',
    type: Int,
    default: 0,
    help: '0: points, 1: spheres (drawing: inert in a batch run)',
  });
  readonly showEdges = this.initData({ name: 'showEdges', type: Bool, default: false, help: 'show edges (drawing: inert in a batch run)' });
  readonly showGraph = this.initData({ name: 'showGraph', type: Bool, default: false, help: 'show graph (drawing: inert in a batch run)' });
  readonly showFaces = this.initData({
    name: 'showFaces',
    type: Bool,
    default: false,
    help: 'show the faces of cubes (drawing: inert in a batch run)',
  });

  constructor() {
    super();
    this.addInput(this.image, this.transform, this.method, this.param, this.fixedPosition, this.computeRecursive);
    this.addOutput(this.position, this.edges, this.graphEdges, this.hexahedra);
  }

  override init(): void {
    if (this.method.value !== METHODS[0])
      throw this.dataError(
        this.method,
        'the uniform sampling (Fast Marching and Lloyd relaxation) is not implemented in sofa-ts: only the regular sampling (method 0) is',
      );
    if (this.computeRecursive.value)
      throw this.dataError(this.computeRecursive, 'recursive regular sampling is not implemented in sofa-ts');
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const atCorners = this.param.value.length > 0 && this.param.value[0] !== 0;
    const im = this.image.value;
    const tr = this.transform.value;
    const W = im.width + 1,
      H = im.height + 1,
      D = im.depth + 1;
    // occupancy of the (w+1)×(h+1)×(d+1) grid (SOFA's boolean image)
    const occ = new Uint8Array(W * H * D);
    const at = (x: number, y: number, z: number): number => x + W * (y + H * z);
    const vox = im.voxelCount;
    if (!im.isEmpty)
      for (let z = 0; z < im.depth; z++)
        for (let y = 0; y < im.height; y++)
          for (let x = 0; x < im.width; x++) {
            let on = false;
            for (let c = 0; c < im.spectrum && !on; c++) on = im.data[x + im.width * (y + im.height * z) + c * vox] !== 0;
            if (!on) continue;
            if (atCorners) {
              for (let k = 0; k < 2; k++) for (let j = 0; j < 2; j++) for (let i = 0; i < 2; i++) occ[at(x + i, y + j, z + k)] = 1;
            } else occ[at(x, y, z)] = 1;
          }
    const index = new Int32Array(W * H * D).fill(-1);
    const pos: number[] = [],
      edges: number[] = [],
      hexa: number[] = [];
    const c = [0, 0, 0];
    let nb = 0;
    for (let z = 0; z < D; z++)
      for (let y = 0; y < H; y++)
        for (let x = 0; x < W; x++) {
          const o = at(x, y, z);
          if (!occ[o]) continue;
          const off = atCorners ? -0.5 : 0;
          tr.fromImage(x + off, y + off, z + off, c);
          pos.push(c[0], c[1], c[2]);
          index[o] = nb;
          if (x && occ[o - 1]) edges.push(index[o - 1], nb);
          if (y && occ[o - W]) edges.push(index[o - W], nb);
          if (z && occ[o - W * H]) edges.push(index[o - W * H], nb);
          if (x && y && z) {
            const cube = [o - 1, o - W, o - W * H, o - 1 - W, o - 1 - W * H, o - W - W * H, o - 1 - W - W * H];
            if (cube.every((q) => occ[q]))
              hexa.push(
                nb,
                index[o - W],
                index[o - 1 - W],
                index[o - 1],
                index[o - W * H],
                index[o - W - W * H],
                index[o - 1 - W - W * H],
                index[o - 1 - W * H],
              );
          }
          nb++;
        }
    this.position.value = Float64Array.from(pos);
    this.edges.value = Uint32Array.from(edges);
    this.hexahedra.value = Uint32Array.from(hexa);
    this.graphEdges.value = new Uint32Array(0);
  }
}
