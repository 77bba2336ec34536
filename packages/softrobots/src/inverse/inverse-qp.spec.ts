import { expect } from 'chai';
import { InverseQp } from './inverse-qp.js';
import { InverseRows } from './inverse-rows.js';

/**
 * The inverse QP on hand-made problems: a particle held by a spring of stiffness k to the origin
 * (A = k·I, so W = J·Jᵀ/k), with constraint rows given by unit directions. The solutions are
 * written by hand from the particle's equilibrium.
 */
const k = 50;

/** W = J Jᵀ / k and δ_free = J·x_free − offsets, for rows J (3 numbers each). */
function problem(J: number[][], dfree: number[]): { W: Float64Array; dfree: Float64Array; n: number } {
  const n = J.length;
  const W = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) W[i * n + j] = (J[i][0] * J[j][0] + J[i][1] * J[j][1] + J[i][2] * J[j][2]) / k;
  return { W, dfree: Float64Array.from(dfree), n };
}

const s2 = Math.SQRT1_2;

describe('softrobots: InverseQp', () => {
  it('one actuator, one effector: λ = −δe_free/W_ea, divided by (1 + ε) with the energy term', () => {
    // actuator along (1, 1, 0)/√2, effector along x, goal x = 2 (δe_free = 0 − 2)
    const { W, dfree, n } = problem(
      [
        [s2, s2, 0],
        [1, 0, 0],
      ],
      [0, -2],
    );
    const rows = new InverseRows();
    rows.reset(n);
    rows.setActuator(0);
    rows.setEffector(1);
    const qp = new InverseQp();
    qp.epsilon = 0;
    expect(qp.solve(W, dfree, n, rows)).to.equal('optimal');
    const l0 = 2 / W[1]; // W_ea = s2/k
    expect(qp.lambda[0]).to.be.closeTo(l0, 1e-9 * l0);
    expect(qp.delta[1]).to.be.closeTo(0, 1e-12);
    qp.epsilon = 0.01;
    qp.solve(W, dfree, n, rows);
    expect(qp.lambda[0]).to.be.closeTo(l0 / 1.01, 1e-9 * l0);
  });

  it("Signorini: a particle pushed down onto a floor by the actuator rests on it, λn = the actuator's downward push", () => {
    // rows: actuator along (1, −1, 0)/√2, effector x (goal 1), contact normal +y (gap = y, touching)
    const { W, dfree, n } = problem(
      [
        [s2, -s2, 0],
        [1, 0, 0],
        [0, 1, 0],
      ],
      [0, -1, 0],
    );
    const rows = new InverseRows();
    rows.reset(n);
    rows.setActuator(0);
    rows.boundForce(0, 0, Infinity);
    rows.setEffector(1);
    rows.addContact(2, 1, 0);
    const qp = new InverseQp();
    qp.epsilon = 0;
    expect(qp.solve(W, dfree, n, rows)).to.equal('optimal');
    // x = λa/(√2 k) = 1, y = (−λa/√2 + λn)/k = 0
    expect(qp.lambda[0]).to.be.closeTo(Math.SQRT2 * k, 1e-9 * k);
    expect(qp.lambda[2]).to.be.closeTo(k, 1e-9 * k);
    expect(qp.delta[1]).to.be.closeTo(0, 1e-12);
    expect(qp.delta[2]).to.be.closeTo(0, 1e-12);
  });

  it('Signorini: a contact the actuator pulls away from opens (λn = 0, gap > 0)', () => {
    // the actuator pulls along (1, 1, 0)/√2: the particle leaves the floor
    const { W, dfree, n } = problem(
      [
        [s2, s2, 0],
        [1, 0, 0],
        [0, 1, 0],
      ],
      [0, -1, -1e-3],
    );
    const rows = new InverseRows();
    rows.reset(n);
    rows.setActuator(0);
    rows.boundForce(0, 0, Infinity);
    rows.setEffector(1);
    rows.addContact(2, 1, 0);
    const qp = new InverseQp();
    qp.epsilon = 0;
    expect(qp.solve(W, dfree, n, rows)).to.equal('optimal');
    expect(qp.lambda[2]).to.equal(0);
    expect(qp.delta[2]).to.be.greaterThan(0);
    expect(qp.delta[1]).to.be.closeTo(0, 1e-12);
  });

  describe('Coulomb: the actuator pushes along (1, −2, 0)/√5 to bring x to 1 on a floor of friction μ', () => {
    const s5 = 1 / Math.sqrt(5);
    // rows: actuator, effector x, contact (normal +y, tangents +x and +z)
    const setUp = (mu: number, allowSliding: boolean): InverseQp => {
      const { W, dfree, n } = problem(
        [
          [s5, -2 * s5, 0],
          [1, 0, 0],
          [0, 1, 0],
          [1, 0, 0],
          [0, 0, 1],
        ],
        [0, -1, 0, 0, 0],
      );
      const rows = new InverseRows();
      rows.reset(n);
      rows.setActuator(0);
      rows.boundForce(0, 0, Infinity);
      rows.setEffector(1);
      rows.addContact(2, 3, mu);
      const qp = new InverseQp();
      qp.epsilon = 0;
      qp.allowSliding = allowSliding;
      expect(qp.solve(W, dfree, n, rows)).to.equal('optimal');
      return qp;
    };

    it('μ = 0.3, allowSliding: it slides, λt = −μ·λn, λa = √5·k/(1 − 2μ)', () => {
      const mu = 0.3;
      const qp = setUp(mu, true);
      const la = (Math.sqrt(5) * k) / (1 - 2 * mu);
      expect(qp.lambda[0]).to.be.closeTo(la, 1e-9 * la);
      expect(qp.lambda[2]).to.be.closeTo(2 * s5 * la, 1e-9 * la);
      expect(qp.lambda[3]).to.be.closeTo(-mu * 2 * s5 * la, 1e-9 * la);
      expect(qp.lambda[4]).to.be.closeTo(0, 1e-9 * la);
      expect(qp.delta[1]).to.be.closeTo(0, 1e-10);
      expect(qp.delta[2]).to.be.closeTo(0, 1e-10);
      expect(qp.contactStatus[0]).to.equal(2);
      expect(qp.rounds).to.equal(3); // open → stick (closed) → slide
    });

    it('μ = 0.3 without allowSliding: the contact sticks and the effector stays', () => {
      const qp = setUp(0.3, false);
      expect(qp.contactStatus[0]).to.equal(1);
      expect(qp.delta[3]).to.be.closeTo(0, 1e-10);
      expect(qp.delta[1]).to.be.closeTo(-1, 1e-10);
    });

    it('μ = 0.6 > ½ with allowSliding: the push stays inside the cone, the contact sticks', () => {
      const qp = setUp(0.6, true);
      expect(qp.contactStatus[0]).to.equal(1);
      expect(Math.abs(qp.lambda[3])).to.be.at.most(0.6 * qp.lambda[2] + 1e-9);
      expect(qp.delta[1]).to.be.closeTo(-1, 1e-10);
    });
  });
});
