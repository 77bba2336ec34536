import { Bool, Int, sofaComponent, type Data } from '@sofa-ts/core';
import { checkGridSize } from './grid-size.js';
import { MeshTopology } from '../container/MeshTopology.js';
import { surfaceEdges } from '../container/mesh-derivation.js';
import { NO_ELEMENTS, type ElementKind } from '../container/topology-container.js';
import { Vec3i } from './grid-data.js';
import { gridHexahedra, gridLines, gridQuads, splitQuads } from './grid-elements.js';

/**
 * SOFA's GridTopology: the connectivity of a grid of n = (nx, ny, nz) vertices, vertex (i, j, k)
 * having index i + nx·(j + ny·k). As SOFA's grid engine computes them (each list only when its
 * compute flag is on, otherwise as MeshTopology derives it):
 *   hexahedra: one per cell, vertices (i,j,k) (i+1,j,k) (i+1,j+1,k) (i,j+1,k) then the same at k+1;
 *   quads: every face, interior ones included: xy planes, then xz, then yz (2D grids give quads);
 *   triangles: each quad (a, b, c, d) split into (a, b, c) and (a, c, d);
 *   edges: the triangles' edges when there are triangles, else the grid lines (x, then y, then z).
 * A resolution below 1 on some axis is replaced by 2 2 2. The old attributes nx, ny, nz (all three)
 * set n. Positions are the `position` Data (GridTopology itself has no geometry: see RegularGridTopology).
 */
@sofaComponent({
  name: 'GridTopology',
  aliases: ['Grid'],
  category: 'Topology',
  module: 'Sofa.Component.Topology.Container.Grid',
  description: 'Base class of a regular grid in 3D: connectivity of nx × ny × nz points.',
})
export class GridTopology extends MeshTopology {
  readonly n = this.initData({
    name: 'n',
    type: Vec3i,
    default: Int32Array.of(2, 2, 2),
    help: 'grid resolution: number of points along x, y, z',
  });
  readonly computeHexaList = this.initData({
    name: 'computeHexaList',
    type: Bool,
    default: true,
    help: 'compute the hexahedra of the grid',
  });
  readonly computeQuadList = this.initData({ name: 'computeQuadList', type: Bool, default: true, help: 'compute the quads of the grid' });
  readonly computeTriangleList = this.initData({
    name: 'computeTriangleList',
    type: Bool,
    default: true,
    help: 'compute the triangles of the grid (each quad split in two)',
  });
  readonly computeEdgeList = this.initData({ name: 'computeEdgeList', type: Bool, default: true, help: 'compute the edges of the grid' });
  readonly computePointList = this.initData({
    name: 'computePointList',
    type: Bool,
    default: true,
    help: 'store the positions of the grid points in `position` at init',
  });
  readonly createTexCoords = this.initData({
    name: 'createTexCoords',
    type: Bool,
    default: false,
    help: 'generate texture coordinates (not supported: ignored)',
  });
  readonly nx = this.initData({
    name: 'nx',
    type: Int,
    default: 0,
    help: 'old attribute: resolution along x (used when nx, ny and nz are all given)',
  });
  readonly ny = this.initData({
    name: 'ny',
    type: Int,
    default: 0,
    help: 'old attribute: resolution along y (used when nx, ny and nz are all given)',
  });
  readonly nz = this.initData({
    name: 'nz',
    type: Int,
    default: 0,
    help: 'old attribute: resolution along z (used when nx, ny and nz are all given)',
  });

  protected override extraInputs(): readonly Data<unknown>[] {
    return [
      this.n,
      this.nx,
      this.ny,
      this.nz,
      this.computeHexaList,
      this.computeQuadList,
      this.computeTriangleList,
      this.computeEdgeList,
    ] as Data<unknown>[];
  }

  /** The resolution as given (n, or the old nx ny nz), before any change made at init. */
  protected givenResolution(): [number, number, number] {
    if (this.nx.isSet && this.ny.isSet && this.nz.isSet) return [this.nx.value, this.ny.value, this.nz.value];
    const n = this.n.value;
    return [n[0], n[1], n[2]];
  }

  /**
   * The number of points along x, y, z (SOFA's checkGridResolution: below 1 gives 2 2 2, with a
   * warning). A grid of more than MAX_POINTS points is refused before anything is allocated.
   */
  resolution(): [number, number, number] {
    return this.cached('resolution', () => {
      const n = this.resolutionBeforeCheck();
      if (n[0] < 1 || n[1] < 1 || n[2] < 1) {
        this.warnAbout(
          this.n,
          `the grid resolution ${n.join(' ')} needs at least 1 point along each axis: 2 2 2 is used instead, as SOFA does`,
        );
        return [2, 2, 2];
      }
      checkGridSize(this, n, this.resolutionSource());
      return n;
    });
  }

  /** The Data the resolution comes from, where a message about it points. */
  protected resolutionSource(): Data<unknown> {
    return (this.nx.isSet && this.ny.isSet && this.nz.isSet ? this.nx : this.n) as Data<unknown>;
  }

  protected resolutionBeforeCheck(): [number, number, number] {
    return this.givenResolution();
  }

  protected override alwaysDerived(kind: ElementKind): boolean {
    switch (kind) {
      case 'hexahedron':
        return this.computeHexaList.value;
      case 'quad':
        return this.computeQuadList.value;
      case 'triangle':
        return this.computeTriangleList.value;
      case 'edge':
        return this.computeEdgeList.value;
      default:
        return false;
    }
  }

  protected override deriveElements(kind: ElementKind): Uint32Array {
    const n = this.resolution();
    switch (kind) {
      case 'hexahedron':
        return this.computeHexaList.value ? gridHexahedra(n) : NO_ELEMENTS;
      case 'quad':
        return this.computeQuadList.value ? gridQuads(n) : super.deriveElements(kind);
      case 'triangle': {
        if (!this.computeTriangleList.value) return super.deriveElements(kind);
        const quads = this.getQuads();
        return splitQuads(quads.length > 0 ? quads : gridQuads(n));
      }
      case 'edge': {
        if (!this.computeEdgeList.value) return super.deriveElements(kind);
        const triangles = this.getTriangles();
        return triangles.length > 0 ? surfaceEdges(triangles, NO_ELEMENTS) : gridLines(n);
      }
      default:
        return super.deriveElements(kind);
    }
  }

  protected override countPoints(): number {
    const n = this.resolution();
    return n[0] * n[1] * n[2];
  }

  /** Positions of the grid points (nPoints × 3): here the `position` Data, completed with zeros. */
  protected computePositions(): Float64Array | undefined {
    const given = this.position.value;
    if (given.length === 0) return undefined;
    const out = new Float64Array(this.getNbPoints() * 3);
    out.set(given.subarray(0, Math.min(given.length, out.length)));
    return out;
  }

  override getPositions(): Float64Array | undefined {
    return this.cached('gridPositions', () => this.computePositions());
  }

  protected override initContainer(): void {
    super.initContainer();
    this.getHexahedra();
    if (this.computePointList.value) {
      const p = this.getPositions();
      if (p && p !== this.position.value) this.position.value = Float64Array.from(p);
    }
  }
}
