/**
 * The hierarchy of SOFA's SparseGridRamificationTopology, as plain data.
 *
 * A sparse grid cell may hold parts of the object that do not touch inside it (the two arms of a C
 * in one coarse cell). The ramified grid gives each such part its own hexahedron ("connexion"), with
 * its own corner points, so that the parts move independently:
 *  - finest level: one connexion per kept cell. Two face-neighbour cells are connected unless
 *    `finestConnectivity` is set, both are BOUNDARY cells, and no edge of the surface's polygons
 *    (fans of segments (v_{j−1}, v_j)) crosses their common face (two triangles, parallel segments
 *    counting as not crossing): then the surface does not pass from one to the other.
 *  - coarser level (twice the cell size): the connexions of the 8 child cells of a coarse cell are
 *    grouped into connected components (links between them only); each component is one coarse
 *    connexion, components ordered by their first member (children in x-fastest order). Coarse
 *    connexions are linked when a link of their members crosses the coarse cell's boundary.
 *  - hexahedra, one per connexion (cells in order, connexions in order), first get 8 points of their
 *    own; the corners of the common face of linked connexions are merged; points are then numbered
 *    in order of their first use, at the corner position of that use.
 * Finest cells are kept in SparseGridTopology's order (BOUNDARY cells, then INSIDE cells, each in
 * regular-grid order); coarser cells in the order x outermost, z innermost (SOFA's loops). A coarse
 * cell is INSIDE when its 8 children exist and none is BOUNDARY; a ramified cell gives BOUNDARY
 * hexahedra. SOFA reads a finer level's cell types by non-ramified cell index from a list kept per
 * hexahedron; that is reproduced (it only differs where a finer level is ramified).
 * Stiffness and mass coefficients of a coarse hexahedron: Σ over the 8 children slots of its
 * non-ramified cell (or, ramified, of its own children) of the child coefficients, / 8.
 */
import { BOUNDARY, INSIDE, gridCoord, voxelGrid, voxelizeSurface, type VoxelGrid } from './sparse-voxelizer.js';

/** Directions of the face links: −x, +x, −y, +y, −z, +z (opposite of d: d ^ 1). */
const X_NEG = 0,
  Y_NEG = 2,
  Z_NEG = 4;

/** One part of a cell (SOFA's Connexion). */
export interface Connexion {
  /** Linked connexions per direction. */
  readonly neighbors: [Set<Connexion>, Set<Connexion>, Set<Connexion>, Set<Connexion>, Set<Connexion>, Set<Connexion>];
  /** Index of its hexahedron in its level. */
  hexa: number;
  /** Its cell's index among the level's kept (non-ramified) cells. */
  cell: number;
  /** The connexion of the next coarser level holding it. */
  parent: Connexion | undefined;
  /** Children (slot 0..7 in the coarse cell, child connexion). */
  readonly children: { slot: number; child: Connexion }[];
}

function newConnexion(cell: number): Connexion {
  return { neighbors: [new Set(), new Set(), new Set(), new Set(), new Set(), new Set()], hexa: -1, cell, parent: undefined, children: [] };
}

/** One level of the hierarchy. */
export interface RamifiedLevel {
  readonly grid: VoxelGrid;
  /** Regular cell → kept (non-ramified) cell index, or −1. */
  readonly cellIndex: Int32Array;
  /** Kept cell → regular cell. */
  readonly regularCell: Int32Array;
  /** Per kept cell, its connexions. */
  readonly connexions: Connexion[][];
  /** Per hexahedron: type (INSIDE or BOUNDARY), stiffness and mass coefficients. */
  readonly types: Uint8Array;
  readonly stiffnessCoefs: Float64Array;
  readonly massCoefs: Float64Array;
  /** (nH × 8) hexahedra (SOFA's corner order) and (nP × 3) positions. */
  readonly hexahedra: Uint32Array;
  readonly positions: Float64Array;
}

/** Corner offsets of SOFA's hexahedron order. */
const CORNERS = [
  [0, 0, 0],
  [1, 0, 0],
  [1, 1, 0],
  [0, 1, 0],
  [0, 0, 1],
  [1, 0, 1],
  [1, 1, 1],
  [0, 1, 1],
] as const;

