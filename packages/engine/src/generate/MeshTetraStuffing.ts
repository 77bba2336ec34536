import { Bool, DataEngine, IndexArray, MAX_POINTS, Real, RealArray, sofaComponent } from '@sofa-ts/core';
import { Vec3s } from '../engine-support.js';

/** Lattice edges around a point: 6 long (axis) edges, then 8 short (diagonal) edges to the other grid. */
const EDGESHELL = 14;

/**
 * SOFA's MeshTetraStuffing: a tetrahedral mesh of the volume inside a closed triangle (or quad)
 * surface by isosurface stuffing (F. Labelle and J. R. Shewchuk, SIGGRAPH 2007), on the
 * body-centred cubic lattice.
 *
 * Lattice: grid G of spacing h (size, or the largest bbox extent / −size when size < 0) around the
 * centre of vbbox (default: the input bounding box grown by 1 %), padded by 2 cells; grid H = G
 * shifted by −h/2 on each axis, one point larger. Each G–G edge with the 4 H points around it gives
 * 4 tetrahedra (every BCC tetrahedron once), oriented positively.
 * Inside/outside: along every lattice line (axis lines of each grid, diagonals between the grids) the
 * crossings with the surface are found; each point on the line votes inside when the nearest
 * crossing before it is an entry (or the one after it an exit), outside otherwise, from its 7 lines
 * (n·d < 0: entry, outward normals; crossings of faces meeting at an edge or vertex on the line,
 * crossed the same way, count once); ties and points no line decides are outside. The distance to
 * the crossings along each lattice edge, in edge lengths, is kept.
 * snapPoints: a point with a crossing closer than alphaLong (long edges) or alphaShort (short edges)
 * along an edge to a point of the other side is moved onto the surface (outside points first, towards
 * the nearest such crossing), as the paper's warping.
 * Tetrahedra: those with an inside vertex (or all on the surface); with splitTetrahedra, the ones
 * crossing the surface are cut at the crossings by the paper's stencils (1, 2 or 3 tetrahedra);
 * otherwise kept whole. Unused points are dropped.
 */
@sofaComponent({
  name: 'MeshTetraStuffing',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Generate',
  description:
    'Create a tetrahedral volume mesh from a surface, using the algorithm from F. Labelle and J.R. Shewchuk, "Isosurface Stuffing: Fast Tetrahedral Meshes with Good Dihedral Angles", SIGGRAPH 2007.',
})
export class MeshTetraStuffing extends DataEngine {
  readonly vbbox = this.initData({
    name: 'vbbox',
    type: RealArray(6, 'fixed_array<Vec3d,2>'),
    default: new Float64Array(6),
    help: 'bounding box to restrict the volume to (default: the input bounding box grown by 1 %)',
  });
  readonly size = this.initData({
    name: 'size',
    type: Real,
    default: -8,
    help: 'size of the lattice cells; if negative, the number of cells along the largest bbox dimension',
  });
  readonly inputPoints = this.initData({
    name: 'inputPoints',
    type: Vec3s,
    default: new Float64Array(0),
    help: 'input surface mesh points',
  });
  readonly inputTriangles = this.initData({
    name: 'inputTriangles',
    type: IndexArray(3, 'vector<Triangle>'),
    default: new Uint32Array(0),
    help: 'input surface mesh triangles (outward oriented)',
  });
  readonly inputQuads = this.initData({
    name: 'inputQuads',
    type: IndexArray(4, 'vector<Quad>'),
    default: new Uint32Array(0),
    help: 'input surface mesh quads',
  });
  readonly outputPoints = this.initData({
    name: 'outputPoints',
    type: Vec3s,
    default: new Float64Array(0),
    help: 'output volume mesh points',
    output: true,
  });
  readonly outputTetrahedra = this.initData({
    name: 'outputTetrahedra',
    type: IndexArray(4, 'vector<Tetrahedron>'),
    default: new Uint32Array(0),
    help: 'output volume mesh tetrahedra',
    output: true,
    aliases: ['outputTetras'],
  });
  readonly alphaLong = this.initData({
    name: 'alphaLong',
    type: Real,
    default: 0.24999,
    help: 'minimum alpha on long edges when snapping points',
  });
  readonly alphaShort = this.initData({
    name: 'alphaShort',
    type: Real,
    default: 0.42978,
    help: 'minimum alpha on short edges when snapping points',
  });
  readonly snapPoints = this.initData({
    name: 'snapPoints',
    type: Bool,
    default: false,
    help: 'snap points to the surface when a crossing is closer than the alphas',
  });
  readonly splitTetrahedra = this.initData({
    name: 'splitTetrahedra',
    type: Bool,
    default: false,
    help: 'split the tetrahedra crossing the surface',
    aliases: ['splitTetras'],
  });
  readonly draw = this.initData({
    name: 'draw',
    type: Bool,
    default: false,
    help: 'draw the internal data (drawing only)',
    group: 'Visualization',
  });

