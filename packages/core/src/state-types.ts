import { quatMultiplyCyclicDotAt } from '@sofa-ts/linalg';

/**
 * SOFA's DataTypes: how the coordinates (Coord) and their derivatives (Deriv) of a mechanical state
 * are laid out in flat Float64Arrays, and how a Deriv is integrated into a Coord.
 *
 *   Vec1d / Vec2d / Vec3d:  Coord = Deriv = (x[, y[, z]])
 *   Rigid3d:                Coord = (px py pz qx qy qz qw), Deriv = (vx vy vz ωx ωy ωz)
 *   Rigid2d:                Coord = (px py θ),               Deriv = (vx vy ω)
 */
export interface StateType {
  readonly name: 'Vec1d' | 'Vec2d' | 'Vec3d' | 'Vec6d' | 'Rigid2d' | 'Rigid3d';
  /** Scalars per point in a coordinate vector (x, rest position). */
  readonly coordSize: number;
  /** Scalars per point in a derivative vector (v, f, dx). */
  readonly derivSize: number;
  /** Dimension of the space the points live in (for positions of rigid frames: their centre). */
  readonly spatialDimensions: number;
  readonly isRigid: boolean;
  /** out = x ⊕ h·v for n points (out may alias x). */
  addDerivToCoord(out: Float64Array, x: Float64Array, v: Float64Array, h: number, n: number): void;
  /** Writes the neutral coordinate of point i (origin; identity orientation for rigids). */
  setDefaultCoord(out: Float64Array, i: number): void;
}

function vecType(name: 'Vec1d' | 'Vec2d' | 'Vec3d' | 'Vec6d', d: number): StateType {
  return {
    name,
    coordSize: d,
    derivSize: d,
    spatialDimensions: Math.min(d, 3),
    isRigid: false,
    addDerivToCoord(out, x, v, h, n) {
      const m = n * d;
      for (let i = 0; i < m; i++) out[i] = x[i] + h * v[i];
    },
    setDefaultCoord(out, i) {
      for (let k = 0; k < d; k++) out[i * d + k] = 0;
    },
  };
}

export const Vec1d: StateType = vecType('Vec1d', 1);
export const Vec2d: StateType = vecType('Vec2d', 2);
export const Vec3d: StateType = vecType('Vec3d', 3);
export const Vec6d: StateType = vecType('Vec6d', 6);

/** exp(h·ω/2) of one body, for the product with its orientation. */
const expScratch = new Float64Array(4);

/**
 * Rigid3d. The orientation moves by the exponential map, as SOFA's RigidCoord ⊕ Deriv does:
 *   q ← exp(h·ω/2) ⊗ q,  exp(u) = (sin|u|/|u|·u, cos|u|)   (an exact rotation by the angle h·|ω|
 * about ω, in the world frame); below machine epsilon, exp(u) = normalize(u, 1).
 */
export const Rigid3d: StateType = {
  name: 'Rigid3d',
  coordSize: 7,
  derivSize: 6,
  spatialDimensions: 3,
  isRigid: true,
  addDerivToCoord(out, x, v, h, n) {
    for (let p = 0; p < n; p++) {
      const c = p * 7;
      const d = p * 6;
      out[c] = x[c] + h * v[d];
      out[c + 1] = x[c + 1] + h * v[d + 1];
      out[c + 2] = x[c + 2] + h * v[d + 2];
      // u = h·ω/2; e = exp(u)
      const ux = (h * v[d + 3]) / 2,
        uy = (h * v[d + 4]) / 2,
        uz = (h * v[d + 5]) / 2;
      const theta = Math.sqrt(ux * ux + uy * uy + uz * uz);
      let ex: number, ey: number, ez: number, ew: number;
      if (theta < Number.EPSILON) {
        const len = Math.sqrt(ux * ux + uy * uy + uz * uz + 1);
        ex = ux / len;
        ey = uy / len;
        ez = uz / len;
        ew = 1 / len;
      } else {
        const sinc = Math.sin(theta) / theta;
        ex = sinc * ux;
        ey = sinc * uy;
        ez = sinc * uz;
        ew = Math.cos(theta);
      }
      // q ← e ⊗ q
      const e = expScratch;
      e[0] = ex;
      e[1] = ey;
      e[2] = ez;
      e[3] = ew;
      quatMultiplyCyclicDotAt(out, c + 3, e, 0, x, c + 3);
    }
  },
  setDefaultCoord(out, i) {
    out.fill(0, i * 7, i * 7 + 6);
    out[i * 7 + 6] = 1;
  },
};

