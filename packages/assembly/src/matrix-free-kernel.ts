import type { BaseForceField, BaseMass, BaseProjectiveConstraint, InPlaceDForce } from '@sofa-ts/core';
import { MatrixFreeCgWasm, type CgKernel } from '@sofa-ts/linalg';
import type { MBKFactors } from './system-state.js';

/**
 * The whole iteration of a matrix-free conjugate gradient in one WebAssembly memory, for the common
 * system of one Vec3 state with at most one lumped mass, one force field whose product runs in
 * WebAssembly (InPlaceDForce: corotational tetrahedra), projective constraints that zero dofs, and
 * no mapping a product goes through. The CG's vectors live in the force field's kernel memory, p
 * and q being the kernel's dx and df, so an iteration copies nothing and runs no JavaScript loop;
 * when the force field offers its product as a WebAssembly function (InPlaceDForce.wasmAdd), the
 * whole solve is one call into WebAssembly (MatrixFreeCgWasm.iterate).
 *
 * The product is MechanicalSystem.applyMBK's, step by step: q = 0, then the mass's
 * q += (p·mᵢ)·m (when m ≠ 0), then the force field's addDForce (when k or b ≠ 0), then the zeroed
 * dofs; the dots sum as MechanicalSystem.dot. The iterates are the JavaScript path's bit for bit.
 * Other systems (several states, masses or force fields, active mappings, other projections, no
 * WebAssembly) keep the JavaScript path: `kernel` returns undefined.
 */
export class MatrixFreeKernel {
  private cg: MatrixFreeCgWasm | undefined = undefined;
  private place: InPlaceDForce | undefined = undefined;
  private readonly list: number[] = [];
  private k = 0;
  private b = 0;

  constructor(
    private readonly nodes: () => number,
    private readonly mass: BaseMass | undefined,
    private readonly forceField: BaseForceField,
    private readonly constraints: readonly BaseProjectiveConstraint[],
  ) {}

  /** The CG kernel for a solve with these factors (brought up to date), or undefined. */
  kernel(factors: MBKFactors): CgKernel | undefined {
    const place = this.forceField.inPlaceDForce();
    if (!place) return undefined;
    const nodes = this.nodes();
    if (!this.cg || this.place !== place || this.cg.nodes !== nodes) {
      this.place = place;
      // the force field's product called from the CG's WebAssembly directly when it offers it
      const product = place.wasmAdd?.fn ?? ((_k: number) => place.add(this.k, this.b));
      this.cg = MatrixFreeCgWasm.create(
        { memory: place.memory, p: place.dx, q: place.df, area: place.area, areaBytes: place.areaBytes },
        nodes,
        product,
      );
    }
    const cg = this.cg;
    if (!cg) return undefined;
    if (this.mass && factors.m !== 0) {
      const masses = this.mass.lumpedPointMasses();
      if (!masses || masses.length !== nodes) return undefined;
      cg.masses.set(masses);
    }
    const list = this.list;
    list.length = 0;
    for (const c of this.constraints) c.projectedDofs(list);
    if (list.length > cg.dofs.length) return undefined;
    for (let i = 0; i < list.length; i++) cg.dofs[i] = list[i];
    this.k = factors.k;
    this.b = factors.b;
    // q = P·(m·M + b·B + k·K)·p in place, in applyMBK's order: the mass (or q = 0), the force field, the zeroed dofs
    const wasm = place.wasmAdd;
    const factor = wasm ? wasm.factor(factors.k, factors.b) : 0;
    const c = cg.config;
    c.useMass = this.mass !== undefined && factors.m !== 0;
    c.m = factors.m;
    c.useProduct = (factors.k !== 0 || factors.b !== 0) && (!wasm || factor !== 0);
    c.k = factor;
    c.dofCount = list.length;
    return cg;
  }
}