  // Lattice of the current update.
  private gsize = [0, 0, 0];
  private hsize = [0, 0, 0];
  private ph0 = 0;

  constructor() {
    super();
    this.addInput(
      this.inputPoints,
      this.inputTriangles,
      this.inputQuads,
      this.alphaLong,
      this.alphaShort,
      this.snapPoints,
      this.splitTetrahedra,
      this.size,
      this.vbbox,
    );
    this.addOutput(this.outputPoints, this.outputTetrahedra);
  }

  override init(): void {
    this.startUpdates();
  }

  /** The point across lattice edge e from p, or −1 outside the lattice (SOFA's getEdgePoint2). */
  private neighbour(p: number, e: number): number {
    const [g, h, ph0] = [this.gsize, this.hsize, this.ph0];
    const inG = p < ph0;
    const size = inG ? g : h;
    let q = inG ? p : p - ph0;
    const c = [q % size[0], 0, 0];
    q = Math.floor(q / size[0]);
    c[1] = q % size[1];
    c[2] = Math.floor(q / size[1]);
    if (e < 6) {
      const a = e >> 1;
      c[a] += e & 1 ? 1 : -1;
      if (c[a] < 0 || c[a] >= size[a]) return -1;
      return (inG ? 0 : ph0) + c[0] + size[0] * (c[1] + size[1] * c[2]);
    }
    const f = e - 6;
    const d = [f & 1, ((f >> 1) ^ f) & 1, ((f >> 2) ^ f) & 1];
    if (inG) return ph0 + c[0] + d[0] + h[0] * (c[1] + d[1] + h[1] * (c[2] + d[2]));
    for (let k = 0; k < 3; k++) {
      c[k] = c[k] + d[k] - 1;
      if (c[k] < 0 || c[k] >= g[k]) return -1;
    }
    return c[0] + g[0] * (c[1] + g[1] * c[2]);
  }