/** The corners shared with the neighbour in direction −x, −y, −z: pairs (own corner, neighbour corner). */
const SHARED: Record<number, readonly (readonly [number, number])[]> = {
  [Z_NEG]: [
    [0, 4],
    [1, 5],
    [2, 6],
    [3, 7],
  ],
  [Y_NEG]: [
    [0, 3],
    [4, 7],
    [5, 6],
    [1, 2],
  ],
  [X_NEG]: [
    [0, 1],
    [4, 5],
    [7, 6],
    [3, 2],
  ],
};

/** The face of cell (x, y, z) towards −x, −y or −z as corner indices (a, b, c, d) of SOFA's order. */
const FACE: Record<number, readonly [number, number, number, number]> = {
  [X_NEG]: [0, 4, 7, 3],
  [Y_NEG]: [0, 1, 5, 4],
  [Z_NEG]: [0, 1, 2, 3],
};

function cellCoords(g: VoxelGrid, c: number): [number, number, number] {
  const cx = g.n[0] - 1,
    cy = g.n[1] - 1;
  return [c % cx, Math.floor(c / cx) % cy, Math.floor(c / (cx * cy))];
}

function cornerPosition(g: VoxelGrid, c: number, corner: number): [number, number, number] {
  const [i, j, k] = cellCoords(g, c);
  const o = CORNERS[corner];
  return [gridCoord(g, 0, i + o[0]), gridCoord(g, 1, j + o[1]), gridCoord(g, 2, k + o[2])];
}

/** The surface polygons given to the ramification (vertices (nV × 3), polygons as vertex lists). */
export interface Surface {
  readonly vertices: Float64Array;
  readonly facets: readonly (readonly number[])[];
}

/**
 * The finest level: voxelise `surface` on `grid` (or take the cells `given`, with their
 * coefficients), keep BOUNDARY then INSIDE cells (only INSIDE with onlyInsideCells) and link face
 * neighbours (all of them, or with `finestConnectivity` only where the surface crosses the common
 * face of two BOUNDARY cells).
 */
export function finestLevel(
  grid: VoxelGrid,
  surface: Surface,
  options: { finestConnectivity: boolean; fillWeighted: boolean; onlyInsideCells: boolean },
  given?: FinestCells,
): RamifiedLevel {
  const types = given?.types ?? voxelizeSurface(grid, surface.vertices, surface.facets);
  const kept: number[] = [];
  if (!options.onlyInsideCells) for (let c = 0; c < types.length; c++) if (types[c] === BOUNDARY) kept.push(c);
  for (let c = 0; c < types.length; c++) if (types[c] === INSIDE) kept.push(c);
  const cellIndex = new Int32Array(types.length).fill(-1);
  kept.forEach((c, i) => (cellIndex[c] = i));
  const connexions = kept.map((_, i) => [newConnexion(i)]);
  const [nx, ny, nz] = grid.n;
  const cx = nx - 1,
    cy = ny - 1;
  const crosses = (a: number, b: number, dir: number): boolean => {
    if (!options.finestConnectivity) return true;
    if (types[kept[a]] !== BOUNDARY || types[kept[b]] !== BOUNDARY) return true;
    const f = FACE[dir].map((w) => cornerPosition(grid, kept[a], w));
    return surfaceCrossesQuad(surface, f[0], f[1], f[2], f[3]);
  };
  for (let z = 0; z < nz - 1; z++) {
    for (let y = 0; y < ny - 1; y++) {
      for (let x = 0; x < nx - 1; x++) {
        const a = cellIndex[x + cx * (y + cy * z)];
        if (a < 0) continue;
        const link = (nb: number, dir: number): void => {
          const b = cellIndex[nb];
          if (b < 0 || !crosses(a, b, dir)) return;
          connexions[a][0].neighbors[dir].add(connexions[b][0]);
          connexions[b][0].neighbors[dir ^ 1].add(connexions[a][0]);
        };
        if (x > 0) link(x - 1 + cx * (y + cy * z), X_NEG);
        if (y > 0) link(x + cx * (y - 1 + cy * z), Y_NEG);
        if (z > 0) link(x + cx * (y + cy * (z - 1)), Z_NEG);
      }
    }
  }
  const levelTypes = Uint8Array.from(kept, (c) => types[c]);
  const coef = given
    ? Float64Array.from(kept, (c) => given.stiffnessCoefs[c])
    : Float64Array.from(levelTypes, (t) => (t === BOUNDARY && options.fillWeighted ? 0.5 : 1));
  const massCoef = given ? Float64Array.from(kept, (c) => given.massCoefs[c]) : Float64Array.from(coef);
  const regularCell = Int32Array.from(kept);
  const { hexahedra, positions } = options.finestConnectivity
    ? ramifiedHexahedra(grid, regularCell, connexions)
    : plainHexahedra(grid, regularCell);
  if (!options.finestConnectivity) connexions.forEach((cs, i) => (cs[0].hexa = i));
  return {
    grid,
    cellIndex,
    regularCell,
    connexions,
    types: levelTypes,
    stiffnessCoefs: coef,
    massCoefs: massCoef,
    hexahedra,
    positions,
  };
}

