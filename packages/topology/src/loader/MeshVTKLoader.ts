import { host, sofaComponent } from '@sofa-ts/core';
import { MeshLoader, type MeshBuffers } from './MeshLoader.js';
import { MeshFileError, TextScanner, lineTokens, parseReal } from './text-scanner.js';

/** The sections of a legacy file, as read. */
interface LegacySections {
  points?: number[] | undefined;
  polygons?: { data: number[]; lines: number[] } | undefined;
  cells?: { data: number[]; n: number; lines: number[] } | undefined;
  types?: number[] | undefined;
  normals?: number[] | undefined;
}

/** Bytes per value of the legacy data types. */
const TYPE_SIZES: Record<string, number> = {
  bit: 0,
  unsigned_char: 1,
  char: 1,
  unsigned_short: 2,
  short: 2,
  unsigned_int: 4,
  int: 4,
  unsigned_long: 8,
  long: 8,
  float: 4,
  double: 8,
  vtktypeint8: 1,
  vtktypeuint8: 1,
  vtktypeint16: 2,
  vtktypeuint16: 2,
  vtktypeint32: 4,
  vtktypeuint32: 4,
  vtktypeint64: 8,
  vtktypeuint64: 8,
};

/** Reads the text lines and big-endian arrays of a binary legacy VTK file. */
class BinaryReader {
  private pos = 0;
  private readonly view: DataView;
  constructor(
    private readonly path: string,
    private readonly b: Uint8Array,
  ) {
    this.view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }

  atEnd(): boolean {
    while (this.pos < this.b.length && (this.b[this.pos] === 10 || this.b[this.pos] === 13 || this.b[this.pos] === 32)) this.pos++;
    return this.pos >= this.b.length;
  }

  /** The text up to the next newline (the newline consumed). */
  line(): string {
    if (this.pos >= this.b.length) throw this.fail('unexpected end of the file');
    let e = this.b.indexOf(10, this.pos);
    if (e < 0) e = this.b.length;
    const l = latin1(this.b.subarray(this.pos, e)).replace(/\r$/, '');
    this.pos = e + 1;
    return l;
  }

  peekLine(): string {
    const keep = this.pos;
    const l = this.pos < this.b.length ? this.line() : '';
    this.pos = keep;
    return l;
  }

  /** n values of a legacy type, big-endian; then the newline that ends the block, if any. */
  values(n: number, type: string): number[] {
    const t = type.toLowerCase();
    const size = TYPE_SIZES[t];
    if (!size) throw this.fail(`data type '${type}' is not supported in binary files`);
    if (this.pos + n * size > this.b.length) throw this.fail(`${n} values of type ${type} go past the end of the file`);
    const out = new Array<number>(n);
    const b = this.view;
    for (let i = 0, o = this.pos; i < n; i++, o += size) {
      switch (t) {
        case 'float':
          out[i] = b.getFloat32(o);
          break;
        case 'double':
          out[i] = b.getFloat64(o);
          break;
        case 'int':
        case 'vtktypeint32':
          out[i] = b.getInt32(o);
          break;
        case 'unsigned_int':
        case 'vtktypeuint32':
          out[i] = b.getUint32(o);
          break;
        case 'short':
        case 'vtktypeint16':
          out[i] = b.getInt16(o);
          break;
        case 'unsigned_short':
        case 'vtktypeuint16':
          out[i] = b.getUint16(o);
          break;
        case 'char':
        case 'vtktypeint8':
          out[i] = b.getInt8(o);
          break;
        case 'unsigned_char':
        case 'vtktypeuint8':
          out[i] = b.getUint8(o);
          break;
        default:
          out[i] = Number(b.getBigInt64(o));
          break;
      }
    }
    this.pos += n * size;
    if (this.b[this.pos] === 13) this.pos++;
    if (this.b[this.pos] === 10) this.pos++;
    return out;
  }

  fail(detail: string): MeshFileError {
    return new MeshFileError(this.path, 0, `${detail} (binary legacy file, byte ${this.pos})`);
  }
}

