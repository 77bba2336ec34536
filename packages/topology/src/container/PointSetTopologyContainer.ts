import { Bool, countAtMost, MAX_POINTS, sofaComponent, Str, UInt, type Data } from '@sofa-ts/core';
import { Positions } from './element-data.js';
import { pointCountOf } from './mesh-derivation.js';
import { readTopologyFile } from './topology-file.js';
import { ELEMENT_KINDS, TopologyContainer, type ElementKind } from './topology-container.js';

/**
 * SOFA's PointSetTopologyContainer: a set of points, the base of the dynamic topology containers.
 * The number of points is the number of positions when there are positions (SOFA's init), else
 * `nbPoints`; either way it covers every index used by the elements. Subclasses add element lists
 * and derive the lower-dimensional ones at init, as SOFA's containers do.
 */
@sofaComponent({
  name: 'PointSetTopologyContainer',
  category: 'Topology',
  module: 'Sofa.Component.Topology.Container.Dynamic',
  description: 'Point set topology container.',
})
export class PointSetTopologyContainer extends TopologyContainer {
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
    help: 'initial positions of the points',
    aliases: ['points'],
  });
  readonly checkTopology = this.initData({
    name: 'checkTopology',
    type: Bool,
    default: false,
    help: 'check the consistency of the topology (slower)',
  });
  readonly nbPoints = this.initData({ name: 'nbPoints', type: UInt, default: 0, range: countAtMost(MAX_POINTS), help: 'number of points' });

  private fileLoaded = false;

  protected elementData(_kind: ElementKind): Data<Uint32Array> | undefined {
    return undefined;
  }

  protected positionData(): Data<Float64Array> {
    return this.position;
  }

  protected override extraInputs(): readonly Data<unknown>[] {
    return [this.nbPoints as Data<unknown>];
  }

  protected override refresh(): void {
    if (!this.fileLoaded && this.hasContext) this.loadFile();
    super.refresh();
  }

  protected countPoints(): number {
    const raw: Uint32Array[] = [];
    for (const k of ELEMENT_KINDS) {
      const d = this.elementData(k);
      if (d) raw.push(d.value);
    }
    const n = this.position.value.length > 0 ? this.position.value.length / 3 : this.nbPoints.value;
    return Math.max(n, pointCountOf(...raw));
  }

  protected setPointCountHint(n: number): void {
    this.nbPoints.value = n;
  }

  protected override initContainer(): void {
    super.initContainer();
    // SOFA's init stores nbPoints (the derived element lists wait for their first reader: armDerivedLists)
    const n = this.getNbPoints();
    if (this.nbPoints.value !== n) this.nbPoints.value = n;
  }

  /** Reads `filename` once into the lists this container stores (the scene's lists are kept). */
  private loadFile(): void {
    this.fileLoaded = true;
    const name = this.filename.value.trim();
    if (name === '') return;
    const f = readTopologyFile(this, name);
    if (!this.position.isSet) this.position.value = f.positions;
    const fill = (kind: ElementKind, v: Uint32Array): void => {
      const d = this.elementData(kind);
      if (d && !d.isSet && v.length > 0) d.value = v;
    };
    fill('edge', f.edges);
    fill('triangle', f.triangles);
    fill('quad', f.quads);
    fill('tetrahedron', f.tetrahedra);
    fill('hexahedron', f.hexahedra);
  }
}
