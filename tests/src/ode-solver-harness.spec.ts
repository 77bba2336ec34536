import { expect } from 'chai';
import { type BaseMechanicalState, type BaseObject } from 'sofa-ts';
import { findNamed, registeredOfKind, sceneOf } from './harness-support-test-support.js';

/**
 * The ODE solver harness (SOFA's *SolverDynamic tests): one particle of mass m on a linear spring
 * of stiffness k to its initial position x⁰, under gravity g, so that
 *   f(x) = −k·(x − x⁰) + m·g,   a(x) = f(x)/m   (K = −k·I, no damping)
 * is stepped by each registered ODE solver through the XML path and compared, step by step to
 * 1e-12, with that solver's own discrete recurrence written here from its scheme (for this
 * linear f one Newton iteration is exact, so the implicit recurrences are solved in closed form).
 */

const m = 2,
  k = 50,
  h = 0.01,
  steps = 40;
const g = [0, -9.81, 0.5];
const x0 = [0.3, -0.1, 0.2],
  v0 = [1, 0.5, -2];

type Vec = number[];
const force = (x: Vec): Vec => x.map((xi, i) => -k * (xi - x0[i]) + m * g[i]);
const acc = (x: Vec): Vec => force(x).map((f) => f / m);
const add = (a: Vec, b: Vec, s = 1): Vec => a.map((ai, i) => ai + s * b[i]);

/** A recurrence: the state after one step, from the state (and the solver's memory). */
interface Recurrence {
  step(x: Vec, v: Vec): [Vec, Vec];
}

const eulerSymplectic: Recurrence = {
  step: (x, v) => {
    const v1 = add(v, acc(x), h);
    return [add(x, v1, h), v1];
  },
};
// central difference with Rayleigh mass damping r: v_{n+½} = c·v_{n−½} + d·a(x_n), x_{n+1} = x_n + h·v_{n+½}
const centralDifference = (r: number): Recurrence => {
  const c = (1 / h - r / 2) / (1 / h + r / 2),
    d = 1 / (1 / h + r / 2);
  return {
    step: (x, v) => {
      const a = acc(x);
      const v1 = v.map((vi, i) => c * vi + d * a[i]);
      return [add(x, v1, h), v1];
    },
  };
};
const eulerForward: Recurrence = { step: (x, v) => [add(x, v, h), add(v, acc(x), h)] };
// backward Euler, one linear solve: (m + h²k)·Δv = h·(f(x) − h·k·v);  v₁ = v + Δv, x₁ = x + h·v₁
const eulerImplicit: Recurrence = {
  step: (x, v) => {
    const f = force(x);
    const v1 = v.map((vi, i) => vi + (h * (f[i] - h * k * vi)) / (m + h * h * k));
    return [add(x, v1, h), v1];
  },
};
/** Newmark(β, γ): m·a₁ = f(x + h·v + h²((½ − β)·a + β·a₁)), x₁ and v₁ from a and a₁; a⁰ = a(x⁰). */
function newmark(beta: number, gamma: number): Recurrence {
  let a: Vec | undefined;
  return {
    step: (x, v) => {
      a ??= acc(x);
      const pred = x.map((xi, i) => xi + h * v[i] + h * h * (0.5 - beta) * a![i]);
      const a1 = pred.map((p, i) => (-k * (p - x0[i]) + m * g[i]) / (m + k * h * h * beta));
      const x1 = pred.map((p, i) => p + h * h * beta * a1[i]);
      const v1 = v.map((vi, i) => vi + h * ((1 - gamma) * a![i] + gamma * a1[i]));
      a = a1;
      return [x1, v1];
    },
  };
}
const rk2: Recurrence = {
  step: (x, v) => {
    const a = acc(x);
    const xm = add(x, v, h / 2),
      vm = add(v, a, h / 2);
    return [add(x, vm, h), add(v, acc(xm), h)];
  },
};
const rk4: Recurrence = {
  step: (x, v) => {
    const k1v = v,
      k1a = acc(x);
    const k2v = add(v, k1a, h / 2),
      k2a = acc(add(x, k1v, h / 2));
    const k3v = add(v, k2a, h / 2),
      k3a = acc(add(x, k2v, h / 2));
    const k4v = add(v, k3a, h),
      k4a = acc(add(x, k3v, h));
    const comb = (a: Vec, b1: Vec, b2: Vec, b3: Vec, b4: Vec) =>
      a.map((ai, i) => ai + (h / 6) * b1[i] + (h / 3) * b2[i] + (h / 3) * b3[i] + (h / 6) * b4[i]);
    return [comb(x, k1v, k2v, k3v, k4v), comb(v, k1a, k2a, k3a, k4a)];
  },
};
/**
 * Variational midpoint (Kharevych et al.) on q and p = M·v: the midpoint displacement r solves
 * (4m/h² + k)·r = f(q) + (2/h)·p; v₁ = 2r/h, q₁ = q + h·v₁, p₁ = (h/2)·f(q + r) + m·v₁.
 */