/** Cells as read: a flat list of point indices, where each cell starts and its VTK type. */
interface Cells {
  connectivity: number[];
  /** Start of each cell in connectivity, and its number of points. */
  start: number[];
  count: number[];
  types: number[];
}

/**
 * SOFA's MeshVTKLoader: VTK legacy files (`# vtk DataFile Version …`, ASCII or BINARY — values
 * big-endian, as the legacy format stores them —, DATASET UNSTRUCTURED_GRID or POLYDATA)
 * and XML UnstructuredGrid (.vtu) and PolyData (.vtp) files with ASCII DataArrays.
 *
 * Legacy: POINTS (float points are rounded to float32, as SOFA stores them), POLYGONS (4 points
 * a quad, more a fan of triangles), LINES (polylines), CELLS with CELL_TYPES, and NORMALS in
 * POINT_DATA. Cell types as SOFA: 3 line → edge, 4 polyline, 5 triangle, 6 triangle strip
 * (alternating orientation), 7 polygon (fan), 8 pixel → quad (0 1 3 2), 9 quad, 10 tetrahedron,
 * 11 voxel → hexahedron (0 1 3 2 4 5 7 6), 12 hexahedron, 21/22/24 quadratic edge, triangle and
 * tetrahedron (first-order part plus mid-edge points); vertices (1, 2) and empty cells are
 * ignored. Other point and cell data arrays are read past (they do not become Data).
 */
@sofaComponent({
  name: 'MeshVTKLoader',
  category: 'Loader',
  module: 'Sofa.Component.IO.Mesh',
  description: 'Mesh loader for the VTK/VTU file format.',
})
export class MeshVTKLoader extends MeshLoader {
  protected readMesh(path: string, out: MeshBuffers): void {
    const bytes = host().readBytes(path);
    const text = latin1(bytes);
    const head = text.slice(0, 512);
    const firstLine = head.split('\n')[0] ?? '';
    if (firstLine.includes('# vtk DataFile') && (head.split('\n')[2] ?? '').trim() === 'BINARY') this.readLegacyBinary(path, bytes, out);
    else if (firstLine.includes('# vtk DataFile')) this.readLegacy(new TextScanner(text, path), out);
    else if (firstLine.includes('<VTKFile') || (firstLine.includes('<?xml') && (head.split('\n')[1] ?? '').includes('<VTKFile')))
      this.readXml(path, text, out);
    else
      throw new MeshFileError(
        path,
        1,
        "not a VTK file: expected '# vtk DataFile Version x.x' (legacy) or '<VTKFile' (XML) on the first line",
      );
  }

