import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect } from 'chai';
import type { BaseObject } from '@sofa-ts/core';
import { loadScene, loadSceneFromString, type BaseMechanicalState, type SofaScene } from 'sofa-ts';
import { corpusRoot } from './corpus-test-support.js';

/**
 * A mapping whose inputs two ODE solvers integrate (SOFA's DeformableOnRigidFrameMappingConstraints:
 * a deformable body in the frame of a rigid one, each under its own EulerImplicitSolver). SOFA's
 * solver visits its own subtree only: the solver of the mapping reads the other input's positions
 * and velocities and does not move it; constraints reach that input through its own correction.
 */

const loop = '<DefaultAnimationLoop/>';
const cg = '<CGLinearSolver iterations="200" tolerance="1e-30" threshold="1e-30"/>';
/** A rigid frame at (0.5, 0.2, 0), turned 45° about z. */
const framePose = '0.5 0.2 0  0 0 0.3826834323650898 0.9238795325112867';
const frameObjects = (extra: string): string =>
  `<MechanicalObject name="rigid" template="Rigid3d" position="${framePose}" ${extra}/><UniformMass totalMass="2"/>`;
const localBody = (mass: 'local' | 'world'): string => `
  <RegularGridTopology nx="4" ny="2" nz="2" min="0 0 0" max="3 1 1"/>
  <MechanicalObject name="local" position="@RegularGridTopology1.position"/>
  ${mass === 'local' ? '<UniformMass totalMass="1"/>' : ''}
  <HexahedronFEMForceField youngModulus="500" poissonRatio="0.3" method="large"/>
  <FixedProjectiveConstraint indices="0 4 8 12"/>`;
const worldNode = (mass: 'local' | 'world', input2: string): string => `
  <Node name="World">
    <MechanicalObject name="world"/>
    ${mass === 'world' ? '<UniformMass totalMass="1"/>' : ''}
    <DeformableOnRigidFrameMapping input1="@../local" input2="${input2}" output="@world"/>
  </Node>`;

function state(scene: SofaScene, p: string): BaseMechanicalState {
  const s = scene.get<BaseMechanicalState>(p);
  if (!s) throw new Error(`no state at ${p}`);
  return s;
}

/** out = q·v·q⁻¹ for a unit quaternion (x, y, z, w). */
function rotate(q: ArrayLike<number>, v: ArrayLike<number>, out: number[]): number[] {
  const [x, y, z, w] = [q[0], q[1], q[2], q[3]];
  const tx = 2 * (y * v[2] - z * v[1]);
  const ty = 2 * (z * v[0] - x * v[2]);
  const tz = 2 * (x * v[1] - y * v[0]);
  out[0] = v[0] + w * tx + (y * tz - z * ty);
  out[1] = v[1] + w * ty + (z * tx - x * tz);
  out[2] = v[2] + w * tz + (x * ty - y * tx);
  return out;
}

