import { BaseObject, sofaComponent } from '@sofa-ts/core';
import { quatMultiplyAt } from '@sofa-ts/linalg';
import { quatToMatrix, slerpQuat } from './beam-frames.js';
import { BaseRodSection } from './rod-sections.js';

/** An object with the position and edges Data of a mesh loader. */
function loaderArrays(o: BaseObject): { positions: Float64Array; edges: Uint32Array; faces: number } | undefined {
  const p = o.findData('position')?.value,
    e = o.findData('edges')?.value;
  if (!(p instanceof Float64Array) || !(e instanceof Uint32Array)) return undefined;
  let faces = 0;
  for (const name of ['triangles', 'quads', 'polygons']) {
    const v = o.findData(name)?.value as { length?: number } | undefined;
    faces += v?.length ?? 0;
  }
  return { positions: p, edges: e, faces };
}

/**
 * SOFA's RodMeshSection (BeamAdapter plugin): a section whose rest curve is the polyline of a mesh
 * loader's edges (an open chain, walked from its first end), its length the polyline's (the
 * `length` given is replaced). Rest frames: the first is the identity at the origin; each next
 * vertex turns the previous frame about an axis ⊥ its x so that x follows the next edge (none when
 * the cosine exceeds 1 − 1e-4, as BeamAdapter), with origin p_k − p_0. At abscissa s of the section
 * (scaled to the polyline's length), between vertices k−1 and k at α: the origin interpolated
 * linearly, the orientation slerped, shifted by (x_start, 0, 0).
 */
@sofaComponent({
  name: 'RodMeshSection',
  category: 'Engine',
  module: 'BeamAdapter',
  description: 'A section of an instrument rest shape (WireRestShape) following the edges of a mesh loader.',
  templates: ['Rigid3d'],
})
export class RodMeshSection extends BaseRodSection {
  readonly loader = this.initLink<BaseObject>({
    name: 'loader',
    help: "the mesh loader whose edges draw the section (default: the node's)",
    accepts: (o): o is BaseObject => o instanceof BaseObject && loaderArrays(o) !== undefined,
    expected: 'a mesh loader with edges',
    search: 'none',
  });

  /** Rest frames at the vertices (7 per vertex) and their abscissae. */
  private frames = new Float64Array(0);
  private abs = new Float64Array(0);
  private readonly qa = new Float64Array(4);
  private readonly qb = new Float64Array(4);
  private readonly qs = new Float64Array(4);

  protected override prepareShape(): void {
    const l =
      this.loader.get() ??
      this.context.getObjects(
        (o): o is BaseObject => o instanceof BaseObject && o !== this && loaderArrays(o) !== undefined && o.findData('edges') !== undefined,
      )[0];
    const m = l ? loaderArrays(l) : undefined;
    if (!l || !m) throw this.error('no mesh loader with edges: set loader="@…" or put a MeshOBJLoader in the node');
    if (m.edges.length === 0) throw this.error(`${l.describe()} loads no edges`);
    if (m.faces > 0) throw this.error(`${l.describe()} loads faces: a rod mesh section takes a polyline of edges only`);
    const nV = m.positions.length / 3,
      degree = new Int32Array(nV);
    for (const v of m.edges) degree[v]++;
    let cur = degree.findIndex((d) => d === 1);
    if (cur < 0) throw this.error(`the edges of ${l.describe()} have no free end (a closed curve)`);
    const order = [cur],
      used = new Uint8Array(m.edges.length / 2);
    for (;;) {
      let next = -1;
      for (let e = 0; e < used.length && next < 0; e++) {
        if (used[e]) continue;
        if (m.edges[2 * e] === cur) next = m.edges[2 * e + 1];
        else if (m.edges[2 * e + 1] === cur) next = m.edges[2 * e];
        if (next >= 0) used[e] = 1;
      }
      if (next < 0) break;
      order.push(next);
      cur = next;
    }
    if (used.some((u) => u === 0))
      this.warn(`the edges of ${l.describe()} are not one chain: only the chain from its first free end is used`);
    const n = order.length,
      P = m.positions,
      F = new Float64Array(7 * n),
      A = new Float64Array(n),
      R = new Float64Array(9),
      r = new Float64Array(4);
    F[6] = 1;
    const o0 = 3 * order[0];
    for (let k = 1; k < n; k++) {
      const a = 3 * order[k - 1],
        b = 3 * order[k];
      const d = [P[b] - P[a], P[b + 1] - P[a + 1], P[b + 2] - P[a + 2]],
        len = Math.hypot(d[0], d[1], d[2]);
      A[k] = A[k - 1] + len;
      // x0 = R(q)ᵀ·d/|d|; turn by acos(x0_x) about (0, −x0_z, x0_y)
      quatToMatrix(R, 0, F, 7 * (k - 1) + 3);
      const x0 = (R[0] * d[0] + R[3] * d[1] + R[6] * d[2]) / len,
        y0 = (R[1] * d[0] + R[4] * d[1] + R[7] * d[2]) / len,
        z0 = (R[2] * d[0] + R[5] * d[1] + R[8] * d[2]) / len;
      if (x0 > 1 - 1e-4) F.copyWithin(7 * k + 3, 7 * (k - 1) + 3, 7 * (k - 1) + 7);
      else {
        const th = Math.acos(Math.max(-1, x0)),
          nn = Math.hypot(z0, y0),
          s = Math.sin(th / 2);
        r[0] = 0;
        r[1] = nn > 0 ? (-z0 / nn) * s : 0;
        r[2] = nn > 0 ? (y0 / nn) * s : 0;
        r[3] = Math.cos(th / 2);
        quatMultiplyAt(F, 7 * k + 3, F, 7 * (k - 1) + 3, r, 0);
      }
      for (let c = 0; c < 3; c++) F[7 * k + c] = P[b + c] - P[o0 + c];
    }
    this.frames = F;
    this.abs = A;
    if (this.length.isSet)
      this.warnAbout(this.length, `the length of a mesh section is its polyline's (${A[n - 1]}): the given one is replaced`);
    this.length.value = A[n - 1];
  }

  restFrame(out: Float64Array, o: number, x: number, xStart: number): void {
    const A = this.abs,
      F = this.frames,
      n = A.length;
    const s = ((x - xStart) / this.length.value) * A[n - 1];
    let k = 1;
    while (k < n - 1 && A[k] < s) k++;
    const alpha = Math.min(1, Math.max(0, (s - A[k - 1]) / (A[k] - A[k - 1])));
    for (let c = 0; c < 3; c++) out[o + c] = F[7 * (k - 1) + c] * (1 - alpha) + F[7 * k + c] * alpha;
    out[o] += xStart;
    this.qa.set(F.subarray(7 * (k - 1) + 3, 7 * k));
    this.qb.set(F.subarray(7 * k + 3, 7 * k + 7));
    slerpQuat(this.qs, this.qa, this.qb, alpha);
    out.set(this.qs, o + 3);
  }
}
