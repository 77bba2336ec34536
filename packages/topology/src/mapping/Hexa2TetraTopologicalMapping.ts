import { Bool, sofaComponent, type BaseMeshTopology, type TopologyChange, type TopologyHandler } from '@sofa-ts/core';
import { TetrahedronSetTopologyContainer } from '../container/TetrahedronSetTopologyContainer.js';
import { TetrahedronSetTopologyModifier } from '../container/TetrahedronSetTopologyModifier.js';
import { GridTopology } from '../grid/GridTopology.js';
import { MeshTopology } from '../container/MeshTopology.js';
import { ElementFamilies } from './element-families.js';
import { TopologicalMapping } from './topological-mapping.js';

/** Local vertices of the 6 tetrahedra of a hexahedron (vertex order of element-tables.ts). */
const SPLIT: readonly (readonly [number, number, number, number])[] = [
  [0, 5, 1, 6],
  [0, 1, 3, 6],
  [1, 3, 6, 2],
  [6, 3, 0, 7],
  [6, 7, 0, 5],
  [7, 5, 4, 0],
];
/** The same tetrahedra with their last two vertices exchanged, used when the hexahedron is mirrored. */
const SPLIT_MIRRORED: readonly (readonly [number, number, number, number])[] = [
  [0, 5, 6, 1],
  [0, 1, 6, 3],
  [1, 3, 2, 6],
  [6, 3, 7, 0],
  [6, 7, 5, 0],
  [7, 5, 0, 4],
];

/**
 * SOFA's Hexa2TetraTopologicalMapping: each hexahedron of the input becomes 6 tetrahedra around its
 * diagonal 0–6, in SOFA's exact vertex order (FEM results depend on it); the output container gets
 * them at init, tetrahedra 6h..6h+5 coming from hexahedron h.
 * With `swapping`, the hexahedra of a grid are mirrored in alternation so that the diagonals of
 * neighbouring cells meet (no bias): cell h = x + cx·(y + cy·z) is mirrored in x when x is even,
 * in y when y is odd, in z when z is odd (cx, cy: cells of the grid along x and y; 2 and 1 when the
 * input is not a grid); an odd number of mirrors reverses orientation, which the mirrored split
 * compensates so that every tetrahedron keeps a positive volume.
 *
 * Topological changes of a dynamic input (HexahedronSetTopologyContainer; SOFA's mapping follows
 * none): the 6 tetrahedra of a removed hexahedron are removed from the output (with the triangles
 * and edges left alone; the points follow the input's point changes), an added hexahedron is split
 * and appended (mirrored by its index as above when swapping). Output tetrahedra removed directly
 * leave the input unchanged: warned.
 */
@sofaComponent({
  name: 'Hexa2TetraTopologicalMapping',
  category: 'TopologicalMapping',
  module: 'Sofa.Component.Topology.Mapping',
  description: 'Topological mapping splitting each hexahedron of the input into 6 tetrahedra of the output.',
})
export class Hexa2TetraTopologicalMapping extends TopologicalMapping {
  readonly swapping = this.initData({
    name: 'swapping',
    type: Bool,
    default: false,
    help: 'mirror the split of grid cells in alternation so that neighbouring diagonals meet (avoids bias)',
  });

  override init(): void {
    const from = this.inputTopology();
    // SOFA's current version fills any output container; a static MeshTopology needs no modifier
    const out = this.output.get();
    const to =
      out instanceof MeshTopology
        ? out
        : this.outputContainer(TetrahedronSetTopologyContainer, 'TetrahedronSetTopologyContainer', 'TetrahedronSetTopologyModifier');
    const hexa = from.getHexahedra();
    if (hexa.length === 0 && from.getTetrahedra().length > 0) throw this.error(`input ${from.describe()} has no hexahedra`);
    let cx = 2;
    let cy = 1;
    if (from instanceof GridTopology) {
      const n = from.resolution();
      cx = n[0] - 1;
      cy = n[1] - 1;
    }
    to.setElements({ nbPoints: from.getNbPoints(), tetrahedra: splitHexahedra(hexa, this.swapping.value, cx, cy) });
    this.cx = cx;
    this.cy = cy;
    this.families = new ElementFamilies(6, hexa.length / 8);
    this.followInput(from);
    if (!(to instanceof MeshTopology)) to.addTopologyHandler(this.outputHandler);
  }

  // ---- topological changes ------------------------------------------------------------------------

  private cx = 2;
  private cy = 1;
  /** The output tetrahedra of each input hexahedron (-1 once removed), and the reverse. */
  private families = new ElementFamilies(6, 0);
  /** True while the mapping removes output tetrahedra itself. */
  private removing = false;
  private warnedStatic = false;
  private warnedDirect = false;