  protected updateOutputs(): void {
    const P = this.inputPoints.value;
    const tri: number[] = Array.from(this.inputTriangles.value);
    const q = this.inputQuads.value;
    for (let i = 0; i + 4 <= q.length; i += 4) tri.push(q[i], q[i + 1], q[i + 2], q[i], q[i + 2], q[i + 3]);
    const np = P.length / 3,
      nt = tri.length / 3;
    if (np === 0 || nt === 0)
      throw this.error('empty input mesh: link inputPoints and inputTriangles (or inputQuads) to a loader or topology');
    for (const v of tri) if (v >= np) throw this.error(`the input elements name point ${v}, but there are ${np} points`);
    // Face normals (unnormalised) n = (b − a) × (c − a).
    const N = new Float64Array(3 * nt);
    for (let t = 0; t < nt; t++) {
      const [a, b, c] = [3 * tri[3 * t], 3 * tri[3 * t + 1], 3 * tri[3 * t + 2]];
      const u = [P[b] - P[a], P[b + 1] - P[a + 1], P[b + 2] - P[a + 2]],
        w = [P[c] - P[a], P[c + 1] - P[a + 1], P[c + 2] - P[a + 2]];
      N[3 * t] = u[1] * w[2] - u[2] * w[1];
      N[3 * t + 1] = u[2] * w[0] - u[0] * w[2];
      N[3 * t + 2] = u[0] * w[1] - u[1] * w[0];
    }
    let bb = Array.from(this.vbbox.value);
    if (bb[0] >= bb[3]) {
      const lo = [Infinity, Infinity, Infinity],
        hi = [-Infinity, -Infinity, -Infinity];
      for (let i = 0; i < np; i++)
        for (let k = 0; k < 3; k++) ((lo[k] = Math.min(lo[k], P[3 * i + k])), (hi[k] = Math.max(hi[k], P[3 * i + k])));
      bb = [0, 1, 2].map((k) => lo[k] - 0.01 * (hi[k] - lo[k])).concat([0, 1, 2].map((k) => hi[k] + 0.01 * (hi[k] - lo[k])));
      this.vbbox.value = Float64Array.from(bb);
    }
    let h = this.size.value;
    if (h < 0) h = Math.max(bb[3] - bb[0], bb[4] - bb[1], bb[5] - bb[2]) / -h;
    if (!(h > 0)) throw this.error(`size ${this.size.value} gives no cell size`);
    // G around the bbox centre, padded by 2 cells; H shifted by −h/2, one point larger.
    const g0 = [0, 0, 0],
      hh0 = [0, 0, 0];
    for (let k = 0; k < 3; k++) {
      const c = (bb[k] + bb[3 + k]) / 2;
      const c0 = -(Math.trunc((c - bb[k]) / h) + 2),
        c1 = Math.trunc((bb[3 + k] - c) / h) + 2;
      this.gsize[k] = c1 - c0 + 1;
      g0[k] = c + c0 * h;
      this.hsize[k] = this.gsize[k] + 1;
      hh0[k] = g0[k] - h / 2;
    }
    const [G, H] = [this.gsize, this.hsize];
    const ph0 = (this.ph0 = G[0] * G[1] * G[2]);
    const total = ph0 + H[0] * H[1] * H[2];
    if (!(total <= MAX_POINTS))
      throw this.dataError(
        this.size,
        `the lattice would have ${total} points, above the limit of ${MAX_POINTS}`,
        'give a larger size (a cell size, or a smaller negative count)',
      );
    const pts: number[] = new Array(3 * total);
    let o = 0;
    for (let z = 0; z < G[2]; z++)
      for (let y = 0; y < G[1]; y++)
        for (let x = 0; x < G[0]; x++) ((pts[o++] = g0[0] + x * h), (pts[o++] = g0[1] + y * h), (pts[o++] = g0[2] + z * h));
    for (let z = 0; z < H[2]; z++)
      for (let y = 0; y < H[1]; y++)
        for (let x = 0; x < H[0]; x++) ((pts[o++] = hh0[0] + x * h), (pts[o++] = hh0[1] + y * h), (pts[o++] = hh0[2] + z * h));

    // Classification along every lattice line, from its first point.
    const inside = new Int32Array(total);
    const dist = new Float64Array(total * EDGESHELL);
    for (let p = 0; p < total; p++) {
      for (let e = 0; e < EDGESHELL; e += 2) {
        const p1 = this.neighbour(p, e);
        if (p1 === -1 || this.neighbour(p, e + 1) !== -1) continue;
        const origin = [pts[3 * p], pts[3 * p + 1], pts[3 * p + 2]];
        const dir = [pts[3 * p1] - origin[0], pts[3 * p1 + 1] - origin[1], pts[3 * p1 + 2] - origin[2]];
        const all = rayHits(origin, dir, P, tri);
        if (all.length === 0) continue;
        const allSign = all.map(([, t]) => (N[3 * t] * dir[0] + N[3 * t + 1] * dir[1] + N[3 * t + 2] * dir[2] < 0 ? -1 : 1));
        // A line through an edge or vertex shared by faces crossed the same way crosses the surface once.
        const hits: Array<[number, number]> = [],
          sign: number[] = [];
        all.forEach((hit, k) => {
          const last = hits.length - 1;
          if (last >= 0 && hit[0] - hits[last][0] <= 1e-10 && sign[last] === allSign[k]) return;
          hits.push(hit);
          sign.push(allSign[k]);
        });
        const n = hits.length;
        let i = 0;
        for (let q1 = p, d = 0; q1 !== -1; q1 = this.neighbour(q1, e), d++) {
          while (i < n && hits[i][0] < d) i++;
          if (i >= n) inside[q1] -= sign[n - 1];
          else if (i === 0) inside[q1] += sign[0];
          else if (d - hits[i - 1][0] < hits[i][0] - d) inside[q1] -= sign[i - 1];
          else inside[q1] += sign[i];
          if (i < n) dist[q1 * EDGESHELL + e] = hits[i][0] - d;
          if (i > 0) dist[q1 * EDGESHELL + e + 1] = d - hits[i - 1][0];
        }
      }
    }
    for (let p = 0; p < total; p++) if (inside[p] === 0) inside[p] = -1;

    if (this.snapPoints.value) this.snap(pts, inside, dist, total);

    // Cut points on the edges from an outside point to an inside one.
    const split = this.splitTetrahedra.value;
    const cut = new Map<number, number>();
    const key = (a: number, b: number): number => Math.min(a, b) * total + Math.max(a, b);
    if (split) {
      for (let p = 0; p < total; p++) {
        if (inside[p] >= 0) continue;
        for (let e = 0; e < EDGESHELL; e++) {
          const p2 = this.neighbour(p, e);
          if (p2 === -1 || inside[p2] <= 0) continue;
          const a = dist[p * EDGESHELL + e];
          cut.set(key(p, p2), pts.length / 3);
          pts.push(
            pts[3 * p] + (pts[3 * p2] - pts[3 * p]) * a,
            pts[3 * p + 1] + (pts[3 * p2 + 1] - pts[3 * p + 1]) * a,
            pts[3 * p + 2] + (pts[3 * p2 + 2] - pts[3 * p + 2]) * a,
          );
        }
      }
    }
    const stuff = new Stuffing(pts, inside, ph0, split, (a, b) => {
      const c = cut.get(key(a, b));
      if (c === undefined) throw this.error(`no cut point between lattice points ${a} and ${b}`);
      return c;
    });
    const hs01 = H[0] * H[1],
      gs01 = G[0] * G[1];
    for (let p = 0, ph = ph0, z = 0; z < G[2]; z++, ph += H[0]) {
      for (let y = 0; y < G[1]; y++, ph++) {
        for (let x = 0; x < G[0]; x++, p++, ph++) {
          const around = (p2: number, ring: number[]): void => {
            for (let i = 0; i < 4; i++) stuff.addLatticeTetra(p, p2, ring[(i + 1) % 4], ring[i]);
          };
          if (x > 0) around(p - 1, [ph, ph + H[0], ph + H[0] + hs01, ph + hs01]);
          if (y > 0) around(p - G[0], [ph, ph + hs01, ph + 1 + hs01, ph + 1]);
          if (z > 0) around(p - gs01, [ph, ph + 1, ph + 1 + H[0], ph + H[0]]);
        }
      }
    }
    // Keep the points the tetrahedra use.
    const tets = stuff.tets;
    const newId = new Int32Array(pts.length / 3).fill(-1);
    for (const v of tets) newId[v] = 0;
    const out: number[] = [];
    for (let p = 0, k = 0; p < newId.length; p++) {
      if (newId[p] === -1) continue;
      newId[p] = k++;
      out.push(pts[3 * p], pts[3 * p + 1], pts[3 * p + 2]);
    }
    this.outputPoints.value = Float64Array.from(out);
    this.outputTetrahedra.value = Uint32Array.from(tets, (v) => newId[v]);
    if (stuff.inverted > 0) this.warn(`${stuff.inverted} split tetrahedra were inverted and flipped`);
    if (stuff.invalidSplits > 0)
      this.warn(
        `${stuff.invalidSplits} lattice tetrahedra crossing the surface could not be split (their cut faces' diagonals do not meet) and were left out`,
      );
  }

