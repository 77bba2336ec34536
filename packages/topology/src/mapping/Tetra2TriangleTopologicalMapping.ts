import { Bool, sofaComponent, type TopologyChange } from '@sofa-ts/core';
import { FaceLookup, listAt, trianglesInTetrahedra } from '../container/adjacency.js';
import { TopologyContainer } from '../container/topology-container.js';
import { TRIANGLES_IN_TETRAHEDRON } from '../container/element-tables.js';
import { TriangleSetTopologyContainer } from '../container/TriangleSetTopologyContainer.js';
import { TriangleSetTopologyModifier } from '../container/TriangleSetTopologyModifier.js';
import { ElementIndexMap, TopologicalMapping } from './topological-mapping.js';

/**
 * SOFA's Tetra2TriangleTopologicalMapping: the boundary triangles of a tetrahedral topology, i.e. the
 * triangles of the input that belong to exactly one tetrahedron, in the input's triangle order and
 * orientation (a tetrahedron container orients a face as its first tetrahedron does, outwards for a
 * positively oriented tetrahedron). With flipNormals (a, b, c) becomes (a, c, b); with
 * noInitialTriangles the output starts empty.
 *
 * Topological changes of the input, as SOFA follows them:
 *   - tetrahedra removed: the faces they shared with a remaining tetrahedron become boundary
 *     triangles, appended with that tetrahedron's orientation (flipped with flipNormals), rotated to
 *     start at their smallest vertex (not with noNewTriangles);
 *   - triangles removed from the input: removed from the output when they were boundary ones;
 *   - tetrahedra added: their faces on the boundary are appended, faces no longer on it removed
 *     (not with noNewTriangles);
 *   - edges and points added or removed: the output gets them too.
 */
@sofaComponent({
  name: 'Tetra2TriangleTopologicalMapping',
  category: 'TopologicalMapping',
  module: 'Sofa.Component.Topology.Mapping',
  description: 'Topological mapping giving the boundary triangles of a tetrahedral topology.',
})
export class Tetra2TriangleTopologicalMapping extends TopologicalMapping {
  readonly flipNormals = this.initData({
    name: 'flipNormals',
    type: Bool,
    default: false,
    help: 'reverse the orientation of the triangles',
  });
  readonly noNewTriangles = this.initData({
    name: 'noNewTriangles',
    type: Bool,
    default: false,
    help: 'do not add the triangles that removing tetrahedra brings to the boundary',
  });
  readonly noInitialTriangles = this.initData({
    name: 'noInitialTriangles',
    type: Bool,
    default: false,
    help: 'start with no triangle: only triangles added by topological changes are listed',
  });

  /** Output triangle ↔ input triangle. */
  private readonly map = new ElementIndexMap();

  override init(): void {
    const from = this.inputTopology();
    const to = this.outputContainer(TriangleSetTopologyContainer, 'TriangleSetTopologyContainer', 'TriangleSetTopologyModifier');
    const tetra = from.getTetrahedra();
    if (tetra.length === 0 && from.getHexahedra().length > 0) throw this.error(`input ${from.describe()} has no tetrahedra`);
    this.map.clear();
    let triangles = new Uint32Array(0);
    if (!this.noInitialTriangles.value) {
      const all = from.getTriangles();
      const ids = boundaryTriangleIds(all, tetra);
      triangles = new Uint32Array(3 * ids.length);
      const flip = this.flipNormals.value;
      ids.forEach((t, i) => {
        triangles[3 * i] = all[3 * t];
        triangles[3 * i + 1] = all[3 * t + (flip ? 2 : 1)];
        triangles[3 * i + 2] = all[3 * t + (flip ? 1 : 2)];
        this.map.push(t);
      });
    }
    to.setElements({ nbPoints: from.getNbPoints(), triangles });
    this.followInput(from);
  }

  /** The tetrahedron of output triangle `index` (SOFA: the only tetrahedron around its input triangle). */
  override getFromIndex(index: number, out: number[]): boolean {
    const g = this.map.loc2glob[index];
    const from = this.input.get();
    if (g === undefined || !(from instanceof TopologyContainer)) return false;
    const around = listAt(from.getTetrahedraAroundTriangle(), g);
    if (around.length === 1) out.push(around[0]);
    return true;
  }

  override handleTopologyChange(change: TopologyChange): void {
    const out = this.outputModifier(TriangleSetTopologyModifier);
    switch (change.type) {
      case 'endOfChanges':
        return out.notifyEndingEvent();
      case 'pointsAdded':
        return out.addPoints(change.indices.length, change.ancestors, change.coefs, true);
      case 'pointsRemoved':
        return out.removePoints(Array.from(change.indices), false);
      case 'elementsAdded':
        if (change.kind === 'edge') return out.addEdges(change.elements, change.ancestors, change.coefs);
        if (change.kind === 'tetrahedron' && !this.noNewTriangles.value) return this.tetrahedraAdded(change.indices, out);
        return;
      case 'elementsRemoved':
        if (change.kind === 'triangle') return this.trianglesRemoved(change.indices, out);
        if (change.kind === 'tetrahedron' && !this.noNewTriangles.value) return this.tetrahedraRemoved(change.indices, out);
        return;
    }
  }

