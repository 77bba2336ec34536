import { expect } from 'chai';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { constraint, loadSceneFromString, type BaseMechanicalState, type SofaScene } from 'sofa-ts';
import { repoRoot } from './corpus-test-support.js';

/**
 * The HapCo benchmarks (scenes/contact/hapco-1.scn, hapco-2.scn) load and run their first steps
 * (the pusher pressed down by P = 0.1 cm per step) with each friction solver, and the results are
 * those of the geometry, not of our own earlier output:
 *   - the pusher follows its prescribed motion exactly: after step n its points are at
 *     x0 − (n − 1)·P along y (LinearMovementProjectiveConstraint reads the time of the start of the step);
 *   - Signorini at the contact points: under each point of the pusher's lower face (at the position
 *     the contacts were solved with), the block's upper surface (its triangles, interpolated) ends
 *     the step at least the contact distance 0.15 cm below it (gap ≥ −tol), and the closest one
 *     touches (gap ≤ tol): the block is pushed down, never through.
 */
const dir = path.join(repoRoot, 'scenes/contact');
const P = 0.1;
const contactDistance = 0.15;
const solvers: Record<string, string> = {
  'Gauss-Seidel': '<BlockGaussSeidelConstraintSolver name="constraintSolver" maxIterations="1000" tolerance="1e-6"/>',
  'local Uzawa': '<BipotentialUzawaConstraintSolver name="constraintSolver" method="local" maxIterations="1000" tolerance="1e-6"/>',
  'global Uzawa': '<BipotentialUzawaConstraintSolver name="constraintSolver" method="global" maxIterations="1000" tolerance="1e-6"/>',
  // ρ per contact, stopping on the common friction residual (friction-residual.ts) instead of ε1/ε3
  'local Uzawa, ρ per contact, residual stop':
    '<BipotentialUzawaConstraintSolver name="constraintSolver" method="local" maxIterations="1000" rhoPerContact="true" residualTolerance="1e-6"/>',
  'global Uzawa, ρ per contact, residual stop':
    '<BipotentialUzawaConstraintSolver name="constraintSolver" method="global" maxIterations="3000" rhoPerContact="true" residualTolerance="1e-6"/>',
};

async function load(file: string, solver: string, mu: number): Promise<SofaScene> {
  const xml = fs.readFileSync(path.join(dir, file), 'utf8');
  const text = xml
    .replace(/<BlockGaussSeidelConstraintSolver name="constraintSolver"[^>]*\/>/, solver)
    .replace(/(<CollisionResponse [^>]*responseParams=")mu=[^"]*"/, `$1mu=${mu}"`);
  expect(text).to.include(solver).and.to.include(`responseParams="mu=${mu}"`);
  return loadSceneFromString(text, { fileName: path.join(dir, file) });
}

function st(s: SofaScene, p: string): BaseMechanicalState {
  const o = s.get<BaseMechanicalState>(p);
  if (!o) throw new Error(`no state ${p}`);
  return o;
}

describe('HapCo contact benchmark scenes (scenes/contact)', () => {
  for (const file of ['hapco-1.scn', 'hapco-2.scn']) {
    for (const [name, solver] of Object.entries(solvers)) {
      it(`${file} with ${name} (μ = 0.3): prescribed pusher motion, block pushed without penetration`, async () => {
        const s = await load(file, solver, 0.3);
        const pusher = st(s, 'pusher/dofs');
        const lower = st(s, 'pusher/lowerFace/points');
        const block = st(s, 'block/dofs');
        const y0 = Float64Array.from({ length: pusher.size }, (_, i) => pusher.x[3 * i + 1]);
        const steps = 5;
        let solvedAt = new Float64Array(lower.x); // pusher lower face at the start of the last step
        for (let n = 1; n <= steps; n++) {
          solvedAt = new Float64Array(lower.x);
          s.step();
          for (let i = 0; i < pusher.size; i++) expect(pusher.x[3 * i + 1]).to.be.closeTo(y0[i] - (n - 1) * P, 1e-12);
        }
        for (const v of block.x) expect(Number.isFinite(v)).to.equal(true);
        // height of the block's upper face (21×5 grid of triangles (a, b, c), (a, c, d) per quad) under each pusher point
        const face = st(s, 'block/upperFace/points');
        const surfaceY = (px: number, pz: number): number => {
          for (let k = 0; k < 4; k++) {
            for (let i = 0; i < 20; i++) {
              const a = i + 21 * k,
                b = a + 1,
                c = a + 22,
                d = a + 21;
              for (const [p0, p1, p2] of [
                [a, b, c],
                [a, c, d],
              ] as const) {
                const x0 = face.x[3 * p0],
                  z0 = face.x[3 * p0 + 2];
                const e1x = face.x[3 * p1] - x0,
                  e1z = face.x[3 * p1 + 2] - z0,
                  e2x = face.x[3 * p2] - x0,
                  e2z = face.x[3 * p2 + 2] - z0;
                const det = e1x * e2z - e2x * e1z;
                const u = ((px - x0) * e2z - e2x * (pz - z0)) / det,
                  v = (e1x * (pz - z0) - (px - x0) * e1z) / det;
                if (u >= -1e-9 && v >= -1e-9 && u + v <= 1 + 1e-9)
                  return face.x[3 * p0 + 1] + u * (face.x[3 * p1 + 1] - face.x[3 * p0 + 1]) + v * (face.x[3 * p2 + 1] - face.x[3 * p0 + 1]);
              }
            }
          }
          throw new Error(`no triangle under (${px}, ${pz})`);
        };
        const gaps: number[] = [];
        for (let q = 0; q < lower.size; q++)
          gaps.push(solvedAt[3 * q + 1] - contactDistance - surfaceY(solvedAt[3 * q], solvedAt[3 * q + 2]));
        const tol = 1e-3; // the contacts are linearised over a step of 0.1 cm (corotational FEM), and solved to 1e-6
        expect(Math.min(...gaps), 'no penetration').to.be.greaterThan(-tol);
        expect(Math.min(...gaps), 'contact closed').to.be.lessThan(tol);
        // the block really moved: pressed by (steps − 2)·P beyond the first touch
        expect(
          2 - Math.min(...Array.from({ length: block.size }, (_, i) => block.x[3 * i + 1] + (block.x[3 * i + 1] < 1 ? 10 : 0))),
        ).to.be.greaterThan(0.25);
      });
    }
  }

  it("a constraint solver's frictionResidual Data is the common residual e_rel of its last step, read on demand (sweeps record it)", async () => {
    for (const [solver, tolerance] of [
      [solvers['Gauss-Seidel'], undefined],
      [solvers['local Uzawa, ρ per contact, residual stop'], 1e-6],
    ] as const) {
      const s = await load('hapco-2.scn', solver, 0.3);
      const cs = s.get<constraint.BaseConstraintSolver>('constraintSolver')!;
      expect(cs.frictionResidual.value, 'no step yet').to.equal(0);
      s.step(3);
      expect(cs.problem.n).to.be.greaterThan(0);
      const e = cs.frictionResidual.value;
      expect(e).to.equal(constraint.frictionResidual(cs.problem));
      expect(e).to.be.greaterThan(0);
      // the solver that stops on this very measure leaves it below its tolerance
      if (tolerance) expect(e).to.be.below(tolerance);
    }
  });
});
