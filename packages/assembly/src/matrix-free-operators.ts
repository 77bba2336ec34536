import { componentCall } from '@sofa-ts/core';
import type { CgKernel } from '@sofa-ts/linalg';
import { MatrixFreeKernel } from './matrix-free-kernel.js';
import type { SystemGraph } from './system-graph.js';
import type { MBKFactors } from './system-state.js';
import type { VectorViews } from './vector-views.js';

/**
 * The matrix-free operators of a compiled system: mapped states are reached by J·dx down and
 * forces come back by Jᵀ·f up, masses, force fields and projective constraints act on their own
 * states' arrays. Argument arrays are refilled per call, never reallocated.
 */
export class MatrixFreeOperators {
  /** Per mapped state: scratch for matrix-free products (dx propagated down, df accumulated up). */
  private readonly scratchDx: Float64Array[] = [];
  private readonly scratchDf: Float64Array[] = [];
  /** Per boundary state: its dx in this system's solve (zero, never written) and a sink for the forces mapped onto it. */
  private readonly boundaryZero: Float64Array[] = [];
  private readonly boundarySink: Float64Array[] = [];
  /** Per state, the arrays of the vector being worked on (filled per call, never reallocated). */
  private readonly vecSetA: Float64Array[] = [];
  private readonly vecSetB: Float64Array[] = [];
  private readonly vecSetC: Float64Array[] = [];
  /** Per force field / mapping, argument arrays refilled per call. */
  private readonly ffArgs: Array<[Float64Array[], Float64Array[], Float64Array[]]> = [];
  private readonly mapIns: Float64Array[][] = [];
  private readonly mapIns2: Float64Array[][] = [];
  /** (mappings) 1 for the mappings matrix-free products go through (findActiveMappings). */
  private activeMappings = new Uint8Array(0);
  /** The matrix-free CG kernel of this system (undefined: not looked at yet; null: its shape does not allow it). */
  private fused: MatrixFreeKernel | null | undefined = undefined;

  constructor(
    private readonly graph: SystemGraph,
    private readonly vectors: VectorViews,
  ) {
    const x = graph.x;
    for (const s of graph.mappedStates) {
      this.scratchDx.push(new Float64Array(s.derivLength));
      this.scratchDf.push(new Float64Array(s.derivLength));
    }
    for (const s of graph.boundaryStates) {
      this.boundaryZero.push(new Float64Array(s.derivLength));
      this.boundarySink.push(new Float64Array(s.derivLength));
    }
    for (let i = 0; i < graph.states.length; i++) {
      this.vecSetA.push(x);
      this.vecSetB.push(x);
      this.vecSetC.push(x);
    }
    for (const e of graph.mappings) {
      this.mapIns.push(e.inputs.map(() => x));
      this.mapIns2.push(e.inputs.map(() => x));
    }
    for (const e of graph.forceFields) this.ffArgs.push([e.states.map(() => x), e.states.map(() => x), e.states.map(() => x)]);
    this.findActiveMappings();
  }

  /**
   * Marks the mappings a matrix-free product must go through: those whose output has a mass or a
   * force field, or is the input of such a mapping, and every non-linear one (its geometric
   * stiffness). The others would carry dx down and 0 back up (a visual or collision state with no
   * contact yet): addMBKv skips them, as their terms are zero.
   */
  private findActiveMappings(): void {
    const g = this.graph;
    const needed = new Uint8Array(g.states.length);
    for (const e of g.masses) needed[e.state] = 1;
    for (const e of g.forceFields) for (const s of e.states) needed[s] = 1;
    this.activeMappings = new Uint8Array(g.mappings.length);
    for (let e = g.mappings.length - 1; e >= 0; e--) {
      const m = g.mappings[e];
      if (needed[m.output] === 0 && m.mapping.isLinear) continue;
      this.activeMappings[e] = 1;
      for (const i of m.inputs) needed[i] = 1;
    }
  }

  private forceFieldArgs(i: number, which: 0 | 1 | 2, set: Float64Array[]): Float64Array[] {
    const args = this.ffArgs[i][which];
    const ss = this.graph.forceFields[i].states;
    for (let k = 0; k < ss.length; k++) args[k] = set[ss[k]];
    return args;
  }

  private mappingInputs(e: number, set: Float64Array[], second = false): Float64Array[] {
    const args = (second ? this.mapIns2 : this.mapIns)[e];
    const ins = this.graph.mappings[e].inputs;
    for (let k = 0; k < ins.length; k++) args[k] = set[ins[k]];
    return args;
  }

