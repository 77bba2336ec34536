/**
 * Edges, triangles and quads in 3D space for SOFA's element force fields (template `Vec3,Triangle`,
 * `Vec3,Quad`, `Vec3,Edge`; SOFA's FiniteElement<Edge|Triangle|Quad, Vec3> with
 * ElementStiffnessMatrix's `integrate`): an element of topological dimension d < 3 whose strain is
 * that of the 3D continuum, its displacement gradient taken along the element only.
 * At each quadrature point q (reference coordinates, weight w):
 *   J = Σ_i X_i ⊗ ∂N_i/∂q   (3 × d),  |J| = √det(JᵀJ)  (the element's length or area per reference unit),
 *   ∇N_i = J·(JᵀJ)⁻¹·∂N_i/∂q  (J's left pseudo-inverse, transposed: a vector in the element),
 *   K_e += w·|J|·Bᵀ·D·B,
 * B the 3D strain-displacement matrix of the ∇N_i and D isotropic Hooke (λ + 2μ, λ, μ): per node
 * pair a, b with g = ∇N_a, h = ∇N_b, K_ab[i][i] = (λ + 2μ)·g_i·h_i + μ·Σ_{k≠i} g_k·h_k and
 * K_ab[i][j] = λ·g_i·h_j + μ·g_j·h_i (i ≠ j). The result is a membrane (a bar for edges) of unit
 * thickness (unit cross-section) whose material is the 3D one: a stretched triangle has the stress
 * of a laterally constrained solid, as in SOFA.
 * Reference elements and rules as SOFA's: triangle (0,0), (1,0), (0,1), one point (1/3, 1/3) of
 * weight 1/2; quad [−1, 1]², three points of weight 4/3 (SOFA's degree-2 rule, with its decimal
 * constants); edge [−1, 1], one point 0 of weight 2.
 */

/** A quadrature rule: reference coordinates (d per point) and weights. */
interface Rule {
  readonly points: readonly (readonly number[])[];
  readonly weights: readonly number[];
}

/** An element of topological dimension d: its nodes, ∂N_i/∂q at a point (nodes × d, row-major) and its rule. */
export interface EmbeddedElementShape {
  readonly nodes: number;
  readonly dimension: 1 | 2;
  readonly rule: Rule;
  gradients(out: Float64Array, q: readonly number[]): void;
}

export const TRIANGLE_SHAPE: EmbeddedElementShape = {
  nodes: 3,
  dimension: 2,
  rule: { points: [[1 / 3, 1 / 3]], weights: [1 / 2] },
  gradients(out) {
    out.set([-1, -1, 1, 0, 0, 1]);
  },
};

// SOFA's constants of its quad rule (FiniteElement[Quad].h): √(2/3), √6, √2 to 12 digits
const SQRT2_3 = 0.816496580928;
const SQRT6 = 2.44948974278;
const SQRT2 = 1.41421356237;

export const QUAD_SHAPE: EmbeddedElementShape = {
  nodes: 4,
  dimension: 2,
  rule: {
    points: [
      [SQRT2_3, 0],
      [-1 / SQRT6, -1 / SQRT2],
      [-1 / SQRT6, 1 / SQRT2],
    ],
    weights: [4 / 3, 4 / 3, 4 / 3],
  },
  // N = ¼(1 ∓ ξ)(1 ∓ η) on (−1,−1), (1,−1), (1,1), (−1,1)
  gradients(out, q) {
    const [x, y] = q;
    out[0] = 0.25 * (-1 + y);
    out[1] = 0.25 * (-1 + x);
    out[2] = 0.25 * (1 - y);
    out[3] = 0.25 * (-1 - x);
    out[4] = 0.25 * (1 + y);
    out[5] = 0.25 * (1 + x);
    out[6] = 0.25 * (-1 - y);
    out[7] = 0.25 * (1 - x);
  },
};

