import { contextMeshTopology, isTopology, type BaseMeshTopology, type MatrixAccumulator, SingleStateForceField } from '@sofa-ts/core';
import {
  elementForce,
  emitElementStiffness,
  frameEdge,
  strainDisplacementGlobal,
  strainDisplacementLocal,
  triangleFrame,
} from './triangle-kernels.js';

/**
 * What SOFA's two triangle FEM force fields share: linear triangles in plane stress (Vec3d), with
 * per element a rest shape, a material matrix M (3×3, times the area) and, per step, the
 * strain-displacement matrix J and the element rotation (see triangle-kernels.ts for conventions).
 *
 * large (co-rotational): at each addForce, the frame R of the current triangle (x along AB, z
 * normal) gives the current vertices B', C' in the frame; with the rest ones B⁰, C⁰ in the rest
 * frame, D = (0, 0, B⁰x − B'x, 0, C⁰x − C'x, C⁰y − C'y), J is built on the *current* shape, and
 *   F = J·M·Jᵀ·D (in the frame),   f_v += Rᵀ·(F_vx, F_vy, 0).
 * small: D from the rest and current edges A→B, A→C in world x, y; J from the current edges; the
 *   force acts in the world x, y plane only.
 * The stiffness is SOFA's: K = −Rᵀ·Ke(J·M·Jᵀ)·R with J and R of the last addForce (for small,
 * R = I), the derivative of the force with the frame and J held fixed — exact at rest and for rigid
 * motions of the rest shape, an approximation when the element is strained.
 */
