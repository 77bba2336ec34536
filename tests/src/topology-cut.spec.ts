import { expect } from 'chai';
import { loadSceneFromString, mechanics, topology, type BaseForceField, type SofaScene } from 'sofa-ts';

/**
 * A beam being cut while it simulates: each step, the tetrahedra whose centre (at rest) lies
 * beyond a plane moving from the free end towards the clamped end are removed, then the scene
 * steps. What must hold after every cut and step: the mass is the density times the rest volume
 * of the remaining tetrahedra, the states stay finite, and the FEM forces (and their product K·dx) of the
 * remaining part are those of a scene built afresh from the remaining mesh (same points, rest positions, tetrahedra).
 */

const NX = 3,
  NY = 3,
  NZ = 13;
const DENSITY = 2;
const FEM = 'youngModulus="20000" poissonRatio="0.3" method="large"';

function beam(): string {
  return `<Node name="root" dt="0.01" gravity="0 -9.81 0">
    <DefaultAnimationLoop/>
    <Node name="beam">
      <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
      <CGLinearSolver iterations="200" tolerance="1e-10" threshold="1e-20"/>
      <RegularGridTopology name="grid" n="${NX} ${NY} ${NZ}" min="0 0 0" max="${NX - 1} ${NY - 1} ${NZ - 1}"/>
      <MechanicalObject name="dofs"/>
      <TetrahedronSetTopologyContainer name="tetra"/>
      <TetrahedronSetTopologyModifier name="modifier"/>
      <Hexa2TetraTopologicalMapping input="@grid" output="@tetra" swapping="true"/>
      <DiagonalMass name="mass" massDensity="${DENSITY}"/>
      <FixedProjectiveConstraint name="clamp" indices="${Array.from({ length: NX * NY }, (_, i) => i).join(' ')}"/>
      <TetrahedralCorotationalFEMForceField name="fem" ${FEM}/>
    </Node>
  </Node>`;
}

/** |det|/6 of tetrahedron t on positions x. */
function volume(x: Float64Array, tet: Uint32Array, t: number): number {
  const o = 3 * tet[4 * t];
  const d = (j: number, c: number): number => x[3 * tet[4 * t + j] + c] - x[o + c];
  return (
    Math.abs(
      d(1, 0) * (d(2, 1) * d(3, 2) - d(2, 2) * d(3, 1)) -
        d(1, 1) * (d(2, 0) * d(3, 2) - d(2, 2) * d(3, 0)) +
        d(1, 2) * (d(2, 0) * d(3, 1) - d(2, 1) * d(3, 0)),
    ) / 6
  );
}

/**
 * The FEM force of a scene built from scratch with the given points, rest positions and
 * tetrahedra, and its product df = K·dx (in JavaScript: the cut scene's product may run in
 * WebAssembly, on copies of the element data that must follow the cuts).
 */
async function freshForce(
  x: Float64Array,
  x0: Float64Array,
  tet: Uint32Array,
  dx: Float64Array,
): Promise<{ f: Float64Array; df: Float64Array }> {
  const scene: SofaScene = await loadSceneFromString(`<Node name="root" gravity="0 0 0">
    <DefaultAnimationLoop/>
    <MechanicalObject name="dofs" position="${Array.from(x).join(' ')}" rest_position="${Array.from(x0).join(' ')}"/>
    <TetrahedronSetTopologyContainer name="tetra" tetrahedra="${Array.from(tet).join(' ')}"/>
    <TetrahedralCorotationalFEMForceField name="fem" ${FEM}/>
  </Node>`);
  const fem = scene.get<BaseForceField & { productKernel: 'auto' | 'js' }>('/fem')!;
  fem.productKernel = 'js';
  const f = new Float64Array(x.length);
  fem.addForce([f], [x], [new Float64Array(x.length)]);
  const df = new Float64Array(x.length);
  fem.addDForce([df], [dx], 1, 0);
  return { f, df };
}

