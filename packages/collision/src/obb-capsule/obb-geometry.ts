import { Closest, segmentSegment, trianglePoint } from './closest-points.js';

/**
 * Oriented boxes (SOFA's TOBB) and their closest points with points, segments, triangles and other
 * boxes. A box is a Float64Array(15): centre c (0..2), unit axes a0, a1, a2 (3..11, the columns of
 * the frame's rotation), half-extents e (12..14); its points are c + Σ_k λ_k·a_k, |λ_k| ≤ e_k.
 * Results go to a Closest record (see closest-points.ts) with the box as the FIRST primitive: p on
 * the box, q on the other, n from the box towards the other, d < 0 for an overlap.
 */
export const BOX_SIZE = 15;

/** box = the frame (x[o..o+7): position, quaternion qx qy qz qw) with half-extents ext[eo..eo+3). */
export function boxFromRigid(box: Float64Array, x: ArrayLike<number>, o: number, ext: ArrayLike<number>, eo: number): void {
  const qx = x[o + 3],
    qy = x[o + 4],
    qz = x[o + 5],
    qw = x[o + 6];
  box[0] = x[o];
  box[1] = x[o + 1];
  box[2] = x[o + 2];
  // R(q) columns
  box[3] = 1 - 2 * (qy * qy + qz * qz);
  box[4] = 2 * (qx * qy + qz * qw);
  box[5] = 2 * (qx * qz - qy * qw);
  box[6] = 2 * (qx * qy - qz * qw);
  box[7] = 1 - 2 * (qx * qx + qz * qz);
  box[8] = 2 * (qy * qz + qx * qw);
  box[9] = 2 * (qx * qz + qy * qw);
  box[10] = 2 * (qy * qz - qx * qw);
  box[11] = 1 - 2 * (qx * qx + qy * qy);
  box[12] = ext[eo];
  box[13] = ext[eo + 1];
  box[14] = ext[eo + 2];
}

/** The 8 corners of a box into v (24): corner b has λ_k = ±e_k with the sign of bit k of b set = +. */
export function boxCorners(v: Float64Array, box: Float64Array): void {
  for (let b = 0; b < 8; b++) {
    for (let c = 0; c < 3; c++) {
      let s = box[c];
      for (let k = 0; k < 3; k++) s += (b & (1 << k) ? 1 : -1) * box[12 + k] * box[3 + 3 * k + c];
      v[3 * b + c] = s;
    }
  }
}

/** The 12 edges of a box as pairs of corners (boxCorners' numbering): corners differing in one bit. */
export const BOX_EDGES = Uint8Array.from([0, 1, 2, 3, 4, 5, 6, 7, 0, 2, 1, 3, 4, 6, 5, 7, 0, 4, 1, 5, 2, 6, 3, 7]);

/** Local coordinates of point x[j..j+3) in the box: l_k = (x − c)·a_k. */
function toLocal(out: Float64Array, o: number, box: Float64Array, x: ArrayLike<number>, j: number): void {
  const dx = x[j] - box[0],
    dy = x[j + 1] - box[1],
    dz = x[j + 2] - box[2];
  for (let k = 0; k < 3; k++) out[o + k] = dx * box[3 + 3 * k] + dy * box[4 + 3 * k] + dz * box[5 + 3 * k];
}

/** World point of local coordinates l[o..o+3) into out[oo..oo+3). */
function toWorld(out: Float64Array, oo: number, box: Float64Array, l: ArrayLike<number>, o: number): void {
  for (let c = 0; c < 3; c++) out[oo + c] = box[c] + l[o] * box[3 + c] + l[o + 1] * box[6 + c] + l[o + 2] * box[9 + c];
}

const L = new Float64Array(9);

/**
 * Box and point x[j..]: outside, p = the point clamped into the box (local coordinates clamped to
 * ±e_k), d = |q − p|; inside, the nearest face k (smallest e_k − |l_k|) gives d = −(e_k − |l_k|),
 * n = sign(l_k)·a_k and p = the point moved onto that face.
 */
