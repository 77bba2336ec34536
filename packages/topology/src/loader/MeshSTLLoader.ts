import { Bool, UInt, host, sofaComponent } from '@sofa-ts/core';
import { MeshLoader, type MeshBuffers } from './MeshLoader.js';
import { MeshFileError, lineTokens, parseReal } from './text-scanner.js';

/**
 * SOFA's MeshSTLLoader: stereolithography files, ASCII (`solid … facet normal … outer loop
 * vertex x y z … endfacet … endsolid`) or binary (80-byte header, uint32 facet count, then per
 * facet 12 float32: normal and 3 vertices, and a 2-byte attribute). A file whose first word is
 * not `solid` is read as binary, as is any file with forceBinary.
 *
 * STL repeats the vertices of each facet: identical positions (compared as float32, the precision
 * STL stores) are merged into one point, numbered in order of first appearance. Coordinates are
 * float32 in both forms, so an ASCII file and its binary export load to the same arrays. The
 * facet normals go to `normals` (one per facet); binary facets with a repeated vertex are dropped.
 */
@sofaComponent({
  name: 'MeshSTLLoader',
  category: 'Loader',
  module: 'Sofa.Component.IO.Mesh',
  description: 'Loader for the STL file format. STL can be used to represent the surface of object using with a triangulation.',
})
export class MeshSTLLoader extends MeshLoader {
  readonly headerSize = this.initData({
    name: 'headerSize',
    type: UInt,
    default: 80,
    unit: 'bytes',
    help: 'size of the header of a binary file (just before the number of facets)',
  });
  readonly forceBinary = this.initData({
    name: 'forceBinary',
    type: Bool,
    default: false,
    help: "read the file as binary even if its first word is 'solid'",
  });
  readonly mergePositionUsingMap = this.initData({
    name: 'mergePositionUsingMap',
    type: Bool,
    default: true,
    help: 'merge duplicated positions with a map (the result is the same either way)',
  });

  constructor() {
    super();
    this.addInput(this.headerSize, this.forceBinary);
  }

  protected readMesh(path: string, out: MeshBuffers): void {
    const bytes = host().readBytes(path);
    const firstWord = /^\s*(\S+)/.exec(latin1(bytes.subarray(0, 256)))?.[1];
    if (!this.forceBinary.value && firstWord === 'solid') this.readAscii(path, latin1(bytes), out);
    else this.readBinary(path, bytes, out);
  }

  private readAscii(path: string, text: string, out: MeshBuffers): void {
    const merge = new PointMerger(out.positions);
    const tri: number[] = [];
    const lines = text.split('\n');
    for (let li = 0; li < lines.length; li++) {
      const t = lineTokens(lines[li]);
      if (t.length === 0) continue;
      const coords = (from: number, what: string): [number, number, number] => {
        const v = [t[from], t[from + 1], t[from + 2]].map((s) => (s === undefined ? undefined : parseReal(s)));
        if (v.some((x) => x === undefined)) throw new MeshFileError(path, li + 1, `expected ${what} x y z, found '${lines[li].trim()}'`);
        return [Math.fround(v[0]!), Math.fround(v[1]!), Math.fround(v[2]!)];
      };
      if (t[0] === 'facet') {
        out.normals.push(...coords(2, 'a facet normal'));
      } else if (t[0] === 'vertex') {
        if (tri.length === 3) throw new MeshFileError(path, li + 1, 'a facet has more than 3 vertices');
        tri.push(merge.index(...coords(1, 'a vertex')));
      } else if (t[0] === 'endfacet') {
        if (tri.length !== 3) throw new MeshFileError(path, li + 1, `a facet has ${tri.length} vertices, expected 3`);
        this.addTriangle(out, tri[0], tri[1], tri[2]);
        tri.length = 0;
      } else if (t[0] === 'endsolid' || t[0] === 'end') {
        break;
      }
    }
  }

  private readBinary(path: string, raw: Uint8Array, out: MeshBuffers): void {
    const bytes = new LittleEndianReader(raw);
    const header = this.headerSize.value;
    if (bytes.length < header + 4)
      throw new MeshFileError(
        path,
        0,
        `binary STL: the file has ${bytes.length} bytes, less than the ${header}-byte header and the facet count`,
      );
    const n = bytes.readUInt32LE(header);
    const expected = header + 4 + 50 * n;
    if (bytes.length !== expected) {
      throw new MeshFileError(
        path,
        0,
        `not a binary STL file: ${n} facets need ${expected} bytes, the file has ${bytes.length} (an ASCII file must start with 'solid')`,
      );
    }
    const merge = new PointMerger(out.positions);
    let off = header + 4;
    for (let f = 0; f < n; f++, off += 50) {
      out.normals.push(bytes.readFloatLE(off), bytes.readFloatLE(off + 4), bytes.readFloatLE(off + 8));
      const v: number[] = [];
      for (let k = 0; k < 3; k++) {
        const o = off + 12 + 12 * k;
        v.push(merge.index(bytes.readFloatLE(o), bytes.readFloatLE(o + 4), bytes.readFloatLE(o + 8)));
      }
      // SOFA drops degenerate facets of binary files.
      if (v[0] !== v[1] && v[1] !== v[2] && v[0] !== v[2]) this.addTriangle(out, v[0], v[1], v[2]);
    }
  }
}

/** Bytes as latin1 text (one character per byte). */
function latin1(bytes: Uint8Array): string {
  return new TextDecoder('latin1').decode(bytes);
}

/** The little-endian reads of a binary STL over plain bytes (no Node Buffer). */
class LittleEndianReader {
  private readonly view: DataView;
  constructor(raw: Uint8Array) {
    this.view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  }
  get length(): number {
    return this.view.byteLength;
  }
  readUInt32LE(off: number): number {
    return this.view.getUint32(off, true);
  }
  readFloatLE(off: number): number {
    return this.view.getFloat32(off, true);
  }
}

/** Gives each distinct position an index, appending new ones to `positions` (n × 3). */
class PointMerger {
  private readonly map = new Map<string, number>();
  constructor(private readonly positions: number[]) {}

  index(x: number, y: number, z: number): number {
    const k = `${x} ${y} ${z}`;
    let i = this.map.get(k);
    if (i === undefined) {
      i = this.positions.length / 3;
      this.map.set(k, i);
      this.positions.push(x, y, z);
    }
    return i;
  }
}