describe('a mapping whose inputs two ODE solvers integrate', function () {
  this.timeout(120_000);

  it('reads the other solver’s input without moving it: the same as that input fixed under the mapping’s own solver, bit for bit', async () => {
    // the frame under its own solver (fixed there) against the frame inside the body's solver, fixed
    const two = await loadSceneFromString(`<Node name="root" dt="0.01" gravity="0 -9.81 0">${loop}
      <Node name="Frame"><EulerImplicitSolver/>${cg}${frameObjects('')}<FixedProjectiveConstraint indices="0"/></Node>
      <Node name="Body"><EulerImplicitSolver/>${cg}${localBody('world')}${worldNode('world', '@/Frame/rigid')}</Node>
    </Node>`);
    const one = await loadSceneFromString(`<Node name="root" dt="0.01" gravity="0 -9.81 0">${loop}
      <Node name="Body"><EulerImplicitSolver/>${cg}${localBody('world')}
        <Node name="Frame">${frameObjects('')}<FixedProjectiveConstraint indices="0"/></Node>
        ${worldNode('world', '@../Frame/rigid')}</Node>
    </Node>`);
    const x0 = Float64Array.from(state(two, '/Body/World/world').x);
    for (let k = 0; k < 20; k++) {
      two.step();
      one.step();
      for (const p of ['/Body/local', '/Body/World/world']) {
        expect(Array.from(state(two, p).x)).to.deep.equal(Array.from(state(one, p).x));
        expect(Array.from(state(two, p).v)).to.deep.equal(Array.from(state(one, p).v));
      }
    }
    // said once, at the first step (where the solver's system is compiled)
    const said = two.warnings.filter((w) =>
      /input MechanicalObject 'rigid' is outside the subtree of the solver at \/root\/Body/.test(w.message),
    );
    expect(said).to.have.length(1);
    expect(said[0].message).to.match(/it is integrated by the solver at \/root\/Frame/);
    // the mass on the mapped state pulled the body down in the world: it moved
    expect(state(two, '/Body/World/world').x[1 * 3 + 1]).to.be.lessThan(x0[1 * 3 + 1] - 1e-3);
  });

  it('follows the frame its own solver moves: a frame in uniform translation changes nothing in the body’s frame (Galilean invariance)', async () => {
    // no gravity: the free frame keeps its velocity; the body, pulled out of rest, oscillates in its frame
    const pulled = (s: SofaScene): void => {
      const local = state(s, '/Body/local');
      local.x[15 * 3 + 1] += 0.3; // the free corner
      local.touch();
    };
    const framed = await loadSceneFromString(
      `<Node name="root" dt="0.01" gravity="0 0 0">${loop}
      <Node name="Frame"><EulerImplicitSolver/>${cg}${frameObjects('velocity="1.5 -0.5 0.25  0 0 0"')}</Node>
      <Node name="Body"><EulerImplicitSolver/>${cg}${localBody('local')}${worldNode('local', '@/Frame/rigid')}</Node>
    </Node>`,
      { init: false },
    );
    const alone = await loadSceneFromString(
      `<Node name="root" dt="0.01" gravity="0 0 0">${loop}
      <Node name="Body"><EulerImplicitSolver/>${cg}${localBody('local')}</Node>
    </Node>`,
      { init: false },
    );
    framed.init();
    alone.init();
    pulled(framed);
    pulled(alone);
    const rigid = state(framed, '/Frame/rigid');
    const local = state(framed, '/Body/local');
    const world = state(framed, '/Body/World/world');
    const p = [0, 0, 0];
    for (let n = 1; n <= 40; n++) {
      framed.step();
      alone.step();
      // the frame: x = x₀ + n·dt·v, its orientation unchanged
      const t = n * 0.01;
      expect(rigid.x[0]).to.be.closeTo(0.5 + 1.5 * t, 1e-12);
      expect(rigid.x[1]).to.be.closeTo(0.2 - 0.5 * t, 1e-12);
      expect(rigid.x[2]).to.be.closeTo(0.25 * t, 1e-12);
      expect(Array.from(rigid.x.subarray(3, 7))).to.deep.equal([0, 0, 0.3826834323650898, 0.9238795325112867]);
      // the body in its frame: as if there were no frame
      expect(Array.from(local.x)).to.deep.equal(Array.from(state(alone, '/Body/local').x));
      // the world points: x_w = R·x_local + t and v_w = R·v_local + v_frame (ω = 0)
      for (let i = 0; i < local.size; i++) {
        rotate(rigid.x.subarray(3, 7), local.x.subarray(3 * i, 3 * i + 3), p);
        for (let a = 0; a < 3; a++) expect(world.x[3 * i + a]).to.be.closeTo(p[a] + rigid.x[a], 1e-12);
        rotate(rigid.x.subarray(3, 7), local.v.subarray(3 * i, 3 * i + 3), p);
        for (let a = 0; a < 3; a++) expect(world.v[3 * i + a]).to.be.closeTo(p[a] + rigid.v[a], 1e-12);
      }
    }
    // the body did oscillate
    expect(Math.abs(local.v[15 * 3 + 1])).to.be.greaterThan(1e-3);
  });

  it('SOFA’s DeformableOnRigidFrameMappingConstraints: contacts on the mapped body hold the rigid frame of the other solver (a link of a chain hangs on the fixed one)', async function () {
    const file = path.join(
      corpusRoot,
      'sofa',
      'examples',
      'Component',
      'Mapping',
      'Linear',
      'DeformableOnRigidFrameMappingConstraints.scn',
    );
    if (!fs.existsSync(file)) this.skip();
    const scene = await loadScene(file);
    const rigid = state(scene, '/ChainRigid/TorusRigid/rigidframe');
    const fixed = state(scene, '/ChainRigid/TorusFixed/MechanicalObject1');
    const moving = state(scene, '/ChainRigid/TorusDeformLocal/DeformableMappedModel/TorusCollisLocal/MechanicalObject1');
    const tris = fixedTriangles(scene);
    const steps = 60;
    for (let k = 0; k < steps; k++) scene.step();
    for (const s of [rigid, moving]) for (const v of s.x) expect(Number.isFinite(v)).to.equal(true);
    // free fall from y = 2 would reach 2 − g·t²/2 = −5.06 at t = 1.2 s; the frame is held up by the
    // contacts of the body mapped on it (the only thing coupling it to the fixed link)
    const t = steps * 0.02;
    expect(rigid.x[1])
      .to.be.greaterThan(0.5)
      .and.lessThan(2 - 0.05);
    expect(2 - (9.81 * t * t) / 2).to.be.lessThan(-5);
    // and no point of the moving link's collision mesh is inside the fixed link (ray parity)
    let inside = 0;
    for (let i = 0; i < moving.size; i++) if (insideMesh(moving.x.subarray(3 * i, 3 * i + 3), fixed.x, tris)) inside++;
    expect(inside).to.equal(0);
  });
});

