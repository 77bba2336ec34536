import { Bool, Str, sofaComponent, type Data } from '@sofa-ts/core';
import { Edges, Hexahedra, Positions, Prisms, Pyramids, Quads, TexCoords, Tetrahedra, Triangles } from './element-data.js';
import { hexahedronFaces, pointCountOf, surfaceEdges, tetrahedronFaces, volumeEdges } from './mesh-derivation.js';
import { readTopologyFile } from './topology-file.js';
import { NO_ELEMENTS, TopologyContainer, type ElementKind } from './topology-container.js';

/**
 * SOFA's MeshTopology: a constant mesh (points, edges, triangles, quads, tetrahedra, hexahedra), usually
 * filled by `src="@loader"`. Lists the Data do not give are derived as SOFA's MeshTopology does:
 *  - edges: of the volumes if there are tetrahedra or hexahedra (tetrahedra first, each edge stored
 *    smaller index first), else of the surface (triangle edges oriented along their triangle, then
 *    quad edges smaller index first);
 *  - triangles: the faces of the tetrahedra (smallest index first, orientation of the first tetrahedron
 *    that has the face);
 *  - quads: the faces of the hexahedra, likewise.
 * The number of points is the number of positions, or one more than the largest index used.
 */
@sofaComponent({
  name: 'MeshTopology',
  aliases: ['Mesh'],
  category: 'Topology',
  module: 'Sofa.Component.Topology.Container.Constant',
  description: 'Generic constant topology: points, edges, triangles, quads, tetrahedra and hexahedra.',
})
export class MeshTopology extends TopologyContainer {
  readonly filename = this.initData({
    name: 'filename',
    type: Str,
    default: '',
    help: 'mesh file the topology is read from (OBJ, Gmsh .msh, VTK .vtk/.vtu, STL)',
    aliases: ['fileTopology'],
  });
  readonly position = this.initData({
    name: 'position',
    type: Positions,
    default: new Float64Array(0),
    help: 'positions of the points',
    aliases: ['points'],
  });
  readonly edges = this.initData({
    name: 'edges',
    type: Edges,
    default: new Uint32Array(0),
    help: 'edges (pairs of point indices)',
    aliases: ['lines'],
  });
  readonly triangles = this.initData({
    name: 'triangles',
    type: Triangles,
    default: new Uint32Array(0),
    help: 'triangles (point index triples)',
  });
  readonly quads = this.initData({ name: 'quads', type: Quads, default: new Uint32Array(0), help: 'quads (4 point indices each)' });
  readonly tetrahedra = this.initData({
    name: 'tetrahedra',
    type: Tetrahedra,
    default: new Uint32Array(0),
    help: 'tetrahedra (4 point indices each)',
    aliases: ['tetras'],
  });
  readonly hexahedra = this.initData({
    name: 'hexahedra',
    type: Hexahedra,
    default: new Uint32Array(0),
    help: 'hexahedra (8 point indices each, SOFA vertex order)',
    aliases: ['hexas'],
  });
  readonly prisms = this.initData({ name: 'prisms', type: Prisms, default: new Uint32Array(0), help: 'prisms (6 point indices each)' });
  readonly pyramids = this.initData({
    name: 'pyramids',
    type: Pyramids,
    default: new Uint32Array(0),
    help: 'pyramids (5 point indices each)',
  });
  readonly uv = this.initData({
    name: 'uv',
    type: TexCoords,
    default: new Float64Array(0),
    help: 'texture coordinates of the points',
    aliases: ['texcoords'],
  });
  readonly computeAllBuffers = this.initData({
    name: 'computeAllBuffers',
    type: Bool,
    default: false,
    help: 'compute every cross-element table at init (they are otherwise built on first use)',
  });
  readonly drawEdges = this.initData({ name: 'drawEdges', type: Bool, default: false, help: 'draw the edges', group: 'Visualization' });
  readonly drawTriangles = this.initData({
    name: 'drawTriangles',
    type: Bool,
    default: false,
    help: 'draw the triangles',
    group: 'Visualization',
  });
  readonly drawQuads = this.initData({ name: 'drawQuads', type: Bool, default: false, help: 'draw the quads', group: 'Visualization' });
  readonly drawTetrahedra = this.initData({
    name: 'drawTetrahedra',
    type: Bool,
    default: false,
    help: 'draw the tetrahedra',
    group: 'Visualization',
  });
  readonly drawHexahedra = this.initData({
    name: 'drawHexahedra',
    type: Bool,
    default: false,
    help: 'draw the hexahedra',
    group: 'Visualization',
  });

