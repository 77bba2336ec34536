import { BaseObject } from '../base-object.js';
import { Bool, Real } from '../data-types.js';
import type { BaseMechanicalState } from './mechanical-state.js';
import type { MatrixAccumulator, OutsideStateAccumulator } from './matrix-accumulator.js';

/**
 * A force field's addDForce in a WebAssembly memory: `add(kFactor, bFactor)` is
 * addDForce([df], [dx], kFactor, bFactor) with dx and df the vectors at byte addresses `dx` and
 * `df` of `memory` (3·points f64 each), the same operations in the same order. The memory also has
 * a free area of `areaBytes` bytes at `area` (16-aligned) for the solver's own vectors. The object
 * stays valid while the force field returns it (a new one after a topological change).
 */
export interface InPlaceDForce {
  readonly memory: { buffer: ArrayBufferLike };
  readonly dx: number;
  readonly df: number;
  readonly area: number;
  readonly areaBytes: number;
  add(kFactor: number, bFactor: number): void;
  /**
   * Optional: add's work as a WebAssembly function of the same memory, `wasmAdd.fn(factor)` with
   * factor = wasmAdd.factor(kFactor, bFactor) and no call when that factor is 0, so that a solver
   * running in WebAssembly calls it without going through JavaScript. Absent where add needs
   * JavaScript (threads).
   */
  readonly wasmAdd?: { readonly fn: object; factor(kFactor: number, bFactor: number): number };
}

/**
 * A force field (SOFA BaseForceField / BaseInteractionForceField): f(x, v) on one state, or on two
 * for an interaction force field.
 *
 * **Arrays.** Every vector argument is an array with one Float64Array per state, in the order of
 * `getMechanicalStates()` (`f[0]` is the first state's). A state's array is flat: point i, component
 * j at `i·d + j`, with d = derivSize for f, v, df, dx (3 for Vec3d, 6 for Rigid3d) and d = coordSize
 * for x (3 for Vec3d, 7 for Rigid3d: position then quaternion).
 *
 * **Signs** are SOFA's: K = ∂f/∂x and B = ∂f/∂v, both negative semi-definite for elastic and
 * damping forces (a spring of stiffness k along u has K = −k·u·uᵀ).
 *
 * **When each method is called** in one step of an implicit solver (EulerImplicitSolver, which
 * solves (m·M + b·B + k·K)·Δv = rhs with m = 1 + h·rM, b = −h, k = −h·(h + rK)):
 * 1. `addForce(f, x, v)` once, at the positions and velocities of the start of the step: keep here
 *    what K and B need (the engine never asks for K at another state);
 * 2. `addDForce(df, dx, kFactor, bFactor)` for the right-hand side, then for every product of a
 *    matrix-free linear solver (CG): df += kFactor·K·dx + bFactor·B·dx;
 * 3. `addKBToMatrix(acc, kFactor, bFactor)` (→ `addKToMatrix`, `addBToMatrix`) when a direct linear
 *    solver assembles the matrix, the same factors as in 2.
 * Explicit solvers (EulerExplicitSolver, RungeKutta4Solver) call only `addForce`, at every stage.
 *
 * **Rayleigh damping**: the Data `rayleighStiffness` adds B_r = rayleighStiffness·K. `addDForce`
 * must apply it itself, by using `kFactorWithRayleigh(kFactor, bFactor)` as its stiffness factor;
 * `addKBToMatrix` already passes that factor to `addKToMatrix`.
 *
 * `init()` checks the Data and sizes the buffers (once, before the first step); throw
 * `this.error('what was expected')` on a bad value: the user sees the scene file, line and component.
 */
export abstract class BaseForceField extends BaseObject {
  readonly isForceField = true;

  readonly rayleighStiffness = this.initData({
    name: 'rayleighStiffness',
    type: Real,
    default: 0,
    help: "Rayleigh damping proportional to this force field's stiffness (B = rayleighStiffness·K)",
  });
  /**
   * Compliant formulation: the force field gives its compliance C in constraint space instead of
   * its stiffness K (see BaseCompliance). The default is false, true for classes whose static
   * `isComplianceByDefault` says so (UniformCompliance, ...).
   */
  readonly isCompliance = this.initData({
    name: 'isCompliance',
    type: Bool,
    default: (this.constructor as { isComplianceByDefault?: boolean }).isComplianceByDefault ?? false,
    help: 'consider the component as a compliance (its C enters the constraint rows of the Compliant solvers), else as a stiffness',
  });

