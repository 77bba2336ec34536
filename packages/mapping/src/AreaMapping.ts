import { sofaComponent, type BaseMeshTopology } from '@sofa-ts/core';
import { ElementMeasureMapping } from './element-measure-mapping.js';

/**
 * SOFA's AreaMapping: the area of each triangle (a, b, c) of the topology,
 *   A = |N|/2,  N = (x_b − x_a) × (x_c − x_a),   ∂A/∂x_i = (e_i × N)/(2|N|),  e_i = x_{i+1} − x_{i+2},
 * and the Hessian (with u = N/|N|, s_ij = +1 for j = i + 1, −1 for j = i + 2, 0 for j = i)
 *   ∂²A/∂x_i∂x_j = −½·( s_ij·[u]× + [e_i]×·(I − u·uᵀ)·[e_j]× / |N| )
 * (element-measure-mapping.ts). Quads are refused, as in SOFA.
 */
@sofaComponent({
  name: 'AreaMapping',
  category: 'Mapping',
  module: 'Sofa.Component.Mapping.NonLinear',
  description: 'Areas of the triangles of a topology.',
  templates: ['Vec3d,Vec1d'],
})
export class AreaMapping extends ElementMeasureMapping {
  protected readonly k = 3;
  /** Scratch: e_0, e_1, e_2 (9), N (3), u (3), and the 3×3 products (9 each). */
  private readonly e = new Float64Array(9);
  private readonly n = new Float64Array(3);
  private readonly u = new Float64Array(3);
  private readonly P = new Float64Array(9);
  private readonly EP = new Float64Array(9);

  protected elementsOf(topo: BaseMeshTopology): Uint32Array {
    if (topo.getQuads().length > 0)
      throw this.error(`${topo.describe()} has quads: AreaMapping measures triangles only`, 'convert the quads to triangles');
    const t = topo.getTriangles();
    if (t.length === 0) throw this.error(`${topo.describe()} has no triangles`);
    return Uint32Array.from(t);
  }

  /** e_i = x_{v_{i+1}} − x_{v_{i+2}} and N = (x_b − x_a) × (x_c − x_a) = e_1 × e_2; returns |N|. */
  private edges(x: Float64Array, v: Uint32Array): number {
    const e = this.e,
      n = this.n;
    for (let i = 0; i < 3; i++) {
      const p = 3 * v[(i + 1) % 3],
        q = 3 * v[(i + 2) % 3];
      for (let c = 0; c < 3; c++) e[3 * i + c] = x[p + c] - x[q + c];
    }
    // x_b − x_a = −e_2, x_c − x_a = e_1:  N = (−e_2) × e_1 = e_1 × e_2
    n[0] = e[4] * e[8] - e[5] * e[7];
    n[1] = e[5] * e[6] - e[3] * e[8];
    n[2] = e[3] * e[7] - e[4] * e[6];
    return Math.hypot(n[0], n[1], n[2]);
  }

  protected measure(x: Float64Array, v: Uint32Array, grad: Float64Array): number {
    const len = this.edges(x, v),
      e = this.e,
      n = this.n;
    for (let i = 0; i < 3; i++) {
      const ex = e[3 * i],
        ey = e[3 * i + 1],
        ez = e[3 * i + 2];
      grad[3 * i] = (ey * n[2] - ez * n[1]) / (2 * len);
      grad[3 * i + 1] = (ez * n[0] - ex * n[2]) / (2 * len);
      grad[3 * i + 2] = (ex * n[1] - ey * n[0]) / (2 * len);
    }
    return len / 2;
  }

  protected hessian(x: Float64Array, v: Uint32Array, out: Float64Array): void {
    const len = this.edges(x, v),
      e = this.e,
      u = this.u,
      P = this.P,
      EP = this.EP;
    for (let c = 0; c < 3; c++) u[c] = this.n[c] / len;
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) P[3 * r + c] = (r === c ? 1 : 0) - u[r] * u[c];
    for (let i = 0; i < 3; i++) {
      // EP = [e_i]×·(I − uuᵀ), column by column: e_i × (column c of I − uuᵀ)
      for (let c = 0; c < 3; c++) {
        const p0 = P[c],
          p1 = P[3 + c],
          p2 = P[6 + c];
        EP[c] = e[3 * i + 1] * p2 - e[3 * i + 2] * p1;
        EP[3 + c] = e[3 * i + 2] * p0 - e[3 * i] * p2;
        EP[6 + c] = e[3 * i] * p1 - e[3 * i + 1] * p0;
      }
      for (let j = 0; j < 3; j++) {
        const s = j === (i + 1) % 3 ? 1 : j === (i + 2) % 3 ? -1 : 0;
        const ex = e[3 * j],
          ey = e[3 * j + 1],
          ez = e[3 * j + 2];
        const o = 9 * (3 * i + j);
        for (let r = 0; r < 3; r++) {
          // row r of EP·[e_j]× is (row r of EP) × e_j
          const a0 = EP[3 * r],
            a1 = EP[3 * r + 1],
            a2 = EP[3 * r + 2];
          const b0 = a1 * ez - a2 * ey,
            b1 = a2 * ex - a0 * ez,
            b2 = a0 * ey - a1 * ex;
          // [u]× row r
          const u0 = r === 0 ? 0 : r === 1 ? u[2] : -u[1];
          const u1 = r === 0 ? -u[2] : r === 1 ? 0 : u[0];
          const u2 = r === 0 ? u[1] : r === 1 ? -u[0] : 0;
          out[o + 3 * r] = -0.5 * (s * u0 + b0 / len);
          out[o + 3 * r + 1] = -0.5 * (s * u1 + b1 / len);
          out[o + 3 * r + 2] = -0.5 * (s * u2 + b2 / len);
        }
      }
    }
  }
}