function variationalImplicit(): Recurrence {
  let p: Vec | undefined;
  return {
    step: (x, v) => {
      p ??= v.map((vi) => m * vi);
      const f = force(x);
      const r = f.map((fi, i) => (fi + (2 / h) * p![i]) / ((4 * m) / (h * h) + k));
      const v1 = r.map((ri) => (2 / h) * ri);
      const fm = force(add(x, r));
      p = v1.map((vi, i) => (h / 2) * fm[i] + m * vi);
      return [add(x, v1, h), v1];
    },
  };
}
/** Explicit variational: v₁ = (h/m)·(f(q) + p/h), q₁ = q + h·v₁, p₁ = m·v₁ (symplectic Euler). */
function variationalExplicit(): Recurrence {
  let p: Vec | undefined;
  return {
    step: (x, v) => {
      p ??= v.map((vi) => m * vi);
      const f = force(x);
      const v1 = f.map((fi, i) => (h / m) * (fi + p![i] / h));
      p = v1.map((vi) => m * vi);
      return [add(x, v1, h), v1];
    },
  };
}
/**
 * BDF of order p at a constant step, its order growing 1, 2, … at the start: with the
 * coefficients (α_0..α_q = 1, β) of order q, Σ α_j·x_j = h·β·v₁ and m·Σ α_j·v_j = h·β·f(x₁):
 *   v₁ = (h·β·(k·(S_x + x⁰) + m·g) − m·S_v)/(m + k·h²·β²),  x₁ = h·β·v₁ − S_x,
 * S the sums over the previous states.
 */
function bdf(order: number): Recurrence {
  const coefs: Record<number, { a: number[]; b: number }> = {
    1: { a: [-1, 1], b: 1 },
    2: { a: [1 / 3, -4 / 3, 1], b: 2 / 3 },
    3: { a: [-2 / 11, 9 / 11, -18 / 11, 1], b: 6 / 11 },
  };
  const xs: Vec[] = [],
    vs: Vec[] = [];
  return {
    step: (x, v) => {
      xs.push(x);
      vs.push(v);
      const q = Math.min(order, xs.length);
      const { a, b } = coefs[q];
      const Sx = [0, 0, 0],
        Sv = [0, 0, 0];
      for (let j = 0; j < q; j++) {
        const xj = xs[xs.length - q + j],
          vj = vs[vs.length - q + j];
        for (let i = 0; i < 3; i++) ((Sx[i] += a[j] * xj[i]), (Sv[i] += a[j] * vj[i]));
      }
      const v1 = [0, 1, 2].map((i) => (h * b * (k * (Sx[i] + x0[i]) + m * g[i]) - m * Sv[i]) / (m + k * h * h * b * b));
      const x1 = v1.map((vi, i) => h * b * vi - Sx[i]);
      return [x1, v1];
    },
  };
}
/** Static equilibrium f(x) = 0 in one Newton step: x = x⁰ + m·g/k. */
const staticEquilibrium: Recurrence = { step: (_x, v) => [x0.map((xi, i) => xi + (m * g[i]) / k), v] };
const dampVelocity = (rate: number): Recurrence => ({ step: (x, v) => [x, v.map((vi) => vi * Math.exp(-rate * h))] });

const direct = '<SparseLDLSolver template="CompressedRowSparseMatrixMat3x3d"/>';
interface Case {
  solver: string;
  recurrence: () => Recurrence;
}
const cases: Record<string, Case[]> = {
  EulerExplicitSolver: [
    { solver: '<EulerExplicitSolver name="ode"/>', recurrence: () => eulerSymplectic },
    { solver: '<EulerExplicitSolver name="ode" symplectic="false"/>', recurrence: () => eulerForward },
  ],
  CentralDifferenceSolver: [
    { solver: '<CentralDifferenceSolver name="ode"/>', recurrence: () => centralDifference(0) },
    { solver: '<CentralDifferenceSolver name="ode" rayleighMass="0.4"/>', recurrence: () => centralDifference(0.4) },
  ],
  EulerImplicitSolver: [
    { solver: `<EulerImplicitSolver name="ode" rayleighStiffness="0" rayleighMass="0"/>${direct}`, recurrence: () => eulerImplicit },
  ],
  NewmarkImplicitSolver: [
    { solver: `<NewmarkImplicitSolver name="ode"/>${direct}`, recurrence: () => newmark(0.25, 0.5) },
    { solver: `<NewmarkImplicitSolver name="ode" beta="0.3" gamma="0.6"/>${direct}`, recurrence: () => newmark(0.3, 0.6) },
  ],
  VariationalSymplecticSolver: [
    { solver: `<VariationalSymplecticSolver name="ode" newtonError="1e-14" steps="3"/>${direct}`, recurrence: variationalImplicit },
    { solver: `<VariationalSymplecticSolver name="ode" explicitIntegration="true"/>${direct}`, recurrence: variationalExplicit },
  ],
  RungeKutta2Solver: [{ solver: '<RungeKutta2Solver name="ode"/>', recurrence: () => rk2 }],
  RungeKutta4Solver: [{ solver: '<RungeKutta4Solver name="ode"/>', recurrence: () => rk4 }],
  BDFOdeSolver: [1, 2, 3].map((order) => ({
    solver: `<BDFOdeSolver name="ode" order="${order}" rayleighStiffness="0" rayleighMass="0"/><NewtonRaphsonSolver maxNbIterationsNewton="3" absoluteResidualStoppingThreshold="1e-13" warnWhenDiverge="false"/>${direct}`,
    recurrence: () => bdf(order),
  })),
  StaticSolver: [
    {
      solver: `<StaticSolver name="ode"/><NewtonRaphsonSolver maxNbIterationsNewton="2" absoluteResidualStoppingThreshold="1e-13" warnWhenDiverge="false"/>${direct}`,
      recurrence: () => staticEquilibrium,
    },
  ],
  DampVelocitySolver: [{ solver: '<DampVelocitySolver name="ode" rate="3"/>', recurrence: () => dampVelocity(3) }],
  CompliantImplicitSolver: [{ solver: '<CompliantImplicitSolver name="ode"/><LDLTSolver/>', recurrence: () => eulerImplicit }],
};

