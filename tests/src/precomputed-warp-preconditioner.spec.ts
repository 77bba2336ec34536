import { expect } from 'chai';
import { loadSceneFromString, solvers, type SofaScene } from 'sofa-ts';
import { denseSolve, rotation, turn } from './warp-test-support.js';

/**
 * PrecomputedWarpPreconditioner (and SofaCUDA's CudaPrecomputedWarpPreconditioner, its CPU twin):
 * A₀⁻¹ of the first system matrix, applied as R·A₀⁻¹·Rᵀ with the node rotations R of the
 * corotational force field, as the preconditioner of a PCG. Checked against a dense mathjs solve
 * of the matrix assembled at the configuration of the solve:
 * - at the first step (no rotation, R = I) it is the exact inverse: the PCG converges in one
 *   update, and a preconditioner solve is the dense solve of A₀;
 * - with the whole body turned rigidly by Q, the corotational matrix is A = Q·A₀·Qᵀ (the uniform
 *   mass and the projection of fixed nodes commute with the block rotation): R = Q and R·A₀⁻¹·Rᵀ is
 *   the exact inverse of the turned system, the PCG again converging in one update.
 */

function beamScene(precond: string): string {
  return `<Node name="root" dt="0.05" gravity="0 -9.81 0">
    <RequiredPlugin name="SofaCUDA"/>
    <DefaultAnimationLoop/>
    <Node name="beam">
      <EulerImplicitSolver name="ode" rayleighStiffness="0" rayleighMass="0"/>
      <PCGLinearSolver name="pcg" iterations="200" tolerance="1e-24" threshold="1e-30" preconditioner="@precond"/>
      <${precond} name="precond"/>
      <RegularGridTopology name="grid" nx="6" ny="3" nz="3" min="0 0 0" max="5 1 1"/>
      <MechanicalObject name="dofs" template="CudaVec3f"/>
      <UniformMass totalMass="2"/>
      <BoxROI name="clamp" box="-0.1 -0.1 -0.1 0.1 1.1 1.1"/>
      <FixedProjectiveConstraint indices="@clamp.indices"/>
      <TetrahedronFEMForceField name="FEM" youngModulus="3000" poissonRatio="0.3" method="large"/>
    </Node>
  </Node>`;
}

function maxRelDiff(a: Float64Array, b: Float64Array): number {
  let d = 0,
    s = 0;
  for (let i = 0; i < a.length; i++) {
    d = Math.max(d, Math.abs(a[i] - b[i]));
    s = Math.max(s, Math.abs(b[i]));
  }
  return d / s;
}

/** The beam's system, its factors and a projected right-hand side. */
function systemOf(s: SofaScene) {
  const ode = s.get<solvers.EulerImplicitSolver>('beam/ode')!;
  const sys = ode.getSystem();
  const factors = ode.systemMatrixFactors(0.05);
  const b = new Float64Array(sys.size);
  for (let i = 0; i < b.length; i++) b[i] = Math.sin(1.3 * i + 0.2);
  sys.projectResponse(b);
  return { sys, factors, b };
}

/** The beam at rest (turned by Q when given), at zero velocity, its forces (and so its rotations) computed there. */
function restore(s: SofaScene, Q?: number[]): void {
  const sys = s.get<solvers.EulerImplicitSolver>('beam/ode')!.getSystem();
  sys.x.set((s.get('beam/dofs') as unknown as { x0: Float64Array }).x0);
  if (Q) turn(sys.x, Q);
  sys.v.fill(0);
  sys.propagatePositionsAndVelocities();
  sys.computeForce(sys.f);
}

describe('PrecomputedWarpPreconditioner: R·A₀⁻¹·Rᵀ as the preconditioner of a PCG (dense mathjs solves)', function () {
  this.timeout(60000);
  for (const cls of ['PrecomputedWarpPreconditioner', 'CudaPrecomputedWarpPreconditioner']) {
    it(`${cls}: no rotation at the first step, the exact inverse (the PCG converges in one update, the solve is A₀'s dense solve)`, async () => {
      const s = await loadSceneFromString(beamScene(cls));
      const plain = await loadSceneFromString(beamScene(cls).replace(' preconditioner="@precond"', ''));
      s.step();
      plain.step();
      const ode = s.get<solvers.EulerImplicitSolver>('beam/ode')!;
      const cg = plain.get<solvers.EulerImplicitSolver>('beam/ode')!;
      expect(cg.lastStats!.iterations, 'the plain CG needs many updates').to.be.greaterThan(10);
      expect(ode.lastStats!.iterations).to.be.at.most(1);
      // the preconditioner solve back at the rest configuration (node rotations I) is A₀⁻¹·b
      const { sys, factors, b } = systemOf(s);
      const p = s.get<solvers.PrecomputedWarpPreconditioner>('beam/precond')!;
      restore(s);
      const out = new Float64Array(b.length);
      p.solveSystem(sys, factors, b, out);
      expect(maxRelDiff(out, denseSolve(sys.assembleMBK(factors), b))).to.be.lessThan(1e-11);
      if (cls.startsWith('Cuda')) {
        const notes = s.warnings.filter((w) => /SofaCUDA's GPU kernels are not used/.test(w.message));
        expect(notes.map((w) => w.message)).to.have.length(1);
        expect(notes[0].message).to.contain("sofa-ts's PrecomputedWarpPreconditioner on the CPU");
      }
    });

    it(`${cls}: the body turned rigidly by Q, R·A₀⁻¹·Rᵀ is the exact inverse of the turned system`, async () => {
      const s = await loadSceneFromString(beamScene(cls));
      s.step(); // A₀ factorised at the rest configuration
      const { sys, factors, b } = systemOf(s);
      const p = s.get<solvers.PrecomputedWarpPreconditioner>('beam/precond')!;
      const A0b = (restore(s), denseSolve(sys.assembleMBK(factors), b));
      restore(s, rotation([0.48, 0.6, 0.64], 0.9)); // R = Q: the element and node rotations of the turned body
      const A = sys.assembleMBK(factors);
      const exact = denseSolve(A, b);
      const out = new Float64Array(b.length);
      p.solveSystem(sys, factors, b, out);
      expect(maxRelDiff(out, exact)).to.be.lessThan(1e-10);
      expect(maxRelDiff(A0b, exact), 'A₀⁻¹ unturned is not the inverse: the rotation matters').to.be.greaterThan(0.1);
      // and the PCG preconditioned by it converges in one update
      const pcg = s.get<solvers.PCGLinearSolver>('beam/pcg')!;
      const x = new Float64Array(b.length);
      const st = pcg.solveSystem(sys, factors, b, x);
      expect(st.iterations).to.be.at.most(1);
      expect(maxRelDiff(x, denseSolve(A, b))).to.be.lessThan(1e-10);
    });
  }
});
