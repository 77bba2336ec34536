import { contextMeshTopology, Real, sofaComponent } from '@sofa-ts/core';
import { StiffSpringForceField } from './SpringForceField.js';
import { perTypeValue } from './shared-stiffness.js';

/**
 * SOFA's RegularGridSpringForceField: the springs of SpringForceField (`spring`, indices1/indices2)
 * plus springs laid on the node's RegularGridTopology, cell by cell, with grid point
 * (x, y, z) = x + nx·(y + ny·z) and cell vectors dx, dy, dz:
 *   lines  along X, Y, Z               rest |dx|, |dy|, |dz|
 *   quads  both diagonals of each face rest |dx ± dy|, |dx ± dz|, |dy ± dz|
 *   cubes  the four body diagonals     rest |±dx + dy + dz| ...
 * each with ks = stiffness / rest and kd = damping / rest (linesStiffness, quadsStiffness, ...).
 * SOFA divides the stiffness and damping of the second YZ face diagonal by the length of the first
 * one; we do the same. The springs follow SpringForceField's law and stiffness matrix; the grid
 * springs are included in the assembled stiffness matrix too (SOFA only assembles the custom ones).
 * Without a RegularGridTopology in the node, only the custom springs remain.
 */
@sofaComponent({
  name: 'RegularGridSpringForceField',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.Spring',
  description: 'Springs on the lines, face diagonals and body diagonals of a regular grid.',
  templates: ['Vec3d', 'Vec2d', 'Vec1d'],
})
export class RegularGridSpringForceField extends StiffSpringForceField {
  readonly linesStiffness = this.initData({
    name: 'linesStiffness',
    type: Real,
    default: 100,
    unit: 'N',
    help: 'stiffness of the springs along the grid lines (divided by the rest length)',
  });
  readonly linesDamping = this.initData({
    name: 'linesDamping',
    type: Real,
    default: 5,
    unit: 'N·s',
    help: 'damping of the springs along the grid lines (divided by the rest length)',
  });
  readonly quadsStiffness = this.initData({
    name: 'quadsStiffness',
    type: Real,
    default: 100,
    unit: 'N',
    help: 'stiffness of the springs on the face diagonals',
  });
  readonly quadsDamping = this.initData({
    name: 'quadsDamping',
    type: Real,
    default: 5,
    unit: 'N·s',
    help: 'damping of the springs on the face diagonals',
  });
  readonly cubesStiffness = this.initData({
    name: 'cubesStiffness',
    type: Real,
    default: 100,
    unit: 'N',
    help: 'stiffness of the springs on the body diagonals of the cells',
  });
  readonly cubesDamping = this.initData({
    name: 'cubesDamping',
    type: Real,
    default: 5,
    unit: 'N·s',
    help: 'damping of the springs on the body diagonals of the cells',
  });

  /** Number of springs given by the scene (`spring`, indices1/indices2), before the grid springs. */
  customSpringCount = 0;