export function boxPoint(c: Closest, box: Float64Array, x: ArrayLike<number>, j: number): void {
  toLocal(L, 0, box, x, j);
  let outside = false;
  for (let k = 0; k < 3; k++) {
    const e = box[12 + k],
      l = L[k];
    L[3 + k] = l > e ? e : l < -e ? -e : l;
    if (l > e || l < -e) outside = true;
  }
  c.q[0] = x[j];
  c.q[1] = x[j + 1];
  c.q[2] = x[j + 2];
  if (outside) {
    toWorld(c.p, 0, box, L, 3);
    const dx = c.q[0] - c.p[0],
      dy = c.q[1] - c.p[1],
      dz = c.q[2] - c.p[2];
    const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
    c.d = d;
    c.n[0] = dx / d;
    c.n[1] = dy / d;
    c.n[2] = dz / d;
    return;
  }
  let kk = 0,
    best = Infinity;
  for (let k = 0; k < 3; k++) {
    const g = box[12 + k] - Math.abs(L[k]);
    if (g < best) ((best = g), (kk = k));
  }
  const sg = L[kk] >= 0 ? 1 : -1;
  L[3 + kk] = sg * box[12 + kk];
  toWorld(c.p, 0, box, L, 3);
  for (let cc = 0; cc < 3; cc++) c.n[cc] = sg * box[3 + 3 * kk + cc];
  c.d = -best;
}

const T = new Float64Array(32);

/**
 * Box and segment [x1 x2], q on the segment at parameter s (c.s). In the box's frame the segment
 * is l(s) = l1 + s·u and its squared distance to the box Σ_k max(|l_k(s)| − e_k, 0)² is a convex
 * quadratic between the parameters where some l_k(s) = ±e_k: each piece is minimised exactly and
 * the least kept (a piece of constant distance, a segment parallel to a face, takes its middle).
 * A segment entering the box takes its deepest point, the maximum of the concave
 * g(s) = min_k (e_k − |l_k(s)|) (at an end, a zero of some l_k, or where two pieces cross),
 * treated as a point inside the box (see boxPoint).
 */