/** Rigid2d: centre (x, y) and angle θ; the angle integrates linearly. */
export const Rigid2d: StateType = {
  name: 'Rigid2d',
  coordSize: 3,
  derivSize: 3,
  spatialDimensions: 2,
  isRigid: true,
  addDerivToCoord(out, x, v, h, n) {
    const m = n * 3;
    for (let i = 0; i < m; i++) out[i] = x[i] + h * v[i];
  },
  setDefaultCoord(out, i) {
    out.fill(0, i * 3, i * 3 + 3);
  },
};

const stateTypes: Record<string, StateType> = { Vec1d, Vec2d, Vec3d, Vec6d, Rigid2d, Rigid3d };

/**
 * Template names as SOFA scenes write them, mapped to one canonical name. Single precision names
 * are accepted and computed in double precision. SofaCUDA's GPU templates (CudaVec3f, CudaVec3f1
 * — a Vec3f padded to 4 floats on the GPU —, CudaRigid3f, their d forms) are the same states on
 * the CPU: sofa-ts has no GPU path, and its SofaCUDA twins say so (fem/element/sofacuda-twins.ts).
 */
const templateAliases: Record<string, string> = {
  Vec1: 'Vec1d',
  Vec1f: 'Vec1d',
  Vec1Types: 'Vec1d',
  Vec1dTypes: 'Vec1d',
  Vec2: 'Vec2d',
  Vec2f: 'Vec2d',
  Vec2Types: 'Vec2d',
  Vec2dTypes: 'Vec2d',
  Vec3: 'Vec3d',
  Vec3f: 'Vec3d',
  Vec3Types: 'Vec3d',
  Vec3dTypes: 'Vec3d',
  Vec6: 'Vec6d',
  Vec6f: 'Vec6d',
  Vec6Types: 'Vec6d',
  Rigid: 'Rigid3d',
  Rigid3: 'Rigid3d',
  Rigid3f: 'Rigid3d',
  Rigid3Types: 'Rigid3d',
  Rigid3dTypes: 'Rigid3d',
  Rigid2: 'Rigid2d',
  Rigid2f: 'Rigid2d',
  Rigid2Types: 'Rigid2d',
  CudaVec1f: 'Vec1d',
  CudaVec1d: 'Vec1d',
  CudaVec2f: 'Vec2d',
  CudaVec2d: 'Vec2d',
  CudaVec3f: 'Vec3d',
  CudaVec3d: 'Vec3d',
  CudaVec3f1: 'Vec3d',
  CudaVec3d1: 'Vec3d',
  CudaVec6f: 'Vec6d',
  CudaVec6d: 'Vec6d',
  CudaRigid3f: 'Rigid3d',
  CudaRigid3d: 'Rigid3d',
  CompressedRowSparseMatrix: 'CompressedRowSparseMatrixd',
  CompressedRowSparseMatrixMat3x3: 'CompressedRowSparseMatrixMat3x3d',
  CompressedRowSparseMatrixMat3x3f: 'CompressedRowSparseMatrixMat3x3d',
  CompressedRowSparseMatrixf: 'CompressedRowSparseMatrixd',
  FullMatrix: 'FullMatrixd',
};

/**
 * The canonical form of a template name (Vec3 → Vec3d); unknown names come back unchanged. A pair
 * of a mapping or an interaction (`Rigid3,Vec3`) is canonicalised part by part (`Rigid3d,Vec3d`).
 */
export function canonicalTemplate(name: string): string {
  const n = name.trim();
  if (n.includes(','))
    return n
      .split(',')
      .map((p) => canonicalTemplate(p))
      .join(',');
  return templateAliases[n] ?? n;
}

/** The StateType of a template name in any SOFA spelling, or undefined. */
export function stateTypeOf(template: string): StateType | undefined {
  return stateTypes[canonicalTemplate(template)];
}

export const allStateTypes: readonly StateType[] = [Vec1d, Vec2d, Vec3d, Vec6d, Rigid2d, Rigid3d];