/** The cells of a finest level decided by the caller: per regular cell its type and coefficients. */
export interface FinestCells {
  readonly types: Uint8Array;
  readonly stiffnessCoefs: Float64Array;
  readonly massCoefs: Float64Array;
}

/** The next coarser level (cells twice as large) of `fine`. */
export function coarserLevel(fine: RamifiedLevel): RamifiedLevel {
  const fg = fine.grid;
  const n: [number, number, number] = [Math.floor(fg.n[0] / 2) + 1, Math.floor(fg.n[1] / 2) + 1, Math.floor(fg.n[2] / 2) + 1];
  const max: [number, number, number] = [0, 1, 2].map((k) => fg.min[k] + (n[k] - 1) * 2 * fg.step[k]) as [number, number, number];
  const grid = voxelGrid(n, fg.min, max);
  const cx = n[0] - 1,
    cy = n[1] - 1,
    cz = n[2] - 1;
  const fcx = fg.n[0] - 1,
    fcy = fg.n[1] - 1,
    fcz = fg.n[2] - 1;
  const cellIndex = new Int32Array(cx * cy * cz).fill(-1);
  const kept: number[] = [];
  const keptTypes: number[] = [];
  const childSlots: Int32Array[] = [];
  for (let i = 0; i < cx; i++) {
    for (let j = 0; j < cy; j++) {
      for (let k = 0; k < cz; k++) {
        const slots = new Int32Array(8).fill(-1);
        let inside = true,
          outside = true;
        for (let s = 0; s < 8; s++) {
          const x = 2 * i + (s & 1),
            y = 2 * j + ((s >> 1) & 1),
            z = 2 * k + ((s >> 2) & 1);
          if (x < fcx && y < fcy && z < fcz) slots[s] = fine.cellIndex[x + fcx * (y + fcy * z)];
        }
        for (let s = 0; s < 8; s++) {
          const f = slots[s];
          if (f < 0) inside = false;
          else {
            // SOFA reads the finer types by non-ramified index from its per-hexahedron list
            const t = fine.types[f];
            if (t === BOUNDARY) inside = outside = false;
            else if (t === INSIDE) outside = false;
          }
          if (!inside && !outside) break;
        }
        if (outside) continue;
        const c = i + cx * (j + cy * k);
        cellIndex[c] = kept.length;
        kept.push(c);
        keptTypes.push(inside ? INSIDE : BOUNDARY);
        childSlots.push(slots);
      }
    }
  }
  // group the children's connexions of each coarse cell into connected components
  const connexions: Connexion[][] = kept.map((_, idx) => {
    const members: { slot: number; child: Connexion }[] = [];
    const slots = childSlots[idx];
    for (let s = 0; s < 8; s++) if (slots[s] >= 0) for (const cn of fine.connexions[slots[s]]) members.push({ slot: s, child: cn });
    const inCell = new Set(members.map((m) => m.child));
    const component = new Map<Connexion, number>();
    members.forEach((m, i) => {
      if (component.has(m.child)) return;
      const stack = [m.child];
      component.set(m.child, i);
      while (stack.length > 0) {
        const cur = stack.pop()!;
        for (const dir of cur.neighbors)
          for (const nb of dir)
            if (inCell.has(nb) && !component.has(nb)) {
              component.set(nb, i);
              stack.push(nb);
            }
      }
    });
    const ids = [...new Set(members.map((m) => component.get(m.child)!))].sort((a, b) => a - b);
    return ids.map((id) => {
      const cn = newConnexion(idx);
      for (const m of members)
        if (component.get(m.child) === id) {
          cn.children.push(m);
          m.child.parent = cn;
        }
      return cn;
    });
  });
  // links between coarse connexions from the links of their children across cells
  for (const cs of fine.connexions)
    for (const f1 of cs) {
      const c1 = f1.parent!;
      f1.neighbors.forEach((set, dir) => {
        for (const f2 of set) {
          const c2 = f2.parent!;
          if (c1.cell === c2.cell) continue;
          c1.neighbors[dir].add(c2);
          c2.neighbors[dir ^ 1].add(c1);
        }
      });
    }
  const regularCell = Int32Array.from(kept);
  const { hexahedra, positions } = ramifiedHexahedra(grid, regularCell, connexions);
  // types and coefficients per hexahedron
  const nH = hexahedra.length / 8;
  const types = new Uint8Array(nH);
  const stiffnessCoefs = new Float64Array(nH);
  const massCoefs = new Float64Array(nH);
  connexions.forEach((cs, idx) => {
    for (const cn of cs) {
      const h = cn.hexa;
      types[h] = cs.length === 1 ? keptTypes[idx] : BOUNDARY;
      // children slots: the non-ramified cell's, or (ramified) the hexahedra of its own children
      let s = 0,
        m = 0;
      if (cs.length === 1) {
        for (const f of childSlots[idx])
          if (f >= 0) {
            s += fine.stiffnessCoefs[f];
            m += fine.massCoefs[f];
          }
      } else {
        // SOFA rewrites all 8 slots for each child listed: only the last child's slot remains
        const bySlot = new Int32Array(8).fill(-1);
        for (const ch of cn.children) {
          for (let p = 0; p < 8; p++) bySlot[p] = ch.child.cell === childSlots[idx][p] ? ch.child.hexa : -1;
        }
        for (const f of bySlot)
          if (f >= 0) {
            s += fine.stiffnessCoefs[f];
            m += fine.massCoefs[f];
          }
      }
      stiffnessCoefs[h] = s / 8;
      massCoefs[h] = m / 8;
    }
  });
  return { grid, cellIndex, regularCell, connexions, types, stiffnessCoefs, massCoefs, hexahedra, positions };
}