export function boxSegment(c: Closest, box: Float64Array, x: ArrayLike<number>, i1: number, i2: number): void {
  toLocal(L, 0, box, x, i1);
  toLocal(L, 3, box, x, i2);
  const u0 = L[3] - L[0],
    u1 = L[4] - L[1],
    u2 = L[5] - L[2];
  // breakpoints in (0, 1)
  let nb = 0;
  T[nb++] = 0;
  T[nb++] = 1;
  for (let k = 0; k < 3; k++) {
    const u = k === 0 ? u0 : k === 1 ? u1 : u2;
    if (u === 0) continue;
    for (let sg = -1; sg <= 1; sg += 2) {
      const t = (sg * box[12 + k] - L[k]) / u;
      if (t > 0 && t < 1) T[nb++] = t;
    }
  }
  const br = T.subarray(0, nb).sort();
  let bestS = 0,
    best = Infinity;
  for (let b = 0; b + 1 < nb; b++) {
    const t0 = br[b],
      t1 = br[b + 1];
    if (t1 - t0 <= 0) continue;
    const tm = 0.5 * (t0 + t1);
    // dist² = A s² + B s + C on (t0, t1)
    let A = 0,
      B = 0,
      C = 0;
    for (let k = 0; k < 3; k++) {
      const u = k === 0 ? u0 : k === 1 ? u1 : u2;
      const l = L[k] + tm * u,
        e = box[12 + k];
      if (l > e || l < -e) {
        const r = L[k] - (l > e ? e : -e); // l_k(s) ∓ e = r + s·u
        A += u * u;
        B += 2 * r * u;
        C += r * r;
      }
    }
    let s = A > 1e-14 * (u0 * u0 + u1 * u1 + u2 * u2) ? -B / (2 * A) : tm;
    s = s < t0 ? t0 : s > t1 ? t1 : s;
    const f = (A * s + B) * s + C;
    if (f < best - 1e-15) ((best = f), (bestS = s));
  }
  if (best > 1e-24) {
    c.s = bestS;
    for (let k = 0; k < 3; k++) c.q[k] = x[i1 + k] + bestS * (x[i2 + k] - x[i1 + k]);
    boxPoint(c, box, c.q, 0);
    return;
  }
  // overlap: the deepest point, max of g over the candidates
  let nc = 0;
  T[nc++] = 0;
  T[nc++] = 1;
  for (let k = 0; k < 3; k++) {
    const uk = k === 0 ? u0 : k === 1 ? u1 : u2;
    if (uk !== 0) T[nc++] = -L[k] / uk;
    for (let m = k + 1; m < 3; m++) {
      const um = m === 0 ? u0 : m === 1 ? u1 : u2;
      for (let sk = -1; sk <= 1; sk += 2)
        for (let sm = -1; sm <= 1; sm += 2) {
          const den = sk * uk - sm * um;
          if (den !== 0) T[nc++] = (box[12 + k] - box[12 + m] - sk * L[k] + sm * L[m]) / den;
        }
    }
  }
  let gBest = -Infinity;
  bestS = 0;
  for (let i = 0; i < nc; i++) {
    const s = T[i];
    if (!(s >= 0 && s <= 1)) continue;
    let g = Infinity;
    for (let k = 0; k < 3; k++) {
      const u = k === 0 ? u0 : k === 1 ? u1 : u2;
      g = Math.min(g, box[12 + k] - Math.abs(L[k] + s * u));
    }
    if (g > gBest) ((gBest = g), (bestS = s));
  }
  c.s = bestS;
  for (let k = 0; k < 3; k++) c.q[k] = x[i1 + k] + bestS * (x[i2 + k] - x[i1 + k]);
  boxPoint(c, box, c.q, 0);
}

/** Exchanges the roles of the two primitives of c (p ↔ q, n → −n). */
export function flip(c: Closest): void {
  for (let k = 0; k < 3; k++) {
    const t = c.p[k];
    c.p[k] = c.q[k];
    c.q[k] = t;
    c.n[k] = -c.n[k];
  }
}

/** Support of a convex point set along direction (nx, ny, nz): the mean of its points within tol of the maximum of v·n. */
function support(out: Float64Array, o: number, v: Float64Array, count: number, nx: number, ny: number, nz: number, tol: number): void {
  let m = -Infinity;
  for (let i = 0; i < count; i++) m = Math.max(m, v[3 * i] * nx + v[3 * i + 1] * ny + v[3 * i + 2] * nz);
  let k = 0;
  out[o] = out[o + 1] = out[o + 2] = 0;
  for (let i = 0; i < count; i++) {
    if (v[3 * i] * nx + v[3 * i + 1] * ny + v[3 * i + 2] * nz < m - tol) continue;
    out[o] += v[3 * i];
    out[o + 1] += v[3 * i + 1];
    out[o + 2] += v[3 * i + 2];
    k++;
  }
  out[o] /= k;
  out[o + 1] /= k;
  out[o + 2] /= k;
}

/** Scratch: corners of two boxes / a box and a triangle, candidate axis, segment ends. */
const VA = new Float64Array(24);
const VB = new Float64Array(24);
const AX = new Float64Array(3);
const SEG = new Float64Array(12);
const best = new Closest();
const probe = new Closest();

/** Interval [lo, hi] of the projections of `count` points of v on axis AX, into out[0..2). */
function project(out: Float64Array, v: Float64Array, count: number): void {
  let lo = Infinity,
    hi = -Infinity;
  for (let i = 0; i < count; i++) {
    const s = v[3 * i] * AX[0] + v[3 * i + 1] * AX[1] + v[3 * i + 2] * AX[2];
    if (s < lo) lo = s;
    if (s > hi) hi = s;
  }
  out[0] = lo;
  out[1] = hi;
}
const IA = new Float64Array(2);
const IB = new Float64Array(2);

