import { IndexArray, sofaComponent, type BaseMeshTopology, type Data } from '@sofa-ts/core';
import { VolumeEngine } from './VolumeFromTriangles.js';

/** Corners of the reference hexahedron [−1, 1]³ in SOFA's vertex order. */
const HEX_CORNERS = [
  [-1, -1, -1],
  [1, -1, -1],
  [1, 1, -1],
  [-1, 1, -1],
  [-1, -1, 1],
  [1, -1, 1],
  [1, 1, 1],
  [-1, 1, 1],
] as const;
const G = 1 / Math.sqrt(3);

/**
 * SOFA's VolumeFromVolumetricElements: the volume of a mesh of tetrahedra and hexahedra,
 * V = |Σ_tetra (b − a)·((c − a) × (d − a))/6 + Σ_hexa ∫ det J|, the hexahedra taken as trilinear
 * elements (det J integrated exactly by 2×2×2 Gauss points).
 *
 * Alias VolumeFromTetrahedrons: SoftRobots' engine of that name moved to SOFA
 * (Sofa.Component.Engine.Generate) and SOFA renamed it VolumeFromVolumetricElements; SoftRobots'
 * scenes still write it, with `positions` (accepted as the renamed `position`). SoftRobots' own
 * version summed four signed corner tetrahedra of a hexahedron, of mixed signs (a unit cube gave
 * 1/3); this one, as SOFA's, integrates the hexahedron exactly. Tetrahedra are the same in both.
 */
@sofaComponent({
  name: 'VolumeFromVolumetricElements',
  aliases: ['VolumeFromTetrahedrons'],
  category: 'Engine',
  module: 'Sofa.Component.Engine.Generate',
  description: 'This class computes the volume of a given volumetric mesh.',
  templates: ['Vec3d'],
  defaultTemplate: 'Vec3d',
})
export class VolumeFromVolumetricElements extends VolumeEngine {
  readonly tetras = this.initData({
    name: 'tetras',
    type: IndexArray(4, 'vector<Tetrahedron>'),
    default: new Uint32Array(0),
    help: 'tetrahedra (default: those of the context topology)',
  });
  readonly hexas = this.initData({
    name: 'hexas',
    type: IndexArray(8, 'vector<Hexahedron>'),
    default: new Uint32Array(0),
    help: 'hexahedra (default: those of the context topology)',
  });

  protected elementLists(): Array<[Data<Uint32Array>, (t: BaseMeshTopology) => Uint32Array, number]> {
    return [
      [this.tetras, (t) => t.getTetrahedra(), 4],
      [this.hexas, (t) => t.getHexahedra(), 8],
    ];
  }

  protected signedVolume(x: Float64Array): number {
    let v = 0;
    const t = this.tetras.value;
    for (let e = 0; e + 4 <= t.length; e += 4) v += tetraVolume(x, t[e], t[e + 1], t[e + 2], t[e + 3]);
    const h = this.hexas.value;
    for (let e = 0; e + 8 <= h.length; e += 8) v += hexaVolume(x, h.subarray(e, e + 8));
    return v;
  }
}

/** (b − a)·((c − a) × (d − a))/6. */
export function tetraVolume(x: Float64Array, a: number, b: number, c: number, d: number): number {
  const u = [x[3 * b] - x[3 * a], x[3 * b + 1] - x[3 * a + 1], x[3 * b + 2] - x[3 * a + 2]];
  const v = [x[3 * c] - x[3 * a], x[3 * c + 1] - x[3 * a + 1], x[3 * c + 2] - x[3 * a + 2]];
  const w = [x[3 * d] - x[3 * a], x[3 * d + 1] - x[3 * a + 1], x[3 * d + 2] - x[3 * a + 2]];
  return (u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0])) / 6;
}

/** ∫ det J over the reference cube, 2×2×2 Gauss (exact for a trilinear hexahedron). */
function hexaVolume(x: Float64Array, h: Uint32Array): number {
  let v = 0;
  for (const xi of [-G, G]) {
    for (const eta of [-G, G]) {
      for (const zeta of [-G, G]) {
        // J = Σ_a x_a ⊗ ∇N_a, N_a = (1 + ξ ξa)(1 + η ηa)(1 + ζ ζa)/8.
        const J = new Float64Array(9);
        HEX_CORNERS.forEach(([a, b, c], k) => {
          const g = [
            (a * (1 + eta * b) * (1 + zeta * c)) / 8,
            ((1 + xi * a) * b * (1 + zeta * c)) / 8,
            ((1 + xi * a) * (1 + eta * b) * c) / 8,
          ];
          for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) J[3 * i + j] += x[3 * h[k] + i] * g[j];
        });
        v += J[0] * (J[4] * J[8] - J[5] * J[7]) - J[1] * (J[3] * J[8] - J[5] * J[6]) + J[2] * (J[3] * J[7] - J[4] * J[6]);
      }
    }
  }
  return v;
}