/** Hexahedra of a level without ramification: the kept cells' corners, points as SparseGridTopology numbers them. */
function plainHexahedra(grid: VoxelGrid, cells: Int32Array): { hexahedra: Uint32Array; positions: Float64Array } {
  const [nx, ny] = grid.n;
  const corners = new Uint32Array(cells.length * 8);
  cells.forEach((c, h) => {
    const [i, j, k] = cellCoords(grid, c);
    for (let v = 0; v < 8; v++) {
      const o = CORNERS[v];
      corners[h * 8 + v] = i + o[0] + nx * (j + o[1] + ny * (k + o[2]));
    }
  });
  const used = Array.from(new Set(corners));
  const coord = (p: number): [number, number, number] => [
    gridCoord(grid, 0, p % nx),
    gridCoord(grid, 1, Math.floor(p / nx) % ny),
    gridCoord(grid, 2, Math.floor(p / (nx * ny))),
  ];
  used.sort((a, b) => {
    const pa = coord(a),
      pb = coord(b);
    return pa[0] - pb[0] || pa[1] - pb[1] || pa[2] - pb[2];
  });
  const pointOf = new Map<number, number>();
  const positions: number[] = [];
  for (const p of used) {
    pointOf.set(p, positions.length / 3);
    positions.push(...coord(p));
  }
  return { hexahedra: Uint32Array.from(corners, (p) => pointOf.get(p)!), positions: Float64Array.from(positions) };
}

/**
 * One hexahedron per connexion with 8 points of its own, the shared face corners of linked
 * connexions merged (SOFA's changeIndices: in every hexahedron, the first corner equal to the old
 * index takes the new one), points renumbered in order of first use.
 */