/**
 * The separating-axis test of two convex point sets (corners) along candidate axes (unit AX):
 * overlap along AX = min(hiA − loB, hiB − loA); the axis of least overlap is the direction of the
 * penetration depth (for boxes, boxes and triangles: the face normals and the cross products of
 * edge directions). Returns the overlap (negative: separated along AX); writes the oriented axis,
 * from set A towards set B, into `dir`.
 */
function overlapAlong(va: Float64Array, na: number, vb: Float64Array, nb: number, dir: Float64Array): number {
  project(IA, va, na);
  project(IB, vb, nb);
  const o1 = IA[1] - IB[0], // B above A along AX
    o2 = IB[1] - IA[0]; // B below A
  const sg = o1 <= o2 ? 1 : -1;
  dir[0] = sg * AX[0];
  dir[1] = sg * AX[1];
  dir[2] = sg * AX[2];
  return Math.min(o1, o2);
}

/** Edge directions (unit) of set A and B, in 3-vectors; faceA/faceB normals counted first. */
const DA = new Float64Array(9);
const DB = new Float64Array(9);
const DIR = new Float64Array(3);
const BEST_DIR = new Float64Array(3);

interface SatResult {
  depth: number;
  /** −1: a face normal of A, −2: of B, else 3·i + j for the cross product of edge i of A and edge j of B. */
  axis: number;
}
const sat: SatResult = { depth: 0, axis: 0 };

/** One candidate axis (x, y, z) of separatingAxes: kept in `sat` when it overlaps less (by `bias`). */
function tryAxis(
  va: Float64Array,
  na: number,
  vb: Float64Array,
  nb: number,
  x: number,
  y: number,
  z: number,
  id: number,
  bias: number,
): void {
  const l = Math.sqrt(x * x + y * y + z * z);
  if (l < 1e-6) return;
  AX[0] = x / l;
  AX[1] = y / l;
  AX[2] = z / l;
  const o = overlapAlong(va, na, vb, nb, DIR);
  if (o < sat.depth - bias) {
    sat.depth = o;
    sat.axis = id;
    BEST_DIR.set(DIR);
  }
}

/**
 * SAT over: nfa face normals of A (in DA[0..3·nfa)), nfb of B (DB), and the products of the
 * nea edge directions of A (DA) and neb of B (DB). Cross products shorter than 1e-6 (parallel
 * edges) are skipped: their planes are covered by the face normals. Edge axes win over face
 * axes only when shallower by more than 1e-9 (faces are the more stable contact).
 */
function separatingAxes(
  va: Float64Array,
  na: number,
  vb: Float64Array,
  nb: number,
  faceA: Float64Array,
  nfa: number,
  faceB: Float64Array,
  nfb: number,
  nea: number,
  neb: number,
): SatResult {
  sat.depth = Infinity;
  sat.axis = -1;
  for (let i = 0; i < nfa; i++) tryAxis(va, na, vb, nb, faceA[3 * i], faceA[3 * i + 1], faceA[3 * i + 2], -1 - i, 0);
  for (let i = 0; i < nfb; i++) tryAxis(va, na, vb, nb, faceB[3 * i], faceB[3 * i + 1], faceB[3 * i + 2], -10 - i, 0);
  for (let i = 0; i < nea; i++)
    for (let j = 0; j < neb; j++) {
      const ax = DA[3 * i],
        ay = DA[3 * i + 1],
        az = DA[3 * i + 2];
      const bx = DB[3 * j],
        by = DB[3 * j + 1],
        bz = DB[3 * j + 2];
      tryAxis(va, na, vb, nb, ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx, 3 * i + j, 1e-9);
    }
  return sat;
}