  /** Points imposed by a topological mapping (SOFA's setNbPoints). */
  private pointCountHint = 0;
  private fileLoaded = false;

  protected elementData(kind: ElementKind): Data<Uint32Array> | undefined {
    switch (kind) {
      case 'edge':
        return this.edges;
      case 'triangle':
        return this.triangles;
      case 'quad':
        return this.quads;
      case 'tetrahedron':
        return this.tetrahedra;
      case 'hexahedron':
        return this.hexahedra;
    }
  }

  protected positionData(): Data<Float64Array> {
    return this.position;
  }

  /** The `pyramids` Data as given (no face or edge is derived from pyramids). */
  override getPyramids(): Uint32Array {
    return this.pyramids.value;
  }

  /** The `prisms` Data as given (no face or edge is derived from prisms). */
  override getPrisms(): Uint32Array {
    return this.prisms.value;
  }

  protected override refresh(): void {
    if (!this.fileLoaded && this.hasContext) this.loadFile();
    super.refresh();
  }

  protected override deriveElements(kind: ElementKind): Uint32Array {
    switch (kind) {
      case 'edge': {
        const tetra = this.getTetrahedra();
        const hexa = this.getHexahedra();
        if (tetra.length > 0 || hexa.length > 0) return volumeEdges(tetra, hexa);
        return surfaceEdges(this.getTriangles(), this.getQuads());
      }
      case 'triangle':
        return tetrahedronFaces(this.getTetrahedra(), true);
      case 'quad':
        return hexahedronFaces(this.getHexahedra());
      default:
        return NO_ELEMENTS;
    }
  }

  protected countPoints(): number {
    const fromElements = pointCountOf(
      this.edges.value,
      this.triangles.value,
      this.quads.value,
      this.tetrahedra.value,
      this.hexahedra.value,
    );
    return Math.max(this.position.value.length / 3, fromElements, this.pointCountHint);
  }

  protected setPointCountHint(n: number): void {
    this.pointCountHint = n;
  }

  protected override initContainer(): void {
    super.initContainer();
    // SOFA creates the derived lists at init; here their first reader does (a link to them,
    // `@topology.edges`, reads them through their read hook: armDerivedLists)
    if (this.computeAllBuffers.value) this.computeCrossElementTables();
  }

  /** Every cross-element table that the present element kinds allow (SOFA's computeAllBuffers). */
  protected computeCrossElementTables(): void {
    const has = (a: Uint32Array): boolean => a.length > 0;
    if (has(this.getHexahedra())) {
      this.getHexahedraAroundVertex();
      if (has(this.getQuads())) this.getHexahedraAroundQuad();
      if (has(this.getEdges())) this.getHexahedraAroundEdge();
    }
    if (has(this.getTetrahedra())) {
      this.getTetrahedraAroundVertex();
      if (has(this.getTriangles())) this.getTetrahedraAroundTriangle();
      if (has(this.getEdges())) this.getTetrahedraAroundEdge();
    }
    if (has(this.getQuads())) {
      this.getQuadsAroundVertex();
      if (has(this.getEdges())) this.getQuadsAroundEdge();
    }
    if (has(this.getTriangles())) {
      this.getTrianglesAroundVertex();
      if (has(this.getEdges())) this.getTrianglesAroundEdge();
    }
    if (has(this.getEdges())) this.getEdgesAroundVertex();
  }

  /** Reads `filename` once; the lists the scene gives are kept. */
  protected loadFile(): void {
    this.fileLoaded = true;
    const name = this.filename.value.trim();
    if (name === '') return;
    const f = readTopologyFile(this, name);
    if (!this.position.isSet) this.position.value = f.positions;
    if (!this.edges.isSet && f.edges.length > 0) this.edges.value = f.edges;
    if (!this.triangles.isSet && f.triangles.length > 0) this.triangles.value = f.triangles;
    if (!this.quads.isSet && f.quads.length > 0) this.quads.value = f.quads;
    if (!this.tetrahedra.isSet && f.tetrahedra.length > 0) this.tetrahedra.value = f.tetrahedra;
    if (!this.hexahedra.isSet && f.hexahedra.length > 0) this.hexahedra.value = f.hexahedra;
  }
}
