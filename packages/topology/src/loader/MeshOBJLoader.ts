import { Bool, host, IndexArray, IndexLists, RealArray, sofaComponent, Str, StringArray } from '@sofa-ts/core';
import { MeshLoader, type MeshBuffers } from './MeshLoader.js';
import { MeshFileError, lineTokens, parseReal } from './text-scanner.js';

/**
 * SOFA's MeshOBJLoader (alias MeshObjLoader): Wavefront .obj files.
 *
 * `v x y z` points, `vn` normals, `vt u v` texture coordinates, `f`/`l` faces and lines whose
 * items are `v`, `v/t`, `v//n` or `v/t/n` (1-based, negative = relative to the end). A line gives
 * an edge (smallest index first), a 4-item face a quad (unless triangulate), any other face a fan
 * of triangles (v0, v_{j−1}, v_j).
 * Without handleSeams each point keeps one texture coordinate (the first one met, replaced by a
 * later one when −Δu + Δv > 0, as SOFA does) and the normalised sum of the normals its faces give
 * it. With handleSeams a point is split into one vertex per distinct (texcoord, normal) pair used
 * by the faces, in point order then pair order, and the faces are renumbered; unused points are
 * dropped.
 */
@sofaComponent({
  name: 'MeshOBJLoader',
  aliases: ['MeshObjLoader'],
  category: 'Loader',
  module: 'Sofa.Component.IO.Mesh',
  description: 'Specific mesh loader for OBJ file format.',
})
export class MeshOBJLoader extends MeshLoader {
  readonly handleSeams = this.initData({
    name: 'handleSeams',
    type: Bool,
    default: false,
    help: 'preserve UV and normal seams (vertices with several texture coordinates or normals are duplicated)',
  });
  readonly loadMaterial = this.initData({
    name: 'loadMaterial',
    type: Bool,
    default: true,
    help: 'load the material library (.mtl) the file names',
  });
  readonly defaultMaterial = this.initData({
    name: 'defaultMaterial',
    type: Str,
    default: '',
    help: 'name of the first material used by the faces',
    group: 'Shading',
    aliases: ['material'],
  });
  readonly materials = this.initData({
    name: 'materials',
    type: StringArray,
    default: [],
    help: 'names of the materials of the material library',
    group: 'Shading',
    output: true,
  });
  readonly faceList = this.initData({
    name: 'faceList',
    type: IndexLists('vector<SVector<int>>', true),
    default: [],
    help: 'point indices of each face as written in the file (0-based)',
    group: 'Geometry',
    output: true,
  });
  readonly texcoordsIndex = this.initData({
    name: 'texcoordsIndex',
    type: IndexLists('vector<SVector<int>>', true),
    default: [],
    help: 'texture coordinate indices of each face (-1 when absent)',
    group: 'Texturing',
    output: true,
  });
  readonly positionsDefinition = this.initData({
    name: 'positionsDefinition',
    type: RealArray(3, 'vector<Vec3d>'),
    default: new Float64Array(0),
    help: 'vertex positions definition',
    group: 'Geometry',
    output: true,
  });
  readonly texcoordsDefinition = this.initData({
    name: 'texcoordsDefinition',
    type: RealArray(2, 'vector<Vec2d>'),
    default: new Float64Array(0),
    help: 'texture coordinates as defined in the file (vt)',
    group: 'Texturing',
    output: true,
  });
  readonly normalsIndex = this.initData({
    name: 'normalsIndex',
    type: IndexLists('vector<SVector<int>>', true),
    default: [],
    help: 'normal indices of each face (-1 when absent)',
    group: 'Geometry',
    output: true,
  });
  readonly normalsDefinition = this.initData({
    name: 'normalsDefinition',
    type: RealArray(3, 'vector<Vec3d>'),
    default: new Float64Array(0),
    help: 'normals as defined in the file (vn)',
    group: 'Geometry',
    output: true,
  });
  readonly texcoords = this.initData({
    name: 'texcoords',
    type: RealArray(2, 'vector<Vec2d>'),
    default: new Float64Array(0),
    help: 'texture coordinates per point, to be used as the parent of a visual model texcoords',
    group: 'Texturing',
    output: true,
  });
  readonly computeMaterialFaces = this.initData({
    name: 'computeMaterialFaces',
    type: Bool,
    default: false,
    help: 'export the list of face indices of each material (accepted; not computed)',
  });
  readonly vertPosIdx = this.initData({
    name: 'vertPosIdx',
    type: IndexArray(1),
    default: new Uint32Array(0),
    help: 'with handleSeams, when points were split: the file point of each vertex',
    group: 'Geometry',
    output: true,
  });
  readonly vertNormIdx = this.initData({
    name: 'vertNormIdx',
    type: IndexArray(1),
    default: new Uint32Array(0),
    help: 'with handleSeams, when points were split: the normal index of each vertex',
    group: 'Geometry',
    output: true,
  });