/** The supporting edge of a box parallel to axis i in direction dir: its ends into SEG[o..o+6). */
function supportEdge(box: Float64Array, i: number, dx: number, dy: number, dz: number, o: number): void {
  for (let c = 0; c < 3; c++) {
    let m = box[c];
    for (let k = 0; k < 3; k++) {
      if (k === i) continue;
      const ak = 3 + 3 * k;
      const s = box[ak] * dx + box[ak + 1] * dy + box[ak + 2] * dz >= 0 ? 1 : -1;
      m += s * box[12 + k] * box[ak + c];
    }
    const h = box[12 + i] * box[3 + 3 * i + c];
    SEG[o + c] = m - h;
    SEG[o + 3 + c] = m + h;
  }
}

/**
 * Box A and box B (p on A, q on B, n from A to B): up to 8 contacts into cs (each a Closest),
 * returns their number. Separating-axis test over the 3 + 3 face normals and the 9 products of
 * edge directions; the axis of least overlap (of largest gap when apart) decides:
 *  - separated along some axis by more than `alarm`: no contact;
 *  - a face normal of A (or of B): the face contact, one per corner v of the other box that lies
 *    within `alarm` of that face's plane (signed gap h = (v − c)·n − e_k) and over the face
 *    (|(v − c)·a_m| ≤ e_m on its two other axes): q = v, p = v − h·n, d = h (for a face of B the
 *    corners are A's, p = v, q = v + h·n); and when the other box has a face parallel to it, the
 *    same for that face with the first box's corners (both sets together are the corners of the
 *    overlap of two parallel rectangles). Several contacts hold a box lying on a face flat;
 *  - and one contact more when the face contacts do not reach as close (or as deep) as it, always
 *    for an edge product or when no corner lies over the face: apart, the exact
 *    distance (the closest points of two boxes lie on an edge of one of them: the least of the 12
 *    edges of A against B and of B against A, boxSegment); overlapping, the least overlap is the
 *    depth, d = −depth along that axis, the contact for an edge product the closest points of the
 *    two supporting edges, for a face B's deepest feature (mean of its corners within 1e-9 of the
 *    deepest) and its projection on A's face (or the reverse).
 * c.t holds the corner that made each face contact (+8 for a corner of A), −1 for a single contact.
 */
export function boxBox(cs: readonly Closest[], A: Float64Array, B: Float64Array, alarm: number): number {
  // cs holds 16 face contacts and the closest pair
  boxCorners(VA, A);
  boxCorners(VB, B);
  DA.set(A.subarray(3, 12));
  DB.set(B.subarray(3, 12));
  const r = separatingAxes(VA, 8, VB, 8, DA, 3, DB, 3, 3, 3);
  if (r.depth < -alarm) return 0;
  let n = 0;
  if (r.axis < 0) {
    // the face, then the other box's face parallel to it (if any): corners of each over the other
    const ofB = r.axis <= -10;
    const k = ofB ? -10 - r.axis : -1 - r.axis;
    n = faceContacts(cs, 0, ofB ? B : A, k, ofB ? VA : VB, 8, alarm, ofB);
    const other = ofB ? A : B;
    for (let m = 0; m < 3; m++) {
      const cosine = other[3 + 3 * m] * BEST_DIR[0] + other[4 + 3 * m] * BEST_DIR[1] + other[5 + 3 * m] * BEST_DIR[2];
      if (Math.abs(cosine) > 1 - 1e-9) n += faceContacts(cs, n, other, m, ofB ? VB : VA, 8, alarm, !ofB);
    }
  }
  let least = Infinity;
  for (let k = 0; k < n; k++) least = Math.min(least, cs[k].d);
  // the closest (or deepest) pair, kept when the face contacts do not reach it
  const c = cs[n];
  if (r.depth < 0) {
    best.d = Infinity;
    for (let e = 0; e < 12; e++) {
      SEG.set(VA.subarray(3 * BOX_EDGES[2 * e], 3 * BOX_EDGES[2 * e] + 3), 0);
      SEG.set(VA.subarray(3 * BOX_EDGES[2 * e + 1], 3 * BOX_EDGES[2 * e + 1] + 3), 3);
      boxSegment(probe, B, SEG, 0, 3);
      if (probe.d < best.d) {
        flip(probe);
        copyClosest(best, probe);
      }
      SEG.set(VB.subarray(3 * BOX_EDGES[2 * e], 3 * BOX_EDGES[2 * e] + 3), 0);
      SEG.set(VB.subarray(3 * BOX_EDGES[2 * e + 1], 3 * BOX_EDGES[2 * e + 1] + 3), 3);
      boxSegment(probe, A, SEG, 0, 3);
      if (probe.d < best.d) copyClosest(best, probe);
    }
    copyClosest(c, best);
  } else penetrationPoints(c, r, A, VA, 8, B, VB, 8);
  c.t = -1;
  return n + (c.d <= alarm && c.d < least - 1e-12 ? 1 : 0);
}