  /** The paper's warping: points too close to a crossing towards the other side move onto it. */
  private snap(pts: number[], inside: Int32Array, dist: Float64Array, total: number): void {
    const aL = this.alphaLong.value,
      aS = this.alphaShort.value;
    const alpha = (e: number): number => (e < 6 ? aL : aS);
    const len2 = (e: number): number => (e < 6 ? 4 : 3);
    const violatedAt = (p: number, otherSide: (p2: number) => boolean): boolean => {
      for (let e = 0; e < EDGESHELL; e++) {
        const p2 = this.neighbour(p, e);
        if (p2 === -1 || !otherSide(p2)) continue;
        const a = dist[p * EDGESHELL + e];
        if (a !== 0 && a < alpha(e)) return true;
      }
      return false;
    };
    const violated = new Uint8Array(total);
    const outsideV: number[] = [],
      insideV: number[] = [];
    for (let p = 0; p < total; p++) {
      const in1 = inside[p] > 0;
      if (!violatedAt(p, (p2) => in1 !== inside[p2] > 0)) continue;
      violated[p] = 1;
      (in1 ? insideV : outsideV).push(p);
    }
    const insideSet = new Set(insideV);
    // Move p along its edge e by the crossing distance; p is then on the surface.
    const move = (p: number, e: number): void => {
      const p2 = this.neighbour(p, e);
      const a = dist[p * EDGESHELL + e];
      for (let k = 0; k < 3; k++) pts[3 * p + k] = pts[3 * p + k] + (pts[3 * p2 + k] - pts[3 * p + k]) * a;
      inside[p] = 0;
      violated[p] = 0;
      for (let f = 0; f < EDGESHELL; f++) {
        dist[p * EDGESHELL + f] = 0;
        const q2 = this.neighbour(p, f);
        if (q2 !== -1) dist[q2 * EDGESHELL + (f ^ 1)] = 0;
      }
    };
    const nearest = (p: number, ok: (p2: number) => boolean): number => {
      let best = -1,
        bestD = 0;
      for (let e = 0; e < EDGESHELL; e++) {
        const p2 = this.neighbour(p, e);
        if (p2 === -1 || !ok(p2)) continue;
        const a = dist[p * EDGESHELL + e];
        if (a === 0 || a >= alpha(e)) continue;
        const d = a * a * len2(e);
        if (best === -1 || d < bestD) ((best = e), (bestD = d));
      }
      return best;
    };
    // Outside points first, towards inside points that are not violated, until nothing moves.
    for (let moved = 1; moved > 0;) {
      moved = 0;
      for (const p of outsideV) {
        if (inside[p] === 0) continue;
        const e = nearest(p, (p2) => inside[p2] > 0 && !violated[p2]);
        if (e === -1) continue;
        move(p, e);
        moved++;
        for (let f = 0; f < EDGESHELL; f++) {
          const p2 = this.neighbour(p, f);
          if (p2 === -1 || !violated[p2] || inside[p2] <= 0) continue;
          if (!violatedAt(p2, (p3) => inside[p3] < 0)) {
            violated[p2] = 0;
            insideSet.delete(p2);
          }
        }
      }
    }
    // Then the remaining inside points, towards outside points.
    for (const p of insideSet) {
      if (inside[p] === 0) continue;
      const e = nearest(p, (p2) => inside[p2] < 0);
      if (e !== -1) move(p, e);
    }
  }
}

