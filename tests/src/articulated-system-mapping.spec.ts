import { expect } from 'chai';
import { loadSceneFromString, type BaseMapping, type BaseMechanicalState, type SofaScene } from 'sofa-ts';
import { findNamed } from './harness-support-test-support.js';

/**
 * ArticulatedSystemMapping (SOFA's ArticulatedSystemPlugin) through XML, against hand-derived
 * closed forms: a two-link planar arm (tip from the angles by trigonometry, for the three
 * articulationProcess rules, the incremental ones reached along a path), a 3D joint of two
 * rotations on a rotated root (R_child = R_root·R_y(θ0)·R_z(θ1)), a prismatic joint, and a hinged
 * arm held by an AngularSpringForceField under gravity, whose rest angle solves k·θ = m·g·l·sin θ.
 * J against finite differences and applyJT against the transpose run in the mapping harness.
 */

/** Rotation matrix (row-major) of the unit quaternion (x, y, z, w). */
function matrixOf(q: ArrayLike<number>, o = 0): number[] {
  const [x, y, z, w] = [q[o], q[o + 1], q[o + 2], q[o + 3]];
  return [
    1 - 2 * (y * y + z * z),
    2 * (x * y - z * w),
    2 * (x * z + y * w),
    2 * (x * y + z * w),
    1 - 2 * (x * x + z * z),
    2 * (y * z - x * w),
    2 * (x * z - y * w),
    2 * (y * z + x * w),
    1 - 2 * (x * x + y * y),
  ];
}
const rx = (a: number) => [1, 0, 0, 0, Math.cos(a), -Math.sin(a), 0, Math.sin(a), Math.cos(a)];
const ry = (a: number) => [Math.cos(a), 0, Math.sin(a), 0, 1, 0, -Math.sin(a), 0, Math.cos(a)];
const rz = (a: number) => [Math.cos(a), -Math.sin(a), 0, Math.sin(a), Math.cos(a), 0, 0, 0, 1];
function mul(A: number[], B: number[]): number[] {
  const C = new Array<number>(9).fill(0);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) C[3 * i + j] += A[3 * i + k] * B[3 * k + j];
  return C;
}
const apply3 = (A: number[], v: number[]) => [0, 1, 2].map((i) => A[3 * i] * v[0] + A[3 * i + 1] * v[1] + A[3 * i + 2] * v[2]);

function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>, tol: number, what: string): void {
  expect(actual.length, what).to.equal(expected.length);
  for (let i = 0; i < expected.length; i++) expect(actual[i], `${what}[${i}]`).to.be.closeTo(expected[i], tol);
}

const L1 = 1.2,
  L2 = 0.8;

/** Base body 0 at the origin, link 1 (length L1) and link 2 (length L2) along x at rest, hinged about z at their ends. */
async function twoLinkArm(process: number): Promise<SofaScene> {
  return loadSceneFromString(`<Node name="root" gravity="0 0 0" dt="0.01"><DefaultAnimationLoop/>
    <Node name="arm">
      <MechanicalObject name="q" template="Vec1d" position="0 0"/>
      <Node name="bodies">
        <MechanicalObject name="dofs" template="Rigid3d" position="0 0 0 0 0 0 1  ${L1 / 2} 0 0 0 0 0 1  ${L1 + L2 / 2} 0 0 0 0 0 1"/>
        <ArticulatedSystemMapping name="map" input1="@../q" output="@dofs"/>
      </Node>
      <ArticulatedHierarchyContainer/>
      <Node name="centers">
        <Node name="c1"><ArticulationCenter parentIndex="0" childIndex="1" posOnParent="0 0 0" posOnChild="${-L1 / 2} 0 0" articulationProcess="${process}"/>
          <Node name="a"><Articulation rotation="1" rotationAxis="0 0 1" articulationIndex="0"/></Node></Node>
        <Node name="c2"><ArticulationCenter name="elbow" parentIndex="1" childIndex="2" posOnParent="${L1 / 2} 0 0" posOnChild="${-L2 / 2} 0 0" articulationProcess="${process}"/>
          <Node name="a"><Articulation rotation="1" rotationAxis="0 0 1" articulationIndex="1"/></Node></Node>
      </Node>
    </Node></Node>`);
}

