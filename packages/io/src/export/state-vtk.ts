import { contextMeshTopology, host, isMechanicalState, type BaseMechanicalState, type Node } from '@sofa-ts/core';
import { VTK_CELL, pvdCollection, vtuXml, type CellBlock } from './vtk-format.js';

/**
 * `sofa-ts run --export-vtk DIR`: every mechanical state with 3D points (Vec3; rigid frames by
 * their origins) as XML VTK files `DIR/<i>_<name>_<step>.vtu` — the elements of the node's
 * topology (the highest kind present: hexahedra, tetrahedra, quads + triangles, else edges),
 * velocity and force as point data — and one ParaView time series `DIR/<i>_<name>.pvd` per state.
 */
export class StateVtkSeries {
  private readonly states: { state: BaseMechanicalState; node: Node; name: string; series: { time: number; file: string }[] }[] = [];

  constructor(
    root: Node,
    private readonly dir: string,
  ) {
    let i = 0;
    root.visit((n) => {
      for (const o of n.objects) {
        if (!isMechanicalState(o)) continue;
        const t = o.stateType;
        if (t.coordSize === 3 || t.name.startsWith('Rigid3'))
          this.states.push({ state: o, node: n, name: `${i}_${o.getName()}`, series: [] });
        i++;
      }
    });
  }

  get count(): number {
    return this.states.length;
  }

  /** Writes one file per state for the current step. */
  record(step: number, time: number): void {
    const h = host();
    for (const s of this.states) {
      const file = `${s.name}_${step}.vtu`;
      const st = s.state;
      const cs = st.stateType.coordSize,
        ds = st.stateType.derivSize;
      const n = st.size;
      const pick = (v: Float64Array, stride: number): Float64Array => {
        if (stride === 3) return v;
        const out = new Float64Array(3 * n);
        for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) out[3 * i + k] = v[stride * i + k];
        return out;
      };
      const topo = st.stateType.coordSize === 3 ? contextMeshTopology(s.node) : undefined;
      const cells = topo && topo.getNbPoints() <= n ? elementsOf(topo) : [];
      const pointData = [
        { name: 'velocity', components: 3, values: pick(st.v, ds) },
        { name: 'force', components: 3, values: pick(st.f, ds) },
      ];
      h.writeFile(h.path.join(this.dir, file), vtuXml({ points: pick(st.x, cs), cells, pointData, cellData: [] }));
      s.series.push({ time, file });
    }
  }

  /** Writes the .pvd of each state. */
  close(): void {
    const h = host();
    for (const s of this.states) h.writeFile(h.path.join(this.dir, `${s.name}.pvd`), pvdCollection(s.series));
  }
}

function elementsOf(t: {
  getHexahedra(): Uint32Array;
  getTetrahedra(): Uint32Array;
  getQuads(): Uint32Array;
  getTriangles(): Uint32Array;
  getEdges(): Uint32Array;
}): CellBlock[] {
  const hex = t.getHexahedra(),
    tet = t.getTetrahedra();
  const volumes: CellBlock[] = [];
  if (hex.length) volumes.push({ type: VTK_CELL.hexahedron, size: 8, connectivity: hex });
  if (tet.length) volumes.push({ type: VTK_CELL.tetra, size: 4, connectivity: tet });
  if (volumes.length) return volumes;
  const quads = t.getQuads(),
    tri = t.getTriangles();
  const surfaces: CellBlock[] = [];
  if (quads.length) surfaces.push({ type: VTK_CELL.quad, size: 4, connectivity: quads });
  if (tri.length) surfaces.push({ type: VTK_CELL.triangle, size: 3, connectivity: tri });
  if (surfaces.length) return surfaces;
  const edges = t.getEdges();
  return edges.length ? [{ type: VTK_CELL.line, size: 2, connectivity: edges }] : [];
}

export function exportStatesVtk(root: Node, dir: string): StateVtkSeries {
  return new StateVtkSeries(root, dir);
}
