import { Bool, Str, StringArray, host, sofaComponent, type BaseObject, type Data, type Node, RealArray } from '@sofa-ts/core';
import { ExporterBase } from './export-schedule.js';
import { VTK_CELL, legacyVtk, pvdCollection, vtuXml, type CellBlock, type DataArray } from './vtk-format.js';

/**
 * SOFA's VTKExporter: writes its node's mesh (the topology's edges, triangles, quads, tetrahedra,
 * hexahedra as chosen) with the current positions and chosen Data on points and cells, as XML
 * `.vtu` (XMLformat, the default) or legacy `.vtk`, numbered per export (`<base>_<k>`), plus a
 * ParaView time series `<base>.pvd` listing every file with its simulated time (not in SOFA).
 * Data fields are named `[label=]object.field` (an `@` before the object is ignored); the object
 * is searched in the exporter's node, then its ancestors.
 */
@sofaComponent({
  name: 'VTKExporter',
  category: 'Exporter',
  module: 'Sofa.Component.IO.Mesh',
  description: 'Save the mesh and chosen Data in VTK files (ParaView) during the simulation.',
})
export class VTKExporter extends ExporterBase {
  readonly filename = this.initData({ name: 'filename', type: Str, default: '', help: 'output VTK file name' });
  readonly XMLformat = this.initData({ name: 'XMLformat', type: Bool, default: true, help: 'Set to true to use XML format' });
  readonly position = this.initData({
    name: 'position',
    type: RealArray(3, 'vector<Vec3d>'),
    default: new Float64Array(0),
    unit: 'm',
    help: 'points position (will use points from topology or mechanical state if this is empty)',
  });
  readonly edges = this.initData({ name: 'edges', type: Bool, default: true, help: 'write edge topology' });
  readonly triangles = this.initData({ name: 'triangles', type: Bool, default: false, help: 'write triangle topology' });
  readonly quads = this.initData({ name: 'quads', type: Bool, default: false, help: 'write quad topology' });
  readonly tetras = this.initData({ name: 'tetras', type: Bool, default: false, help: 'write tetra topology' });
  readonly hexas = this.initData({ name: 'hexas', type: Bool, default: false, help: 'write hexa topology' });
  readonly pointsDataFields = this.initData({
    name: 'pointsDataFields',
    type: StringArray,
    default: [],
    help: 'Data to visualize (on points)',
  });
  readonly cellsDataFields = this.initData({
    name: 'cellsDataFields',
    type: StringArray,
    default: [],
    help: 'Data to visualize (on cells)',
  });

  private series: { time: number; file: string }[] = [];
  /** Checkpoint: the numbering and the time series (the .pvd is written again from it). */
  override readonly checkpointFields: readonly string[] = ['nbFiles', 'steps', 'series'];

  override init(): void {
    super.init();
    this.series = [];
    if (!this.topology) throw this.error("no topology in this node or above (VTKExporter writes a topology's elements)");
    // check the Data fields now: a wrong name is an error at load, not at the first export
    this.fields(this.pointsDataFields.value);
    this.fields(this.cellsDataFields.value);
  }

  write(): void {
    const xml = this.XMLformat.value;
    const { file, base } = this.numberedName(this.filename.value, xml ? '.vtu' : '.vtk', ['.vtu', '.vtk']);
    const points = this.points(this.position.value);
    const np = points.length / 3;
    const t = this.topology!;
    const cells: CellBlock[] = [];
    if (this.edges.value) cells.push({ type: VTK_CELL.line, size: 2, connectivity: t.getEdges() });
    if (this.triangles.value) cells.push({ type: VTK_CELL.triangle, size: 3, connectivity: t.getTriangles() });
    if (this.quads.value) cells.push({ type: VTK_CELL.quad, size: 4, connectivity: t.getQuads() });
    if (this.tetras.value) cells.push({ type: VTK_CELL.tetra, size: 4, connectivity: t.getTetrahedra() });
    if (this.hexas.value) cells.push({ type: VTK_CELL.hexahedron, size: 8, connectivity: t.getHexahedra() });
    const nc = cells.reduce((s, c) => s + c.connectivity.length / c.size, 0);
    const grid = {
      points,
      cells,
      pointData: this.arrays(this.pointsDataFields.value, np),
      cellData: this.arrays(this.cellsDataFields.value, nc),
    };
    host().writeFile(file, xml ? vtuXml(grid) : legacyVtk(grid, `${this.getName()} t=${this.context.getTime()}`));
    this.nbFiles++;
    this.series.push({ time: this.context.getTime(), file: host().path.relative(host().path.dirname(base), file) });
    host().writeFile(`${base}.pvd`, pvdCollection(this.series));
  }

  /** `[label=][@]object.field` → the Data and its label. */
  private fields(specs: readonly string[]): { label: string; data: Data<unknown> }[] {
    return specs.map((spec) => {
      const eq = spec.indexOf('=');
      const label = eq >= 0 ? spec.slice(0, eq) : '';
      const path = (eq >= 0 ? spec.slice(eq + 1) : spec).replace(/^@/, '');
      const dot = path.lastIndexOf('.');
      if (dot <= 0) throw this.error(`'${spec}': expected object.field`);
      const objName = path.slice(0, dot),
        field = path.slice(dot + 1);
      const obj = findObject(this.context, objName);
      if (!obj) throw this.error(`'${spec}': no object '${objName}' in this node or above`);
      const data = obj.findData(field);
      if (!data) throw this.error(`'${spec}': ${obj.describe()} has no Data '${field}'`);
      return { label: label || field, data };
    });
  }

  /** Each Data as an array of n tuples (the component count is its length / n). */
  private arrays(specs: readonly string[], n: number): DataArray[] {
    return this.fields(specs).map(({ label, data }) => {
      const v = data.value;
      const values = typeof v === 'number' ? [v] : ArrayBuffer.isView(v) ? (v as unknown as ArrayLike<number>) : undefined;
      if (!values || n === 0 || values.length % n !== 0)
        throw this.error(
          `Data '${data.name}' (${values?.length ?? 'not numbers'}) does not give a value per ${n === 0 ? 'element (there are none)' : `element (${n})`}`,
        );
      return { name: label, components: values.length / n, values, integer: v instanceof Int32Array || v instanceof Uint32Array };
    });
  }
}

/** An object by name in `node`, then in its ancestors (SOFA's context->get by name). */
export function findObject(node: Node, name: string): BaseObject | undefined {
  for (let n: Node | undefined = node; n; n = n.parent) {
    const o = n.objects.find((x) => x.getName() === name);
    if (o) return o;
  }
  return undefined;
}
