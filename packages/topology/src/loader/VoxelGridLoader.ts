import {
  Bool,
  DataEngine,
  DataParseError,
  host,
  IndexArray,
  Indices,
  Int,
  RealArray,
  requireDataFile,
  sofaComponent,
  Str,
  tokens,
  Vec3,
  type DataType,
} from '@sofa-ts/core';
import { Vec3i } from '../grid/grid-data.js';
import { checkGridSize } from '../grid/grid-size.js';

const Ints: DataType<Int32Array> = {
  name: 'vector<int>',
  parse: (t) =>
    Int32Array.from(tokens(t), (s) => {
      if (!/^[+-]?\d+$/.test(s)) throw new DataParseError('a list of integers', `got '${s}'`);
      return Number(s);
    }),
  print: (v) => Array.from(v).join(' '),
  clone: (v) => Int32Array.from(v),
};
const Vec6i: DataType<Int32Array> = {
  ...Ints,
  name: 'Vec6i',
  parse: (t) => {
    const v = Ints.parse(t);
    if (v.length !== 6) throw new DataParseError('6 integers', `got ${v.length}`);
    return v;
  },
};

/**
 * SOFA's VoxelGridLoader: hexahedra (or points) from a raw 8-bit voxel image of resolution
 * (nx, ny, nz) (after `header` bytes; voxel (i, j, k) is byte i + nx·(j + ny·k)).
 * A voxel is active when its value is in dataValue, else when it is not in bgValue (every voxel when
 * both are empty). With generateHexa (default) each active voxel of the ROI gives a hexahedron of
 * its 8 corners; the corners used are the points, numbered in grid order (k, then j, then i slowest
 * to fastest: i + (nx+1)·(j + (ny+1)·k)) at (i, j, k)·voxelSize. Otherwise each active voxel gives
 * the point (i, j, k)·voxelSize. idxInRegularGrid lists the active voxels' indices.
 */
@sofaComponent({
  name: 'VoxelGridLoader',
  category: 'Loader',
  module: 'Sofa.Component.IO.Mesh',
  description: 'Voxel loader based on RAW files.',
})
export class VoxelGridLoader extends DataEngine {
  readonly filename = this.initData({
    name: 'filename',
    type: Str,
    default: '',
    help: 'raw voxel file (8 bits per voxel)',
    aliases: ['segmentationFile'],
  });
  readonly position = this.initData({
    name: 'position',
    type: RealArray(3, 'vector<Vec3d>'),
    default: new Float64Array(0),
    help: 'coordinates of the nodes loaded',
    output: true,
  });
  readonly hexahedra = this.initData({
    name: 'hexahedra',
    type: IndexArray(8, 'vector<Hexahedron>'),
    default: new Uint32Array(0),
    help: 'hexahedra loaded',
    output: true,
  });
  readonly voxelSize = this.initData({ name: 'voxelSize', type: Vec3, default: Float64Array.of(1, 1, 1), help: 'dimensions of one voxel' });
  readonly resolution = this.initData({
    name: 'resolution',
    type: Vec3i,
    default: Int32Array.of(0, 0, 0),
    help: 'resolution of the voxel file',
  });
  readonly ROI = this.initData({
    name: 'ROI',
    type: Vec6i,
    default: Int32Array.of(0, 0, 0, 0xffff, 0xffff, 0xffff),
    help: 'region of interest (xmin, ymin, zmin, xmax, ymax, zmax), in voxels',
  });
  readonly header = this.initData({ name: 'header', type: Int, default: 0, unit: 'bytes', help: 'header size' });
  readonly segmentationHeader = this.initData({
    name: 'segmentationHeader',
    type: Int,
    default: 0,
    unit: 'bytes',
    help: 'header size of the segmentation file (not used: no separate segmentation)',
  });
  readonly idxInRegularGrid = this.initData({
    name: 'idxInRegularGrid',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the hexahedra in the grid',
    output: true,
  });
  readonly bgValue = this.initData({ name: 'bgValue', type: Ints, default: new Int32Array(0), help: 'background values (ignored voxels)' });
  readonly dataValue = this.initData({ name: 'dataValue', type: Ints, default: new Int32Array(0), help: 'active data values' });
  readonly generateHexa = this.initData({
    name: 'generateHexa',
    type: Bool,
    default: true,
    help: 'interpret voxels as hexahedra (else as points)',
  });