/**
 * The face contacts of face normal k of `box` (oriented by BEST_DIR: from A to B) against the
 * `count` corners v of the other primitive: those within `alarm` of the face's plane and over the
 * face. `ofB`: the face is B's (the corners A's, the normal towards B is BEST_DIR, the face's
 * outward normal −BEST_DIR). Writes from cs[start]; returns the number written.
 */
function faceContacts(
  cs: readonly Closest[],
  start: number,
  box: Float64Array,
  k: number,
  v: Float64Array,
  count: number,
  alarm: number,
  ofB: boolean,
): number {
  const sg = ofB ? -1 : 1;
  const nx = sg * BEST_DIR[0],
    ny = sg * BEST_DIR[1],
    nz = sg * BEST_DIR[2]; // the face's outward normal
  const plane = box[0] * nx + box[1] * ny + box[2] * nz + box[12 + k];
  let m = start;
  for (let i = 0; i < count && m < cs.length - 1; i++) {
    const x = v[3 * i],
      y = v[3 * i + 1],
      z = v[3 * i + 2];
    const h = x * nx + y * ny + z * nz - plane;
    if (h > alarm) continue;
    let over = true;
    for (let a = 0; a < 3 && over; a++) {
      if (a === k) continue;
      const l = (x - box[0]) * box[3 + 3 * a] + (y - box[1]) * box[4 + 3 * a] + (z - box[2]) * box[5 + 3 * a];
      if (Math.abs(l) > box[12 + a] * (1 + 1e-9)) over = false;
    }
    if (!over) continue;
    const c = cs[m++];
    // the corner, and its foot on the face's plane
    const corner = ofB ? c.p : c.q,
      foot = ofB ? c.q : c.p;
    corner[0] = x;
    corner[1] = y;
    corner[2] = z;
    foot[0] = x - h * nx;
    foot[1] = y - h * ny;
    foot[2] = z - h * nz;
    c.n.set(BEST_DIR);
    c.d = h;
    c.t = ofB ? 8 + i : i;
  }
  return m - start;
}

function copyClosest(to: Closest, from: Closest): void {
  to.p.set(from.p);
  to.q.set(from.q);
  to.n.set(from.n);
  to.d = from.d;
  to.s = from.s;
  to.t = from.t;
}

/**
 * Contact points of an overlap found by separatingAxes: A's corners VA, B's corners VB; A is a
 * box, B a box or a triangle (its edges in DB as unit directions, its corners VB).
 */