  private readLegacy(s: TextScanner, out: MeshBuffers): void {
    s.readLine();
    s.readLine(); // title
    const format = (s.readLine() ?? '').trim();
    if (format !== 'ASCII') throw s.fail(`expected 'ASCII' or 'BINARY', found '${format}'`);
    let dataset = '';
    while (dataset === '') {
      const l = s.readLine();
      if (l === undefined) throw s.fail('expected a DATASET line, found the end of the file');
      dataset = l.trim();
    }
    if (dataset !== 'DATASET POLYDATA' && dataset !== 'DATASET UNSTRUCTURED_GRID') {
      throw s.fail(`unsupported dataset '${dataset}': expected 'DATASET UNSTRUCTURED_GRID' or 'DATASET POLYDATA'`);
    }
    let points: number[] | undefined;
    let polygons: { data: number[]; lines: number[] } | undefined;
    let cells: { data: number[]; n: number; lines: number[] } | undefined;
    let types: number[] | undefined;
    let normals: number[] | undefined;
    const readNumbers = (count: number, what: string, float32 = false): number[] => {
      const a = new Array<number>(s.count(count, `the number of values (${what})`));
      for (let i = 0; i < count; i++) a[i] = float32 ? Math.fround(s.number(what)) : s.number(what);
      return a;
    };
    /** count integers, with the line of each. */
    const readInts = (count: number, what: string): { data: number[]; lines: number[] } => {
      const data = new Array<number>(s.count(count, `the number of values (${what})`));
      const lines = new Array<number>(count);
      for (let i = 0; i < count; i++) {
        data[i] = s.int(what);
        lines[i] = s.line;
      }
      return { data, lines };
    };
    for (let l = s.readLine(); l !== undefined; l = s.readLine()) {
      const t = lineTokens(l);
      if (t.length === 0) continue;
      const kw = t[0];
      const n = (k: number, what: string): number => {
        const v = t[k];
        if (v === undefined || !/^\d+$/.test(v)) throw s.fail(`${kw}: expected ${what}, found '${v ?? 'nothing'}'`);
        return Number(v);
      };
      if (kw === 'POINTS') {
        const np = n(1, 'the number of points');
        const type = (t[2] ?? 'float').toLowerCase();
        points = readNumbers(3 * np, 'a point coordinate', type === 'float');
      } else if (kw === 'POLYGONS') {
        polygons = readInts(n(2, 'the size of the list'), 'a polygon entry');
      } else if (kw === 'CELLS') {
        cells = { n: n(1, 'the number of cells'), ...readInts(n(2, 'the size of the list'), 'a cell entry') };
      } else if (kw === 'LINES') {
        const nl = n(1, 'the number of lines');
        cells = { n: nl, ...readInts(n(2, 'the size of the list'), 'a line entry') };
        types = new Array<number>(s.count(nl, 'the number of lines')).fill(4);
      } else if (kw === 'CELL_TYPES') {
        types = readInts(n(1, 'the number of cells'), 'a cell type').data;
      } else if (kw === 'POINT_DATA' || kw === 'CELL_DATA') {
        const count = n(1, 'the number of values');
        const got = this.readAttributes(s, count, kw === 'POINT_DATA');
        if (got) normals = got;
      } else if (/^[A-Z_]+$/.test(kw) && t[1] !== undefined && t[2] !== undefined && /^\d+$/.test(t[2])) {
        // Another section with a sized list (VERTICES, TRIANGLE_STRIPS, ...): read past it.
        readInts(Number(t[2]), 'a list entry');
      }
    }
    this.assembleLegacy({ points, polygons, cells, types, normals }, (detail, line) => s.fail(detail, line), out);
  }

  /**
   * Points, faces and cells of a legacy file (ASCII or binary) into the buffers: POLYGONS (4 points a
   * quad, more a fan of triangles), else CELLS with CELL_TYPES. `lines` give where each entry was
   * read, for the messages (line numbers in ASCII, 0 in binary files).
   */
  private assembleLegacy(sec: LegacySections, fail: (detail: string, line: number) => MeshFileError, out: MeshBuffers): void {
    const { points, polygons, cells, types, normals } = sec;
    if (!points) throw fail('no POINTS section', 0);
    out.positions = points;
    if (normals) out.normals = normals;
    const np = points.length / 3;
    if (polygons) {
      const d = polygons.data;
      for (let i = 0; i < d.length;) {
        const line = polygons.lines[i] ?? 0;
        const nv = d[i++];
        if (i + nv > d.length) throw fail('POLYGONS: the list ends inside a polygon', line);
        const v = d.slice(i, i + nv);
        i += nv;
        if (v.some((k) => k < 0 || k >= np)) throw fail(`POLYGONS: a polygon uses a point out of range (the file has ${np} points)`, line);
        if (nv === 4) this.addQuad(out, v[0], v[1], v[2], v[3]);
        else if (nv >= 3) for (let j = 2; j < nv; j++) this.addTriangle(out, v[0], v[j - 1], v[j]);
      }
    } else if (cells) {
      const cellLines: number[] = [];
      if (!types) throw fail('CELLS without CELL_TYPES', cells.lines[0] ?? 0);
      if (types.length !== cells.n) throw fail(`CELL_TYPES has ${types.length} types for ${cells.n} cells`, cells.lines[0] ?? 0);
      const c: Cells = { connectivity: [], start: [], count: [], types };
      const d = cells.data;
      for (let i = 0, k = 0; k < cells.n; k++) {
        cellLines.push(cells.lines[i] ?? cells.lines[cells.lines.length - 1] ?? 0);
        const nv = d[i++];
        if (nv === undefined || i + nv > d.length) throw fail('CELLS: the list ends inside a cell', cellLines[k]);
        c.start.push(c.connectivity.length);
        c.count.push(nv);
        for (let j = 0; j < nv; j++) c.connectivity.push(d[i + j]);
        i += nv;
      }
      this.addCells(c, np, out, (detail, k) => fail(detail, cellLines[k]));
    }
  }