  constructor() {
    super();
    this.addInput(this.filename, this.voxelSize, this.resolution, this.ROI, this.header, this.bgValue, this.dataValue, this.generateHexa);
    this.addOutput(this.position, this.hexahedra, this.idxInRegularGrid);
  }

  override init(): void {
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const [nx, ny, nz] = Array.from(this.resolution.value) as [number, number, number];
    if (nx <= 0 || ny <= 0 || nz <= 0) throw this.error(`resolution ${nx} ${ny} ${nz}: give the number of voxels along x, y and z`);
    checkGridSize(this, [nx + 1, ny + 1, nz + 1], this.resolution);
    const name = this.filename.value.trim();
    if (!name.endsWith('.raw')) throw this.error(`'${name}' is not a .raw file`);
    const bytes = host().readBytes(requireDataFile(this, name, 'voxel file'));
    const h = this.header.value;
    if (bytes.length < h + nx * ny * nz)
      throw this.error(`${name} has ${bytes.length} bytes: fewer than the ${h} + ${nx}×${ny}×${nz} the header and resolution need`);
    const data = bytes.subarray(h, h + nx * ny * nz);
    // ROI clamped to the grid (SOFA's init).
    const r = Array.from(this.ROI.value);
    r[0] = Math.max(r[0], 0);
    r[1] = Math.max(r[1], 0);
    r[2] = Math.max(r[2], 0);
    r[3] = Math.min(r[3], nx - 1);
    r[4] = Math.min(r[4], ny - 1);
    r[5] = Math.min(r[5], nz - 1);
    for (let k = 0; k < 3; k++) r[k + 3] = Math.max(r[k + 3], r[k]);
    const active = new Set(this.dataValue.value),
      bg = new Set(this.bgValue.value);
    const isActive = (idx: number): boolean => (active.size > 0 ? active.has(data[idx]) : bg.size > 0 ? !bg.has(data[idx]) : true);
    const s = this.voxelSize.value;
    const idx: number[] = [],
      pos: number[] = [],
      hexa: number[] = [];
    const px = nx + 1,
      py = ny + 1;
    const corner = (i: number, j: number, k: number, q: number): number =>
      i + (q % 2) + (j + ((q & 2) >> 1)) * px + (k + (q >> 2)) * px * py;
    if (this.generateHexa.value) {
      const keep = new Set<number>();
      for (let k = r[2]; k <= r[5]; k++)
        for (let j = r[1]; j <= r[4]; j++)
          for (let i = r[0]; i <= r[3]; i++) {
            if (isActive(i + nx * (j + ny * k))) for (let q = 0; q < 8; q++) keep.add(corner(i, j, k, q));
          }
      const renumber = new Map<number, number>();
      for (let k = r[2]; k <= r[5] + 1; k++)
        for (let j = r[1]; j <= r[4] + 1; j++)
          for (let i = r[0]; i <= r[3] + 1; i++) {
            const p = i + j * px + k * px * py;
            if (!keep.has(p)) continue;
            renumber.set(p, renumber.size);
            pos.push(i * s[0], j * s[1], k * s[2]);
          }
      for (let k = r[2]; k <= r[5]; k++)
        for (let j = r[1]; j <= r[4]; j++)
          for (let i = r[0]; i <= r[3]; i++) {
            const v = i + nx * (j + ny * k);
            if (!isActive(v)) continue;
            const p = [0, 1, 2, 3, 4, 5, 6, 7].map((q) => renumber.get(corner(i, j, k, q))!);
            // binary corner order (x fastest) to SOFA's hexahedron order
            hexa.push(p[0], p[1], p[3], p[2], p[4], p[5], p[7], p[6]);
            idx.push(v);
          }
    } else {
      for (let k = r[2]; k <= r[5]; k++)
        for (let j = r[1]; j <= r[4]; j++)
          for (let i = r[0]; i <= r[3]; i++) {
            const v = i + nx * (j + ny * k);
            if (!isActive(v)) continue;
            pos.push(i * s[0], j * s[1], k * s[2]);
            idx.push(v);
          }
    }
    this.position.value = Float64Array.from(pos);
    this.hexahedra.value = Uint32Array.from(hexa);
    this.idxInRegularGrid.value = Uint32Array.from(idx);
  }
}