function penetrationPoints(
  c: Closest,
  r: SatResult,
  A: Float64Array | undefined,
  va: Float64Array,
  na: number,
  B: Float64Array | undefined,
  vb: Float64Array,
  nb: number,
): void {
  const depth = r.depth;
  const nx = BEST_DIR[0],
    ny = BEST_DIR[1],
    nz = BEST_DIR[2];
  c.n[0] = nx;
  c.n[1] = ny;
  c.n[2] = nz;
  c.d = -depth;
  if (r.axis <= -10) {
    // face of B: A's deepest feature along +n, and its projection on B's face
    support(c.p, 0, va, na, nx, ny, nz, 1e-9);
    for (let k = 0; k < 3; k++) c.q[k] = c.p[k] - depth * c.n[k];
  } else if (r.axis < 0) {
    // face of A: B's deepest feature along −n
    support(c.q, 0, vb, nb, -nx, -ny, -nz, 1e-9);
    for (let k = 0; k < 3; k++) c.p[k] = c.q[k] + depth * c.n[k];
  } else {
    const i = Math.floor(r.axis / 3),
      j = r.axis % 3;
    if (A) supportEdge(A, i, nx, ny, nz, 0);
    else setTriangleEdge(va, i, 0);
    if (B) supportEdge(B, j, -nx, -ny, -nz, 6);
    else setTriangleEdge(vb, j, 6);
    segmentSegment(probe, SEG, 0, 3, SEG, 6, 9);
    c.p.set(probe.p);
    c.q.set(probe.q);
  }
}

/** Edge i of triangle corners v (i → i+1) into SEG[o..o+6). */
function setTriangleEdge(v: Float64Array, i: number, o: number): void {
  const a = i,
    b = (i + 1) % 3;
  for (let k = 0; k < 3; k++) {
    SEG[o + k] = v[3 * a + k];
    SEG[o + 3 + k] = v[3 * b + k];
  }
}

const VT = new Float64Array(9);
const FT = new Float64Array(3);

/**
 * Triangle (t1, t2, t3) and box (p on the triangle, q on the box, n from the triangle to the box):
 * up to 11 contacts into cs, returns their number. Separating axes: the triangle's normal, the
 * box's 3 face normals and the 9 products of the box's axes with the triangle's edges. As in
 * boxBox: when the least overlap (largest gap) is along a face normal, the face contacts (the box's
 * corners within `alarm` of the triangle's plane whose projection falls in the triangle; the
 * triangle's corners over the box's face), for the face and for the other's face parallel to it;
 * and the closest pair (or deepest, with the contact points of boxBox) when they do not reach it:
 * apart, the exact distance, the least of the triangle's 3 edges against the box and the box's
 * 8 corners against the triangle. Separated by more than `alarm`: none.
 */