/** The fixed link's triangles (its MeshTopology). */
function fixedTriangles(scene: SofaScene): Int32Array {
  const topo = scene.get<BaseObject>('/ChainRigid/TorusFixed/MeshTopology1');
  const triangles = topo?.findData('triangles')?.value as ArrayLike<number> | undefined;
  if (!triangles || triangles.length === 0) throw new Error('no triangles');
  return Int32Array.from(triangles);
}

/** A point is inside a closed triangle mesh when a ray from it crosses the surface an odd number of times. */
function insideMesh(p: ArrayLike<number>, x: ArrayLike<number>, tris: Int32Array): boolean {
  const d = [0.5773, 0.5774, 0.5773]; // a direction along no mesh edge
  let crossings = 0;
  for (let t = 0; t < tris.length; t += 3) {
    const a = tris[t] * 3,
      b = tris[t + 1] * 3,
      c = tris[t + 2] * 3;
    const e1 = [x[b] - x[a], x[b + 1] - x[a + 1], x[b + 2] - x[a + 2]];
    const e2 = [x[c] - x[a], x[c + 1] - x[a + 1], x[c + 2] - x[a + 2]];
    const h = [d[1] * e2[2] - d[2] * e2[1], d[2] * e2[0] - d[0] * e2[2], d[0] * e2[1] - d[1] * e2[0]];
    const det = e1[0] * h[0] + e1[1] * h[1] + e1[2] * h[2];
    if (Math.abs(det) < 1e-14) continue;
    const s = [p[0] - x[a], p[1] - x[a + 1], p[2] - x[a + 2]];
    const u = (s[0] * h[0] + s[1] * h[1] + s[2] * h[2]) / det;
    if (u < 0 || u > 1) continue;
    const q = [s[1] * e1[2] - s[2] * e1[1], s[2] * e1[0] - s[0] * e1[2], s[0] * e1[1] - s[1] * e1[0]];
    const v = (d[0] * q[0] + d[1] * q[1] + d[2] * q[2]) / det;
    if (v < 0 || u + v > 1) continue;
    if ((e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) / det > 0) crossings++;
  }
  return crossings % 2 === 1;
}