describe('a beam cut by a moving plane keeps simulating', function () {
  this.timeout(60000);

  it('100 steps: mass of the remaining tetrahedra, finite states, FEM forces equal to a fresh scene of the remaining mesh', async () => {
    const scene = await loadSceneFromString(beam());
    const tetra = scene.get<topology.TetrahedronSetTopologyContainer>('/beam/tetra')!;
    const modifier = scene.get<topology.TetrahedronSetTopologyModifier>('/beam/modifier')!;
    const dofs = scene.get<mechanics.MechanicalObject>('/beam/dofs')!;
    const mass = scene.get<mechanics.DiagonalMass>('/beam/mass')!;
    const fem = scene.get<BaseForceField & { elementCount: number }>('/beam/fem')!;
    const n0 = tetra.getTetrahedra().length / 4;
    let compared = 0;
    for (let k = 0; k < 100; k++) {
      // the plane z = 12.5 − 0.08·k, moving towards the clamp; tetrahedra whose rest centre is beyond it go
      const plane = 12.5 - 0.08 * k;
      const tet = tetra.getTetrahedra();
      const x0 = dofs.x0;
      const cut: number[] = [];
      for (let t = 0; t < tet.length / 4; t++) {
        let z = 0;
        for (let j = 0; j < 4; j++) z += x0[3 * tet[4 * t + j] + 2] / 4;
        if (z > plane) cut.push(t);
      }
      modifier.removeTetrahedra(cut);
      scene.step();

      // mass conservation: Σ m_i = ρ·Σ V_t over the remaining tetrahedra (rest shape)
      const remaining = tetra.getTetrahedra();
      let v = 0;
      for (let t = 0; t < remaining.length / 4; t++) v += volume(dofs.x0, remaining, t);
      const m = mass.pointMasses;
      expect(m.length).to.equal(dofs.size);
      expect(m.reduce((a, b) => a + b, 0)).to.be.closeTo(DENSITY * v, 1e-9 * DENSITY * v);
      // finite states, sized as the topology
      expect(dofs.size).to.equal(tetra.getNbPoints());
      for (const a of [dofs.x, dofs.v]) for (let i = 0; i < a.length; i++) expect(Number.isFinite(a[i])).to.equal(true);
      // FEM forces of the remaining part against a fresh scene of the same mesh
      if (k % 10 === 9) {
        expect(fem.elementCount).to.equal(remaining.length / 4);
        const f = new Float64Array(dofs.x.length);
        fem.addForce([f], [dofs.x], [dofs.v]);
        const dx = Float64Array.from(dofs.x, (_, i) => Math.sin(i));
        const df = new Float64Array(dx.length);
        fem.addDForce([df], [dx], 1, 0);
        const { f: g, df: dg } = await freshForce(dofs.x, dofs.x0, remaining, dx);
        let scale = 0;
        for (const fi of g) scale = Math.max(scale, Math.abs(fi));
        expect(scale).to.be.greaterThan(0);
        for (let i = 0; i < f.length; i++) expect(f[i]).to.be.closeTo(g[i], 1e-10 * scale);
        let dscale = 0;
        for (const v of dg) dscale = Math.max(dscale, Math.abs(v));
        expect(dscale).to.be.greaterThan(0);
        for (let i = 0; i < df.length; i++) expect(df[i]).to.be.closeTo(dg[i], 1e-10 * dscale);
        compared++;
      }
    }
    // the plane reached z = 4.58: the tetrahedra of the 4 cells above z = 4 (and part of the 5th) are gone
    const left = tetra.getTetrahedra().length / 4;
    expect(left).to.be.below(n0 * 0.45);
    expect(left).to.be.greaterThan(n0 * 0.3);
    expect(compared).to.equal(10);
    // the beam hangs from its clamp: the remaining free end moved down under gravity
    let minY = Infinity;
    for (let i = 0; i < dofs.size; i++) minY = Math.min(minY, dofs.x[3 * i + 1]);
    expect(minY).to.be.below(-1e-3);
  });
});