  /**
   * A binary legacy file: the same sections as ASCII, each header a text line followed by its
   * values in big-endian binary (float, double, int, …, as the header says; POINTS of type float
   * are float32 as read). Attribute arrays (SCALARS, VECTORS, NORMALS, FIELD, …) are read past,
   * the point NORMALS kept.
   */
  private readLegacyBinary(path: string, bytes: Uint8Array, out: MeshBuffers): void {
    const r = new BinaryReader(path, bytes);
    r.line();
    r.line(); // title
    r.line(); // BINARY
    let dataset = '';
    while (dataset === '') dataset = r.line().trim();
    if (dataset !== 'DATASET POLYDATA' && dataset !== 'DATASET UNSTRUCTURED_GRID')
      throw r.fail(`unsupported dataset '${dataset}': expected 'DATASET UNSTRUCTURED_GRID' or 'DATASET POLYDATA'`);
    const sec: LegacySections = {};
    let attributes: 'point' | 'cell' | undefined;
    let count = 0;
    while (!r.atEnd()) {
      const t = lineTokens(r.line());
      if (t.length === 0) continue;
      const kw = t[0];
      const n = (k: number, what: string): number => {
        const v = t[k];
        if (v === undefined || !/^\d+$/.test(v)) throw r.fail(`${kw}: expected ${what}, found '${v ?? 'nothing'}'`);
        return Number(v);
      };
      const ints = (m: number): { data: number[]; lines: number[] } => ({ data: r.values(m, 'int'), lines: [] });
      if (kw === 'POINTS') sec.points = r.values(3 * n(1, 'the number of points'), t[2] ?? 'float');
      else if (kw === 'POLYGONS') sec.polygons = ints(n(2, 'the size of the list'));
      else if (kw === 'CELLS') sec.cells = { n: n(1, 'the number of cells'), ...ints(n(2, 'the size of the list')) };
      else if (kw === 'LINES') {
        const nl = n(1, 'the number of lines');
        sec.cells = { n: nl, ...ints(n(2, 'the size of the list')) };
        sec.types = new Array<number>(nl).fill(4);
      } else if (kw === 'CELL_TYPES') sec.types = r.values(n(1, 'the number of cells'), 'int');
      else if (kw === 'VERTICES' || kw === 'TRIANGLE_STRIPS') r.values(n(2, 'the size of the list'), 'int');
      else if (kw === 'POINT_DATA' || kw === 'CELL_DATA') {
        attributes = kw === 'POINT_DATA' ? 'point' : 'cell';
        count = n(1, 'the number of values');
      } else if (kw === 'SCALARS') {
        const comps = t[3] !== undefined ? Number(t[3]) : 1;
        const next = r.peekLine();
        if (lineTokens(next)[0] === 'LOOKUP_TABLE') r.line();
        r.values(count * comps, t[2] ?? 'float');
      } else if (kw === 'VECTORS' || kw === 'NORMALS') {
        const v = r.values(3 * count, t[2] ?? 'float');
        if (kw === 'NORMALS' && attributes === 'point') sec.normals = v;
      } else if (kw === 'TEXTURE_COORDINATES') r.values(n(2, 'the dimension') * count, t[3] ?? 'float');
      else if (kw === 'LOOKUP_TABLE') r.values(4 * n(2, 'the table size'), 'unsigned_char');
      else if (kw === 'FIELD') {
        for (let a = Number(t[2] ?? '0'); a > 0; a--) {
          let h = lineTokens(r.line());
          while (h.length === 0) h = lineTokens(r.line());
          r.values(Number(h[1] ?? '0') * Number(h[2] ?? '0'), h[3] ?? 'float');
        }
      } else throw r.fail(`unknown section '${kw}' in a binary file`);
    }
    this.assembleLegacy(sec, (detail) => r.fail(detail), out);
  }