const untestable: Record<string, string> = {};

const isOde = (o: BaseObject) => (o as { isOdeSolver?: boolean }).isOdeSolver === true;

describe("ODE solver harness (a mass-spring under gravity against each solver's discrete recurrence)", () => {
  const registered = registeredOfKind(isOde);

  it('covers every registered ODE solver, or lists it with the reason', () => {
    expect(registered.filter((n) => !(n in cases) && !(n in untestable))).to.deep.equal([]);
    expect([...Object.keys(cases), ...Object.keys(untestable)].filter((n) => !registered.includes(n))).to.deep.equal([]);
  });

  for (const [name, variants] of Object.entries(cases)) {
    for (const c of variants) {
      it(`${name}: ${c.solver.match(/<\w+ name="ode"([^/]*)\/>/)![1].trim() || 'defaults'}`, async () => {
        const scene = await sceneOf(
          `<Node name="body">${c.solver}
             <MechanicalObject name="dofs" position="${x0.join(' ')}" velocity="${v0.join(' ')}"/>
             <UniformMass totalMass="${m}"/><RestShapeSpringsForceField stiffness="${k}"/></Node>`,
          `gravity="${g.join(' ')}" dt="${h}"`,
        );
        expect(findNamed<BaseObject>(scene.root, 'ode').className).to.equal(name);
        const dofs = findNamed<BaseMechanicalState>(scene.root, 'dofs');
        const rec = c.recurrence();
        let x = [...x0],
          v = [...v0];
        for (let n = 0; n < steps; n++) {
          [x, v] = rec.step(x, v);
          scene.step();
          for (let i = 0; i < 3; i++) {
            expect(dofs.x[i], `x after step ${n + 1}`).to.be.closeTo(x[i], 1e-12 * Math.max(1, Math.abs(x[i])));
            expect(dofs.v[i], `v after step ${n + 1}`).to.be.closeTo(v[i], 1e-12 * Math.max(1, Math.abs(v[i])));
          }
        }
      });
    }
  }

  it("NewmarkImplicitSolver builds x and v in SOFA's order, bit for bit: x + h·v + h²(½−β)·a + h²β·a₁, v + h(1−γ)·a + hγ·a₁", async () => {
    // a falling particle of mass 2: a = a₁ = g exactly, so only the order of the operations matters
    const beta = 0.3,
      gamma = 0.6,
      hh = 0.013;
    const scene = await sceneOf(
      `<Node name="body"><NewmarkImplicitSolver name="ode" beta="${beta}" gamma="${gamma}"/>${direct}
         <MechanicalObject name="dofs" position="${x0.join(' ')}" velocity="${v0.join(' ')}"/><UniformMass totalMass="2"/></Node>`,
      `gravity="${g.join(' ')}" dt="${hh}"`,
    );
    const dofs = findNamed<BaseMechanicalState>(scene.root, 'dofs');
    const x = [...x0],
      v = [...v0];
    for (let n = 0; n < 20; n++) {
      scene.step();
      for (let i = 0; i < 3; i++) {
        x[i] = x[i] + v[i] * hh;
        x[i] = x[i] + g[i] * (hh * hh * (0.5 - beta));
        x[i] = x[i] + g[i] * (hh * hh * beta);
        v[i] = v[i] + g[i] * (hh * (1 - gamma));
        v[i] = v[i] + g[i] * (hh * gamma);
      }
      expect(Array.from(dofs.x), `x after step ${n + 1}`).to.deep.equal(x);
      expect(Array.from(dofs.v), `v after step ${n + 1}`).to.deep.equal(v);
    }
  });
});