export function triangleBox(
  cs: readonly Closest[],
  t: ArrayLike<number>,
  k1: number,
  k2: number,
  k3: number,
  box: Float64Array,
  alarm: number,
): number {
  for (let k = 0; k < 3; k++) {
    VT[k] = t[k1 + k];
    VT[3 + k] = t[k2 + k];
    VT[6 + k] = t[k3 + k];
  }
  boxCorners(VB, box);
  // triangle edges (unit) in DA, its normal in FT; the box's axes in DB
  for (let e = 0; e < 3; e++) {
    const a = e,
      b = (e + 1) % 3;
    let l = 0;
    for (let k = 0; k < 3; k++) {
      DA[3 * e + k] = VT[3 * b + k] - VT[3 * a + k];
      l += DA[3 * e + k] ** 2;
    }
    l = Math.sqrt(l) || 1;
    for (let k = 0; k < 3; k++) DA[3 * e + k] /= l;
  }
  FT[0] = DA[1] * DA[5] - DA[2] * DA[4];
  FT[1] = DA[2] * DA[3] - DA[0] * DA[5];
  FT[2] = DA[0] * DA[4] - DA[1] * DA[3];
  DB.set(box.subarray(3, 12));
  const r = separatingAxes(VT, 3, VB, 8, FT, 1, DB, 3, 3, 3);
  if (r.depth < -alarm) return 0;
  let n = 0;
  if (r.axis < 0) {
    const onTriangle = r.axis === -1;
    n = onTriangle ? triangleFaceContacts(cs, 0, VB, alarm) : faceContacts(cs, 0, box, -10 - r.axis, VT, 3, alarm, true);
    const cosine = onTriangle ? 0 : (FT[0] * BEST_DIR[0] + FT[1] * BEST_DIR[1] + FT[2] * BEST_DIR[2]) / Math.hypot(FT[0], FT[1], FT[2]);
    if (!onTriangle && Math.abs(cosine) > 1 - 1e-9) n += triangleFaceContacts(cs, n, VB, alarm);
    if (onTriangle)
      for (let m = 0; m < 3; m++) {
        const cm = box[3 + 3 * m] * BEST_DIR[0] + box[4 + 3 * m] * BEST_DIR[1] + box[5 + 3 * m] * BEST_DIR[2];
        if (Math.abs(cm) > 1 - 1e-9) n += faceContacts(cs, n, box, m, VT, 3, alarm, true);
      }
  }
  let least = Infinity;
  for (let k = 0; k < n; k++) least = Math.min(least, cs[k].d);
  const c = cs[n];
  if (r.depth < 0) {
    best.d = Infinity;
    for (let e = 0; e < 3; e++) {
      const a = 3 * e,
        b = 3 * ((e + 1) % 3);
      boxSegment(probe, box, VT, a, b);
      if (probe.d < best.d) {
        flip(probe);
        copyClosest(best, probe);
      }
    }
    for (let v = 0; v < 8; v++) {
      trianglePoint(probe, VT, 0, 3, 6, VB, 3 * v);
      if (probe.d < best.d) copyClosest(best, probe);
    }
    copyClosest(c, best);
  } else penetrationPoints(c, r, undefined, VT, 3, box, VB, 8);
  c.t = -1;
  return n + (c.d <= alarm && c.d < least - 1e-12 ? 1 : 0);
}

/**
 * The face contacts of the triangle VT (its plane oriented by BEST_DIR, towards the box) against
 * the box's corners v: h = (v − t1)·n ≤ alarm and the foot v − h·n inside the triangle
 * (barycentric coordinates ≥ −1e-9): p = the foot, q = v, d = h. Writes from cs[start].
 */
function triangleFaceContacts(cs: readonly Closest[], start: number, v: Float64Array, alarm: number): number {
  const nx = BEST_DIR[0],
    ny = BEST_DIR[1],
    nz = BEST_DIR[2];
  const abx = VT[3] - VT[0],
    aby = VT[4] - VT[1],
    abz = VT[5] - VT[2];
  const acx = VT[6] - VT[0],
    acy = VT[7] - VT[1],
    acz = VT[8] - VT[2];
  const a00 = abx * abx + aby * aby + abz * abz,
    a01 = abx * acx + aby * acy + abz * acz,
    a11 = acx * acx + acy * acy + acz * acz;
  const det = a00 * a11 - a01 * a01;
  let m = start;
  for (let i = 0; i < 8 && m < cs.length - 1; i++) {
    const px = v[3 * i] - VT[0],
      py = v[3 * i + 1] - VT[1],
      pz = v[3 * i + 2] - VT[2];
    const h = px * nx + py * ny + pz * nz;
    if (h > alarm) continue;
    // (α, β) of the foot from the normal equations [a00 a01; a01 a11]·(α, β) = (AP·AB, AP·AC)
    const b0 = px * abx + py * aby + pz * abz,
      b1 = px * acx + py * acy + pz * acz;
    const al = (b0 * a11 - b1 * a01) / det,
      be = (b1 * a00 - b0 * a01) / det;
    if (al < -1e-9 || be < -1e-9 || al + be > 1 + 1e-9) continue;
    const c = cs[m++];
    c.q[0] = v[3 * i];
    c.q[1] = v[3 * i + 1];
    c.q[2] = v[3 * i + 2];
    c.p[0] = c.q[0] - h * nx;
    c.p[1] = c.q[1] - h * ny;
    c.p[2] = c.q[2] - h * nz;
    c.n.set(BEST_DIR);
    c.d = h;
    c.t = i;
  }
  return m - start;
}
