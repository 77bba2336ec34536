import { sofaComponent, type TopologyChange } from '@sofa-ts/core';
import { EdgeLookup, edgesInPolygons } from '../container/adjacency.js';
import { EdgeSetTopologyContainer } from '../container/EdgeSetTopologyContainer.js';
import { EdgeSetTopologyModifier } from '../container/EdgeSetTopologyModifier.js';
import { ElementIndexMap, TopologicalMapping } from './topological-mapping.js';

/**
 * SOFA's Triangle2EdgeTopologicalMapping: the boundary edges of a triangular topology, i.e. the
 * edges of the input that belong to exactly one triangle, in the input's edge order and
 * orientation.
 *
 * Topological changes of the input, as SOFA follows them:
 *   - triangles removed: their edges shared with a remaining triangle become boundary edges,
 *     appended smaller index first;
 *   - edges removed from the input: removed from the output when they were boundary edges (one
 *     at a time, the maps following SOFA's swaps);
 *   - triangles added: their boundary edges are appended, edges no longer on the boundary removed;
 *   - points added or removed: the output gets them too.
 */
@sofaComponent({
  name: 'Triangle2EdgeTopologicalMapping',
  category: 'TopologicalMapping',
  module: 'Sofa.Component.Topology.Mapping',
  description: 'Topological mapping giving the boundary edges of a triangular topology.',
})
export class Triangle2EdgeTopologicalMapping extends TopologicalMapping {
  /** Output edge ↔ input edge. */
  private readonly map = new ElementIndexMap();

  override init(): void {
    const from = this.inputTopology();
    const to = this.outputContainer(EdgeSetTopologyContainer, 'EdgeSetTopologyContainer', 'EdgeSetTopologyModifier');
    const edges = from.getEdges();
    const inTri = edgesInPolygons(from.getTriangles(), 3, new EdgeLookup(edges));
    const count = new Uint32Array(edges.length / 2);
    for (let i = 0; i < inTri.length; i++) if (inTri[i] < count.length) count[inTri[i]]++;
    this.map.clear();
    const out: number[] = [];
    for (let e = 0; e < count.length; e++) {
      if (count[e] !== 1) continue;
      out.push(edges[2 * e], edges[2 * e + 1]);
      this.map.push(e);
    }
    to.setElements({ nbPoints: from.getNbPoints(), edges: Uint32Array.from(out) });
    this.followInput(from);
  }

  override handleTopologyChange(change: TopologyChange): void {
    const out = this.outputModifier(EdgeSetTopologyModifier);
    switch (change.type) {
      case 'endOfChanges':
        return out.notifyEndingEvent();
      case 'pointsAdded':
        return out.addPoints(change.indices.length, change.ancestors, change.coefs, false);
      case 'pointsRemoved':
        return out.removePoints(Array.from(change.indices), false);
      case 'elementsAdded':
        if (change.kind === 'triangle') this.trianglesAdded(change.indices, out);
        return;
      case 'elementsRemoved':
        if (change.kind === 'edge') this.edgesRemoved(change.indices, out);
        else if (change.kind === 'triangle') this.trianglesRemoved(change.indices, out);
        return;
    }
  }

  /** Input edges about to be removed: boundary ones leave the output one by one, as SOFA swaps them. */
  private edgesRemoved(removed: Uint32Array, out: EdgeSetTopologyModifier): void {
    this.map.removeInputElements(
      removed,
      this.inputMesh().count('edge'),
      out.getContainer().getEdges().length / 2,
      (l) => out.removeEdges([l], false),
      (k) => this.warn(`edge ${k} removed from the input is not a boundary edge of the output`),
    );
  }

  /** Input triangles about to be removed: their edges shared with a kept triangle become boundary edges. */
  private trianglesRemoved(removed: Uint32Array, out: EdgeSetTopologyModifier): void {
    const mesh = this.inputMesh();
    const created: number[] = [];
    for (let i = 0; i < removed.length; i++) {
      const t = removed[i];
      for (const e of mesh.subsOf('triangle', 'edge', t)) {
        const around = mesh.around('triangle', 'edge', e);
        if (around.length !== 2) continue;
        const other = around[0] === t ? around[1] : around[0];
        let done = false;
        for (let k = 0; k < i && !done; k++) done = removed[k] === other;
        if (done) continue;
        const a = mesh.vertex('edge', e, 0);
        const b = mesh.vertex('edge', e, 1);
        created.push(Math.min(a, b), Math.max(a, b));
        if (this.map.glob2loc.has(e)) this.warn(`edge ${e} was already a boundary edge`);
        this.map.push(e);
      }
    }
    out.addEdges(created);
  }

  /** Input triangles just added: their boundary edges join the output, edges no longer on the boundary leave it. */
  private trianglesAdded(added: Uint32Array, out: EdgeSetTopologyModifier): void {
    const mesh = this.inputMesh();
    const { loc2glob, glob2loc } = this.map;
    const created: number[] = [];
    const leaving: number[] = [];
    for (const t of added) {
      for (const e of mesh.subsOf('triangle', 'edge', t)) {
        const around = mesh.around('triangle', 'edge', e);
        if (glob2loc.has(e)) {
          if (around.length !== 1) leaving.push(e);
        } else if (around.length <= 1) {
          created.push(mesh.vertex('edge', e, 0), mesh.vertex('edge', e, 1));
          this.map.push(e);
        }
      }
    }
    out.addEdges(created);
    leaving.sort((a, b) => b - a);
    const local: number[] = [];
    for (const g of leaving) {
      const l = glob2loc.get(g);
      if (l === undefined) {
        this.warn(`edge ${g} left the boundary but was not in the output`);
        continue;
      }
      const gLast = loc2glob[loc2glob.length - 1];
      loc2glob[l] = gLast;
      loc2glob.pop();
      glob2loc.delete(g);
      glob2loc.set(gLast, l);
      local.push(l);
    }
    out.removeEdges(local);
  }
}
