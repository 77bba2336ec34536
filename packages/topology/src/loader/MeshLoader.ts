import { Bool, DataEngine, IndexArray, IndexLists, RealArray, requireDataFile, Str, Vec3, type Data } from '@sofa-ts/core';
import { MeshFileError } from './text-scanner.js';
import { applyTransform4, isAffine4, isIdentity4, trsMatrix } from './transform.js';

/** What a file reader fills: flat arrays (points × 3, elements × vertices per element). */
export interface MeshBuffers {
  positions: number[];
  normals: number[];
  edges: number[];
  triangles: number[];
  quads: number[];
  polygons: number[][];
  polylines: number[][];
  tetrahedra: number[];
  hexahedra: number[];
  pentahedra: number[];
  pyramids: number[];
  /** (mid-edge point, edge index, 1, 1) per quadratic edge, as SOFA's HighOrderEdgePosition. */
  highOrderEdgePositions: number[];
}

export function emptyMeshBuffers(): MeshBuffers {
  return {
    positions: [],
    normals: [],
    edges: [],
    triangles: [],
    quads: [],
    polygons: [],
    polylines: [],
    tetrahedra: [],
    hexahedra: [],
    pentahedra: [],
    pyramids: [],
    highOrderEdgePositions: [],
  };
}

const identity4 = Float64Array.of(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1);

/**
 * SOFA's MeshLoader: the base of the loaders that read a mesh file into Data (position, edges,
 * triangles, quads, tetrahedra, hexahedra, ...), which topology containers and mechanical states
 * follow through links (`src="@loader"`, `position="@loader.position"`).
 *
 * After reading, as SOFA's MeshLoader::reinit does:
 *  1. positions p ← M·[p; 1] with M = `transformation` when it is not the identity, otherwise
 *     M = T(translation)·R(rotation, Euler degrees, x then y then z)·S(scale3d);
 *  2. elements: `triangulate` splits each quad (a b c d) into (a b c) and (a c d); with
 *     `createSubelements` the missing boundary elements are added (hexahedra → quads, pentahedra
 *     and pyramids → quads and triangles, tetrahedra → triangles, quads and triangles → edges);
 *  3. `onlyAttachedPoints` drops the points no element uses (renumbering the elements);
 *  4. normals: when the file gave none per point, each point gets the normalised sum of the unit
 *     normals of its triangles and quad corners.
 * `flipNormals` reverses the vertex order of triangles, quads and polygons as they are added.
 * As in SOFA, the parameters (flags, translation, rotation, scale3d, transformation) are not
 * followed through `src="@loader"`: a state built from the loader must not transform twice.
 * The loader is an engine whose input is its file: it reads at init, and again when a reader
 * asks for an output after the filename or a transform parameter changed.
 */
export abstract class MeshLoader extends DataEngine {
  readonly isMeshLoader = true;