/** Tolerance of the barycentric test: a line through an edge or vertex finds every face there (counted once later). */
const RAY_EPS = 1e-9;

/** Every crossing (t in units of dir, the triangle) of the line origin + t·dir, t > 0, by increasing t. */
function rayHits(o: number[], d: number[], x: Float64Array, tri: number[]): Array<[number, number]> {
  const hits: Array<[number, number]> = [];
  for (let f = 0; f < tri.length / 3; f++) {
    const a = 3 * tri[3 * f],
      b = 3 * tri[3 * f + 1],
      c = 3 * tri[3 * f + 2];
    const e1 = [x[b] - x[a], x[b + 1] - x[a + 1], x[b + 2] - x[a + 2]],
      e2 = [x[c] - x[a], x[c + 1] - x[a + 1], x[c + 2] - x[a + 2]];
    const pv = [d[1] * e2[2] - d[2] * e2[1], d[2] * e2[0] - d[0] * e2[2], d[0] * e2[1] - d[1] * e2[0]];
    const det = e1[0] * pv[0] + e1[1] * pv[1] + e1[2] * pv[2];
    if (det === 0) continue;
    const s = [o[0] - x[a], o[1] - x[a + 1], o[2] - x[a + 2]];
    const u = (s[0] * pv[0] + s[1] * pv[1] + s[2] * pv[2]) / det;
    if (u < -RAY_EPS || u > 1 + RAY_EPS) continue;
    const qv = [s[1] * e1[2] - s[2] * e1[1], s[2] * e1[0] - s[0] * e1[2], s[0] * e1[1] - s[1] * e1[0]];
    const v = (d[0] * qv[0] + d[1] * qv[1] + d[2] * qv[2]) / det;
    if (v < -RAY_EPS || u + v > 1 + RAY_EPS) continue;
    const t = (e2[0] * qv[0] + e2[1] * qv[1] + e2[2] * qv[2]) / det;
    if (t > 0) hits.push([t, f]);
  }
  return hits.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
}