  constructor() {
    super();
    this.addInput(this.handleSeams);
    this.addFileOutputs(
      this.materials,
      this.faceList,
      this.texcoordsIndex,
      this.texcoordsDefinition,
      this.normalsIndex,
      this.normalsDefinition,
      this.texcoords,
      this.vertPosIdx,
      this.vertNormIdx,
    );
  }

  protected readMesh(path: string, out: MeshBuffers): void {
    const text = host().readText(path, 'latin1');
    const pos: number[] = [];
    const nor: number[] = [];
    const tex: number[] = [];
    const faces: number[][] = [];
    const faceTex: number[][] = [];
    const faceNor: number[][] = [];
    const faceLines: number[] = [];
    const materialNames: string[] = [];
    let firstMaterial = '';
    const lines = text.split('\n');
    const fail = (line: number, detail: string): MeshFileError => new MeshFileError(path, line, detail);
    const num = (t: string | undefined, line: number, what: string): number => {
      const v = t === undefined ? undefined : parseReal(t);
      if (v === undefined) throw fail(line, `expected ${what} (a number), found ${t === undefined ? 'the end of the line' : `'${t}'`}`);
      return v;
    };
    let shortVertexLine = 0;
    for (let li = 0; li < lines.length; li++) {
      const line = li + 1;
      const t = lineTokens(lines[li]);
      if (t.length === 0) continue;
      switch (t[0]) {
        case 'v': {
          // SOFA streams x y z into one vector reused from line to line: a missing coordinate
          // keeps the previous point's (0 at the first), as 'v 0' files of scalar values expect.
          const k = pos.length;
          const prev = (c: number): number => (k >= 3 ? pos[k - 3 + c] : 0);
          if (t.length < 4 && t.length > 1 && !shortVertexLine) shortVertexLine = line;
          pos.push(num(t[1], line, 'x'), t.length > 2 ? num(t[2], line, 'y') : prev(1), t.length > 3 ? num(t[3], line, 'z') : prev(2));
          break;
        }
        case 'vn':
          nor.push(num(t[1], line, 'x'), num(t[2], line, 'y'), num(t[3], line, 'z'));
          break;
        case 'vt':
          tex.push(num(t[1], line, 'u'), num(t[2], line, 'v'));
          break;
        case 'mtllib':
          if (this.loadMaterial.value)
            for (const lib of t.slice(1)) materialNames.push(...readMaterialNames(host().path.resolve(host().path.dirname(path), lib)));
          break;
        case 'usemtl':
          if (firstMaterial === '' && t[1] !== undefined && materialNames.includes(t[1])) firstMaterial = t[1];
          break;
        case 'f':
        case 'l': {
          const v: number[] = [],
            vt: number[] = [],
            vn: number[] = [];
          for (const item of t.slice(1)) {
            const parts = item.split('/');
            const counts = [pos.length / 3, tex.length / 2, nor.length / 3];
            const idx = [0, 1, 2].map((j) => {
              const p = parts[j];
              if (p === undefined || p === '') return -1;
              if (!/^[+-]?\d+$/.test(p)) throw fail(line, `bad face item '${item}': expected v, v/t, v//n or v/t/n with integer indices`);
              const k = Number(p);
              if (k === 0) throw fail(line, `bad face item '${item}': OBJ indices start at 1`);
              return k > 0 ? k - 1 : k + counts[j];
            });
            v.push(idx[0]);
            vt.push(idx[1]);
            vn.push(idx[2]);
          }
          if (v.some((k) => k < 0)) throw fail(line, 'a face item has no point index');
          faces.push(v);
          faceTex.push(vt);
          faceNor.push(vn);
          faceLines.push(line);
          break;
        }
        default:
          break;
      }
    }
    if (shortVertexLine)
      this.warn(
        `${path}:${shortVertexLine}: a 'v' line has fewer than 3 coordinates; as SOFA, each missing one keeps the previous point's value (0 at the first point)`,
      );
    const np = pos.length / 3;
    faces.forEach((f, i) => {
      for (const k of f) if (k >= np) throw fail(faceLines[i], `face uses point ${k + 1}, but the file defines ${np} points`);
    });

    this.faceList.value = faces;
    this.texcoordsIndex.value = faceTex;
    this.normalsIndex.value = faceNor;
    this.texcoordsDefinition.value = Float64Array.from(tex);
    this.normalsDefinition.value = Float64Array.from(nor);
    this.materials.value = materialNames;
    if (!this.defaultMaterial.isSet || this.defaultMaterial.value === '') this.defaultMaterial.value = firstMaterial;

    if (!this.handleSeams.value) {
      out.positions = pos;
      for (const f of faces) this.addFace(out, f);
      // One texture coordinate and one normal per point.
      const nt = tex.length / 2,
        nn = nor.length / 3;
      const vtex = new Float64Array(nt > 0 ? 2 * np : 0);
      const vnor = new Float64Array(nn > 0 ? 3 * np : 0);
      faces.forEach((f, fi) => {
        f.forEach((p, i) => {
          const ti = faceTex[fi][i],
            ni = faceNor[fi][i];
          if (ti >= 0 && ti < nt) {
            const du = tex[2 * ti] - vtex[2 * p],
              dv = tex[2 * ti + 1] - vtex[2 * p + 1];
            if ((vtex[2 * p] === 0 && vtex[2 * p + 1] === 0) || -du + dv > 0) {
              vtex[2 * p] = tex[2 * ti];
              vtex[2 * p + 1] = tex[2 * ti + 1];
            }
          }
          if (ni >= 0 && ni < nn) for (let k = 0; k < 3; k++) vnor[3 * p + k] += nor[3 * ni + k];
        });
      });
      normalizeAll(vnor);
      this.texcoords.value = vtex;
      out.normals = Array.from(vnor);
      this.vertPosIdx.value = new Uint32Array(0);
      this.vertNormIdx.value = new Uint32Array(0);
      return;
    }

    // handleSeams: one vertex per (point, texcoord, normal) combination used by the faces.
    const combos: Map<string, number>[] = Array.from({ length: np }, () => new Map());
    const pairs: Array<Array<[number, number]>> = Array.from({ length: np }, () => []);
    faces.forEach((f, fi) => {
      f.forEach((p, i) => {
        const ti = faceTex[fi][i],
          ni = faceNor[fi][i];
        const k = `${ti},${ni}`;
        if (!combos[p].has(k)) {
          combos[p].set(k, 0);
          pairs[p].push([ti, ni]);
        }
      });
    });
    let nv = 0;
    for (const l of pairs) {
      l.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      nv += l.length;
    }
    const split = nv !== np;
    const vpos: number[] = [];
    const vnor = new Float64Array(3 * nv);
    const vtex = new Float64Array(2 * nv);
    const posIdx: number[] = [],
      normIdx: number[] = [];
    let nNormals = 0;
    let j = 0;
    for (let p = 0; p < np; p++) {
      const normMap = new Map<number, number>();
      for (const [ti, ni] of pairs[p]) {
        if (ni >= 0 && ni < nor.length / 3) for (let k = 0; k < 3; k++) vnor[3 * j + k] = nor[3 * ni + k];
        if (ti >= 0 && ti < tex.length / 2) for (let k = 0; k < 2; k++) vtex[2 * j + k] = tex[2 * ti + k];
        vpos.push(pos[3 * p], pos[3 * p + 1], pos[3 * p + 2]);
        if (split) {
          posIdx.push(p);
          if (!normMap.has(ni)) normMap.set(ni, nNormals++);
          normIdx.push(normMap.get(ni)!);
        }
        combos[p].set(`${ti},${ni}`, j++);
      }
    }
    out.positions = vpos;
    faces.forEach((f, fi) => {
      this.addFace(
        out,
        f.map((p, i) => combos[p].get(`${faceTex[fi][i]},${faceNor[fi][i]}`)!),
      );
    });
    normalizeAll(vnor);
    out.normals = Array.from(vnor);
    this.texcoords.value = vtex;
    this.vertPosIdx.value = Uint32Array.from(posIdx);
    this.vertNormIdx.value = split && nNormals !== nv ? Uint32Array.from(normIdx) : new Uint32Array(0);
  }