  /** POINT_DATA / CELL_DATA: arrays read past; the point NORMALS are returned. */
  private readAttributes(s: TextScanner, count: number, pointData: boolean): number[] | undefined {
    let normals: number[] | undefined;
    for (;;) {
      const l = peekLine(s);
      if (l === undefined) return normals;
      const t = lineTokens(l);
      if (t.length === 0) {
        s.readLine();
        continue;
      }
      const kind = t[0];
      const skip = (n: number, float32 = false): number[] => {
        const a: number[] = [];
        for (let i = 0; i < n; i++) a.push(float32 ? Math.fround(s.number('a value')) : s.number('a value'));
        return a;
      };
      if (kind === 'SCALARS') {
        s.readLine();
        const comps = t[3] !== undefined ? Number(t[3]) : 1;
        const next = peekLine(s);
        if (next !== undefined && lineTokens(next)[0] === 'LOOKUP_TABLE') s.readLine();
        skip(count * comps);
      } else if (kind === 'VECTORS') {
        s.readLine();
        skip(3 * count);
      } else if (kind === 'NORMALS') {
        s.readLine();
        const v = skip(3 * count, (t[2] ?? 'float').toLowerCase() === 'float');
        if (pointData) normals = v;
      } else if (kind === 'FIELD') {
        s.readLine();
        const arrays = Number(t[2] ?? '0');
        for (let a = 0; a < arrays; a++) {
          let h = lineTokens(s.readLine() ?? '');
          while (h.length === 0) {
            const l2 = s.readLine();
            if (l2 === undefined) throw s.fail('FIELD: the file ends before its arrays');
            h = lineTokens(l2);
          }
          skip(Number(h[1] ?? '0') * Number(h[2] ?? '0'));
        }
      } else if (kind === 'LOOKUP_TABLE') {
        s.readLine();
        skip(4 * Number(t[2] ?? '0'));
      } else {
        return normals;
      }
    }
  }

