import { Int, sofaComponent } from '@sofa-ts/core';
import { Vec2i } from '../grid/grid-data.js';
import { checkGridSize } from '../grid/grid-size.js';
import { MeshLoader, emptyMeshBuffers, type MeshBuffers } from './MeshLoader.js';

/**
 * SOFA's GridMeshCreator: a procedural planar mesh of nx × ny points (resolution) on the unit
 * square, p(x, y) = (x/(nx−1), y/(ny−1), 0), index x + nx·y, then transformed like any
 * MeshLoader's points (scale, rotation, translation). Each cell (x, y) gives, by trianglePattern:
 *   0: the quad (x,y) (x+1,y) (x+1,y+1) (x,y+1);
 *   1: alternate diagonals — (x+y) even: (x,y)(x+1,y)(x+1,y+1) and (x,y)(x+1,y+1)(x,y+1), odd:
 *      (x,y)(x+1,y)(x,y+1) and (x+1,y)(x+1,y+1)(x,y+1);
 *   2 (default): "upward", the even split everywhere;   3: "downward", the odd split everywhere.
 * `edges` lists each edge of the faces once, oriented as first met, in increasing (a, b) order.
 * It reads no file (`filename` is ignored).
 */
@sofaComponent({
  name: 'GridMeshCreator',
  category: 'Loader',
  module: 'Sofa.Component.IO.Mesh',
  description: 'Procedural creation of a two-dimensional mesh.',
})
export class GridMeshCreator extends MeshLoader {
  readonly resolution = this.initData({
    name: 'resolution',
    type: Vec2i,
    default: Int32Array.of(2, 2),
    help: 'number of vertices in each direction',
  });
  readonly trianglePattern = this.initData({
    name: 'trianglePattern',
    type: Int,
    default: 2,
    help: '0: no triangles (quads), 1: alternate triangles, 2: upward triangles, 3: downward triangles',
  });

  constructor() {
    super();
    this.addInput(this.resolution, this.trianglePattern);
  }

  protected override needsFile(): boolean {
    return false;
  }

  /** Builds the grid (no file is read). */
  protected override updateOutputs(): void {
    const buf = emptyMeshBuffers();
    this.readMesh('', buf);
    this.finishMesh(buf);
  }

  protected readMesh(_path: string, out: MeshBuffers): void {
    const [nx, ny] = [this.resolution.value[0], this.resolution.value[1]];
    if (nx < 2 || ny < 2) throw this.error(`resolution ${nx} ${ny}: expected at least 2 vertices in each direction`);
    checkGridSize(this, [nx, ny, 1], this.resolution);
    const pattern = this.trianglePattern.value;
    if (pattern < 0 || pattern > 3) throw this.error(`trianglePattern ${pattern}: expected 0, 1, 2 or 3`);
    for (let y = 0; y < ny; y++) for (let x = 0; x < nx; x++) out.positions.push(x / (nx - 1), y / (ny - 1), 0);
    const v = (x: number, y: number): number => x + y * nx;
    // Unique edges: an edge is kept unless its reverse is there; sorted as a std::set of pairs.
    const edges = new Map<number, [number, number]>();
    const key = (a: number, b: number): number => a * 4294967296 + b;
    const edge = (a: number, b: number): void => {
      if (!edges.has(key(b, a))) edges.set(key(a, b), [a, b]);
    };
    const tri = (a: number, b: number, c: number): void => {
      this.addTriangle(out, a, b, c);
      edge(a, b);
      edge(b, c);
      edge(c, a);
    };
    for (let y = 0; y < ny - 1; y++) {
      for (let x = 0; x < nx - 1; x++) {
        if (pattern === 0) {
          this.addQuad(out, v(x, y), v(x + 1, y), v(x + 1, y + 1), v(x, y + 1));
          edge(v(x, y), v(x + 1, y));
          edge(v(x + 1, y), v(x + 1, y + 1));
          edge(v(x + 1, y + 1), v(x, y + 1));
          edge(v(x, y + 1), v(x, y));
        } else if (pattern === 2 || (pattern === 1 && (x + y) % 2 === 0)) {
          tri(v(x, y), v(x + 1, y), v(x + 1, y + 1));
          tri(v(x, y), v(x + 1, y + 1), v(x, y + 1));
        } else {
          tri(v(x, y), v(x + 1, y), v(x, y + 1));
          tri(v(x + 1, y), v(x + 1, y + 1), v(x, y + 1));
        }
      }
    }
    for (const [a, b] of [...edges.values()].sort((p, q) => p[0] - q[0] || p[1] - q[1])) out.edges.push(a, b);
  }
}