  readonly filename = this.initData({
    name: 'filename',
    type: Str,
    default: '',
    help: 'path of the mesh file (relative to the scene, the data paths or SOFA_DATA_PATH)',
  });
  readonly position = this.initData({
    name: 'position',
    type: RealArray(3, 'vector<Vec3d>'),
    default: new Float64Array(0),
    help: 'vertices of the mesh loaded',
    group: 'Vectors',
    output: true,
  });
  readonly polylines = this.initData({
    name: 'polylines',
    type: IndexLists('vector<vector<unsigned int>>'),
    default: [],
    help: 'polylines of the mesh loaded',
    group: 'Vectors',
    output: true,
  });
  readonly edges = this.initData({
    name: 'edges',
    type: IndexArray(2, 'vector<Edge>'),
    default: new Uint32Array(0),
    help: 'edges of the mesh loaded',
    group: 'Vectors',
    output: true,
  });
  readonly triangles = this.initData({
    name: 'triangles',
    type: IndexArray(3, 'vector<Triangle>'),
    default: new Uint32Array(0),
    help: 'triangles of the mesh loaded',
    group: 'Vectors',
    output: true,
  });
  readonly quads = this.initData({
    name: 'quads',
    type: IndexArray(4, 'vector<Quad>'),
    default: new Uint32Array(0),
    help: 'quads of the mesh loaded',
    group: 'Vectors',
    output: true,
  });
  readonly polygons = this.initData({
    name: 'polygons',
    type: IndexLists('vector<vector<unsigned int>>'),
    default: [],
    help: 'polygons of the mesh loaded',
    group: 'Vectors',
    output: true,
  });
  readonly highOrderEdgePositions = this.initData({
    name: 'highOrderEdgePositions',
    type: IndexArray(4, 'vector<HighOrderEdgePosition>'),
    default: new Uint32Array(0),
    help: 'high order edge points of the mesh loaded (mid point, edge index, 1, 1)',
    group: 'Vectors',
    output: true,
  });
  readonly tetrahedra = this.initData({
    name: 'tetrahedra',
    type: IndexArray(4, 'vector<Tetrahedron>'),
    default: new Uint32Array(0),
    help: 'tetrahedra of the mesh loaded',
    group: 'Vectors',
    output: true,
    aliases: ['tetras'],
  });
  readonly hexahedra = this.initData({
    name: 'hexahedra',
    type: IndexArray(8, 'vector<Hexahedron>'),
    default: new Uint32Array(0),
    help: 'hexahedra of the mesh loaded',
    group: 'Vectors',
    output: true,
    aliases: ['hexas'],
  });
  readonly pentahedra = this.initData({
    name: 'pentahedra',
    type: IndexArray(6, 'vector<Pentahedron>'),
    default: new Uint32Array(0),
    help: 'pentahedra (prisms) of the mesh loaded',
    group: 'Vectors',
    output: true,
    aliases: ['pentas'],
  });
  readonly pyramids = this.initData({
    name: 'pyramids',
    type: IndexArray(5, 'vector<Pyramid>'),
    default: new Uint32Array(0),
    help: 'pyramids of the mesh loaded',
    group: 'Vectors',
    output: true,
  });
  readonly normals = this.initData({
    name: 'normals',
    type: RealArray(3, 'vector<Vec3d>'),
    default: new Float64Array(0),
    help: 'normals of the mesh loaded (per point)',
    group: 'Vectors',
    output: true,
  });
  readonly flipNormals = this.initData({
    name: 'flipNormals',
    type: Bool,
    default: false,
    help: 'reverse the vertex order of triangles, quads and polygons (flips their normals)',
    autoLink: false,
  });
  readonly triangulate = this.initData({
    name: 'triangulate',
    type: Bool,
    default: false,
    help: 'divide all polygons into triangles',
    autoLink: false,
  });
  readonly createSubelements = this.initData({
    name: 'createSubelements',
    type: Bool,
    default: false,
    help: 'add the missing (n-1)-D boundary elements of the n-D elements (e.g. the triangles of the tetrahedra)',
    autoLink: false,
  });
  readonly onlyAttachedPoints = this.initData({
    name: 'onlyAttachedPoints',
    type: Bool,
    default: false,
    help: 'only keep the points attached to elements of the mesh',
    autoLink: false,
  });
  readonly translation = this.initData({
    name: 'translation',
    type: Vec3,
    default: new Float64Array(3),
    help: 'translation of the points',
    autoLink: false,
  });
  readonly rotation = this.initData({
    name: 'rotation',
    type: Vec3,
    default: new Float64Array(3),
    unit: 'deg',
    help: 'rotation of the points (Euler angles in degrees, about x, then y, then z)',
    autoLink: false,
  });
  readonly scale3d = this.initData({
    name: 'scale3d',
    type: Vec3,
    default: Float64Array.of(1, 1, 1),
    help: 'scale of the points along x, y and z',
    autoLink: false,
  });
  readonly scale = this.initData({
    name: 'scale',
    type: RealArray(0, 'double'),
    default: Float64Array.of(1),
    help: 'uniform scale: multiplies scale3d once, when the component is initialised (SOFA reads this attribute when parsing the scene, as a single number: only the first of several is used, with a warning)',
    autoLink: false,
  });
  readonly transformation = this.initData({
    name: 'transformation',
    type: RealArray(16, 'Mat4x4d'),
    default: Float64Array.from(identity4),
    help: '4x4 homogeneous matrix (row-major) transforming the points; when not the identity it replaces translation, rotation and scale3d',
    autoLink: false,
  });