/** The tetrahedra of the stuffing: lattice tetrahedra kept whole or cut by the paper's stencils. */
class Stuffing {
  readonly tets: number[] = [];
  inverted = 0;
  invalidSplits = 0;

  constructor(
    private readonly pts: number[],
    private readonly inside: Int32Array,
    private readonly ph0: number,
    private readonly split: boolean,
    private readonly cutPoint: (a: number, b: number) => number,
  ) {}

  private vol6(a: number, b: number, c: number, d: number): number {
    const P = this.pts;
    const u = [P[3 * b] - P[3 * a], P[3 * b + 1] - P[3 * a + 1], P[3 * b + 2] - P[3 * a + 2]];
    const v = [P[3 * c] - P[3 * a], P[3 * c + 1] - P[3 * a + 1], P[3 * c + 2] - P[3 * a + 2]];
    const w = [P[3 * d] - P[3 * a], P[3 * d + 1] - P[3 * a + 1], P[3 * d + 2] - P[3 * a + 2]];
    return u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0]);
  }

  /** Adds (a b c d), c and d swapped when `flip`, then when negatively oriented. */
  private final(a: number, b: number, c: number, d: number, flip: boolean): void {
    if (flip) [c, d] = [d, c];
    if (this.vol6(a, b, c, d) < 0) {
      [c, d] = [d, c];
      this.inverted++;
    }
    this.tets.push(a, b, c, d);
  }

  /** A lattice tetrahedron: skipped outside, kept whole, or cut along the surface. */
  addLatticeTetra(p1: number, p2: number, p3: number, p4: number): void {
    if (this.vol6(p1, p2, p3, p4) < 0) [p3, p4] = [p4, p3];
    const v = [p1, p2, p3, p4];
    const neg = v.filter((p) => this.inside[p] < 0),
      pos = v.filter((p) => this.inside[p] > 0),
      zero = v.filter((p) => this.inside[p] === 0);
    if (pos.length === 0 && neg.length > 0) return;
    if (neg.length === 0 || !this.split) {
      this.tets.push(p1, p2, p3, p4);
      return;
    }
    const cut = this.cutPoint;
    if (pos.length === 1) {
      // one tetrahedron: the outside points moved to their cut points
      const [a, b, c, d] = v.map((p) => (this.inside[p] < 0 ? cut(p, pos[0]) : p)) as [number, number, number, number];
      this.final(a, b, c, d, false);
    } else if (pos.length === 2 && neg.length === 1) {
      const c1 = cut(neg[0], pos[0]),
        c2 = cut(neg[0], pos[1]);
      const flipT = needFlip([zero[0], pos[0], pos[1], neg[0]], v);
      if (!this.flipDiag(pos[0], pos[1], c2, c1, neg[0])) {
        this.final(zero[0], pos[0], pos[1], c2, flipT);
        this.final(zero[0], pos[0], c2, c1, flipT);
      } else {
        this.final(zero[0], pos[0], pos[1], c1, flipT);
        this.final(zero[0], pos[1], c2, c1, flipT);
      }
    } else if (pos.length === 2 && neg.length === 2) {
      const c1 = cut(neg[0], pos[0]),
        c2 = cut(neg[0], pos[1]),
        c3 = cut(neg[1], pos[0]),
        c4 = cut(neg[1], pos[1]);
      const flipA = this.flipDiag(pos[0], pos[1], c2, c1, neg[0]),
        flipB = this.flipDiag(pos[0], pos[1], c4, c3, neg[1]);
      const flipT = needFlip([pos[0], pos[1], neg[0], neg[1]], v);
      if (!flipA && flipB) {
        this.final(pos[0], pos[1], c2, c3, flipT);
        this.final(pos[0], c2, c1, c3, flipT);
        this.final(pos[1], c2, c3, c4, flipT);
      } else if (flipA && !flipB) {
        this.final(pos[0], pos[1], c1, c4, flipT);
        this.final(pos[1], c1, c4, c2, flipT);
        this.final(pos[0], c1, c3, c4, flipT);
      } else {
        // the diagonals of the two cut faces do not meet: SOFA reports it and adds nothing
        this.invalidSplits++;
      }
    } else {
      // three inside, one outside: a prism cut into 3 tetrahedra
      const [a, b, c] = pos as [number, number, number];
      const n = neg[0];
      const c1 = cut(n, a),
        c2 = cut(n, b),
        c3 = cut(n, c);
      const f1 = this.flipDiag(a, b, c2, c1, n),
        f2 = this.flipDiag(b, c, c3, c2, n);
      let f3 = this.flipDiag(c, a, c1, c3, n);
      if (f1 === f2 && f2 === f3) f3 = !f1;
      const pp0 = f1 && !f2 ? b : f2 && !f3 ? c : a;
      const pc0 = !f1 && f2 ? c2 : !f2 && f3 ? c3 : c1;
      const flipT = needFlip([n, a, b, c], v);
      this.final(pp0, c1, c3, c2, flipT);
      this.final(pc0, a, b, c, flipT);
      if (f1 === f2) this.final(b, c2, pp0, pc0, needFlip([b, n, pp0, pp0 === a ? c : a], v));
      else if (f2 === f3) this.final(c, c3, pp0, pc0, needFlip([c, n, pp0, pp0 === a ? b : a], v));
      else this.final(a, c1, pp0, pc0, needFlip([a, n, pp0, pp0 === b ? c : b], v));
    }
  }

  /**
   * Which diagonal cuts the quad (a, b, c, d) of a split face (ab its lattice edge, c and d cut points
   * towards the outside point e): bd (true) or ac. A cut point on a long edge takes the diagonal;
   * otherwise the parity of the coordinates of a greater than c's decides, so that neighbouring
   * tetrahedra agree.
   */
  private flipDiag(a: number, b: number, c: number, _d: number, e: number): boolean {
    const ph0 = this.ph0;
    if (e < ph0 ? a < ph0 : a >= ph0) return true;
    if (e < ph0 ? b < ph0 : b >= ph0) return false;
    let greater = 0;
    for (let k = 0; k < 3; k++) if (this.pts[3 * a + k] > this.pts[3 * c + k]) greater++;
    return (greater & 1) !== (a < ph0 ? 1 : 0);
  }
}

/** Whether the permutation taking `q` (the lattice tetrahedron) to `p` reverses the orientation (SOFA's needFlip). */
function needFlip(p: number[], q: number[]): boolean {
  let flip = false;
  const rotate = (t: number[], upto: number, count: boolean): void => {
    // rotate t[upto..3] until t[upto] is the smallest of them
    while (t.slice(upto + 1).some((x) => x < t[upto])) {
      const first = t[upto];
      for (let i = upto; i < 3; i++) t[i] = t[i + 1];
      t[3] = first;
      if (count) flip = !flip;
    }
  };
  const a = [...p],
    b = [...q];
  rotate(a, 0, true);
  rotate(b, 0, true);
  rotate(a, 1, false);
  rotate(b, 1, false);
  if (a[2] === b[3]) flip = !flip;
  return flip;
}
