#!/usr/bin/env node
// Writes scenes/softrobots/mesh/diamond.vtk, the body of the four-cable "diamond" robot of
// scenes/softrobots/diamond.scn, and prints the cable indices and the effector index.
// The body: four legs (capsules of radius R) from the feet (±S, 0, ±S) to a hub (a ball of radius
// RH at (0, H, 0)), voxelised on a grid of step h; each kept voxel is split in six tetrahedra along
// its main diagonal (Kuhn's split), which makes neighbouring voxels conforming.
// Each cable runs from a pull point under its foot up its leg's axis to the hub, through the mesh
// points nearest to ten points of the axis.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(`usage: node scripts/softrobots/make-diamond-mesh.mjs
Writes scenes/softrobots/mesh/diamond.vtk (the diamond robot's body) and prints its cable and effector
indices. No options.
  -h, --help    print this and exit`);
  process.exit(0);
}

const S = 30,
  H = 40,
  R = 6,
  RH = 9,
  h = 4;
const feet = [
  [S, 0, S],
  [-S, 0, S],
  [-S, 0, -S],
  [S, 0, -S],
];
const hub = [0, H, 0];
const lo = [-S - R, 0, -S - R],
  n = [Math.ceil((2 * (S + R)) / h), Math.ceil((H + RH) / h), Math.ceil((2 * (S + R)) / h)];

function distToSegment(p, a, b) {
  const ab = [b[0] - a[0], b[1] - a[1], b[2] - a[2]],
    ap = [p[0] - a[0], p[1] - a[1], p[2] - a[2]];
  const t = Math.max(0, Math.min(1, (ab[0] * ap[0] + ab[1] * ap[1] + ab[2] * ap[2]) / (ab[0] ** 2 + ab[1] ** 2 + ab[2] ** 2)));
  return Math.hypot(ap[0] - t * ab[0], ap[1] - t * ab[1], ap[2] - t * ab[2]);
}
const inside = (p) => Math.hypot(p[0] - hub[0], p[1] - hub[1], p[2] - hub[2]) <= RH || feet.some((f) => distToSegment(p, f, hub) <= R);

const pointId = new Map();
const points = [];
function point(i, j, k) {
  const key = `${i},${j},${k}`;
  let id = pointId.get(key);
  if (id === undefined) {
    id = points.length;
    pointId.set(key, id);
    points.push([lo[0] + i * h, lo[1] + j * h, lo[2] + k * h]);
  }
  return id;
}
// Kuhn's six tetrahedra of the unit cube along the diagonal 0 → 7 (corner c = x + 2y + 4z)
const kuhn = [
  [0, 1, 3, 7],
  [0, 3, 2, 7],
  [0, 2, 6, 7],
  [0, 6, 4, 7],
  [0, 4, 5, 7],
  [0, 5, 1, 7],
];
const tets = [];
for (let i = 0; i < n[0]; i++)
  for (let j = 0; j < n[1]; j++)
    for (let k = 0; k < n[2]; k++) {
      const c = [lo[0] + (i + 0.5) * h, lo[1] + (j + 0.5) * h, lo[2] + (k + 0.5) * h];
      if (!inside(c)) continue;
      const corner = (m) => point(i + (m & 1), j + ((m >> 1) & 1), k + ((m >> 2) & 1));
      for (const t of kuhn) {
        const ids = t.map(corner);
        // positive orientation
        const [a, b, cc, d] = ids.map((q) => points[q]);
        const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]],
          v = [cc[0] - a[0], cc[1] - a[1], cc[2] - a[2]],
          w = [d[0] - a[0], d[1] - a[1], d[2] - a[2]];
        const vol = u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0]);
        tets.push(vol > 0 ? ids : [ids[0], ids[2], ids[1], ids[3]]);
      }
    }
const nearest = (p) => {
  let best = 0,
    bd = Infinity;
  points.forEach((q, i) => {
    const d = Math.hypot(q[0] - p[0], q[1] - p[1], q[2] - p[2]);
    if (d < bd) [best, bd] = [i, d];
  });
  return best;
};
const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.resolve(here, '..', '..', 'scenes', 'softrobots', 'mesh', 'diamond.vtk');
const lines = [
  '# vtk DataFile Version 2.0',
  `diamond robot body: ${points.length} points, ${tets.length} tetrahedra (scripts/softrobots/make-diamond-mesh.mjs)`,
  'ASCII',
  'DATASET UNSTRUCTURED_GRID',
  `POINTS ${points.length} double`,
];
for (const p of points) lines.push(p.map((v) => +v.toFixed(6)).join(' '));
lines.push(`CELLS ${tets.length} ${5 * tets.length}`);
for (const t of tets) lines.push(`4 ${t.join(' ')}`);
lines.push(`CELL_TYPES ${tets.length}`);
for (let i = 0; i < tets.length; i++) lines.push('10');
fs.writeFileSync(out, lines.join('\n') + '\n');
console.log(`wrote ${out}: ${points.length} points, ${tets.length} tetrahedra`);
feet.forEach((f, c) => {
  const ids = [];
  for (let s = 1; s <= 10; s++) {
    const t = s / 10;
    const id = nearest([f[0] + t * (hub[0] - f[0]), f[1] + t * (hub[1] - f[1]), f[2] + t * (hub[2] - f[2])]);
    if (ids[ids.length - 1] !== id) ids.push(id);
  }
  console.log(`cable${c}: pullPoint="${f[0]} -10 ${f[2]}" indices="${ids.join(' ')}"`);
});
console.log(`effector (hub top): ${nearest([0, H + RH - 1, 0])}`);
