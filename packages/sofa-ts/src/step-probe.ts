import {
  isForceField,
  isMass,
  isOdeSolver,
  type BaseForceField,
  type BaseMass,
  type BaseOdeSolver,
  type Data,
  type Node,
  resolvePath,
} from '@sofa-ts/core';

/** What one step did, for plots and the viewer's live charts. */
export interface StepSample {
  step: number;
  /** Simulated time after the step (s). */
  time: number;
  /** Wall-clock time of the step (ms). */
  ms: number;
  /** ½·Σ vᵀ·M·v over every mass (J). */
  kinetic: number;
  /** Gravity (masses) plus elastic energy (force fields that report it) (J). */
  potential: number;
  /** Linear or Newton iterations, summed over the ODE solvers. */
  iterations: number;
  /** Largest last residual of the ODE solvers. */
  residual: number;
  /** Iterations of the constraint solvers (0 without one). */
  constraintIterations: number;
  /** Number of constraint rows solved, and max |λ_i| over them (SOFA's multipliers: impulses). */
  constraintRows: number;
  constraintLambdaMax: number;
  /** Chosen Data (`/node/object.field`), each reduced to a number: its value, or its norm for vectors. */
  data: Record<string, number>;
}

interface ConstraintSolverLike {
  isConstraintSolver: true;
  lastStats?: { iterations: number; residual: number };
  problem?: { n: number; force: Float64Array };
}
const isConstraintSolver = (o: unknown): o is ConstraintSolverLike =>
  typeof o === 'object' && o !== null && (o as { isConstraintSolver?: unknown }).isConstraintSolver === true;

/**
 * Reads energies, solver statistics and chosen Data after each step. Built once per scene: the
 * components are collected at construction (after init); a sample allocates only its record.
 */
export class StepProbe {
  private readonly masses: BaseMass[] = [];
  private readonly forceFields: BaseForceField[] = [];
  private readonly solvers: BaseOdeSolver[] = [];
  private readonly constraintSolvers: ConstraintSolverLike[] = [];
  private readonly data: [string, Data<unknown>][] = [];

  /** `dataPaths`: `/node/object.field` or `object.field`, as scene links name them (without '@'). */
  constructor(
    readonly root: Node,
    dataPaths: readonly string[] = [],
  ) {
    root.visit((n) => {
      for (const o of n.objects) {
        if (isMass(o)) this.masses.push(o);
        else if (isForceField(o)) this.forceFields.push(o);
        if (isOdeSolver(o)) this.solvers.push(o);
        if (isConstraintSolver(o)) this.constraintSolvers.push(o);
      }
    });
    for (const p of dataPaths) {
      const dot = p.lastIndexOf('.');
      const target = dot > 0 ? resolvePath(root, p.slice(0, dot)) : undefined;
      const owner = target?.kind === 'object' ? target.object : target?.kind === 'node' ? target.node : undefined;
      const d = owner?.findData(p.slice(dot + 1));
      if (!d) throw new Error(`no Data '${p}' in the scene (expected /node/object.field)`);
      this.data.push([p, d]);
    }
  }

  sample(step: number, ms: number): StepSample {
    let kinetic = 0;
    let potential = 0;
    for (const m of this.masses) {
      const s = m.getMechanicalState();
      kinetic += m.getKineticEnergy(s.v);
      potential += m.getPotentialEnergy(s.x);
    }
    for (const ff of this.forceFields) {
      const states = ff.getMechanicalStates();
      potential += ff.getPotentialEnergy(states.map((s) => s.x));
    }
    let iterations = 0;
    let residual = 0;
    for (const s of this.solvers) {
      iterations += s.lastStats?.iterations ?? 0;
      residual = Math.max(residual, s.lastStats?.residual ?? 0);
    }
    let constraintIterations = 0;
    let constraintRows = 0;
    let constraintLambdaMax = 0;
    for (const c of this.constraintSolvers) {
      constraintIterations += c.lastStats?.iterations ?? 0;
      const n = c.problem?.n ?? 0;
      constraintRows += n;
      for (let i = 0; i < n; i++) constraintLambdaMax = Math.max(constraintLambdaMax, Math.abs(c.problem!.force[i]));
    }
    const data: Record<string, number> = {};
    for (const [p, d] of this.data) data[p] = scalarOf(d.value);
    return {
      step,
      time: this.root.getTime(),
      ms,
      kinetic,
      potential,
      iterations,
      residual,
      constraintIterations,
      constraintRows,
      constraintLambdaMax,
      data,
    };
  }
}

/** A number for a Data value: itself, a boolean as 0/1, the Euclidean norm of an array. */
export function scalarOf(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
    let s = 0;
    const a = v as unknown as ArrayLike<number>;
    for (let i = 0; i < a.length; i++) s += a[i] * a[i];
    return Math.sqrt(s);
  }
  return Number.NaN;
}
