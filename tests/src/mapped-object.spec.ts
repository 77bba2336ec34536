import { expect } from 'chai';
import { loadSceneFromString, type BaseMechanicalState, type SofaScene } from 'sofa-ts';

/**
 * MappedObject (SOFA's State holding position and velocity only): a mapping writes into it as into
 * a MechanicalObject, x = φ(x_in) and v = J·v_in, at the end of every step; no solver sees it.
 * Checked against the same scene with a MechanicalObject as the mapping's output (its x and v are
 * computed by the mechanical system's propagation), and against SubsetMapping's definition
 * x_out[i] = x_in[indices[i]], v_out[i] = v_in[indices[i]] read on the parent's state.
 */

function scene(output: string): string {
  return `<Node name="root" dt="0.02" gravity="0 -9.81 0">
    <DefaultAnimationLoop/>
    <Node name="beam">
      <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
      <CGLinearSolver iterations="40" tolerance="1e-12" threshold="1e-12"/>
      <RegularGridTopology name="grid" nx="5" ny="2" nz="2" min="0 0 0" max="4 1 1"/>
      <MechanicalObject name="dofs"/>
      <UniformMass totalMass="1"/>
      <FixedProjectiveConstraint indices="0 5 10 15"/>
      <HexahedronFEMForceField youngModulus="400" poissonRatio="0.3" method="large"/>
      <Node name="bary">
        <RegularGridTopology name="points" nx="3" ny="2" nz="2" min="0.5 0.2 0.3" max="3.5 0.8 0.7"/>
        <${output} name="out" template="Vec3d" position="@points.position"/>
        <BarycentricMapping/>
      </Node>
      <Node name="subset">
        <${output} name="out" template="CudaVec3f"/>
        <SubsetMapping indices="19 3 7 11" output="@out"/>
      </Node>
    </Node>
  </Node>`;
}

interface Xv {
  x: Float64Array;
  v: Float64Array;
}

function state(s: SofaScene, path: string): Xv {
  return s.get(path) as unknown as Xv;
}

describe('MappedObject: the output of a mapping, as a MechanicalObject would be', function () {
  this.timeout(60000);

  it('after BarycentricMapping and SubsetMapping: the positions and velocities of a mapped MechanicalObject, to the bit', async () => {
    const a = await loadSceneFromString(scene('MappedObject'));
    const b = await loadSceneFromString(scene('MechanicalObject'));
    expect(state(a, 'beam/bary/out').x.length).to.equal(12 * 3);
    for (let k = 0; k < 15; k++) {
      a.step();
      b.step();
      for (const p of ['beam/bary/out', 'beam/subset/out']) {
        expect(Array.from(state(a, p).x), `${p} x, step ${k}`).to.deep.equal(Array.from(state(b, p).x));
        expect(Array.from(state(a, p).v), `${p} v, step ${k}`).to.deep.equal(Array.from(state(b, p).v));
      }
    }
    // the beam is the same: nothing mechanical happens in a MappedObject
    expect(Array.from(a.get<BaseMechanicalState>('beam/dofs')!.x)).to.deep.equal(Array.from(b.get<BaseMechanicalState>('beam/dofs')!.x));
    const vIn = a.get<BaseMechanicalState>('beam/dofs')!.v;
    expect(Math.max(...Array.from(vIn).map(Math.abs)), 'the beam moves').to.be.greaterThan(1e-3);
    // SubsetMapping's definition, on the parent's state
    const dofs = a.get<BaseMechanicalState>('beam/dofs')!;
    const out = state(a, 'beam/subset/out');
    [19, 3, 7, 11].forEach((j, i) => {
      for (let c = 0; c < 3; c++) {
        expect(out.x[3 * i + c]).to.equal(dofs.x[3 * j + c]);
        expect(out.v[3 * i + c]).to.equal(dofs.v[3 * j + c]);
      }
    });
  });

  it('is not a mechanical state: a MappedObject is left out of the mechanical system, and takes its points from the context state', async () => {
    const s = await loadSceneFromString(`<Node name="root" dt="0.02" gravity="0 -9.81 0">
      <Node name="beam">
        <EulerImplicitSolver/>
        <CGLinearSolver iterations="20" tolerance="1e-12" threshold="1e-12"/>
        <RegularGridTopology nx="3" ny="2" nz="2" min="0 0 0" max="2 1 1"/>
        <MechanicalObject name="dofs"/>
        <UniformMass totalMass="1"/>
        <Node name="copy">
          <MappedObject name="out"/>
        </Node>
      </Node>
    </Node>`);
    const out = s.get('beam/copy/out') as unknown as Xv & { isMechanicalState?: boolean };
    expect(out.isMechanicalState).to.equal(undefined);
    expect(Array.from(out.x)).to.deep.equal(Array.from(s.get<BaseMechanicalState>('beam/dofs')!.x));
    expect(out.v.length).to.equal(out.x.length);
    s.step(3);
    const y = s.get<BaseMechanicalState>('beam/dofs')!.x;
    expect(y[1]).to.be.below(0); // the beam falls; the unmapped copy stays where it was
    expect(out.x[1]).to.equal(0);
  });
});
