#!/usr/bin/env node
// Writes scenes/softrobots/mesh/cavity-box.vtk: a hollow box of hexahedra (a pneumatic
// actuator) and the quads of its cavity, for scenes/softrobots/cavity-direct*.scn.
//   - a grid of NX × NY × NZ cubic cells of side H (mm), from (0, 0, 0);
//   - the cells (i, j, k) with 1 ≤ i ≤ NX−2, 1 ≤ j ≤ NY−2, 1 ≤ k ≤ NZ−2 are removed: the cavity,
//     closed by walls one cell thick (its points strictly inside are dropped);
//   - cells: the hexahedra (VTK type 12, SOFA's vertex order: bottom face 0-1-2-3 counter-
//     clockwise seen from above, then the top face), then the cavity's faces (VTK type 9, quads),
//     their normals (b − a) × (c − a) pointing out of the cavity (into the walls).
// Usage: node scripts/softrobots/make-cavity-mesh.mjs
import * as fs from 'node:fs';
import * as path from 'node:path';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(`usage: node scripts/softrobots/make-cavity-mesh.mjs
Writes scenes/softrobots/mesh/cavity-box.vtk (a hollow box of hexahedra and the quads of its cavity).
No options.
  -h, --help    print this and exit`);
  process.exit(0);
}

const NX = 5,
  NY = 5,
  NZ = 6,
  H = 2.5;
const inCavity = (i, j, k) => i >= 1 && i <= NX - 2 && j >= 1 && j <= NY - 2 && k >= 1 && k <= NZ - 2;
// a grid point is kept when one of its (up to 8) cells is solid
const cellSolid = (i, j, k) => i >= 0 && i < NX && j >= 0 && j < NY && k >= 0 && k < NZ && !inCavity(i, j, k);
const index = new Map();
const points = [];
for (let k = 0; k <= NZ; k++)
  for (let j = 0; j <= NY; j++)
    for (let i = 0; i <= NX; i++) {
      let solid = false;
      for (let c = 0; c < 8; c++) if (cellSolid(i - (c & 1), j - ((c >> 1) & 1), k - ((c >> 2) & 1))) solid = true;
      if (!solid) continue;
      index.set(`${i},${j},${k}`, points.length);
      points.push([i * H, j * H, k * H]);
    }
const id = (i, j, k) => {
  const v = index.get(`${i},${j},${k}`);
  if (v === undefined) throw new Error(`no point ${i},${j},${k}`);
  return v;
};
const hexa = [];
for (let k = 0; k < NZ; k++)
  for (let j = 0; j < NY; j++)
    for (let i = 0; i < NX; i++) {
      if (!cellSolid(i, j, k)) continue;
      hexa.push([
        id(i, j, k),
        id(i + 1, j, k),
        id(i + 1, j + 1, k),
        id(i, j + 1, k),
        id(i, j, k + 1),
        id(i + 1, j, k + 1),
        id(i + 1, j + 1, k + 1),
        id(i, j + 1, k + 1),
      ]);
    }
// cavity faces: the box [1, NX−1] × [1, NY−1] × [1, NZ−1] in grid units, normals outwards
const quads = [];
const x0 = 1,
  x1 = NX - 1,
  y0 = 1,
  y1 = NY - 1,
  z0 = 1,
  z1 = NZ - 1;
for (let j = y0; j < y1; j++)
  for (let i = x0; i < x1; i++) {
    quads.push([id(i, j, z0), id(i, j + 1, z0), id(i + 1, j + 1, z0), id(i + 1, j, z0)]); // −z
    quads.push([id(i, j, z1), id(i + 1, j, z1), id(i + 1, j + 1, z1), id(i, j + 1, z1)]); // +z
  }
for (let k = z0; k < z1; k++)
  for (let i = x0; i < x1; i++) {
    quads.push([id(i, y0, k), id(i + 1, y0, k), id(i + 1, y0, k + 1), id(i, y0, k + 1)]); // −y
    quads.push([id(i, y1, k), id(i, y1, k + 1), id(i + 1, y1, k + 1), id(i + 1, y1, k)]); // +y
  }
for (let k = z0; k < z1; k++)
  for (let j = y0; j < y1; j++) {
    quads.push([id(x0, j, k), id(x0, j, k + 1), id(x0, j + 1, k + 1), id(x0, j + 1, k)]); // −x
    quads.push([id(x1, j, k), id(x1, j + 1, k), id(x1, j + 1, k + 1), id(x1, j, k + 1)]); // +x
  }

const lines = [
  '# vtk DataFile Version 2.0',
  `hollow box ${NX}x${NY}x${NZ} cells of ${H} mm, cavity ${NX - 2}x${NY - 2}x${NZ - 2} cells (scripts/softrobots/make-cavity-mesh.mjs)`,
  'ASCII',
  'DATASET UNSTRUCTURED_GRID',
  `POINTS ${points.length} double`,
];
for (const p of points) lines.push(p.join(' '));
const cells = [...hexa, ...quads];
lines.push(`CELLS ${cells.length} ${hexa.length * 9 + quads.length * 5}`);
for (const c of cells) lines.push(`${c.length} ${c.join(' ')}`);
lines.push(`CELL_TYPES ${cells.length}`);
lines.push(...hexa.map(() => '12'), ...quads.map(() => '9'));
const out = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../scenes/softrobots/mesh/cavity-box.vtk');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, lines.join('\n') + '\n');
console.log(
  `${out}: ${points.length} points, ${hexa.length} hexahedra, ${quads.length} cavity quads, cavity volume ${((NX - 2) * (NY - 2) * (NZ - 2) * H ** 3).toFixed(3)} mm^3`,
);
