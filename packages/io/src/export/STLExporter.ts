import { Bool, IndexArray, RealArray, host, isMechanicalState, isTopology, sofaComponent, type BaseObject, type Data } from '@sofa-ts/core';
import { SimulationExporterBase } from './simulation-exporter.js';

/**
 * SOFA's STLExporter: a triangle surface as an STL file (`<filename>.stl`), binary (binaryformat,
 * the default) or ASCII. The triangles are `triangle`, else `quad` cut in two (a b c, a c d); the
 * points are `position`. When `position` is not set, the three follow the visual model of the
 * node, else its topology, as SOFA links them at init.
 * Binary: an 80-byte header, the triangle count (uint32), then per triangle its unit normal and
 * its three vertices (float32) and a 2-byte attribute count (0), little-endian.
 * ASCII: `solid` … `facet normal nx ny nz` / `outer loop` / 3 × `vertex x y z` / `endloop` /
 * `endfacet` … `endsolid`. Normals are (b − a) × (c − a) normalised (SOFA writes 0 0 0, which
 * readers also accept). Where SOFA departs from its own Data (its periodic export writes ASCII for
 * binaryformat=1 and binary without the 80-byte header), this one follows the Data and the format.
 */
@sofaComponent({ name: 'STLExporter', category: 'Exporter', module: 'Sofa.Component.IO.Mesh', description: 'Save a topology in file.' })
export class STLExporter extends SimulationExporterBase {
  readonly binaryformat = this.initData({
    name: 'binaryformat',
    type: Bool,
    default: true,
    help: 'if true, save in binary format, otherwise in ascii',
  });
  readonly position = this.initData({
    name: 'position',
    type: RealArray(3, 'vector<Vec3d>'),
    default: new Float64Array(0),
    unit: 'm',
    help: 'points coordinates',
  });
  readonly triangle = this.initData({
    name: 'triangle',
    type: IndexArray(3),
    default: new Uint32Array(0),
    help: 'triangles indices',
    aliases: ['triangles'],
  });
  readonly quad = this.initData({
    name: 'quad',
    type: IndexArray(4),
    default: new Uint32Array(0),
    help: 'quads indices',
    aliases: ['quads'],
  });

  override init(): void {
    super.init();
    if (this.position.isSet) return;
    // follow the node's visual model, else its topology (not another exporter of the node: two
    // STLExporters would follow each other)
    const isVisual = (o: BaseObject): boolean =>
      !isMechanicalState(o) &&
      !isTopology(o) &&
      !(o instanceof SimulationExporterBase) &&
      o.findData('position')?.value instanceof Float64Array &&
      o.findData('triangles') !== undefined;
    const source = this.context.objects.find(isVisual) ?? this.context.objects.find((o) => isTopology(o));
    if (!source) throw this.error('STLExporter needs a visual model or a topology in its node, or position and triangle (or quad) given');
    const link = (d: Data<Float64Array> | Data<Uint32Array>, name: string): void => {
      const from = source.findData(name);
      if (from) (d as Data<unknown>).setParent(from as Data<unknown>);
    };
    link(this.position, 'position');
    link(this.triangle, 'triangles');
    link(this.quad, 'quads');
  }

  /** (nT × 3) the triangles to write: `triangle`, else the quads cut in two. */
  private triangles(): Uint32Array {
    const t = this.triangle.value;
    if (t.length > 0) return t;
    const q = this.quad.value;
    if (q.length === 0) throw this.error('no triangles nor quads to export');
    const out = new Uint32Array((q.length / 4) * 6);
    for (let i = 0, o = 0; i < q.length; i += 4) {
      out.set([q[i], q[i + 1], q[i + 2], q[i], q[i + 2], q[i + 3]], o);
      o += 6;
    }
    return out;
  }

  write(): void {
    const x = this.position.value;
    if (x.length === 0) throw this.error('no positions to export');
    const tri = this.triangles();
    const n = x.length / 3;
    for (const i of tri) if (i >= n) throw this.error(`triangle vertex ${i} is out of range: ${n} points`);
    const file = `${this.targetPath()}.stl`;
    host().writeFile(file, this.binaryformat.value ? stlBinary(x, tri) : stlAscii(x, tri));
  }
}

/** Unit normal of triangle (a, b, c) into out (0 for a degenerate triangle). */
function normal(out: Float64Array, x: Float64Array, a: number, b: number, c: number): void {
  const ux = x[3 * b] - x[3 * a],
    uy = x[3 * b + 1] - x[3 * a + 1],
    uz = x[3 * b + 2] - x[3 * a + 2];
  const vx = x[3 * c] - x[3 * a],
    vy = x[3 * c + 1] - x[3 * a + 1],
    vz = x[3 * c + 2] - x[3 * a + 2];
  const nx = uy * vz - uz * vy,
    ny = uz * vx - ux * vz,
    nz = ux * vy - uy * vx;
  const l = Math.hypot(nx, ny, nz);
  out[0] = l > 0 ? nx / l : 0;
  out[1] = l > 0 ? ny / l : 0;
  out[2] = l > 0 ? nz / l : 0;
}

export function stlAscii(x: Float64Array, tri: Uint32Array): string {
  const lines = ['solid Exported from Sofa'];
  const nrm = new Float64Array(3);
  for (let t = 0; t < tri.length; t += 3) {
    normal(nrm, x, tri[t], tri[t + 1], tri[t + 2]);
    lines.push(`facet normal ${nrm[0]} ${nrm[1]} ${nrm[2]}`, 'outer loop');
    for (let k = 0; k < 3; k++) {
      const p = 3 * tri[t + k];
      lines.push(`vertex ${x[p].toFixed(6)} ${x[p + 1].toFixed(6)} ${x[p + 2].toFixed(6)}`);
    }
    lines.push('endloop', 'endfacet');
  }
  lines.push('endsolid Exported from Sofa');
  return `${lines.join('\n')}\n`;
}

export function stlBinary(x: Float64Array, tri: Uint32Array): Uint8Array {
  const nT = tri.length / 3;
  const bytes = new Uint8Array(84 + 50 * nT);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode('Exported from Sofa'), 0);
  view.setUint32(80, nT, true);
  const nrm = new Float64Array(3);
  for (let t = 0, o = 84; t < nT; t++, o += 50) {
    normal(nrm, x, tri[3 * t], tri[3 * t + 1], tri[3 * t + 2]);
    for (let k = 0; k < 3; k++) view.setFloat32(o + 4 * k, nrm[k], true);
    for (let v = 0; v < 3; v++) {
      const p = 3 * tri[3 * t + v];
      for (let k = 0; k < 3; k++) view.setFloat32(o + 12 + 12 * v + 4 * k, x[p + k], true);
    }
    view.setUint16(o + 48, 0, true);
  }
  return bytes;
}