export const EDGE_SHAPE: EmbeddedElementShape = {
  nodes: 2,
  dimension: 1,
  rule: { points: [[0]], weights: [2] },
  gradients(out) {
    out[0] = -0.5;
    out[1] = 0.5;
  },
};

const dRef = new Float64Array(8);
const grad = new Float64Array(12);

/**
 * out (3n × 3n, node-major) = K_e of the element at rest positions X (3n) for Hooke's (d00, d01, d33) =
 * (λ + 2μ, λ, μ). Returns the element's measure Σ_q w·|J| (length or area; 0 when degenerate).
 */
export function embeddedElementStiffness(
  out: Float64Array,
  X: Float64Array,
  shape: EmbeddedElementShape,
  d00: number,
  d01: number,
  d33: number,
): number {
  const n = shape.nodes,
    d = shape.dimension,
    n3 = 3 * n;
  out.fill(0, 0, n3 * n3);
  let measure = 0;
  const { points, weights } = shape.rule;
  for (let p = 0; p < points.length; p++) {
    shape.gradients(dRef, points[p]);
    // J (3 × d): column t = Σ_i X_i·∂N_i/∂q_t
    let j00 = 0,
      j10 = 0,
      j20 = 0,
      j01 = 0,
      j11 = 0,
      j21 = 0;
    for (let i = 0; i < n; i++) {
      const a = dRef[d * i];
      j00 += X[3 * i] * a;
      j10 += X[3 * i + 1] * a;
      j20 += X[3 * i + 2] * a;
      if (d === 2) {
        const b = dRef[d * i + 1];
        j01 += X[3 * i] * b;
        j11 += X[3 * i + 1] * b;
        j21 += X[3 * i + 2] * b;
      }
    }
    // G = JᵀJ, |J| = √det G, ∇N_i = J·G⁻¹·∂N_i/∂q
    let detJ: number;
    if (d === 1) {
      const g = j00 * j00 + j10 * j10 + j20 * j20;
      if (!(g > 0)) return 0;
      detJ = Math.sqrt(g);
      for (let i = 0; i < n; i++) {
        const s = dRef[i] / g;
        grad[3 * i] = j00 * s;
        grad[3 * i + 1] = j10 * s;
        grad[3 * i + 2] = j20 * s;
      }
    } else {
      const g00 = j00 * j00 + j10 * j10 + j20 * j20,
        g01 = j00 * j01 + j10 * j11 + j20 * j21,
        g11 = j01 * j01 + j11 * j11 + j21 * j21;
      const det = g00 * g11 - g01 * g01;
      if (!(det > 0)) return 0;
      detJ = Math.sqrt(det);
      const i00 = g11 / det,
        i01 = -g01 / det,
        i11 = g00 / det;
      for (let i = 0; i < n; i++) {
        const a = dRef[2 * i],
          b = dRef[2 * i + 1];
        const u = i00 * a + i01 * b,
          v = i01 * a + i11 * b;
        grad[3 * i] = j00 * u + j01 * v;
        grad[3 * i + 1] = j10 * u + j11 * v;
        grad[3 * i + 2] = j20 * u + j21 * v;
      }
    }
    const w = weights[p] * detJ;
    measure += w;
    for (let a = 0; a < n; a++)
      for (let b = 0; b < n; b++) {
        const g0 = grad[3 * a],
          g1 = grad[3 * a + 1],
          g2 = grad[3 * a + 2];
        const h0 = grad[3 * b],
          h1 = grad[3 * b + 1],
          h2 = grad[3 * b + 2];
        const gh = [g0 * h0, g1 * h1, g2 * h2];
        const g = [g0, g1, g2],
          h = [h0, h1, h2];
        for (let i = 0; i < 3; i++)
          for (let j = 0; j < 3; j++) {
            const v = i === j ? d00 * gh[i] + d33 * (gh[0] + gh[1] + gh[2] - gh[i]) : d01 * g[i] * h[j] + d33 * g[j] * h[i];
            out[(3 * a + i) * n3 + 3 * b + j] += w * v;
          }
      }
  }
  return measure;
}