  constructor() {
    super();
    this.addInput(
      this.filename,
      this.flipNormals,
      this.triangulate,
      this.createSubelements,
      this.onlyAttachedPoints,
      this.translation,
      this.rotation,
      this.scale3d,
      this.transformation,
    );
    this.addOutput(
      this.position,
      this.polylines,
      this.edges,
      this.triangles,
      this.quads,
      this.polygons,
      this.highOrderEdgePositions,
      this.tetrahedra,
      this.hexahedra,
      this.pentahedra,
      this.pyramids,
      this.normals,
    );
  }

  /** Reads the file at `path` into `out` (elements added through addTriangle/addQuad/addPolygon). */
  protected abstract readMesh(path: string, out: MeshBuffers): void;

  /** The raw elements of a file in this loader's format (no transform, no derived elements):
   *  what a topology container's `filename` reads. Throws MeshFileError on a bad file. */
  readRawMesh(path: string): MeshBuffers {
    const buf = emptyMeshBuffers();
    this.readMesh(path, buf);
    return buf;
  }

  /** A loader whose Data are set from the scene only and reads no file overrides this. */
  protected needsFile(): boolean {
    return true;
  }

  override init(): void {
    const given = this.scale.value;
    if (given.length > 1)
      this.warn(
        `'scale' has ${given.length} values: SOFA reads a single uniform factor, ${given[0]} is used`,
        "write scale3d='sx sy sz' for a scale per axis",
      );
    if (this.scale.isSet && given.length > 0 && given[0] !== 1) {
      const s = given[0];
      this.scale3d.value = Float64Array.from(this.scale3d.value, (v) => v * s);
    }
    this.startUpdates();
  }

  /** Reads the file and builds every output Data. */
  protected updateOutputs(): void {
    const name = this.filename.value.trim();
    if (name === '') throw this.error('no mesh file given', "set filename='path/to/mesh'");
    const path = requireDataFile(this, name, 'mesh file');
    const buf = emptyMeshBuffers();
    try {
      this.readMesh(path, buf);
    } catch (e) {
      if (e instanceof MeshFileError) throw this.error(`cannot read mesh file ${e.message}`);
      throw e;
    }
    this.finishMesh(buf);
  }

  /** Transform, elements, attached points and normals (SOFA's reinit), then publishes the Data. */
  protected finishMesh(buf: MeshBuffers): void {
    const positions = Float64Array.from(buf.positions);
    const bad = positions.findIndex((x) => !Number.isFinite(x));
    if (bad >= 0)
      throw this.error(`point ${Math.floor(bad / 3)} of the mesh '${this.filename.value}' has a non-finite coordinate (${positions[bad]})`);
    this.transformPoints(positions);
    this.updateElements(buf);
    const kept = this.updatePoints(buf, positions);
    const normals = computeNormals(kept, buf.triangles, buf.quads, buf.normals);
    this.position.value = kept;
    this.normals.value = normals;
    this.edges.value = Uint32Array.from(buf.edges);
    this.triangles.value = Uint32Array.from(buf.triangles);
    this.quads.value = Uint32Array.from(buf.quads);
    this.polygons.value = buf.polygons;
    this.polylines.value = buf.polylines;
    this.tetrahedra.value = Uint32Array.from(buf.tetrahedra);
    this.hexahedra.value = Uint32Array.from(buf.hexahedra);
    this.pentahedra.value = Uint32Array.from(buf.pentahedra);
    this.pyramids.value = Uint32Array.from(buf.pyramids);
    this.highOrderEdgePositions.value = Uint32Array.from(buf.highOrderEdgePositions);
  }

  /** positions ← M·[p; 1] (transformation if not the identity, else T·R·S). */
  protected transformPoints(positions: Float64Array): void {
    const t = this.transformation.value;
    if (t.length !== 16) throw this.error(`'transformation' has ${t.length} numbers, expected 16 (a 4x4 matrix)`);
    const m = isIdentity4(t) ? trsMatrix(this.translation.value, this.rotation.value, this.scale3d.value) : t;
    // SOFA ignores a matrix that is not an affine transform.
    if (!isIdentity4(m) && isAffine4(m)) applyTransform4(m, positions);
  }

  // ---- elements added by the readers --------------------------------------------------------

  protected addTriangle(out: MeshBuffers, a: number, b: number, c: number): void {
    if (this.flipNormals.value) out.triangles.push(c, b, a);
    else out.triangles.push(a, b, c);
  }

