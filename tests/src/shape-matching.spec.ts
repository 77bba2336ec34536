import { expect } from 'chai';
import { det, eigs, inv, matrix, multiply, transpose } from 'mathjs';
import { loadSceneFromString, type BaseMechanicalState } from 'sofa-ts';

type Scene = Awaited<ReturnType<typeof loadSceneFromString>>;

/**
 * ShapeMatching (Müller et al. 2005) and PositionBasedDynamicsProjectiveConstraint through scenes:
 * a rigidly moved cluster is its own target; a deformed cluster's targets are a rotation R of its
 * rest shape about the current centre, where R is the polar factor of A = Σ(x − c)(x⁰ − c⁰)ᵀ
 * (RᵀA symmetric positive definite, checked with mathjs); the projective constraint blends the
 * solved positions toward the targets and sets v = (x − x_old)/dt.
 */
const rest = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1];

function scene(position: number[], extra = ''): string {
  return `<Node name="root" dt="0.1" gravity="0 0 0">
  <MechanicalObject name="dofs" rest_position="${rest.join(' ')}" position="${position.join(' ')}"/>
  <ShapeMatching name="sm" position="@dofs.position" cluster="[0 1 2 3 4]" ${extra}/>
</Node>`;
}

function rotation(axis: number[], a: number): number[][] {
  const [x, y, z] = axis.map((v) => v / Math.hypot(...axis)) as [number, number, number];
  const c = Math.cos(a),
    s = Math.sin(a),
    C = 1 - c;
  return [
    [c + x * x * C, x * y * C - z * s, x * z * C + y * s],
    [y * x * C + z * s, c + y * y * C, y * z * C - x * s],
    [z * x * C - y * s, z * y * C + x * s, c + z * z * C],
  ];
}

/** The ShapeMatching's targetPosition. */
function targets(sc: Scene): Float64Array {
  return sc.get('/sm')!.findData('targetPosition')!.value as Float64Array;
}

function points(a: number[]): number[][] {
  return Array.from({ length: a.length / 3 }, (_, i) => a.slice(3 * i, 3 * i + 3));
}

