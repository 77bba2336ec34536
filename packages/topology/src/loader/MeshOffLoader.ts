import { host, sofaComponent } from '@sofa-ts/core';
import { MeshLoader, type MeshBuffers } from './MeshLoader.js';
import { MeshFileError, lineTokens, parseReal } from './text-scanner.js';

/**
 * SOFA's MeshOffLoader: Object File Format meshes. The file starts with `OFF`; then (blank lines
 * and `#` comments skipped) a line "nVertices nFaces nEdges", nVertices lines "x y z", and nFaces
 * lines "k i1 … ik": triangles (k = 3) and quads (k = 4) are read, other faces skipped (with a
 * warning) and, as in SOFA, not counted among the nFaces to read.
 */
@sofaComponent({
  name: 'MeshOffLoader',
  category: 'Loader',
  module: 'Sofa.Component.IO.Mesh',
  description: 'Specific mesh loader for Off file format.',
})
export class MeshOffLoader extends MeshLoader {
  protected readMesh(path: string, out: MeshBuffers): void {
    const lines = host().readText(path, 'latin1').split('\n');
    const first = lineTokens(lines[0] ?? '')[0];
    if (first !== 'OFF') throw new MeshFileError(path, 1, `not an OFF file: the first word is '${first ?? ''}', expected 'OFF'`);
    let li = 1;
    // The next data line (not empty, not a comment), tokenised, with its 1-based line number.
    const next = (): [string[], number] | undefined => {
      while (li < lines.length) {
        const t = lineTokens(lines[li++]);
        if (t.length > 0 && !t[0].startsWith('#')) return [t, li];
      }
      return undefined;
    };
    const counts = next();
    if (!counts) throw new MeshFileError(path, 0, 'no vertex count');
    const [nv, nf] = [Number(counts[0][0]), Number(counts[0][1] ?? 0)];
    if (!Number.isInteger(nv) || !Number.isInteger(nf) || nv < 0 || nf < 0)
      throw new MeshFileError(path, counts[1], `expected 'nVertices nFaces nEdges', found '${counts[0].join(' ')}'`);
    for (let i = 0; i < nv; i++) {
      const l = next();
      if (!l) throw new MeshFileError(path, 0, `${i} vertices of ${nv}: the file ends`);
      const c = l[0].slice(0, 3).map(parseReal);
      if (c.length < 3 || c.some((v) => v === undefined))
        throw new MeshFileError(path, l[1], `expected a vertex 'x y z', found '${l[0].join(' ')}'`);
      out.positions.push(c[0]!, c[1]!, c[2]!);
    }
    let skipped = 0;
    for (let f = 0; f < nf;) {
      const l = next();
      // SOFA does not count the faces it skips, and stops at the end of the file.
      if (!l) break;
      const k = Number(l[0][0]);
      if (!(k >= 3 && k <= 4)) {
        skipped++;
        continue;
      }
      const ids = l[0].slice(1, 1 + k).map(Number);
      if (ids.length < k || ids.some((v) => !Number.isInteger(v) || v < 0 || v >= nv))
        throw new MeshFileError(path, l[1], `expected ${k} vertex indices below ${nv}, found '${l[0].join(' ')}'`);
      if (k === 3) this.addTriangle(out, ids[0], ids[1], ids[2]);
      else this.addQuad(out, ids[0], ids[1], ids[2], ids[3]);
      f++;
    }
    if (skipped > 0) this.warn(`${path}: ${skipped} face(s) with fewer than 3 or more than 4 vertices skipped (as SOFA does)`);
  }
}