  protected addQuad(out: MeshBuffers, a: number, b: number, c: number, d: number): void {
    if (this.flipNormals.value) out.quads.push(d, c, b, a);
    else out.quads.push(a, b, c, d);
  }

  protected addPolygon(out: MeshBuffers, p: number[]): void {
    out.polygons.push(this.flipNormals.value ? p.slice().reverse() : p);
  }

  // ---- SOFA's updateElements and updatePoints -----------------------------------------------

  /** Triangulation of quads, then the missing boundary elements (createSubelements). */
  protected updateElements(buf: MeshBuffers): void {
    if (this.triangulate.value) {
      const q = buf.quads;
      buf.quads = [];
      for (let i = 0; i < q.length; i += 4) {
        this.addTriangle(buf, q[i], q[i + 1], q[i + 2]);
        this.addTriangle(buf, q[i], q[i + 2], q[i + 3]);
      }
    }
    if (!this.createSubelements.value) return;
    const h = buf.hexahedra;
    if (h.length > 0) {
      const quads = new ElementSet(buf.quads, 4);
      for (let i = 0; i < h.length; i += 8) {
        const [a, b, c, d, e, f, g, k] = [h[i], h[i + 1], h[i + 2], h[i + 3], h[i + 4], h[i + 5], h[i + 6], h[i + 7]];
        quads.add([a, d, c, b]);
        quads.add([e, f, g, k]);
        quads.add([a, b, f, e]);
        quads.add([b, c, g, f]);
        quads.add([c, d, k, g]);
        quads.add([d, a, e, k]);
      }
    }
    const pe = buf.pentahedra;
    if (pe.length > 0) {
      const quads = new ElementSet(buf.quads, 4);
      const tris = new ElementSet(buf.triangles, 3);
      for (let i = 0; i < pe.length; i += 6) {
        const p = pe.slice(i, i + 6);
        quads.add([p[0], p[3], p[4], p[1]]);
        quads.add([p[0], p[2], p[5], p[3]]);
        quads.add([p[1], p[4], p[5], p[2]]);
        tris.add([p[0], p[1], p[2]]);
        tris.add([p[4], p[3], p[5]]);
      }
    }
    const py = buf.pyramids;
    if (py.length > 0) {
      const quads = new ElementSet(buf.quads, 4);
      const tris = new ElementSet(buf.triangles, 3);
      for (let i = 0; i < py.length; i += 5) {
        const p = py.slice(i, i + 5);
        quads.add([p[0], p[3], p[2], p[1]]);
        tris.add([p[0], p[1], p[4]]);
        tris.add([p[1], p[2], p[4]]);
        tris.add([p[3], p[4], p[2]]);
        tris.add([p[0], p[4], p[3]]);
      }
    }
    const t = buf.tetrahedra;
    if (t.length > 0) {
      const tris = new ElementSet(buf.triangles, 3);
      for (let i = 0; i < t.length; i += 4) {
        const [a, b, c, d] = [t[i], t[i + 1], t[i + 2], t[i + 3]];
        tris.add([a, c, b]);
        tris.add([a, b, d]);
        tris.add([a, d, c]);
        tris.add([b, c, d]);
      }
    }
    // Edges of quads, then of triangles: edge j of an n-gon joins vertices j+1 and j+2 (mod n).
    for (const [elems, n] of [
      [buf.quads, 4],
      [buf.triangles, 3],
    ] as const) {
      if (elems.length === 0) continue;
      const edges = new ElementSet(buf.edges, 2);
      for (let i = 0; i < elems.length; i += n) {
        for (let j = 0; j < n; j++) edges.add([elems[i + ((j + 1) % n)], elems[i + ((j + 2) % n)]]);
      }
    }
  }

  /** onlyAttachedPoints: keeps the points used by an element, in index order, renumbering elements. */
  protected updatePoints(buf: MeshBuffers, positions: Float64Array): Float64Array {
    if (!this.onlyAttachedPoints.value) return positions;
    const n = positions.length / 3;
    const used = new Uint8Array(n);
    const lists = [buf.edges, buf.triangles, buf.quads, buf.tetrahedra, buf.pentahedra, buf.pyramids, buf.hexahedra];
    for (const l of lists) for (const v of l) if (v < n) used[v] = 1;
    let count = 0;
    for (let i = 0; i < n; i++) count += used[i];
    if (count === n) return positions;
    const old2new = new Uint32Array(n);
    const kept = new Float64Array(3 * count);
    let p = 0;
    for (let i = 0; i < n; i++) {
      if (!used[i]) continue;
      old2new[i] = p;
      kept[3 * p] = positions[3 * i];
      kept[3 * p + 1] = positions[3 * i + 1];
      kept[3 * p + 2] = positions[3 * i + 2];
      p++;
    }
    for (const l of lists) for (let k = 0; k < l.length; k++) l[k] = old2new[l[k]];
    return kept;
  }

