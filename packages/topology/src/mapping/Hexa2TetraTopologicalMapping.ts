import { Bool, sofaComponent } from '@sofa-ts/core';
import { TetrahedronSetTopologyContainer } from '../container/TetrahedronSetTopologyContainer.js';
import { GridTopology } from '../grid/GridTopology.js';
import { MeshTopology } from '../container/MeshTopology.js';
import { TopologicalMapping } from './topological-mapping.js';

/** Local vertices of the 6 tetrahedra of a hexahedron (vertex order of element-tables.ts). */
const SPLIT: readonly (readonly [number, number, number, number])[] = [
  [0, 5, 1, 6], [0, 1, 3, 6], [1, 3, 6, 2], [6, 3, 0, 7], [6, 7, 0, 5], [7, 5, 4, 0],
];
/** The same tetrahedra with their last two vertices exchanged, used when the hexahedron is mirrored. */
const SPLIT_MIRRORED: readonly (readonly [number, number, number, number])[] = [
  [0, 5, 6, 1], [0, 1, 6, 3], [1, 3, 2, 6], [6, 3, 7, 0], [6, 7, 5, 0], [7, 5, 0, 4],
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
 */
@sofaComponent({
  name: 'Hexa2TetraTopologicalMapping',
  category: 'TopologicalMapping',
  module: 'Sofa.Component.Topology.Mapping',
  description: 'Topological mapping splitting each hexahedron of the input into 6 tetrahedra of the output.',
})
export class Hexa2TetraTopologicalMapping extends TopologicalMapping {
  readonly swapping = this.initData({ name: 'swapping', type: Bool, default: false, help: 'mirror the split of grid cells in alternation so that neighbouring diagonals meet (avoids bias)' });

  override init(): void {
    const from = this.inputTopology();
    // SOFA's current version fills any output container; a static MeshTopology needs no modifier
    const out = this.output.get();
    const to = out instanceof MeshTopology ? out : this.outputContainer(TetrahedronSetTopologyContainer, 'TetrahedronSetTopologyContainer', 'TetrahedronSetTopologyModifier');
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
  }
}

/** (nH·6 × 4) the tetrahedra of the hexahedra (nH × 8), as described above. */
export function splitHexahedra(hexa: Uint32Array, swapping: boolean, cx: number, cy: number): Uint32Array {
  const nh = hexa.length / 8;
  const out = new Uint32Array(nh * 24);
  const c = new Array<number>(8);
  const swap = (i: number, j: number): void => {
    const t = c[i]!;
    c[i] = c[j]!;
    c[j] = t;
  };
  for (let h = 0; h < nh; h++) {
    for (let k = 0; k < 8; k++) c[k] = hexa[8 * h + k]!;
    let mirrored = false;
    if (swapping) {
      if (!((h % cx) & 1)) {
        swap(0, 1), swap(3, 2), swap(4, 5), swap(7, 6);
        mirrored = !mirrored;
      }
      if (Math.floor(h / cx) % cy & 1) {
        swap(0, 3), swap(1, 2), swap(4, 7), swap(5, 6);
        mirrored = !mirrored;
      }
      if (Math.floor(h / (cx * cy)) & 1) {
        swap(0, 4), swap(1, 5), swap(2, 6), swap(3, 7);
        mirrored = !mirrored;
      }
    }
    const table = mirrored ? SPLIT_MIRRORED : SPLIT;
    for (let t = 0; t < 6; t++) for (let k = 0; k < 4; k++) out[24 * h + 4 * t + k] = c[table[t]![k]!]!;
  }
  return out;
}
