import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { loadScene, type BaseMechanicalState, type SofaScene, type compliant } from 'sofa-ts';
import { repoRoot } from './corpus-test-support.js';

/** The example scenes of scenes/compliant/: each one loads, runs, and does what its comment says. */
const dir = path.join(repoRoot, 'scenes/compliant');
const bin = path.join(repoRoot, 'packages/cli/bin/sofa-ts.js');

function st(scene: SofaScene, p: string): BaseMechanicalState {
  const s = scene.get<BaseMechanicalState>(p);
  if (!s) throw new Error(`no state at ${p}`);
  return s;
}

function point(x: Float64Array, i: number): [number, number, number] {
  return [x[3 * i], x[3 * i + 1], x[3 * i + 2]];
}

function dist(a: readonly number[], b: readonly number[]): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

function finite(a: Float64Array): boolean {
  return a.every(Number.isFinite);
}

describe('Compliant scenes (scenes/compliant)', () => {
  for (const name of ['pendulum', 'particle-string', 'compliant-cloth', 'rigid-chain', 'unilateral-contact']) {
    it(`sofa-ts run ${name}.scn runs and prints its summary`, () => {
      const r = spawnSync(process.execPath, [bin, 'run', path.join(dir, `${name}.scn`), '-n', '20'], {
        cwd: repoRoot,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      });
      expect(r.status, r.stderr).to.equal(0);
      expect(r.stdout).to.match(/solvers\s+CompliantImplicitSolver 'odesolver'/);
    });
  }

  it('pendulum: the hard rod keeps its length while the bob swings down', async () => {
    const scene = await loadScene(path.join(dir, 'pendulum.scn'));
    const dofs = st(scene, '/pendulum/dofs');
    let worst = 0;
    for (let i = 0; i < 200; i++) {
      scene.step(1);
      worst = Math.max(worst, Math.abs(dist(point(dofs.x, 0), point(dofs.x, 1)) - 1));
    }
    // one step's drift of a pre-stabilized hard constraint: ≈ (h·v)²/(2L), v ≤ √(2gL)
    expect(worst).to.be.below(((0.01 * Math.sqrt(2 * 9.81)) ** 2 / 2) * 1.05);
    expect(dofs.x[4]).to.be.below(-0.3);
  });

  it('particle-string: 19 nearly inextensible edges, the free end falls and whips; edges back within 1e-3 of their rest length', async () => {
    const scene = await loadScene(path.join(dir, 'particle-string.scn'));
    const dofs = st(scene, '/string/dofs');
    const rest = 2 / 19;
    let lowest = 0,
      worst = 0;
    for (let i = 0; i < 150; i++) {
      scene.step(1);
      const x = dofs.x;
      lowest = Math.min(lowest, point(x, 19)[1]);
      for (let e = 0; e < 19; e++) worst = Math.max(worst, Math.abs(dist(point(x, e), point(x, e + 1)) - rest));
    }
    expect(finite(dofs.x)).to.equal(true);
    // the linearized constraints drift by ≈ (h·v)²/(2·l) per step, most at the whip of the free end
    expect(worst).to.be.below(0.25 * rest);
    for (let e = 0; e < 19; e++) expect(Math.abs(dist(point(dofs.x, e), point(dofs.x, e + 1)) - rest)).to.be.below(1e-3);
    expect(lowest).to.be.below(-1.5); // swings down to nearly hanging (then whips back)
  });

  it('compliant-cloth: hangs from its two corners with small stretch', async () => {
    const scene = await loadScene(path.join(dir, 'compliant-cloth.scn'));
    const dofs = st(scene, '/cloth/dofs');
    const x0 = Float64Array.from(dofs.x);
    let lowest = 0,
      stretch = 0;
    for (let i = 0; i < 100; i++) {
      scene.step(1);
      lowest = Math.min(lowest, ...Array.from({ length: 144 }, (_, k) => dofs.x[3 * k + 1]));
      stretch = Math.max(stretch, ...Array.from(st(scene, '/cloth/edges/lengths').x, Math.abs)); // edge length − rest length
    }
    const x = dofs.x;
    expect(finite(x)).to.equal(true);
    expect(point(x, 0)).to.deep.equal(point(x0, 0));
    expect(point(x, 11)).to.deep.equal(point(x0, 11));
    expect(stretch).to.be.below(0.2 / 11); // edges of 1/11, most stretched at the bottom of the swing
    expect(Math.max(...Array.from(st(scene, '/cloth/edges/lengths').x, Math.abs))).to.be.below(0.05 / 11);
    expect(lowest).to.be.below(-0.8); // the free edge swings down
  });

  it('rigid-chain: the ball joints stay closed (gaps < 5e-3) while the free links fall', async () => {
    const scene = await loadScene(path.join(dir, 'rigid-chain.scn'));
    const frames = st(scene, '/chain/frames');
    let worst = 0;
    for (let i = 0; i < 150; i++) {
      scene.step(1);
      worst = Math.max(worst, ...Array.from(st(scene, '/chain/ends/joints/gaps').x, Math.abs));
    }
    expect(finite(frames.x)).to.equal(true);
    expect(worst).to.be.below(5e-3); // one step's drift at the tip's speed, never accumulated
    expect(Math.max(...Array.from(st(scene, '/chain/ends/joints/gaps').x, Math.abs))).to.be.below(5e-3);
    expect(frames.x.slice(0, 7)).to.deep.equal(Float64Array.of(0.5, 0, 0, 0, 0, 0, 1));
    expect(frames.x[7 * 5 + 1]).to.be.below(-1); // the last link fell
  });

  it('unilateral-contact: particles land on the ground and rest there (no penetration, no sticking)', async () => {
    const scene = await loadScene(path.join(dir, 'unilateral-contact.scn'));
    const dofs = st(scene, '/particles/dofs');
    let deepest = 0;
    for (let i = 0; i < 200; i++) {
      scene.step(1);
      deepest = Math.min(deepest, ...Array.from(st(scene, '/particles/contacts/heights').x));
    }
    const heights = st(scene, '/particles/contacts/heights').x;
    expect(deepest).to.be.above(-0.03); // at most one step of the impact speed
    for (let i = 0; i < 3; i++) expect(Math.abs(heights[i])).to.be.below(1e-3); // resting on the ground
    for (let i = 0; i < 5; i++) expect(Math.abs(dofs.v[3 * i + 1])).to.be.below(0.05);
    // the linked pair stands on the ground, its top particle kept at the link's length above the bottom one
    const l = dist(point(dofs.x, 3), point(dofs.x, 4));
    expect(l).to.be.closeTo(dist([-0.4, 0.8, 0.2], [-0.4, 1.1, 0.2]), 1e-3);
    // contact pushes only: a particle thrown upwards leaves the ground freely (λ ≥ 0)
    const lambda = scene.get<compliant.CompliantImplicitSolver>('/odesolver')!.lagrangeMultipliers;
    for (let i = 0; i < 5; i++) expect(lambda[i]).to.be.at.least(0);
  });
});
