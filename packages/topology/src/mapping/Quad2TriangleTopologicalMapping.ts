import { sofaComponent, type TopologyChange } from '@sofa-ts/core';
import { TriangleSetTopologyContainer } from '../container/TriangleSetTopologyContainer.js';
import { TriangleSetTopologyModifier } from '../container/TriangleSetTopologyModifier.js';
import { TopologicalMapping } from './topological-mapping.js';

/**
 * SOFA's Quad2TriangleTopologicalMapping: each quad (p0 p1 p2 p3) of the input becomes two
 * triangles of the output, triangles 2q and 2q+1 coming from quad q. At init the diagonal
 * alternates like a chessboard so that a grid is split without bias: quad q (with s the number of
 * cells along x of a grid input, else 2) gives (p0 p1 p3) (p2 p3 p1) when (q mod s) xor (q div s)
 * is odd, else (p1 p2 p0) (p3 p0 p2). Quads added later give (p0 p1 p2) (p0 p2 p3).
 *
 * Topological changes of the input, as SOFA follows them: quads added → their two triangles
 * appended; quads removed → their two triangles removed (quad by quad, with SOFA's bookkeeping of
 * which triangles belong to which quad); points added or removed → the output gets them too.
 */
@sofaComponent({
  name: 'Quad2TriangleTopologicalMapping',
  category: 'TopologicalMapping',
  module: 'Sofa.Component.Topology.Mapping',
  description: 'Topological mapping splitting each quad of the input into two triangles of the output.',
})
export class Quad2TriangleTopologicalMapping extends TopologicalMapping {
  /** Output triangle → input quad. */
  private readonly loc2glob: number[] = [];
  /** Input quad → its two output triangles. */
  private readonly in2out = new Map<number, [number, number]>();

  override init(): void {
    const from = this.inputTopology();
    const to = this.outputContainer(TriangleSetTopologyContainer, 'TriangleSetTopologyContainer', 'TriangleSetTopologyModifier');
    const quads = from.getQuads();
    let nx = 2;
    let ny = 1;
    const grid = from.getGrid();
    if (grid && grid.cellToHexahedron === undefined) {
      nx = grid.n[0] - 1;
      ny = grid.n[1] - 1;
    }
    const scale = nx === 0 ? ny : nx;
    if (nx === 0 && ny === 0) throw this.error(`input ${from.describe()} is a 1D grid: it cannot be split into triangles`);
    const nq = quads.length / 4;
    const tri = new Uint32Array(nq * 6);
    this.loc2glob.length = 0;
    this.in2out.clear();
    for (let q = 0; q < nq; q++) {
      const [p0, p1, p2, p3] = [quads[4 * q], quads[4 * q + 1], quads[4 * q + 2], quads[4 * q + 3]];
      const t = ((q % scale) ^ Math.floor(q / scale)) & 1 ? [p0, p1, p3, p2, p3, p1] : [p1, p2, p0, p3, p0, p2];
      tri.set(t, 6 * q);
      this.loc2glob.push(q, q);
      this.in2out.set(q, [2 * q, 2 * q + 1]);
    }
    to.setElements({ nbPoints: from.getNbPoints(), triangles: tri });
    this.followInput(from);
  }

  override handleTopologyChange(change: TopologyChange): void {
    const out = this.outputModifier(TriangleSetTopologyModifier);
    switch (change.type) {
      case 'endOfChanges':
        return out.notifyEndingEvent();
      case 'pointsAdded':
        return out.addPoints(change.indices.length, change.ancestors, change.coefs, false);
      case 'pointsRemoved':
        return out.removePoints(Array.from(change.indices), false);
      case 'elementsAdded':
        if (change.kind === 'quad') this.quadsAdded(change.indices, out);
        return;
      case 'elementsRemoved':
        if (change.kind === 'quad') this.quadsRemoved(change.indices, out);
        return;
    }
  }

  private quadsAdded(added: Uint32Array, out: TriangleSetTopologyModifier): void {
    const mesh = this.inputMesh();
    const created: number[] = [];
    for (const q of added) {
      const p = [0, 1, 2, 3].map((j) => mesh.vertex('quad', q, j));
      created.push(p[0], p[1], p[2], p[0], p[2], p[3]);
      this.loc2glob.push(q, q);
      this.in2out.set(q, [this.loc2glob.length - 2, this.loc2glob.length - 1]);
    }
    out.addTriangles(created);
  }

  /** Input quads about to be removed: their triangles are removed quad by quad, as SOFA does. */
  private quadsRemoved(removed: Uint32Array, out: TriangleSetTopologyModifier): void {
    const l2g = this.loc2glob;
    const in2out = this.in2out;
    let last = this.inputMesh().count('quad') - 1;
    let indLast = out.getContainer().getTriangles().length / 3;
    for (const k of removed) {
      const kOut = in2out.get(k);
      if (kOut === undefined) {
        last--;
        continue;
      }
      const [t1, t2] = kOut;
      indLast--;
      const indK: [number, number] = [kOut[0], kOut[1]];
      const realLast = in2out.get(last);
      if (realLast === undefined) this.warn(`quad ${last} has no triangles in the output`);
      else if (k !== last) {
        // quad k and the input's last quad exchange their triangles
        in2out.set(k, realLast);
        in2out.set(last, indK);
        [l2g[realLast[0]], l2g[indK[0]]] = [l2g[indK[0]], l2g[realLast[0]]];
        [l2g[realLast[1]], l2g[indK[1]]] = [l2g[indK[1]], l2g[realLast[1]]];
      }
      if (indK[1] !== indLast) {
        in2out.set(l2g[indLast], indK);
        in2out.set(l2g[indK[1]], [indLast, indLast - 1]);
        [l2g[indK[1]], l2g[indLast]] = [l2g[indLast], l2g[indK[1]]];
      }
      indLast--;
      if (indK[0] !== indLast) [l2g[indK[0]], l2g[indLast]] = [l2g[indLast], l2g[indK[0]]];
      in2out.delete(l2g[l2g.length - 1]);
      l2g.length -= 2;
      out.removeTriangles([t1, t2], true, false);
      last--;
    }
  }
}
