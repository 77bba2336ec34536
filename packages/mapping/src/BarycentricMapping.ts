import {
  contextMeshTopology,
  Bool,
  isMechanicalState,
  isTopology,
  sofaComponent,
  type BaseMeshTopology,
  type SparseMatrixLike,
} from '@sofa-ts/core';
import { BarycentricMap } from './barycentric/barycentric-map.js';
import { containerMapper } from './barycentric/container-mapper.js';
import type { ElementKind } from './barycentric/elements.js';
import { regularGridMapper, sparseGridMapper } from './barycentric/grid-mapper.js';
import { MapperError, meshMapper } from './barycentric/mesh-mapper.js';
import { MappingComponent } from './mapping-component.js';

/** Which of SOFA's mappers serves an input topology. */
export type BarycentricMapperKind =
  'RegularGrid' | 'SparseGrid' | 'HexahedronSet' | 'TetrahedronSet' | 'QuadSet' | 'TriangleSet' | 'EdgeSet' | 'MeshTopology';

/**
 * SOFA's BarycentricMapping: each output point is located once, at init, in an element of the
 * input topology (the element containing it, or the nearest one), and then follows it:
 *   x_out[i] = Σ_k φ_k(f_i)·x_in[node_k],    J = [φ_k(f_i)·I₃] (constant: the mapping is linear)
 * with f_i the point's local coordinates in its element and φ_k the element's barycentric
 * (tetrahedra, triangles, edges) or bi/trilinear (quads, hexahedra) weights.
 * The mapper is chosen as SOFA does, from the input topology (the one of the input state's node or
 * above, or input_topology): a regular grid → the grid mapper, a sparse grid → the sparse grid
 * mapper, a *SetTopologyContainer → the mapper of its highest element kind present (hexahedra,
 * tetrahedra, quads, triangles, edges), any other topology (MeshTopology…) → the generic mesh
 * mapper. Points are located with the current positions, or the rest positions (useRestPosition).
 * As in SOFA, the mapping's own init does not move the output (SOFA creates the mapper after the
 * base init's apply); a mechanical output is then moved by the simulation's propagation after init,
 * a visual one at the first step.
 */
@sofaComponent({
  name: 'BarycentricMapping',
  category: 'Mapping',
  module: 'Sofa.Component.Mapping.Linear',
  description: 'Maps points embedded in the elements of the input topology with barycentric coordinates.',
  templates: ['Vec3d,Vec3d'],
})
export class BarycentricMapping extends MappingComponent {
  readonly useRestPosition = this.initData({
    name: 'useRestPosition',
    type: Bool,
    default: false,
    help: 'use the rest position of the input and output models to initialize the mapping',
  });
  readonly inputTopology = this.initLink<BaseMeshTopology>({
    name: 'input_topology',
    help: "input topology container (usually the surrounding domain); default: the topology of the input state's node or above",
    accepts: isTopology,
    expected: 'a topology',
  });
  readonly outputTopology = this.initLink<BaseMeshTopology>({
    name: 'output_topology',
    help: 'output topology container (usually the immersed domain)',
    accepts: isTopology,
    expected: 'a topology',
  });

  protected map: BarycentricMap = new BarycentricMap(0, new Int32Array(1), new Int32Array(0), new Float64Array(0));
  /** The mapper SOFA would have created (for messages and tests). */
  mapperKind: BarycentricMapperKind | undefined;

  override init(): void {
    this.resolveEnds();
    this.checkTemplates(['Vec3d,Vec3d']);
    const topo = this.inputTopology.get() ?? contextMeshTopology(this.from.context);
    if (!topo)
      throw this.error(`no input topology: put a topology in the node of ${this.from.describe()} (or above), or set input_topology`);
    this.inputTopology.set(topo);
    if (!this.outputTopology.get() && isMechanicalState(this.to)) {
      const t = contextMeshTopology(this.to.context);
      if (t) this.outputTopology.set(t);
    }
    const rest = this.useRestPosition.value;
    const xin = rest ? this.from.x0 : this.from.x;
    const xout = rest ? this.restOutput() : this.outputPositions();
    const nOut = this.outputSize();
    try {
      this.map = this.locate(topo, xin, xout, nOut);
    } catch (e) {
      if (e instanceof MapperError) throw this.error(`${e.message} (input topology ${topo.describe()})`);
      throw e;
    }
  }

  /** Rest positions of the output (the visual model's restPosition when it has one). */
  private restOutput(): Float64Array {
    if (isMechanicalState(this.to)) return this.to.x0;
    const r = this.to.findData('restPosition')?.value;
    return r instanceof Float64Array && r.length === this.outputPositions().length ? r : this.outputPositions();
  }

  /** SOFA's createMapperFromTopology, then the mapper's init. */
  private locate(topo: BaseMeshTopology, xin: Float64Array, xout: Float64Array, nOut: number): BarycentricMap {
    const nIn = xin.length / 3;
    const grid = topo.getGrid();
    if (grid?.cellToHexahedron) {
      this.mapperKind = 'SparseGrid';
      return sparseGridMapper(topo, grid, xout, nOut, nIn);
    }
    if (grid) {
      this.mapperKind = 'RegularGrid';
      return regularGridMapper(grid, xout, nOut, nIn);
    }
    if (isSetContainer(topo)) {
      const kinds: Array<[ElementKind, () => Uint32Array, BarycentricMapperKind]> = [
        ['hexahedron', () => topo.getHexahedra(), 'HexahedronSet'],
        ['tetrahedron', () => topo.getTetrahedra(), 'TetrahedronSet'],
        ['quad', () => topo.getQuads(), 'QuadSet'],
        ['triangle', () => topo.getTriangles(), 'TriangleSet'],
        ['edge', () => topo.getEdges(), 'EdgeSet'],
      ];
      for (const [kind, elems, name] of kinds) {
        if (elems().length === 0) continue;
        this.mapperKind = name;
        return containerMapper(kind, topo, xin, xout, nOut);
      }
    }
    this.mapperKind = 'MeshTopology';
    return meshMapper(topo, xin, xout, nOut);
  }

  get isLinear(): boolean {
    return true;
  }

  /** The located points as weights (for tests and tools). */
  get barycentricMap(): BarycentricMap {
    return this.map;
  }

  apply(): void {
    this.ensureVisualOutputSize(this.map.nOut);
    this.map.apply(this.outputPositions(), this.from.x);
    this.touchOutput();
  }

  applyJ(out: Float64Array, ins: readonly Float64Array[]): void {
    this.map.apply(out, ins[0]);
  }

  applyJT(ins: readonly Float64Array[], out: Float64Array): void {
    this.map.applyTranspose(ins[0], out);
  }

  getJ(_input: number): SparseMatrixLike {
    return this.map.J;
  }
}

/**
 * SOFA's dynamic topology containers (TopologyContainer subclasses) are the *SetTopologyContainer
 * components; MeshTopology and the grids are not.
 */
function isSetContainer(topo: BaseMeshTopology): boolean {
  return /SetTopologyContainer$/.test(topo.className);
}