describe('ShapeMatching and PositionBasedDynamicsProjectiveConstraint', () => {
  it('a rigidly moved cluster is its own target', async () => {
    const R = rotation([1, 2, 3], 0.8),
      t = [0.5, -1, 2];
    const moved = points(rest).flatMap((p) => (multiply(R, p) as number[]).map((v, k) => v + t[k]));
    const sc = await loadSceneFromString(scene(moved));
    const target = targets(sc);
    for (let i = 0; i < moved.length; i++) expect(target[i]).to.be.closeTo(moved[i], 1e-12);
  });

  it('a deformed cluster: targets = c + R·(x⁰ − c⁰), R a rotation with RᵀA symmetric positive definite (the polar factor)', async () => {
    const deformed = rest.map((v, i) => v * (1 + 0.3 * Math.sin(i)) + 0.1 * Math.cos(3 * i));
    const sc = await loadSceneFromString(scene(deformed));
    const target = Array.from(targets(sc));
    const X0 = points(rest),
      X = points(deformed),
      Y = points(target);
    const mean = (P: number[][]) => [0, 1, 2].map((k) => P.reduce((s, p) => s + p[k], 0) / P.length);
    const c0 = mean(X0),
      c = mean(X);
    // R from the targets: Y_i − c = R·(X0_i − c0), least squares over the 5 points (exact if the targets are rigid)
    const D0 = X0.map((p) => p.map((v, k) => v - c0[k])),
      DY = Y.map((p) => p.map((v, k) => v - c[k]));
    const M = multiply(transpose(D0), D0) as number[][];
    const B = multiply(transpose(D0), DY) as number[][];
    const R = transpose(multiply(inv(M), B) as number[][]);
    for (let i = 0; i < Y.length; i++)
      for (let k = 0; k < 3; k++) expect(Y[i][k]).to.be.closeTo(c[k] + (multiply(R, D0[i]) as number[])[k], 1e-10);
    expect(det(R)).to.be.closeTo(1, 1e-10);
    const RtR = multiply(transpose(R), R) as number[][];
    for (let r = 0; r < 3; r++) for (let q = 0; q < 3; q++) expect(RtR[r][q]).to.be.closeTo(r === q ? 1 : 0, 1e-10);
    const A = X.reduce(
      (acc, p, i) => acc.map((row, r) => row.map((v, q) => v + (p[r] - c[r]) * D0[i][q])),
      [
        [0, 0, 0],
        [0, 0, 0],
        [0, 0, 0],
      ],
    );
    const S = multiply(transpose(R), A) as number[][];
    for (let r = 0; r < 3; r++) for (let q = 0; q < 3; q++) expect(S[r][q]).to.be.closeTo(S[q][r], 1e-10);
    const values = (
      eigs(matrix(S.map((row, r) => row.map((v, q) => (v + S[q][r]) / 2)))).values as unknown as { toArray(): number[] }
    ).toArray();
    for (const v of values) expect(v).to.be.greaterThan(0);
  });

  it('affineRatio 1: the targets are the best affine fit, exact for an affinely deformed cluster', async () => {
    const F = [
      [1.2, 0.3, 0],
      [0, 0.8, 0.1],
      [0.2, 0, 1.1],
    ];
    const moved = points(rest).flatMap((p) => (multiply(F, p) as number[]).map((v, k) => v + [1, 2, 3][k]));
    const sc = await loadSceneFromString(scene(moved, 'affineRatio="1"'));
    const target = targets(sc);
    for (let i = 0; i < moved.length; i++) expect(target[i]).to.be.closeTo(moved[i], 1e-12);
  });

  it('the projective constraint: x ← x + s·(target − x) after the solve, v = (x − x_old)/dt', async () => {
    // one free particle under gravity g, explicit Euler; target fixed at the origin
    const [dt, g, s] = [0.1, -10, 0.25];
    const sc = await loadSceneFromString(`<Node name="root" dt="${dt}" gravity="0 ${g} 0">
  <EulerExplicitSolver symplectic="1"/>
  <MechanicalObject name="dofs" position="0 1 0"/>
  <UniformMass vertexMass="1"/>
  <PositionBasedDynamicsProjectiveConstraint stiffness="${s}" position="0 0 0"/>
</Node>`);
    const mo = sc.get<BaseMechanicalState>('/dofs')!;
    // step 1: symplectic Euler v = g·dt, y = 1 + g·dt²; then y ← y·(1 − s); the first projection starts from the solved y
    sc.step(1);
    let y = (1 + g * dt * dt) * (1 - s);
    const ySolved1 = 1 + g * dt * dt;
    expect(mo.x[1]).to.be.closeTo(y, 1e-12);
    expect(mo.v[1]).to.be.closeTo((y - ySolved1) / dt, 1e-12);
    // step 2: v = v1 + g·dt, y' = y + v·dt, projected, v = (projected − y)/dt
    const v1 = mo.v[1];
    sc.step(1);
    const solved = y + (v1 + g * dt) * dt;
    const projected = solved * (1 - s);
    expect(mo.x[1]).to.be.closeTo(projected, 1e-12);
    expect(mo.v[1]).to.be.closeTo((projected - y) / dt, 1e-12);
    y = projected;
  });

  it("together (SOFA's scene): a cluster falling under gravity stays rigid (rest distances kept) and falls", async () => {
    const sc = await loadSceneFromString(`<Node name="root" dt="0.05" gravity="0 -10 0">
  <EulerImplicitSolver/>
  <CGLinearSolver iterations="25" tolerance="1e-12" threshold="1e-12"/>
  <MechanicalObject name="dofs" position="${rest.join(' ')}"/>
  <UniformMass vertexMass="1"/>
  <ShapeMatching name="sm" position="@dofs.position" cluster="[0 1 2 3 4]"/>
  <PositionBasedDynamicsProjectiveConstraint stiffness="1" position="@sm.targetPosition"/>
</Node>`);
    sc.step(5);
    const x = points(Array.from(sc.get<BaseMechanicalState>('/dofs')!.x)),
      X0 = points(rest);
    for (let i = 0; i < 5; i++)
      for (let j = i + 1; j < 5; j++) {
        const d = Math.hypot(...[0, 1, 2].map((k) => x[i][k] - x[j][k])),
          d0 = Math.hypot(...[0, 1, 2].map((k) => X0[i][k] - X0[j][k]));
        expect(d).to.be.closeTo(d0, 1e-9);
      }
    const cy = x.reduce((acc, p) => acc + p[1], 0) / 5,
      cy0 = X0.reduce((acc, p) => acc + p[1], 0) / 5;
    expect(cy).to.be.lessThan(cy0 - 0.1);
  });
});
