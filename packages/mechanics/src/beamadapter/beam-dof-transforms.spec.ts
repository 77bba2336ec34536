import { expect } from 'chai';
import { Rigid3d, sceneWarnings } from '@sofa-ts/core';
import { buildNode, StubTopology } from '../mass/mesh-test-support.js';
import { stiffnessAndFiniteDifferences } from '../load/fd-check-test-support.js';
import { AdaptiveBeamForceFieldAndMass } from './AdaptiveBeamForceFieldAndMass.js';
import { BeamInterpolation } from './BeamInterpolation.js';
import type { BeamMass } from './beam-mass.js';
import { maxRelError, quat } from '../fem/beam/beam-test-support.js';

/**
 * BeamAdapter's DOF-to-node transformations (BeamInterpolation dofsAndBeamsAligned="false",
 * DOF0TransformNode0 / DOF1TransformNode1), pinned against the aligned beam placed at the
 * transformed frames: the same energy, the same forces moved to the frames by the lever rule
 * (f, τ + r × f), K = ∂f/∂x at rest by central differences, the same kinetic energy for every
 * velocity of the frames. The frame algebra of this file is its own (Hamilton products, rotation
 * matrices), not the implementation's.
 */

type V3 = [number, number, number];

function mul(a: number[], b: number[]): number[] {
  const [ax, ay, az, aw] = a,
    [bx, by, bz, bw] = b;
  return [
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ];
}

function rotate(q: number[], v: number[]): V3 {
  // q·(v, 0)·q̄
  const r = mul(mul(q, [v[0], v[1], v[2], 0]), [-q[0], -q[1], -q[2], q[3]]);
  return [r[0], r[1], r[2]];
}

function cross(a: number[], b: number[]): V3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

/** The frame (p, q) composed with the transformation (t, q_t): (p + R(q)·t, q ⊗ q_t). */
function compose(x: number[], o: number, t: number[]): number[] {
  const q = x.slice(o + 3, o + 7),
    r = rotate(q, t);
  return [x[o] + r[0], x[o + 1] + r[1], x[o + 2] + r[2], ...mul(q, t.slice(3, 7))];
}

/**
 * Two frames, and the transformations that put at their nodes a straight beam of length 0.6 along
 * d (both node frames with their x axis along d): t_e = R(q_e)ᵀ·(p_node − p_e), q_t = q̄_e ⊗ q_node.
 */
const dofs = [0.1, -0.2, 0.3, ...quat([0, 0.6, 0.8], 0.7), 0.9, 0.4, -0.1, ...quat([0.48, 0.6, 0.64], -0.4)];
const d = [2 / 7, 3 / 7, 6 / 7],
  qNode = quat([0, -d[2] / Math.hypot(d[1], d[2]), d[1] / Math.hypot(d[1], d[2])], Math.acos(d[0])),
  nodes0 = [
    [0.2, -0.1, 0.25],
    [0.2 + 0.6 * d[0], -0.1 + 0.6 * d[1], 0.25 + 0.6 * d[2]],
  ];
const [T0, T1] = [0, 1].map((e) => {
  const q = dofs.slice(7 * e + 3, 7 * e + 7),
    qc = [-q[0], -q[1], -q[2], q[3]],
    p = dofs.slice(7 * e, 7 * e + 3);
  return [...rotate(qc, [nodes0[e][0] - p[0], nodes0[e][1] - p[1], nodes0[e][2] - p[2]]), ...mul(qc, qNode)];
});

function transformed(x: number[]): number[] {
  return [...compose(x, 0, T0), ...compose(x, 7, T1)];
}

function beam(
  x: number[],
  aligned: boolean,
  rest?: number[],
): { ff: AdaptiveBeamForceFieldAndMass; interp: BeamInterpolation; mass: BeamMass } {
  const interp = new BeamInterpolation(),
    ff = new AdaptiveBeamForceFieldAndMass();
  interp.radius.value = 0.04;
  interp.defaultYoungModulus.value = new Float64Array([2e5]);
  interp.defaultPoissonRatio.value = new Float64Array([0.3]);
  if (!aligned) {
    interp.dofsAndBeamsAligned.value = false;
    interp.DOF0TransformNode0.value = Float64Array.from(T0);
    interp.DOF1TransformNode1.value = Float64Array.from(T1);
  }
  ff.massDensity.value = 3;
  buildNode(x, new StubTopology(2, { edges: [0, 1] }), [interp, ff], {
    template: 'Rigid3d',
    gravity: [0, 0, 0],
    ...(rest ? { rest } : {}),
  });
  return { ff, interp, mass: ff.massPart! };
}