export abstract class TriangleFEMBase extends SingleStateForceField {
  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'the topology giving the triangles (default: the one of this node or an ancestor)',
    accepts: isTopology,
    expected: 'a topology',
  });

  /** Co-rotational (large) or small-displacement method. */
  protected large = true;
  /** Vertices of the elements: (nT × 3). */
  protected tri = new Uint32Array(0);
  /** Rest shape per element, vertices A, B, C in the element frame (large) or as world edges from A (small): (nT × 9). */
  protected rest = new Float64Array(0);
  /** Element-to-world rotation at the last addForce (SOFA's `rotation`): (nT × 3 × 3), row-major. */
  protected rot = new Float64Array(0);
  /** Strain-displacement matrices J at the last addForce: (nT × 6 × 3), row-major. */
  protected J = new Float64Array(0);
  /** Material matrices, area included: (nT × 3 × 3), unit N/m (force per strain). */
  protected M = new Float64Array(0);
  /** Strain (3) and stress (3) of each element at the last addForce, SOFA's sign (rest − current): (nT × 6). */
  protected sv = new Float64Array(0);
  /** Checkpoint: the rotations, J and strains of the last addForce (a degenerate element keeps them). */
  readonly checkpointFields = ['rot', 'J', 'sv'] as const;
  // Scratch of one element: frame (9), edges (6), D (6), F (6), stiffness products (54).
  private readonly frame = new Float64Array(9);
  private readonly edges = new Float64Array(6);
  private readonly D = new Float64Array(6);
  private readonly F = new Float64Array(6);
  private readonly kScratch = new Float64Array(54);

  get elementCount(): number {
    return this.tri.length / 3;
  }

  /** Allocates the per-element arrays for nT elements. */
  protected allocateElements(nT: number): void {
    this.tri = new Uint32Array(3 * nT);
    this.rest = new Float64Array(9 * nT);
    this.rot = new Float64Array(9 * nT);
    this.J = new Float64Array(18 * nT);
    this.M = new Float64Array(9 * nT);
    this.sv = new Float64Array(6 * nT);
  }

  /** The state and topology links, template checks; returns the topology. */
  protected initLinks(): BaseMeshTopology {
    super.init();
    const s = this.states[0];
    if (!this.template) this.template = s.stateType.name;
    if (s.stateType.isRigid || s.stateType.derivSize !== 3)
      throw this.error(`${this.className} needs a Vec3d state (got ${s.stateType.name})`);
    const topo = this.topology.get() ?? contextMeshTopology(this.context);
    if (!topo) throw this.error(`no topology: ${this.className} needs a triangle topology in its node (or set topology="@path")`);
    this.topology.set(topo);
    return topo;
  }

  /**
   * Rest frame of element e from the rest positions p: rot = R_0_1ᵀ (element to world), rest
   * vertices in that frame, J on the rest shape. `relative` computes the rest edges as R·(p_B − p_A)
   * (TriangularFEMForceField); otherwise as R·p_B − R·p_A (TriangleFEMForceField).
   */
  protected initLargeElement(e: number, p: Float64Array, relative: boolean): void {
    const a = 3 * this.tri[3 * e],
      b = 3 * this.tri[3 * e + 1],
      c = 3 * this.tri[3 * e + 2];
    const R = this.frame;
    triangleFrame(R, 0, p, a, b, c);
    const o = 9 * e;
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) this.rot[o + 3 * i + j] = R[3 * j + i];
    const r = this.rest;
    r.fill(0, o, o + 3);
    if (relative) {
      frameEdge(r, o + 3, R, 0, p, a, b);
      frameEdge(r, o + 6, R, 0, p, a, c);
    } else {
      for (let i = 0; i < 3; i++) {
        const ra = R[3 * i] * p[a] + R[3 * i + 1] * p[a + 1] + R[3 * i + 2] * p[a + 2];
        r[o + 3 + i] = R[3 * i] * p[b] + R[3 * i + 1] * p[b + 1] + R[3 * i + 2] * p[b + 2] - ra;
        r[o + 6 + i] = R[3 * i] * p[c] + R[3 * i + 1] * p[c + 1] + R[3 * i + 2] * p[c + 2] - ra;
      }
    }
    this.initRestJ(e);
  }

  /** Rest edges of element e as world vectors A→B, A→C (small method), rot = I, J on the rest shape. */
  protected initSmallElement(e: number, p: Float64Array): void {
    const a = 3 * this.tri[3 * e],
      b = 3 * this.tri[3 * e + 1],
      c = 3 * this.tri[3 * e + 2];
    const o = 9 * e;
    this.rest.fill(0, o, o + 3);
    for (let i = 0; i < 3; i++) {
      this.rest[o + 3 + i] = p[b + i] - p[a + i];
      this.rest[o + 6 + i] = p[c + i] - p[a + i];
    }
    this.initRestJ(e);
  }

  /** J of the rest shape of element e (rest and, for large, rot already set); as SOFA, the large
   *  method reads the rest B and C as given (A is the frame origin). */
  protected initRestJ(e: number): void {
    const o = 9 * e;
    const r = this.rest;
    let ok: boolean;
    if (this.large) {
      ok = strainDisplacementLocal(this.J, 18 * e, r[o + 3], r[o + 6], r[o + 7]);
    } else {
      this.rot.fill(0, o, o + 9);
      this.rot[o] = this.rot[o + 4] = this.rot[o + 8] = 1;
      for (let i = 0; i < 3; i++) {
        this.edges[i] = r[o + 3 + i] - r[o + i];
        this.edges[3 + i] = r[o + 6 + i] - r[o + i];
      }
      ok = strainDisplacementGlobal(this.J, 18 * e, this.edges, 0, this.edges, 3);
    }
    if (!ok) {
      const t = this.tri;
      throw this.error(`triangle ${e} (${t[3 * e]}, ${t[3 * e + 1]}, ${t[3 * e + 2]}) is degenerate at rest (null area)`);
    }
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], _v: readonly Float64Array[]): void {
    this.beforeForce();
    const f0 = f[0],
      x0 = x[0];
    const nT = this.elementCount;
    const R = this.frame,
      E = this.edges,
      D = this.D,
      F = this.F,
      r = this.rest;
    for (let e = 0; e < nT; e++) {
      const a = 3 * this.tri[3 * e],
        b = 3 * this.tri[3 * e + 1],
        c = 3 * this.tri[3 * e + 2];
      const o = 9 * e;
      if (this.large) {
        // current frame R (world → element), current B', C' in it
        triangleFrame(R, 0, x0, a, b, c);
        frameEdge(E, 0, R, 0, x0, a, b);
        frameEdge(E, 3, R, 0, x0, a, c);
        // D = rest − current, in the element frame
        D[0] = 0;
        D[1] = 0;
        D[2] = r[o + 3] - E[0];
        D[3] = 0;
        D[4] = r[o + 6] - E[3];
        D[5] = r[o + 7] - E[4];
        if (!strainDisplacementLocal(this.J, 18 * e, E[0], E[3], E[4])) continue;
        elementForce(F, this.J, 18 * e, this.M, o, D, this.sv, 6 * e);
        // rot = Rᵀ; f_v += Rᵀ·(F_vx, F_vy, 0)
        for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) this.rot[o + 3 * i + j] = R[3 * j + i];
        for (let i = 0; i < 3; i++) {
          f0[a + i] += R[i] * F[0] + R[3 + i] * F[1];
          f0[b + i] += R[i] * F[2] + R[3 + i] * F[3];
          f0[c + i] += R[i] * F[4] + R[3 + i] * F[5];
        }
      } else {
        for (let i = 0; i < 3; i++) {
          E[i] = x0[b + i] - x0[a + i];
          E[3 + i] = x0[c + i] - x0[a + i];
        }
        D[0] = 0;
        D[1] = 0;
        D[2] = r[o + 3] - E[0];
        D[3] = r[o + 4] - E[1];
        D[4] = r[o + 6] - E[3];
        D[5] = r[o + 7] - E[4];
        if (!strainDisplacementGlobal(this.J, 18 * e, E, 0, E, 3)) continue;
        elementForce(F, this.J, 18 * e, this.M, o, D, this.sv, 6 * e);
        f0[a] += F[0];
        f0[a + 1] += F[1];
        f0[b] += F[2];
        f0[b + 1] += F[3];
        f0[c] += F[4];
        f0[c + 1] += F[5];
      }
    }
    this.afterForce();
  }

  /** Called at the start of addForce (topological changes). */
  protected beforeForce(): void {}

  /** Called at the end of addForce (derived quantities such as principal stresses). */
  protected afterForce(): void {}

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const df0 = df[0],
      dx0 = dx[0];
    const k = this.kFactorWithRayleigh(kFactor, bFactor);
    const nT = this.elementCount;
    const D = this.D,
      F = this.F,
      Rot = this.rot;
    for (let e = 0; e < nT; e++) {
      const a = 3 * this.tri[3 * e],
        b = 3 * this.tri[3 * e + 1],
        c = 3 * this.tri[3 * e + 2];
      const o = 9 * e;
      if (this.large) {
        // dX = (rotᵀ·dx_v).xy for each vertex
        for (let n = 0; n < 3; n++) {
          const p = n === 0 ? a : n === 1 ? b : c;
          D[2 * n] = Rot[o] * dx0[p] + Rot[o + 3] * dx0[p + 1] + Rot[o + 6] * dx0[p + 2];
          D[2 * n + 1] = Rot[o + 1] * dx0[p] + Rot[o + 4] * dx0[p + 1] + Rot[o + 7] * dx0[p + 2];
        }
        elementForce(F, this.J, 18 * e, this.M, o, D);
        // df_v += rot·(−F_vx, −F_vy, 0)·k
        for (let n = 0; n < 3; n++) {
          const p = n === 0 ? a : n === 1 ? b : c;
          const fx = -F[2 * n],
            fy = -F[2 * n + 1];
          for (let i = 0; i < 3; i++) df0[p + i] += (Rot[o + 3 * i] * fx + Rot[o + 3 * i + 1] * fy) * k;
        }
      } else {
        D[0] = dx0[a];
        D[1] = dx0[a + 1];
        D[2] = dx0[b];
        D[3] = dx0[b + 1];
        D[4] = dx0[c];
        D[5] = dx0[c + 1];
        elementForce(F, this.J, 18 * e, this.M, o, D);
        df0[a] += -F[0] * k;
        df0[a + 1] += -F[1] * k;
        df0[b] += -F[2] * k;
        df0[b + 1] += -F[3] * k;
        df0[c] += -F[4] * k;
        df0[c + 1] += -F[5] * k;
      }
    }
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    const k = kFactor;
    const nT = this.elementCount;
    for (let e = 0; e < nT; e++) {
      emitElementStiffness(
        acc,
        this.tri[3 * e],
        this.tri[3 * e + 1],
        this.tri[3 * e + 2],
        this.J,
        18 * e,
        this.M,
        9 * e,
        this.rot,
        9 * e,
        k,
        this.kScratch,
      );
    }
  }

  /** Strain (ε_xx, ε_yy, γ_xy) and stress of element e at the last addForce, with SOFA's sign (rest − current). */
  strainStress(e: number): Float64Array {
    return this.sv.subarray(6 * e, 6 * e + 6);
  }
}