  /** Input triangles about to be removed: the boundary ones leave the output (maps kept in step with both lists). */
  private trianglesRemoved(removed: Uint32Array, out: TriangleSetTopologyModifier): void {
    const { loc2glob, glob2loc } = this.map;
    const local: number[] = [];
    for (const g of removed) {
      const l = glob2loc.get(g);
      if (l !== undefined) local.push(l);
    }
    local.sort((a, b) => b - a);
    const mesh = this.inputMesh();
    const nGlob = mesh.count('triangle');
    let lastGlob = nGlob - 1;
    const keptGlob = nGlob - removed.length;
    const keptLoc = out.getContainer().getTriangles().length / 3 - local.length;
    // the input's removal: its last triangle moves into each removed slot
    for (const g of removed) {
      const lastLoc = glob2loc.get(lastGlob);
      if (lastLoc !== undefined) {
        glob2loc.set(g, lastLoc);
        if (lastLoc < loc2glob.length) loc2glob[lastLoc] = g;
        glob2loc.delete(lastGlob);
      } else if (glob2loc.has(g)) {
        glob2loc.delete(g);
      } else if (!this.noNewTriangles.value && !this.noInitialTriangles.value) {
        this.warn(`triangle ${g} removed from the input was neither the last one (${lastGlob}) nor a boundary triangle`);
      }
      lastGlob--;
    }
    // the output's removal: its last triangle moves into each removed slot
    for (const l of local) {
      const g = loc2glob[loc2glob.length - 1];
      loc2glob[l] = g;
      if (g < keptGlob && l < keptLoc) glob2loc.set(g, l);
      loc2glob.pop();
    }
    out.removeTriangles(local, true, false);
  }

  /** Input tetrahedra about to be removed: their faces shared with a kept tetrahedron become boundary triangles. */
  private tetrahedraRemoved(removed: Uint32Array, out: TriangleSetTopologyModifier): void {
    const mesh = this.inputMesh();
    const flip = this.flipNormals.value;
    const created: number[] = [];
    const tri = [0, 0, 0];
    for (let i = 0; i < removed.length; i++) {
      const t = removed[i];
      for (const f of mesh.subsOf('tetrahedron', 'triangle', t)) {
        const around = mesh.around('tetrahedron', 'triangle', f);
        if (around.length !== 2) continue;
        const other = around[0] === t ? around[1] : around[0];
        let done = false;
        for (let k = 0; k < i && !done; k++) done = removed[k] === other;
        if (done) continue;
        // the face as the remaining tetrahedron orients it
        const pos = mesh.subsOf('tetrahedron', 'triangle', other).indexOf(f);
        const face = TRIANGLES_IN_TETRAHEDRON[pos];
        for (let m = 0; m < 3; m++) tri[m] = mesh.vertex('tetrahedron', other, face[m]);
        if (flip) [tri[1], tri[2]] = [tri[2], tri[1]];
        while (tri[0] > tri[1] || tri[0] > tri[2]) tri.push(tri.shift()!);
        created.push(tri[0], tri[1], tri[2]);
        this.map.push(f);
      }
    }
    out.addTriangles(created);
  }

  /** Input tetrahedra just added: their boundary faces join the output, faces no longer on the boundary leave it. */
  private tetrahedraAdded(added: Uint32Array, out: TriangleSetTopologyModifier): void {
    const mesh = this.inputMesh();
    const { loc2glob, glob2loc } = this.map;
    const created: number[] = [];
    const leaving: number[] = [];
    for (const t of added) {
      for (const f of mesh.subsOf('tetrahedron', 'triangle', t)) {
        const around = mesh.around('tetrahedron', 'triangle', f);
        if (glob2loc.has(f)) {
          if (around.length !== 1) leaving.push(f);
        } else if (around.length <= 1) {
          for (let m = 0; m < 3; m++) created.push(mesh.vertex('triangle', f, m));
          this.map.push(f);
        }
      }
    }
    out.addTriangles(created);
    const local: number[] = [];
    for (const g of leaving) {
      const l = glob2loc.get(g);
      if (l === undefined) {
        this.warn(`triangle ${g} left the boundary but was not in the output`);
        continue;
      }
      local.push(l);
      glob2loc.delete(g);
    }
    local.sort((a, b) => b - a);
    for (const l of local) {
      const g = loc2glob[loc2glob.length - 1];
      loc2glob[l] = g;
      loc2glob.pop();
      glob2loc.set(g, l);
    }
    out.removeTriangles(local, true, false);
  }
}

/** Indices of the triangles belonging to exactly one tetrahedron, in increasing order. */
export function boundaryTriangleIds(triangles: Uint32Array, tetra: Uint32Array): number[] {
  const inTetra = trianglesInTetrahedra(tetra, new FaceLookup(triangles, 3));
  const count = new Uint32Array(triangles.length / 3);
  for (let i = 0; i < inTetra.length; i++) if (inTetra[i] < count.length) count[inTetra[i]]++;
  const out: number[] = [];
  for (let t = 0; t < count.length; t++) if (count[t] === 1) out.push(t);
  return out;
}

/** (nB × 3) the triangles belonging to exactly one tetrahedron, optionally reversed. */
export function boundaryTriangles(triangles: Uint32Array, tetra: Uint32Array, flip: boolean): Uint32Array {
  const ids = boundaryTriangleIds(triangles, tetra);
  const out = new Uint32Array(3 * ids.length);
  ids.forEach((t, i) => {
    out[3 * i] = triangles[3 * t];
    out[3 * i + 1] = triangles[3 * t + (flip ? 2 : 1)];
    out[3 * i + 2] = triangles[3 * t + (flip ? 1 : 2)];
  });
  return out;
}