function force(ff: AdaptiveBeamForceFieldAndMass, x: number[]): Float64Array {
  const f = new Float64Array(12);
  ff.addForce([f], [Float64Array.from(x)], [new Float64Array(12)]);
  return f;
}

/** The frames moved off rest: each turned about its own axis and shifted. */
function deformed(x: number[]): number[] {
  const y = x.slice();
  y.splice(3, 4, ...mul(quat([0, 0, 1], 0.08), x.slice(3, 7)));
  y.splice(10, 4, ...mul(quat([0.6, 0.8, 0], -0.06), x.slice(10, 14)));
  y[7] += 0.02;
  y[9] -= 0.015;
  return y;
}

describe('BeamInterpolation with DOF-to-node transformations (BeamAdapter)', () => {
  it('measures the rest length between the transformed ends, as the aligned beam between those frames', () => {
    const { interp } = beam(dofs, false),
      { interp: ref } = beam(transformed(dofs), true);
    expect(interp.lengths[0]).to.be.closeTo(0.6, 1e-14);
    expect(interp.lengths[0]).to.be.closeTo(ref.lengths[0], 1e-14);
    const nodes = transformed(dofs),
      E = new Float64Array(14);
    interp.endFrames(E, Float64Array.from(dofs), 0);
    for (let c = 0; c < 14; c++) expect(E[c]).to.be.closeTo(nodes[c], 1e-15);
  });

  it('gives the energy of the aligned beam at the transformed frames, and its forces moved to the frames by the lever rule', () => {
    const { ff } = beam(dofs, false),
      { ff: ref } = beam(transformed(dofs), true);
    const x = deformed(dofs),
      nodes = transformed(x);
    const f = force(ff, x),
      g = force(ref, nodes);
    expect(ff.getPotentialEnergy([Float64Array.from(x)])).to.be.closeTo(ref.getPotentialEnergy([Float64Array.from(nodes)]), 1e-12);
    expect(Math.max(...Array.from(g, Math.abs))).to.be.above(1);
    for (let e = 0; e < 2; e++) {
      const r = rotate(x.slice(7 * e + 3, 7 * e + 7), e === 0 ? T0 : T1),
        fe = Array.from(g.subarray(6 * e, 6 * e + 3)),
        lever = cross(r, fe);
      for (let c = 0; c < 3; c++) {
        expect(f[6 * e + c]).to.be.closeTo(fe[c], 1e-10);
        expect(f[6 * e + 3 + c]).to.be.closeTo(g[6 * e + 3 + c] + lever[c], 1e-10);
      }
    }
  });

  it('exerts no force at rest, and K = ∂f/∂x there (central differences, Rigid3 increments); addDForce applies K', () => {
    const { ff } = beam(dofs, false);
    for (const fi of force(ff, dofs)) expect(Math.abs(fi)).to.be.below(1e-9);
    const { K, FD } = stiffnessAndFiniteDifferences(ff, Float64Array.from(dofs), new Float64Array(12), 1e-6, Rigid3d);
    expect(maxRelError(K, FD)).to.be.below(1e-6);
    const dx = Float64Array.from({ length: 12 }, (_, i) => Math.cos(3 * i + 1)),
      df = new Float64Array(12);
    ff.addDForce([df], [dx], -0.5, 0);
    for (let i = 0; i < 12; i++) expect(df[i]).to.be.closeTo(-0.5 * K[i].reduce((s, k, j) => s + k * dx[j], 0), 1e-9 * Math.abs(K[i][i]));
  });

  it('mass: the kinetic energy of the aligned beam moving with the transformed frames, for any velocity of the frames', () => {
    const { ff, mass } = beam(dofs, false),
      { ff: ref, mass: refMass } = beam(transformed(dofs), true);
    force(ff, dofs);
    force(ref, transformed(dofs));
    for (let k = 0; k < 3; k++) {
      const v = Array.from({ length: 12 }, (_, i) => Math.sin(1.3 * i + k));
      // a node moves with its frame: v + ω × r, ω
      const w: number[] = [];
      for (let e = 0; e < 2; e++) {
        const r = rotate(dofs.slice(7 * e + 3, 7 * e + 7), e === 0 ? T0 : T1),
          om = v.slice(6 * e + 3, 6 * e + 6),
          t = cross(om, r);
        w.push(v[6 * e] + t[0], v[6 * e + 1] + t[1], v[6 * e + 2] + t[2], ...om);
      }
      const ke = mass.getKineticEnergy(Float64Array.from(v)),
        keRef = refMass.getKineticEnergy(Float64Array.from(w));
      expect(ke).to.be.above(0);
      expect(ke).to.be.closeTo(keRef, 1e-13 * keRef);
    }
  });

  it("gravity: the mass part's loads, their potential energy −Σ f·(p + r) over the beam ends (translations by central differences)", () => {
    const interp = new BeamInterpolation(),
      ff = new AdaptiveBeamForceFieldAndMass();
    interp.radius.value = 0.04;
    interp.dofsAndBeamsAligned.value = false;
    interp.DOF0TransformNode0.value = Float64Array.from(T0);
    interp.DOF1TransformNode1.value = Float64Array.from(T1);
    buildNode(dofs, new StubTopology(2, { edges: [0, 1] }), [interp, ff], { template: 'Rigid3d', gravity: [0.3, -9.81, 1.2] });
    const mass = ff.massPart!,
      x = Float64Array.from(dofs),
      f = new Float64Array(12);
    mass.addForce(f, x, new Float64Array(12));
    // the loads sum to the beam's weight, whatever the levers
    const w = mass.getKineticEnergy(Float64Array.from([1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0])) * 2;
    expect(f[0] + f[6]).to.be.closeTo(0.3 * w, 1e-12);
    for (let j = 0; j < 12; j++) {
      if (j % 6 >= 3) continue;
      const h = 1e-6,
        xp = Float64Array.from(x),
        xm = Float64Array.from(x);
      xp[7 * Math.floor(j / 6) + (j % 6)] += h;
      xm[7 * Math.floor(j / 6) + (j % 6)] -= h;
      const dE = (mass.getPotentialEnergy(xp) - mass.getPotentialEnergy(xm)) / (2 * h);
      expect(dE).to.be.closeTo(-f[j], 1e-8);
    }
  });

  it('refuses a transformation whose quaternion is zero, at the Data', () => {
    const interp = new BeamInterpolation();
    interp.dofsAndBeamsAligned.value = false;
    interp.DOF0TransformNode0.value = Float64Array.of(0.1, 0, 0, 0, 0, 0, 0);
    expect(() =>
      buildNode(dofs, new StubTopology(2, { edges: [0, 1] }), [interp, new AdaptiveBeamForceFieldAndMass()], { template: 'Rigid3d' }),
    ).to.throw(/DOF0TransformNode0.*transformation 0 .* is not a rigid transformation|transformation 0 .* is not a rigid transformation/);
  });

  it('pads a short list with the identity and warns; lists given to aligned beams are not read (said)', () => {
    const interp = new BeamInterpolation(),
      ff = new AdaptiveBeamForceFieldAndMass();
    interp.dofsAndBeamsAligned.value = false;
    interp.DOF0TransformNode0.value = Float64Array.from(T0);
    const x = [...dofs, 1.5, 0.4, -0.1, 0, 0, 0, 1];
    const { node } = buildNode(x, new StubTopology(3, { edges: [0, 1, 1, 2] }), [interp, ff], { template: 'Rigid3d', gravity: [0, 0, 0] });
    expect(Array.from(interp.dofToNode!.subarray(14, 21))).to.deep.equal([0, 0, 0, 0, 0, 0, 1]);
    expect(Array.from(interp.dofToNode!.subarray(0, 7))).to.deep.equal(T0);
    expect(
      sceneWarnings(node)
        .map((w) => w.message)
        .join('\n'),
    ).to.match(/DOF0TransformNode0' has 1 transformations for 2 beams/);
    const aligned = new BeamInterpolation();
    aligned.DOF1TransformNode1.value = Float64Array.from(T1);
    const built = buildNode(dofs, new StubTopology(2, { edges: [0, 1] }), [aligned, new AdaptiveBeamForceFieldAndMass()], {
      template: 'Rigid3d',
    });
    expect(aligned.dofToNode).to.equal(undefined);
    expect(
      sceneWarnings(built.node)
        .map((w) => w.message)
        .join('\n'),
    ).to.match(/is not read: dofsAndBeamsAligned is true/);
  });
});