describe('ArticulatedSystemMapping (closed forms through XML)', () => {
  for (const process of [0, 1, 2]) {
    it(`two-link planar arm, articulationProcess ${process}: link centres and tip from the angles by trigonometry`, async () => {
      const scene = await twoLinkArm(process);
      const map = findNamed<BaseMapping>(scene.root, 'map');
      const q = findNamed<BaseMechanicalState>(scene.root, 'q');
      const dofs = findNamed<BaseMechanicalState>(scene.root, 'dofs');
      const t1 = 0.7,
        t2 = -1.1;
      // processes 1 and 2 move by increments: reach the angles along a path
      for (let s = 1; s <= 5; s++) {
        q.x[0] = (t1 * s) / 5;
        q.x[1] = (t2 * s) / 5;
        map.apply();
      }
      const x = dofs.x;
      const a12 = t1 + t2;
      expectClose(x.subarray(7, 10), [(L1 / 2) * Math.cos(t1), (L1 / 2) * Math.sin(t1), 0], 1e-14, 'centre of link 1');
      expectClose(
        x.subarray(14, 17),
        [L1 * Math.cos(t1) + (L2 / 2) * Math.cos(a12), L1 * Math.sin(t1) + (L2 / 2) * Math.sin(a12), 0],
        1e-14,
        'centre of link 2',
      );
      expectClose(matrixOf(x, 10), rz(t1), 1e-14, 'orientation of link 1');
      expectClose(matrixOf(x, 17), rz(a12), 1e-14, 'orientation of link 2');
      // the tip: end of link 2, local (L2/2, 0, 0)
      const tip = apply3(matrixOf(x, 17), [L2 / 2, 0, 0]).map((v, i) => v + x[14 + i]);
      expectClose(tip, [L1 * Math.cos(t1) + L2 * Math.cos(a12), L1 * Math.sin(t1) + L2 * Math.sin(a12), 0], 1e-14, 'tip');
      // velocities: tip speed of a two-link arm, v_tip = J_arm·θ' (hand-derived)
      const v = new Float64Array(18);
      map.applyJ(v, [Float64Array.of(0.3, -0.2)]);
      const w1 = 0.3,
        w2 = 0.3 - 0.2;
      expectClose(v.subarray(15, 18), [0, 0, w2], 1e-14, 'ω of link 2');
      const vc2 = [-L1 * Math.sin(t1) * w1 - (L2 / 2) * Math.sin(a12) * w2, L1 * Math.cos(t1) * w1 + (L2 / 2) * Math.cos(a12) * w2, 0];
      expectClose(v.subarray(12, 15), vc2, 1e-14, 'velocity of the centre of link 2');
      // the joints' globalPosition: the elbow at L1·(cos t1, sin t1)
      const elbow = findNamed(scene.root, 'elbow').findData('globalPosition')!.value as Float64Array;
      expectClose(elbow, [L1 * Math.cos(t1), L1 * Math.sin(t1), 0], 1e-14, 'globalPosition of the elbow');
      // reset: the joints back to 0, the arm back along x
      scene.reset();
      expectClose(dofs.x.subarray(14, 17), [L1 + L2 / 2, 0, 0], 1e-14, 'centre of link 2 after reset');
      expectClose(matrixOf(dofs.x, 17), rz(0), 1e-14, 'orientation of link 2 after reset');
    });
  }

  it('two rotations on one center (process 0) compose as Euler angles on a rotated root: R = R_root·R_y(θ0)·R_z(θ1)', async () => {
    // root frame: rotated by 0.4 rad about x, at (0.5, -1, 2)
    const s = Math.sin(0.2),
      c = Math.cos(0.2);
    const scene = await loadSceneFromString(`<Node name="root" gravity="0 0 0" dt="0.01"><DefaultAnimationLoop/>
      <Node name="base"><MechanicalObject name="b" template="Rigid3d" position="0.5 -1 2 ${s} 0 0 ${c}"/></Node>
      <Node name="arm">
        <MechanicalObject name="q" template="Vec1d" position="0.6 -0.9 0.25"/>
        <Node name="bodies">
          <MechanicalObject name="dofs" template="Rigid3d" position="0 0 0 0 0 0 1  1 0 0 0 0 0 1  2 0 0 0 0 0 1"/>
          <ArticulatedSystemMapping name="map" input1="@../q" input2="@../../base/b" output="@dofs"/>
        </Node>
        <ArticulatedHierarchyContainer/>
        <Node name="c1"><ArticulationCenter parentIndex="0" childIndex="1" posOnParent="0.3 0.1 0" posOnChild="-0.5 0 0.2"/>
          <Node><Articulation rotation="1" rotationAxis="0 2 0" articulationIndex="0"/><Articulation rotation="1" rotationAxis="0 0 1" articulationIndex="1"/></Node></Node>
        <Node name="c2"><ArticulationCenter parentIndex="1" childIndex="2" posOnParent="0.5 0 0" posOnChild="-0.5 0 0"/>
          <Node><Articulation translation="1" rotationAxis="1 0 0" articulationIndex="2"/></Node></Node>
      </Node></Node>`);
    const dofs = findNamed<BaseMechanicalState>(scene.root, 'dofs');
    const x = dofs.x;
    const R0 = rx(0.4);
    expectClose(x.subarray(0, 3), [0.5, -1, 2], 1e-15, 'body 0 is the root frame');
    const R1 = mul(mul(R0, ry(0.6)), rz(-0.9));
    expectClose(matrixOf(x, 3), R0, 1e-15, 'orientation of body 0');
    expectClose(matrixOf(x, 10), R1, 1e-14, 'orientation of body 1');
    // joint point A = c0 + R0·posOnParent = c1 + R1·posOnChild
    const A = apply3(R0, [0.3, 0.1, 0]).map((v, i) => v + [0.5, -1, 2][i]);
    const c1 = apply3(R1, [-0.5, 0, 0.2]).map((v, i) => A[i] - v);
    expectClose(x.subarray(7, 10), c1, 1e-14, 'centre of body 1');
    // prismatic joint: body 2 slides by 0.25 along body 1's x axis from its rest on body 1
    const c2 = apply3(R1, [1 + 0.25, 0, 0]).map((v, i) => v + c1[i]);
    expectClose(x.subarray(14, 17), c2, 1e-14, 'centre of body 2');
    expectClose(matrixOf(x, 17), R1, 1e-14, 'orientation of body 2');
  });

  it('refuses what it cannot map, naming the component: an articulationIndex out of range, a missing container', async () => {
    const body = (art: string, container = '<ArticulatedHierarchyContainer/>') =>
      `<Node name="root"><DefaultAnimationLoop/><Node name="arm"><MechanicalObject name="q" template="Vec1d" position="0"/>
        <Node name="bodies"><MechanicalObject name="dofs" template="Rigid3d" position="0 0 0 0 0 0 1  1 0 0 0 0 0 1"/>
          <ArticulatedSystemMapping name="map" input1="@../q" output="@dofs"/></Node>${container}
        <Node name="c"><ArticulationCenter parentIndex="0" childIndex="1"/><Node>${art}</Node></Node></Node></Node>`;
    let err: unknown;
    await loadSceneFromString(body('<Articulation rotation="1" articulationIndex="3"/>')).catch((e: unknown) => (err = e));
    expect(String(err)).to.match(/Articulation.*articulationIndex 3 is out of range/s);
    err = undefined;
    await loadSceneFromString(body('<Articulation rotation="1" articulationIndex="0"/>', '')).catch((e: unknown) => (err = e));
    expect(String(err)).to.match(/ArticulatedSystemMapping.*no ArticulatedHierarchyContainer/s);
  });

  it('a FixedProjectiveConstraint on the fixed base body of the mapped bodies changes nothing (a warning); on a moving body it is refused', async () => {
    const scene = (fixed: string) =>
      loadSceneFromString(`<Node name="root" gravity="0 -10 0" dt="0.01"><DefaultAnimationLoop/>
      <Node name="arm"><EulerImplicitSolver/><CGLinearSolver iterations="20" tolerance="1e-20" threshold="1e-20"/>
        <MechanicalObject name="q" template="Vec1d" position="0.2"/>
        <Node name="bodies"><MechanicalObject name="dofs" template="Rigid3d" position="0 0 0 0 0 0 1  1 0 0 0 0 0 1"/>
          <UniformMass vertexMass="1 1 [1 0 0, 0 1 0, 0 0 1]"/><FixedProjectiveConstraint indices="${fixed}"/>
          <ArticulatedSystemMapping name="map" input1="@../q" output="@dofs"/></Node>
        <ArticulatedHierarchyContainer/>
        <Node><ArticulationCenter parentIndex="0" childIndex="1" posOnChild="-1 0 0"/><Node><Articulation rotation="1" rotationAxis="0 0 1"/></Node></Node>
      </Node></Node>`);
    const ok = await scene('0');
    ok.step(3);
    expect(ok.warnings.map((w) => w.message).join('\n')).to.match(/FixedProjectiveConstraint.*do not depend on its mapping's inputs/);
    // gravity turns the arm down (θ decreases)
    expect(findNamed<BaseMechanicalState>(ok.root, 'q').x[0]).to.be.below(0.2);
    const refused = await scene('1');
    expect(() => refused.step(1)).to.throw(/projective constraints on mapped states are not supported/);
  });

  it('constraint rows on the mapped bodies reach the joints through J: a tip distance held by a Lagrange multiplier holds the arm against gravity', async () => {
    // tip = 2·(−sin θ, cos θ); its distance to (2, 0, 0) is held at its value for θ = 0.3 by a
    // FixedLagrangianConstraint on DistanceFromTargetMapping(RigidMapping(bodies)); free, the arm
    // falls (θ = 0.75 after 0.5 s)
    const th0 = 0.3,
      rest = Math.hypot(-2 * Math.sin(th0) - 2, 2 * Math.cos(th0));
    const scene = (held: boolean) =>
      loadSceneFromString(`<Node name="root" gravity="0 -10 0" dt="0.01">
      <FreeMotionAnimationLoop/><GenericConstraintSolver maxIterations="200" tolerance="1e-12"/>
      <Node name="arm"><EulerImplicitSolver rayleighMass="0" rayleighStiffness="0"/><SparseLDLSolver template="CompressedRowSparseMatrixd"/><GenericConstraintCorrection/>
        <MechanicalObject name="q" template="Vec1d" position="${th0}"/>
        <Node name="bodies"><MechanicalObject name="dofs" template="Rigid3d" position="0 0 0 0 0 0 1  0 1 0 0 0 0 1"/>
          <UniformMass vertexMass="1 1 [0.01 0 0, 0 0.01 0, 0 0 0.01]"/>
          <ArticulatedSystemMapping name="map" input1="@../q" output="@dofs"/>
          <Node name="tip"><MechanicalObject position="0 1 0"/><RigidMapping index="1"/>
            <Node name="dist"><MechanicalObject template="Vec1d"/><DistanceFromTargetMapping indices="0" targetPositions="2 0 0" restLengths="${rest}"/>
              ${held ? '<FixedLagrangianConstraint template="Vec1d" indices="0"/>' : ''}</Node></Node></Node>
        <ArticulatedHierarchyContainer/>
        <Node name="hinge"><ArticulationCenter parentIndex="0" childIndex="1" posOnChild="0 -1 0"/><Node><Articulation rotation="1" rotationAxis="0 0 1"/></Node></Node>
      </Node></Node>`);
    const held = await scene(true);
    held.step(50);
    expect(findNamed<BaseMechanicalState>(held.root, 'q').x[0]).to.be.closeTo(th0, 1e-9);
    const free = await scene(false);
    free.step(50);
    expect(findNamed<BaseMechanicalState>(free.root, 'q').x[0]).to.be.above(0.7);
  });

  it('a hinged arm held by an AngularSpringForceField under gravity rests where k·θ = m·g·l·sin θ', async () => {
    // the arm points up at θ = 0 (its centre at l above the hinge): gravity's torque about the
    // hinge is m·g·l·sin θ, the spring's −k·θ; with k < m·g·l the upright pose is unstable and
    // the arm rests at the root θ* > 0 of k·θ = m·g·l·sin θ
    const m = 1,
      g = 10,
      l = 1,
      k = 8;
    const scene = await loadSceneFromString(`<Node name="root" gravity="0 ${-g} 0" dt="0.05"><DefaultAnimationLoop/>
      <Node name="arm">
        <EulerImplicitSolver rayleighMass="1" rayleighStiffness="0"/>
        <CGLinearSolver iterations="50" tolerance="1e-30" threshold="1e-30"/>
        <MechanicalObject name="q" template="Vec1d" position="0.3"/>
        <Node name="bodies">
          <MechanicalObject name="dofs" template="Rigid3d" position="0 0 0 0 0 0 1  0 ${l} 0 0 0 0 1"/>
          <UniformMass vertexMass="${m} 1 [0.01 0 0, 0 0.01 0, 0 0 0.01]"/>
          <AngularSpringForceField indices="0 1" angularStiffness="${k}"/>
          <ArticulatedSystemMapping name="map" input1="@../q" output="@dofs"/>
        </Node>
        <ArticulatedHierarchyContainer/>
        <Node name="hinge"><ArticulationCenter parentIndex="0" childIndex="1" posOnParent="0 0 0" posOnChild="0 ${-l} 0"/>
          <Node><Articulation rotation="1" rotationAxis="0 0 1" articulationIndex="0"/></Node></Node>
      </Node></Node>`);
    scene.step(800);
    // θ* by Newton on k·θ − m·g·l·sin θ from θ = 1
    let th = 1;
    for (let i = 0; i < 50; i++) th -= (k * th - m * g * l * Math.sin(th)) / (k - m * g * l * Math.cos(th));
    expect(th).to.be.within(1, 1.2);
    const q = findNamed<BaseMechanicalState>(scene.root, 'q');
    expect(q.x[0]).to.be.closeTo(th, 1e-8);
    const dofs = findNamed<BaseMechanicalState>(scene.root, 'dofs');
    expectClose(dofs.x.subarray(7, 10), [-l * Math.sin(th), l * Math.cos(th), 0], 1e-8, 'centre of the arm');
  });
});