  private readonly outputHandler: TopologyHandler = {
    topologyHandlerPriority: 'mapping',
    handleTopologyChange: (change) => this.outputChanged(change),
  };

  override handleTopologyChange(change: TopologyChange, topology: BaseMeshTopology): void {
    if (topology !== this.input.get()) return;
    if (this.output.get() instanceof MeshTopology) {
      if (!this.warnedStatic) {
        this.warnedStatic = true;
        this.warn(
          'the input changes but the output is a static MeshTopology: it keeps its tetrahedra (use a TetrahedronSetTopologyContainer with its modifier)',
        );
      }
      return;
    }
    const out = this.outputModifier(TetrahedronSetTopologyModifier);
    switch (change.type) {
      case 'pointsAdded':
        return out.addPoints(change.indices.length, change.ancestors, change.coefs, false);
      case 'pointsRemoved':
        return out.removePoints(Array.from(change.indices), false);
      case 'elementsRemoved':
        if (change.kind === 'hexahedron') this.hexahedraRemoved(change.indices, out);
        return;
      case 'elementsAdded':
        if (change.kind === 'hexahedron') {
          const added = new Uint32Array(change.elements.length * 3);
          change.indices.forEach((h, i) => {
            // split with the mirror pattern of its index
            added.set(splitHexahedra(change.elements.subarray(8 * i, 8 * i + 8), this.swapping.value, this.cx, this.cy, h), 24 * i);
          });
          const first = this.families.childCount;
          change.indices.forEach((h, i) => this.families.setChildren(h, first + 6 * i));
          this.removing = true;
          try {
            out.addTetrahedra(added);
          } finally {
            this.removing = false;
          }
          change.indices.forEach((h) => this.families.appendChildren(h, 6));
        }
        return;
      case 'endOfChanges':
        return out.notifyEndingEvent();
    }
  }

  /** Input hexahedra about to be removed (descending): their tetrahedra leave the output. */
  private hexahedraRemoved(indices: Uint32Array, out: TetrahedronSetTopologyModifier): void {
    const children = this.families.removeParents(indices);
    if (children.length === 0) return;
    this.removing = true;
    try {
      // the triangles and edges left alone go with them; the points follow the input's own removals
      out.ops.removeVolumes('tetrahedron', children, true, false);
    } finally {
      this.removing = false;
    }
  }

  /** The output changed: the maps follow its removals (swap with last) and additions. */
  private outputChanged(change: TopologyChange): void {
    if (change.type === 'elementsRemoved' && change.kind === 'tetrahedron') {
      const orphaned = this.families.removeChildren(change.indices);
      if (orphaned > 0 && !this.removing && !this.warnedDirect) {
        this.warnedDirect = true;
        this.warn('output tetrahedra were removed directly: the input keeps their hexahedron');
      }
    } else if (change.type === 'elementsAdded' && change.kind === 'tetrahedron' && !this.removing) {
      this.families.appendChildren(-1, change.indices.length);
    }
  }
}

/** (nH·6 × 4) the tetrahedra of the hexahedra (nH × 8), as described above. */
/** `first`: the index of the first hexahedron in its mesh (the mirror pattern follows the index). */
export function splitHexahedra(hexa: Uint32Array, swapping: boolean, cx: number, cy: number, first = 0): Uint32Array {
  const nh = hexa.length / 8;
  const out = new Uint32Array(nh * 24);
  const c = new Array<number>(8);
  const swap = (i: number, j: number): void => {
    const t = c[i];
    c[i] = c[j];
    c[j] = t;
  };
  for (let i = 0; i < nh; i++) {
    const h = first + i;
    for (let k = 0; k < 8; k++) c[k] = hexa[8 * i + k];
    let mirrored = false;
    if (swapping) {
      if (!((h % cx) & 1)) {
        (swap(0, 1), swap(3, 2), swap(4, 5), swap(7, 6));
        mirrored = !mirrored;
      }
      if ((Math.floor(h / cx) % cy) & 1) {
        (swap(0, 3), swap(1, 2), swap(4, 7), swap(5, 6));
        mirrored = !mirrored;
      }
      if (Math.floor(h / (cx * cy)) & 1) {
        (swap(0, 4), swap(1, 5), swap(2, 6), swap(3, 7));
        mirrored = !mirrored;
      }
    }
    const table = mirrored ? SPLIT_MIRRORED : SPLIT;
    for (let t = 0; t < 6; t++) for (let k = 0; k < 4; k++) out[24 * i + 4 * t + k] = c[table[t][k]];
  }
  return out;
}