  /** The stiffness factor including this force field's Rayleigh damping: k + b·rayleighStiffness. */
  kFactorWithRayleigh(kFactor: number, bFactor: number): number {
    return kFactor + bFactor * this.rayleighStiffness.value;
  }

  /** The states the vectors belong to, in order: one, or two for an interaction force field. Valid after init. */
  abstract getMechanicalStates(): readonly BaseMechanicalState[];

  /**
   * f += F(x, v): add this force field's forces (never overwrite f: other components add theirs).
   * `f[s]`, `v[s]` are (size_s × derivSize), `x[s]` (size_s × coordSize), s in getMechanicalStates()
   * order. Called once per force evaluation; keep what addDForce and addKToMatrix need (K, B at x, v).
   * Allocate nothing proportional to the mesh here.
   */
  abstract addForce(f: readonly Float64Array[], x: readonly Float64Array[], v: readonly Float64Array[]): void;

  /**
   * df += kFactor·K·dx + bFactor·B·dx, with K and B taken at the last addForce. `df[s]`, `dx[s]` are
   * (size_s × derivSize). kFactor and bFactor are chosen by the ODE solver (backward Euler:
   * kFactor = −h·(h + rK), bFactor = −h); add this component's Rayleigh term by using
   * `kFactorWithRayleigh(kFactor, bFactor)` in place of kFactor.
   */
  abstract addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void;

  /**
   * Emits kFactor·K into `acc` (kFactor already includes Rayleigh damping when called through
   * addKBToMatrix). Indices are local scalar dofs: row = point·derivSize + component, the second
   * state's dofs after the first's. Emit the same (row, col) sequence at every call (see
   * MatrixAccumulator); `addBlock3` emits a 3×3 block.
   */
  abstract addKToMatrix(acc: MatrixAccumulator, kFactor: number): void;

  /**
   * Optional, for an interaction force field with a side kept out of the solver's system (a
   * non-simulated contact side): emits kFactor·K's blocks between that side and its states
   * (∂f_outside/∂x and ∂f/∂x_outside), which assembled solvers place as SOFA's MatrixLinearSystem
   * does (MechanicalSystem.assembleMBK). Same sequence rule as addKToMatrix.
   */
  addOutsideStateKToMatrix?(acc: OutsideStateAccumulator, kFactor: number): void;

  /**
   * Optional, for an interaction force field computed outside the solvers (see
   * isolated-interaction-forces.ts): as addForce, except that the forces SOFA applies through a
   * mapped state of its own (the contact points a contact mapper creates) are not added to `f` but
   * handed to `defer(arg, add)`, arg the state's index in getMechanicalStates(): the solver runs
   * `add(f)` after its force fields, as SOFA's mapping Jᵀ adds those forces.
   */
  addIsolatedForce?(
    f: readonly Float64Array[],
    x: readonly Float64Array[],
    v: readonly Float64Array[],
    defer: (arg: number, add: (f: Float64Array) => void) => void,
  ): void;

  /** Emits bFactor·B, B without the Rayleigh term; force fields without damping emit nothing. */
  addBToMatrix(_acc: MatrixAccumulator, _bFactor: number): void {}

  /**
   * The product of `addDForce` run in place in a WebAssembly memory (a kernel's), for a force field
   * on one state, or undefined (the default). Asked by matrix-free solvers at each solve (the
   * force field brings its kernel up to date then); see InPlaceDForce.
   */
  inPlaceDForce(): InPlaceDForce | undefined {
    return undefined;
  }

  /**
   * Emits kFactor·K + bFactor·(B + rayleighStiffness·K), as the assembly engine asks for it: K
   * with SOFA's factor including Rayleigh damping, then B. The sequence of entries is the same at
   * every call, whatever the factors.
   */
  addKBToMatrix(acc: MatrixAccumulator, kFactor: number, bFactor: number): void {
    this.addKToMatrix(acc, this.kFactorWithRayleigh(kFactor, bFactor));
    this.addBToMatrix(acc, bFactor);
  }

  /** The potential energy at positions x (reported by the CLI and energy checks; 0 when not defined). */
  getPotentialEnergy(_x: readonly Float64Array[]): number {
    return 0;
  }
}

export function isForceField(o: unknown): o is BaseForceField {
  return typeof o === 'object' && o !== null && (o as { isForceField?: unknown }).isForceField === true;
}