function ramifiedHexahedra(
  grid: VoxelGrid,
  cells: Int32Array,
  connexions: Connexion[][],
): { hexahedra: Uint32Array; positions: Float64Array } {
  let nH = 0;
  for (const cs of connexions) for (const cn of cs) cn.hexa = nH++;
  const hexa = new Uint32Array(nH * 8);
  for (let i = 0; i < hexa.length; i++) hexa[i] = i;
  const change = (oldIdx: number, newIdx: number): void => {
    for (let h = 0; h < nH; h++) {
      for (let w = 0; w < 8; w++) {
        if (hexa[8 * h + w] === oldIdx) {
          hexa[8 * h + w] = newIdx;
          break;
        }
      }
    }
  };
  for (const cs of connexions)
    for (const cn of cs) {
      for (const dir of [Z_NEG, Y_NEG, X_NEG]) {
        for (const nb of cn.neighbors[dir])
          for (const [own, other] of SHARED[dir]) change(hexa[8 * cn.hexa + own], hexa[8 * nb.hexa + other]);
      }
    }
  // first use of each temporary index (hexahedra in order, corners in order)
  const firstUse = new Int32Array(nH * 8).fill(-1);
  for (let i = 0; i < hexa.length; i++) if (firstUse[hexa[i]] === -1) firstUse[hexa[i]] = i;
  const newIndex = new Int32Array(nH * 8).fill(-1);
  const positions: number[] = [];
  for (let t = 0; t < firstUse.length; t++) {
    const u = firstUse[t];
    if (u < 0) continue;
    newIndex[t] = positions.length / 3;
    const h = Math.floor(u / 8);
    positions.push(...cornerPosition(grid, cells[hexaCell(connexions, h)], u % 8));
  }
  return { hexahedra: Uint32Array.from(hexa, (t) => newIndex[t]), positions: Float64Array.from(positions) };
}

/** The kept cell of hexahedron h (hexahedra are numbered cell by cell). */
function hexaCell(connexions: Connexion[][], h: number): number {
  let n = 0;
  for (let c = 0; c < connexions.length; c++) {
    n += connexions[c].length;
    if (h < n) return c;
  }
  return -1;
}

/** True when an edge (v_{j−1}, v_j) of a surface polygon crosses the quad (a, b, c, d) (triangles abc, acd). */
export function surfaceCrossesQuad(
  s: Surface,
  a: readonly number[],
  b: readonly number[],
  c: readonly number[],
  d: readonly number[],
): boolean {
  const V = s.vertices;
  const P = (i: number): [number, number, number] => [V[3 * i], V[3 * i + 1], V[3 * i + 2]];
  for (const f of s.facets) {
    for (let j = 1; j < f.length; j++) {
      const A = P(f[j - 1]),
        B = P(f[j]);
      if (segmentCrossesTriangle(A, B, a, b, c) || segmentCrossesTriangle(A, B, a, c, d)) return true;
    }
  }
  return false;
}

/**
 * Segment s0s1 against triangle t0t1t2 (SOFA's test): with D the unit direction, N = e1 × e2,
 * Q = s0 − t0, the crossing point's barycentric coordinates are sign(D·N)·D·(Q × e2)/|D·N| and
 * sign(D·N)·D·(e1 × Q)/|D·N|, its parameter −sign(D·N)·Q·N/|D·N|, accepted within the segment's
 * length on either side of s0. |D·N| ≤ 1e−10 (parallel) is no crossing.
 */
export function segmentCrossesTriangle(
  s0: readonly number[],
  s1: readonly number[],
  t0: readonly number[],
  t1: readonly number[],
  t2: readonly number[],
): boolean {
  const sub = (u: readonly number[], v: readonly number[]): number[] => [u[0] - v[0], u[1] - v[1], u[2] - v[2]];
  const cross = (u: number[], v: number[]): number[] => [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
  const dot = (u: number[], v: number[]): number => u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
  const q = sub(s0, t0),
    e1 = sub(t1, t0),
    e2 = sub(t2, t0);
  const nrm = cross(e1, e2);
  const d = sub(s1, s0);
  const len = Math.sqrt(dot(d, d));
  for (let k = 0; k < 3; k++) d[k] = d[k] / len;
  let dn = dot(d, nrm);
  let sign: number;
  if (dn > 1e-10) sign = 1;
  else if (dn < -1e-10) {
    sign = -1;
    dn = -dn;
  } else return false;
  const b1 = sign * dot(d, cross(q, e2));
  if (b1 < 0) return false;
  const b2 = sign * dot(d, cross(e1, q));
  if (b2 < 0 || b1 + b2 > dn) return false;
  const qn = -sign * dot(q, nrm);
  const ext = len * dn;
  return -ext <= qn && qn <= ext;
}
