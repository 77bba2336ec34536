import { expect } from 'chai';
import { MouseEvent, loadSceneFromString, type BaseMechanicalState, type BaseObject } from 'sofa-ts';

/**
 * MechanicalStateController (SOFA's, mouse driven): a drag of (dx, dy) pixels moves the
 * controlled Rigid3d frame by closed forms: the right button translates the centre by
 * q·(0.05·dy·mainDirection) and turns it by rot(x, 0.001·dx); the left button turns it by
 * rot(y, 0.001·dx)·rot(z, 0.001·dy); onlyTranslation moves it by pixels along x, y or z.
 */
function scene(attrs: string): string {
  return `<Node name="root" dt="0.01" gravity="0 0 0">
  <MechanicalObject name="dofs" template="Rigid3d" position="1 2 3  0 0 0 1  5 0 0  0 0 0 1"/>
  <FixedProjectiveConstraint indices="1"/>
  <MechanicalStateController name="c" template="Rigid3d" listening="true" ${attrs}/>
  <Node name="mapped">
    <MechanicalObject name="pt" template="Vec3d" position="0 0 1"/>
    <RigidMapping input="@../dofs" output="@pt" index="0"/>
  </Node>
</Node>`;
}

function drag(c: BaseObject, button: 'Left' | 'Right' | 'Middle', from: [number, number], to: [number, number]): void {
  c.handleEvent(new MouseEvent(`${button}Pressed`, ...from));
  c.handleEvent(new MouseEvent('Move', ...to));
}

describe('MechanicalStateController (mouse control of a state)', () => {
  it('right drag: centre += 0.05·dy·mainDirection, orientation turned by 0.001·dx about x; mapped points follow', async () => {
    const sc = await loadSceneFromString(scene('mainDirection="-1 0 0" handleEventTriggersUpdate="true"'));
    const c = sc.get<BaseObject>('/c')!,
      mo = sc.get<BaseMechanicalState>('/dofs')!;
    drag(c, 'Right', [100, 100], [300, 140]);
    const a = 0.001 * 200;
    expect(Array.from(mo.x.subarray(0, 3))).to.deep.equal([1 - 0.05 * 40, 2, 3]);
    expect(mo.x[3]).to.be.closeTo(Math.sin(a / 2), 1e-15);
    expect(mo.x[6]).to.be.closeTo(Math.cos(a / 2), 1e-15);
    // the mapped point (0, 0, 1) in the frame: turned about x by a
    const p = sc.get<BaseMechanicalState>('/mapped/pt')!.x;
    expect(p[0]).to.be.closeTo(1 - 2, 1e-12);
    expect(p[1]).to.be.closeTo(2 - Math.sin(a), 1e-12);
    expect(p[2]).to.be.closeTo(3 + Math.cos(a), 1e-12);
    // releasing stops the control; a step without events changes nothing
    c.handleEvent(new MouseEvent('RightReleased', 300, 140));
    const before = Array.from(mo.x);
    sc.step(1);
    expect(Array.from(mo.x)).to.deep.equal(before);
  });

  it('left drag: orientation ← q·rot(y, 0.001·dx)·rot(z, 0.001·dy), applied at the next step without handleEventTriggersUpdate', async () => {
    const sc = await loadSceneFromString(scene(''));
    const c = sc.get<BaseObject>('/c')!,
      mo = sc.get<BaseMechanicalState>('/dofs')!;
    drag(c, 'Left', [0, 0], [100, 0]);
    expect(Array.from(mo.x.subarray(3, 7))).to.deep.equal([0, 0, 0, 1]);
    sc.step(1);
    expect(mo.x[4]).to.be.closeTo(Math.sin(0.05), 1e-15);
    expect(mo.x[6]).to.be.closeTo(Math.cos(0.05), 1e-15);
  });

  it('onlyTranslation: the middle button moves the frame by dy pixels along z; index picks the frame, and projective constraints hold', async () => {
    const sc = await loadSceneFromString(scene('onlyTranslation="true" handleEventTriggersUpdate="true" index="1"'));
    const c = sc.get<BaseObject>('/c')!,
      mo = sc.get<BaseMechanicalState>('/dofs')!;
    c.handleEvent(new MouseEvent('MiddlePressed', 0, 0));
    sc.step(1); // applied at the step: dy = 0 so far
    c.handleEvent(new MouseEvent('Move', 0, 7));
    // frame 1 is fixed: the FixedProjectiveConstraint projects the velocity; the position moved by dy
    expect(Array.from(mo.x.subarray(7, 10))).to.deep.equal([5, 0, 7]);
    expect(Array.from(mo.v.subarray(6, 12))).to.deep.equal([0, 0, 0, 0, 0, 0]);
  });
});