  /** Positions and velocities of mapped states from their inputs (x_c = φ(x_p), v_c = J·v_p). */
  propagatePositionsAndVelocities(): void {
    const g = this.graph;
    const vset = this.vectors.fillSet(
      this.vecSetA,
      this.vectors.views(g.v),
      (k) => g.mappedStates[k].state.v,
      (k) => g.boundaryStates[k].state.v,
    );
    const caller = componentCall.current;
    for (let e = 0; e < g.mappings.length; e++) {
      const m = g.mappings[e];
      componentCall.current = m.mapping;
      m.mapping.apply();
      m.mapping.applyJ(g.states[m.output].state.v, this.mappingInputs(e, vset));
    }
    if (g.anyNonLinear) {
      for (const e of g.mappings) {
        componentCall.current = e.mapping;
        g.jacobians[e.output].refresh?.();
      }
    }
    componentCall.current = caller;
    for (const s of g.mappedStates) s.state.touch();
  }

  /** f = Σ forces(x, v) + gravity (masses' addForce), mapped forces accumulated up with Jᵀ. */
  computeForce(f: Float64Array): void {
    const g = this.graph;
    f.fill(0);
    for (const s of g.mappedStates) s.state.f.fill(0);
    const fset = this.vectors.fillSet(this.vecSetA, this.vectors.views(f), (k) => g.mappedStates[k].state.f, this.sink);
    const xset = this.vectors.fillSet(
      this.vecSetB,
      this.vectors.coordViews(g.x),
      (k) => g.mappedStates[k].state.x,
      (k) => g.boundaryStates[k].state.x,
    );
    const vset = this.vectors.fillSet(
      this.vecSetC,
      this.vectors.views(g.v),
      (k) => g.mappedStates[k].state.v,
      (k) => g.boundaryStates[k].state.v,
    );
    const own = g.masters.length + g.mappedStates.length; // boundary states: their own solver adds their forces
    // f = forces computed outside the solvers for this step (SOFA's externalForce, accumulated first)
    for (let i = 0; i < own; i++) {
      const s = g.states[i];
      const ext = s.state.externalStepForce;
      if (ext.length === 0) continue;
      const fs = fset[s.index];
      for (let i = 0; i < ext.length; i++) fs[i] += ext[i];
    }
    const caller = componentCall.current;
    for (const e of g.masses) {
      componentCall.current = e.mass;
      e.mass.addForce(fset[e.state], xset[e.state], vset[e.state]);
    }
    for (let i = 0; i < g.forceFields.length; i++) {
      const ff = g.forceFields[i].ff;
      componentCall.current = ff;
      ff.addForce(this.forceFieldArgs(i, 0, fset), this.forceFieldArgs(i, 1, xset), this.forceFieldArgs(i, 2, vset));
    }
    // forces computed outside the solvers that SOFA brings through contact mappings (their Jᵀ comes
    // after the force fields)
    for (let i = 0; i < own; i++) for (const add of g.states[i].state.deferredStepForces) add(fset[i]);
    // f_p += J_cpᵀ f_c, children first.
    for (let e = g.mappings.length - 1; e >= 0; e--) {
      const m = g.mappings[e];
      componentCall.current = m.mapping;
      m.mapping.applyJT(this.mappingInputs(e, fset), g.states[m.output].state.f);
    }
    componentCall.current = caller;
  }

  /** out += (m·M + b·B + k·K)·vec over the whole graph, matrix-free (mapped states included). */
  addMBKv(out: Float64Array, factors: MBKFactors, vec: Float64Array): void {
    const g = this.graph;
    const din = this.vectors.fillSet(this.vecSetA, this.vectors.views(vec), (k) => this.scratchDx[k], this.zero);
    const dout = this.vectors.fillSet(this.vecSetB, this.vectors.views(out), (k) => this.scratchDf[k], this.sink);
    const caller = componentCall.current;
    // dx_c = J_cp·dx_p, parents first (mappings whose output subtree adds nothing are skipped)
    const active = this.activeMappings;
    for (let e = 0; e < g.mappings.length; e++) {
      if (active[e] === 0) continue;
      const m = g.mappings[e];
      componentCall.current = m.mapping;
      m.mapping.applyJ(din[m.output], this.mappingInputs(e, din));
    }
    for (let k = 0; k < g.mappedStates.length; k++) this.scratchDf[k].fill(0);
    if (factors.m !== 0) {
      for (const e of g.masses) {
        componentCall.current = e.mass;
        e.mass.addMDx(dout[e.state], din[e.state], factors.m);
      }
    }
    if (factors.k !== 0 || factors.b !== 0) {
      for (let i = 0; i < g.forceFields.length; i++) {
        const ff = g.forceFields[i].ff;
        componentCall.current = ff;
        ff.addDForce(this.forceFieldArgs(i, 0, dout), this.forceFieldArgs(i, 1, din), factors.k, factors.b);
      }
    }
    // df_p += J_cpᵀ df_c + k·K_geo·dx_p, children first
    for (let e = g.mappings.length - 1; e >= 0; e--) {
      if (active[e] === 0) continue;
      const m = g.mappings[e];
      const outs = this.mappingInputs(e, dout);
      componentCall.current = m.mapping;
      m.mapping.applyJT(outs, dout[m.output]);
      if (!m.mapping.isLinear && factors.k !== 0)
        m.mapping.applyDJT(outs, this.mappingInputs(e, din, true), g.states[m.output].state.f, factors.k);
    }
    componentCall.current = caller;
  }