  /** The Data a subclass adds as outputs of the file (texture coordinates, radii, ...). */
  protected addFileOutputs(...data: Data<unknown>[]): void {
    this.addOutput(...data);
  }
}

export function isMeshLoader(o: unknown): o is MeshLoader {
  return typeof o === 'object' && o !== null && (o as { isMeshLoader?: unknown }).isMeshLoader === true;
}

/**
 * A growing flat list of elements with a set of their sorted vertex tuples: `add` appends an
 * element (in its given vertex order) only when no element with the same vertices is there.
 */
class ElementSet {
  private readonly keys = new Set<string>();

  constructor(
    private readonly list: number[],
    private readonly n: number,
  ) {
    for (let i = 0; i < list.length; i += n) this.keys.add(key(list.slice(i, i + n)));
  }

  add(e: number[]): void {
    const k = key(e);
    if (this.keys.has(k)) return;
    this.keys.add(k);
    for (let j = 0; j < this.n; j++) this.list.push(e[j]);
  }
}

function key(e: number[]): string {
  return e
    .slice()
    .sort((a, b) => a - b)
    .join(',');
}

/**
 * Per-point normals as SOFA's MeshLoader::updateNormals: kept when there is one per point;
 * otherwise the array is resized to one per point (keeping what it held) and each point adds the
 * unit normal (b−a)×(c−a) of its triangles and, for quad corners, the unit normal of the two
 * edges leaving the corner; every normal is then normalised (zero ones stay zero).
 */
export function computeNormals(
  positions: Float64Array,
  triangles: ArrayLike<number>,
  quads: ArrayLike<number>,
  given: ArrayLike<number>,
): Float64Array {
  const n = positions.length / 3;
  if (given.length === positions.length) return Float64Array.from(given);
  const out = new Float64Array(3 * n);
  for (let i = 0; i < Math.min(given.length, out.length); i++) out[i] = given[i];
  const acc = (p: number, a: number, b: number, c: number): void => {
    // unit ((b − a) × (c − a)) added to point p
    const ux = positions[3 * b] - positions[3 * a],
      uy = positions[3 * b + 1] - positions[3 * a + 1],
      uz = positions[3 * b + 2] - positions[3 * a + 2];
    const vx = positions[3 * c] - positions[3 * a],
      vy = positions[3 * c + 1] - positions[3 * a + 1],
      vz = positions[3 * c + 2] - positions[3 * a + 2];
    let nx = uy * vz - uz * vy,
      ny = uz * vx - ux * vz,
      nz = ux * vy - uy * vx;
    const r = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (r > Number.EPSILON) {
      nx /= r;
      ny /= r;
      nz /= r;
    }
    out[3 * p] += nx;
    out[3 * p + 1] += ny;
    out[3 * p + 2] += nz;
  };
  for (let i = 0; i < triangles.length; i += 3) {
    const a = triangles[i],
      b = triangles[i + 1],
      c = triangles[i + 2];
    acc(a, a, b, c);
    acc(b, a, b, c);
    acc(c, a, b, c);
  }
  for (let i = 0; i < quads.length; i += 4) {
    const q = [quads[i], quads[i + 1], quads[i + 2], quads[i + 3]];
    // corner k: (q[k+1] − q[k]) × (q[k−1] − q[k])
    for (let k = 0; k < 4; k++) acc(q[k], q[k], q[(k + 1) % 4], q[(k + 3) % 4]);
  }
  for (let p = 0; p < n; p++) {
    const x = out[3 * p],
      y = out[3 * p + 1],
      z = out[3 * p + 2];
    const r = Math.sqrt(x * x + y * y + z * z);
    if (r > Number.EPSILON) {
      out[3 * p] = x / r;
      out[3 * p + 1] = y / r;
      out[3 * p + 2] = z / r;
    }
  }
  return out;
}