  /** An OBJ face or line: edge, quad, or triangle fan. */
  private addFace(out: MeshBuffers, v: number[]): void {
    if (v.length === 2) {
      out.edges.push(Math.min(v[0], v[1]), Math.max(v[0], v[1]));
    } else if (v.length === 4 && !this.triangulate.value) {
      this.addQuad(out, v[0], v[1], v[2], v[3]);
    } else {
      for (let j = 2; j < v.length; j++) this.addTriangle(out, v[0], v[j - 1], v[j]);
    }
  }
}

/** Each 3-vector divided by its norm (zero vectors stay zero). */
function normalizeAll(v: Float64Array): void {
  for (let i = 0; i < v.length; i += 3) {
    const r = Math.sqrt(v[i] * v[i] + v[i + 1] * v[i + 1] + v[i + 2] * v[i + 2]);
    if (r > Number.EPSILON) {
      v[i] = v[i] / r;
      v[i + 1] = v[i + 1] / r;
      v[i + 2] = v[i + 2] / r;
    }
  }
}

/** The `newmtl` names of a material library; none when the file cannot be read (as SOFA). */
function readMaterialNames(file: string): string[] {
  let text: string;
  try {
    text = host().readText(file, 'latin1');
  } catch {
    return [];
  }
  const names: string[] = [];
  for (const l of text.split('\n')) {
    const t = lineTokens(l);
    if (t[0] === 'newmtl' && t[1] !== undefined) names.push(t[1]);
  }
  return names;
}