  /** Adds cells of VTK types (SOFA's subset), checking point indices. */
  private addCells(c: Cells, np: number, out: MeshBuffers, fail: (detail: string, cell: number) => MeshFileError): void {
    const edgeKeys = new Set<string>();
    const quadraticTriangleEdges = [
      [0, 1],
      [1, 2],
      [2, 0],
    ] as const;
    const quadraticTetrahedronEdges = [
      [0, 1],
      [1, 2],
      [0, 2],
      [0, 3],
      [1, 3],
      [2, 3],
    ] as const;
    const addQuadraticEdges = (v: number[], edges: readonly (readonly [number, number])[], firstMid: number): void => {
      edges.forEach(([a, b], j) => {
        const v0 = Math.min(v[a], v[b]),
          v1 = Math.max(v[a], v[b]);
        const k = `${v0},${v1}`;
        if (edgeKeys.has(k)) return;
        edgeKeys.add(k);
        out.edges.push(v0, v1);
        out.highOrderEdgePositions.push(v[firstMid + j], out.edges.length / 2 - 1, 1, 1);
      });
    };
    const need: Record<number, number> = { 3: 2, 5: 3, 8: 4, 9: 4, 10: 4, 11: 8, 12: 8, 21: 3, 22: 6, 24: 10 };
    for (let k = 0; k < c.types.length; k++) {
      const type = c.types[k];
      const v = c.connectivity.slice(c.start[k], c.start[k] + c.count[k]);
      if (need[type] !== undefined && v.length < need[type])
        throw fail(`cell ${k} of type ${type} has ${v.length} points, expected ${need[type]}`, k);
      if (v.some((i) => i < 0 || i >= np)) throw fail(`cell ${k} uses a point out of range (the file has ${np} points)`, k);
      switch (type) {
        case 0:
        case 1:
        case 2:
          break;
        case 3:
          out.edges.push(v[0], v[1]);
          break;
        case 4:
          out.polylines.push(v);
          break;
        case 5:
          this.addTriangle(out, v[0], v[1], v[2]);
          break;
        case 6:
          for (let j = 0; j < v.length - 2; j++) {
            if (j & 1) this.addTriangle(out, v[j], v[j + 1], v[j + 2]);
            else this.addTriangle(out, v[j], v[j + 2], v[j + 1]);
          }
          break;
        case 7:
          for (let j = 2; j < v.length; j++) this.addTriangle(out, v[0], v[j - 1], v[j]);
          break;
        case 8:
          this.addQuad(out, v[0], v[1], v[3], v[2]);
          break;
        case 9:
          this.addQuad(out, v[0], v[1], v[2], v[3]);
          break;
        case 10:
          out.tetrahedra.push(v[0], v[1], v[2], v[3]);
          break;
        case 11:
          out.hexahedra.push(v[0], v[1], v[3], v[2], v[4], v[5], v[7], v[6]);
          break;
        case 12:
          out.hexahedra.push(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
          break;
        case 21:
          out.edges.push(v[0], v[1]);
          out.highOrderEdgePositions.push(v[2], out.edges.length / 2 - 1, 1, 1);
          break;
        case 22:
          this.addTriangle(out, v[0], v[1], v[2]);
          addQuadraticEdges(v, quadraticTriangleEdges, 3);
          break;
        case 24:
          out.tetrahedra.push(v[0], v[1], v[2], v[3]);
          addQuadraticEdges(v, quadraticTetrahedronEdges, 4);
          break;
        default:
          throw fail(`unsupported cell type ${type} (cell ${k})`, k);
      }
    }
  }

  /**
   * XML UnstructuredGrid (.vtu) and PolyData (.vtp) with ASCII DataArrays: Points, point Normals, and
   * Cells (connectivity, offsets, types) or Polys / Strips / Lines (connectivity, offsets).
   */
  private readXml(path: string, text: string, out: MeshBuffers): void {
    const lineAt = (offset: number): number => {
      let n = 1;
      for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
      return n;
    };
    const fail = (offset: number, detail: string): MeshFileError => new MeshFileError(path, offset < 0 ? 0 : lineAt(offset), detail);
    const root = /<VTKFile\b([^>]*)>/.exec(text);
    if (!root) throw fail(0, 'no <VTKFile> element');
    const type = attr(root[1], 'type');
    if (type !== 'UnstructuredGrid' && type !== 'PolyData')
      throw fail(root.index, `VTK XML dataset '${type ?? '?'}' is not supported (UnstructuredGrid and PolyData are)`);
    // SOFA reads every Piece and keeps the last one.
    const pieces = [...text.matchAll(/<Piece\b([^>]*)>([\s\S]*?)<\/Piece>/g)];
    if (pieces.length === 0) throw fail(root.index, 'no <Piece> in the UnstructuredGrid');
    const piece = pieces[pieces.length - 1];
    const pieceStart = piece.index! + piece[0].indexOf('>') + 1;
    const nPoints = Number(attr(piece[1], 'NumberOfPoints') ?? NaN);
    const nCells = type === 'PolyData' ? 0 : Number(attr(piece[1], 'NumberOfCells') ?? NaN);
    if (!Number.isInteger(nPoints) || !Number.isInteger(nCells)) throw fail(piece.index!, '<Piece> needs NumberOfPoints and NumberOfCells');
    const body = piece[2];
    const section = (name: string): { text: string; offset: number } | undefined => {
      const m = new RegExp(`<${name}\\b[^>]*>([\\s\\S]*?)</${name}>`).exec(body);
      return m ? { text: m[1], offset: pieceStart + m.index + m[0].indexOf('>') + 1 } : undefined;
    };
    const arrays = (sec: {
      text: string;
      offset: number;
    }): Array<{ name: string | undefined; values: number[]; offset: number; components: number }> =>
      [...sec.text.matchAll(/<DataArray\b([^>]*?)(\/>|>([\s\S]*?)<\/DataArray>)/g)].map((m) => {
        const a = m[1];
        const offset = sec.offset + m.index!;
        const format = attr(a, 'format') ?? attr(a, 'Format');
        if (format !== 'ascii')
          throw fail(offset, `DataArray format '${format ?? '?'}' is not supported: save the file with ASCII data arrays`);
        const values: number[] = [];
        for (const tok of lineTokens(m[3] ?? '')) {
          const v = parseReal(tok);
          if (v === undefined) throw fail(offset, `DataArray '${attr(a, 'Name') ?? ''}': '${tok}' is not a number`);
          values.push(v);
        }
        return { name: attr(a, 'Name'), values, offset, components: Number(attr(a, 'NumberOfComponents') ?? '1') };
      });
    const pts = section('Points');
    if (!pts) throw fail(pieceStart, 'no <Points> section');
    const pointArray = arrays(pts)[0];
    if (!pointArray) throw fail(pts.offset, '<Points> has no DataArray');
    if (pointArray.values.length < 3 * nPoints)
      throw fail(pointArray.offset, `<Points> has ${pointArray.values.length} values, expected ${3 * nPoints}`);
    out.positions = pointArray.values.slice(0, 3 * nPoints);
    const pd = section('PointData');
    if (pd) {
      const normals = arrays(pd).find((a) => a.name === 'Normals' && a.components === 3);
      if (normals) out.normals = normals.values.slice(0, 3 * nPoints);
    }
    if (type === 'PolyData') {
      // Polys (3 points a triangle, 4 a quad, more a fan), Strips and Lines, each as connectivity + offsets.
      const c: Cells = { connectivity: [], start: [], count: [], types: [] };
      for (const [name, cellType] of [
        ['Polys', 7],
        ['Strips', 6],
        ['Lines', 4],
      ] as const) {
        const sec = section(name);
        if (!sec) continue;
        const a = arrays(sec);
        const conn = a.find((x) => x.name === 'connectivity')?.values,
          off = a.find((x) => x.name === 'offsets')?.values;
        if (!conn || !off) throw fail(sec.offset, `<${name}> needs the DataArrays 'connectivity' and 'offsets'`);
        for (let k = 0; k < off.length; k++) {
          const start = k === 0 ? 0 : off[k - 1];
          const n = off[k] - start;
          c.start.push(c.connectivity.length);
          c.count.push(n);
          for (let j = 0; j < n; j++) c.connectivity.push(conn[start + j]);
          c.types.push(cellType === 7 ? (n === 3 ? 5 : n === 4 ? 9 : 7) : cellType);
        }
      }
      this.addCells(c, nPoints, out, (detail) => fail(pieceStart, detail));
      return;
    }
    const cs = section('Cells');
    if (!cs) {
      if (nCells > 0) throw fail(pieceStart, 'no <Cells> section');
      return;
    }
    const ca = arrays(cs);
    const get = (n: string): number[] => {
      const a = ca.find((x) => x.name === n);
      if (!a) throw fail(cs.offset, `<Cells> has no DataArray named '${n}'`);
      return a.values;
    };
    const connectivity = get('connectivity');
    const offsets = get('offsets');
    const types = get('types');
    if (offsets.length < nCells || types.length < nCells)
      throw fail(cs.offset, `<Cells> describes ${Math.min(offsets.length, types.length)} cells, the piece has ${nCells}`);
    const c: Cells = { connectivity, start: [], count: [], types: types.slice(0, nCells) };
    for (let k = 0; k < nCells; k++) {
      const start = k === 0 ? 0 : offsets[k - 1];
      c.start.push(start);
      c.count.push(offsets[k] - start);
    }
    this.addCells(c, nPoints, out, (detail) => fail(cs.offset, detail));
  }
}

/** The bytes as latin1 text (one character per byte). */
function latin1(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i += 8192) s += String.fromCharCode(...b.subarray(i, i + 8192));
  return s;
}

function peekLine(s: TextScanner): string | undefined {
  return s.peekLine();
}

function attr(attrs: string, name: string): string | undefined {
  const m = new RegExp(`\\b${name}\\s*=\\s*("([^"]*)"|'([^']*)')`).exec(attrs);
  return m ? (m[2] ?? m[3]) : undefined;
}
