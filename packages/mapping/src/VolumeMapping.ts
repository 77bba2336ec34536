import { sofaComponent, type BaseMeshTopology } from '@sofa-ts/core';
import { ElementMeasureMapping } from './element-measure-mapping.js';

/**
 * SOFA's VolumeMapping: the signed volume of each tetrahedron (v0, v1, v2, v3) of the topology,
 *   V = (x1 − x0)·((x2 − x0) × (x3 − x0))/6   (negative when inverted),
 * ∂V/∂x1 = (d2 × d3)/6, ∂V/∂x2 = (d3 × d1)/6, ∂V/∂x3 = (d1 × d2)/6 (d_i = x_i − x0), ∂V/∂x0 their
 * opposite sum, and the constant-coefficient Hessian, zero on the diagonal blocks:
 *   ∂²V/∂x0∂x1 = [x2 − x3]×/6, ∂²V/∂x0∂x2 = [x3 − x1]×/6, ∂²V/∂x0∂x3 = [x1 − x2]×/6,
 *   ∂²V/∂x1∂x2 = [x0 − x3]×/6, ∂²V/∂x1∂x3 = [x2 − x0]×/6, ∂²V/∂x2∂x3 = [x0 − x1]×/6, H_ji = H_ijᵀ
 * (element-measure-mapping.ts). Hexahedra are refused, as in SOFA.
 */
@sofaComponent({
  name: 'VolumeMapping',
  category: 'Mapping',
  module: 'Sofa.Component.Mapping.NonLinear',
  description: 'Volumes of the tetrahedra of a topology.',
  templates: ['Vec3d,Vec1d'],
})
export class VolumeMapping extends ElementMeasureMapping {
  protected readonly k = 4;

  protected elementsOf(topo: BaseMeshTopology): Uint32Array {
    if (topo.getHexahedra().length > 0)
      throw this.error(`${topo.describe()} has hexahedra: VolumeMapping measures tetrahedra only`, 'convert the hexahedra to tetrahedra');
    const t = topo.getTetrahedra();
    if (t.length === 0) throw this.error(`${topo.describe()} has no tetrahedra`);
    return Uint32Array.from(t);
  }

  /** Scratch: d_1, d_2, d_3 (9) and their cross products c_1, c_2, c_3 (9). */
  private readonly d = new Float64Array(9);
  private readonly c = new Float64Array(9);
  /** Scratch: one skew block (its diagonal stays 0). */
  private readonly S = new Float64Array(9);

  protected measure(x: Float64Array, v: Uint32Array, grad: Float64Array): number {
    const d = this.d,
      c = this.c,
      o = 3 * v[0];
    for (let i = 0; i < 3; i++) for (let k = 0; k < 3; k++) d[3 * i + k] = x[3 * v[i + 1] + k] - x[o + k];
    // c_1 = d_2 × d_3, c_2 = d_3 × d_1, c_3 = d_1 × d_2
    for (let i = 0; i < 3; i++) {
      const a = 3 * ((i + 1) % 3),
        b = 3 * ((i + 2) % 3);
      c[3 * i] = d[a + 1] * d[b + 2] - d[a + 2] * d[b + 1];
      c[3 * i + 1] = d[a + 2] * d[b] - d[a] * d[b + 2];
      c[3 * i + 2] = d[a] * d[b + 1] - d[a + 1] * d[b];
    }
    for (let k = 0; k < 3; k++) {
      grad[k] = -(c[k] + c[3 + k] + c[6 + k]) / 6;
      for (let i = 0; i < 3; i++) grad[3 * (i + 1) + k] = c[3 * i + k] / 6;
    }
    return (d[0] * c[0] + d[1] * c[1] + d[2] * c[2]) / 6;
  }

  protected hessian(x: Float64Array, v: Uint32Array, out: Float64Array): void {
    for (let i = 0; i < 4; i++) out.fill(0, 9 * (5 * i), 9 * (5 * i) + 9);
    this.put(out, x, v, 0, 1, 2, 3);
    this.put(out, x, v, 0, 2, 3, 1);
    this.put(out, x, v, 0, 3, 1, 2);
    this.put(out, x, v, 1, 2, 0, 3);
    this.put(out, x, v, 1, 3, 2, 0);
    this.put(out, x, v, 2, 3, 0, 1);
  }

  /** Block (i, j) = [x_a − x_b]×/6, block (j, i) its transpose. */
  private put(out: Float64Array, x: Float64Array, v: Uint32Array, i: number, j: number, a: number, b: number): void {
    const pa = 3 * v[a],
      pb = 3 * v[b];
    const w0 = (x[pa] - x[pb]) / 6,
      w1 = (x[pa + 1] - x[pb + 1]) / 6,
      w2 = (x[pa + 2] - x[pb + 2]) / 6;
    const ij = 9 * (4 * i + j),
      ji = 9 * (4 * j + i);
    const S = this.S;
    S[1] = -w2;
    S[2] = w1;
    S[3] = w2;
    S[5] = -w0;
    S[6] = -w1;
    S[7] = w0;
    out.set(S, ij);
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) out[ji + 3 * c + r] = S[3 * r + c];
  }
}