  /**
   * Accumulates the forces of mapped states up to the masters: f_p += J_cpᵀ·f_c, children first,
   * into the global vector `f` (the mapped states' own f arrays are read and kept).
   */
  accumulateMappedForces(f: Float64Array): void {
    const g = this.graph;
    const fset = this.vectors.fillSet(this.vecSetA, this.vectors.views(f), (k) => g.mappedStates[k].state.f, this.sink);
    const caller = componentCall.current;
    for (let e = g.mappings.length - 1; e >= 0; e--) {
      const m = g.mappings[e];
      componentCall.current = m.mapping;
      m.mapping.applyJT(this.mappingInputs(e, fset), g.states[m.output].state.f);
    }
    componentCall.current = caller;
  }

  /** A boundary state's dx in this system: zero (this solve does not move it). */
  private readonly zero = (k: number): Float64Array => this.boundaryZero[k];

  /** Where the forces mapped onto a boundary state go: cleared, and never read. */
  private readonly sink = (k: number): Float64Array => this.boundarySink[k].fill(0);

  /** vec ← P·vec for every projective constraint. */
  projectResponse(vec: Float64Array): void {
    const views = this.vectors.views(vec);
    const caller = componentCall.current;
    for (const e of this.graph.constraints) {
      componentCall.current = e.pc;
      const c = e.coupled;
      if (!c) e.pc.projectResponse(views[e.state]);
      else {
        for (let i = 0; i < c.states.length; i++) c.views[i] = views[c.states[i]];
        e.pc.projectResponseWith(views[e.state], c.views);
      }
    }
    componentCall.current = caller;
  }

  projectVelocity(vec: Float64Array): void {
    const views = this.vectors.views(vec);
    const caller = componentCall.current;
    for (const e of this.graph.constraints) {
      componentCall.current = e.pc;
      e.pc.projectVelocity(views[e.state]);
    }
    componentCall.current = caller;
  }

  projectPosition(vec: Float64Array): void {
    const views = this.vectors.coordViews(vec);
    const caller = componentCall.current;
    for (const e of this.graph.constraints) {
      componentCall.current = e.pc;
      e.pc.projectPosition(views[e.state]);
    }
    componentCall.current = caller;
  }

  /**
   * The iteration of a matrix-free conjugate gradient in one WebAssembly memory, for a system whose
   * shape allows it (MatrixFreeKernel: one Vec3 state, one force field with an in-place product, a
   * lumped mass, zeroing projections, no active mapping), brought up to date for these factors;
   * undefined otherwise. Its products and dots are applyMBK's and dot's, bit for bit.
   */
  matrixFreeKernel(factors: MBKFactors): CgKernel | undefined {
    if (this.fused === undefined) this.fused = this.matrixFreeKernelOf();
    return this.fused?.kernel(factors);
  }

  private matrixFreeKernelOf(): MatrixFreeKernel | null {
    const g = this.graph;
    if (g.masters.length !== 1 || g.masses.length > 1 || g.forceFields.length !== 1) return null;
    const m = g.masters[0];
    const t = m.state.stateType;
    if (t.derivSize !== 3 || t.isRigid || this.activeMappings.some((a) => a !== 0)) return null;
    const ff = g.forceFields[0];
    if (ff.states.length !== 1 || ff.states[0] !== m.index) return null;
    const mass = g.masses[0];
    if (mass && mass.state !== m.index) return null;
    for (const c of g.constraints)
      if (c.coupled || c.state !== m.index || !c.pc.isDiagonalProjection || !c.pc.projectsByZeroing) return null;
    return new MatrixFreeKernel(
      () => m.state.size,
      mass?.mass,
      ff.ff,
      g.constraints.map((c) => c.pc),
    );
  }
}