  protected override buildSprings(): void {
    super.buildSprings();
    const nc = this.a.length;
    this.customSpringCount = nc;
    const s1 = this.object1.get()!;
    const topo = s1 === this.object2.get() ? contextMeshTopology(this.context) : undefined;
    const grid = topo && topo.className === 'RegularGridTopology' ? topo.getGrid() : undefined;
    if (!grid) return;
    const [nx, ny, nz] = grid.n;
    const cell = (k: 0 | 1 | 2): number => {
      const n = grid.n[k];
      const ext = grid.max[k] - grid.min[k];
      return n > 1 ? ext / (n - 1) : ext;
    };
    // Cell vectors dx = (hx, 0, 0), dy = (0, hy, 0), dz = (0, 0, hz).
    const hx = cell(0),
      hy = cell(1),
      hz = cell(2);
    const norm = (x: number, y: number, z: number): number => Math.sqrt(x * x + y * y + z * z);
    const m1: number[] = [],
      m2: number[] = [],
      ks: number[] = [],
      kd: number[] = [],
      rest: number[] = [];
    const point = (x: number, y: number, z: number): number => x + nx * (y + ny * z);
    const push = (a: number, b: number, l: number, k: number, d: number, lk = l): void => {
      m1.push(a);
      m2.push(b);
      rest.push(l);
      ks.push(k / lk);
      kd.push(d / lk);
    };
    const kl = perTypeValue(this.linesStiffness, this.stiffness),
      dl = perTypeValue(this.linesDamping, this.damping);
    const kq = perTypeValue(this.quadsStiffness, this.stiffness),
      dq = perTypeValue(this.quadsDamping, this.damping);
    const kc = perTypeValue(this.cubesStiffness, this.stiffness),
      dc = perTypeValue(this.cubesDamping, this.damping);
    if (kl !== 0 || dl !== 0) {
      // lines along X, then Y, then Z
      let l = norm(hx, 0, 0);
      for (let z = 0; z < nz; z++)
        for (let y = 0; y < ny; y++) for (let x = 0; x < nx - 1; x++) push(point(x, y, z), point(x + 1, y, z), l, kl, dl);
      l = norm(0, hy, 0);
      for (let z = 0; z < nz; z++)
        for (let y = 0; y < ny - 1; y++) for (let x = 0; x < nx; x++) push(point(x, y, z), point(x, y + 1, z), l, kl, dl);
      l = norm(0, 0, hz);
      for (let z = 0; z < nz - 1; z++)
        for (let y = 0; y < ny; y++) for (let x = 0; x < nx; x++) push(point(x, y, z), point(x, y, z + 1), l, kl, dl);
    }
    if (kq !== 0 || dq !== 0) {
      // XY faces: (x,y,z)→(x+1,y+1,z) and (x+1,y,z)→(x,y+1,z)
      let l1 = norm(hx, hy, 0),
        l2 = norm(hx, -hy, 0);
      for (let z = 0; z < nz; z++)
        for (let y = 0; y < ny - 1; y++)
          for (let x = 0; x < nx - 1; x++) {
            push(point(x, y, z), point(x + 1, y + 1, z), l1, kq, dq);
            push(point(x + 1, y, z), point(x, y + 1, z), l2, kq, dq);
          }
      // XZ faces: (x,y,z)→(x+1,y,z+1) and (x+1,y,z)→(x,y,z+1)
      l1 = norm(hx, 0, hz);
      l2 = norm(hx, 0, -hz);
      for (let z = 0; z < nz - 1; z++)
        for (let y = 0; y < ny; y++)
          for (let x = 0; x < nx - 1; x++) {
            push(point(x, y, z), point(x + 1, y, z + 1), l1, kq, dq);
            push(point(x + 1, y, z), point(x, y, z + 1), l2, kq, dq);
          }
      // YZ faces: (x,y,z)→(x,y+1,z+1) and (x,y+1,z)→(x,y,z+1); the second divided by l1 as in SOFA
      l1 = norm(0, hy, hz);
      l2 = norm(0, hy, -hz);
      for (let z = 0; z < nz - 1; z++)
        for (let y = 0; y < ny - 1; y++)
          for (let x = 0; x < nx; x++) {
            push(point(x, y, z), point(x, y + 1, z + 1), l1, kq, dq);
            push(point(x, y + 1, z), point(x, y, z + 1), l2, kq, dq, l1);
          }
    }
    if (kc !== 0 || dc !== 0) {
      const l1 = norm(hx, hy, hz),
        l2 = norm(-hx, hy, hz),
        l3 = norm(hx, -hy, hz),
        l4 = norm(hx, hy, -hz);
      for (let z = 0; z < nz - 1; z++)
        for (let y = 0; y < ny - 1; y++)
          for (let x = 0; x < nx - 1; x++) {
            push(point(x, y, z), point(x + 1, y + 1, z + 1), l1, kc, dc);
            push(point(x + 1, y, z), point(x, y + 1, z + 1), l2, kc, dc);
            push(point(x, y + 1, z), point(x + 1, y, z + 1), l3, kc, dc);
            push(point(x, y, z + 1), point(x + 1, y + 1, z), l4, kc, dc);
          }
    }
    if (nx * ny * nz > s1.size) throw this.error(`the grid has ${nx * ny * nz} points but ${s1.describe()} has ${s1.size}`);
    // Custom springs first, then the grid springs.
    const old = { a: this.a, b: this.b, ks: this.ks, kd: this.kd, rest: this.rest, el: this.elongOnly, on: this.active };
    this.allocate(nc + m1.length);
    this.a.set(old.a);
    this.b.set(old.b);
    this.ks.set(old.ks);
    this.kd.set(old.kd);
    this.rest.set(old.rest);
    this.elongOnly.set(old.el);
    this.active.set(old.on);
    for (let i = 0; i < m1.length; i++) {
      this.a[nc + i] = m1[i];
      this.b[nc + i] = m2[i];
      this.ks[nc + i] = ks[i];
      this.kd[nc + i] = kd[i];
      this.rest[nc + i] = rest[i];
      this.active[nc + i] = 1;
    }
  }
}
