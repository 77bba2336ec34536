import { expect } from 'chai';
import { loadSceneFromString, type BaseMechanicalState, type BaseMeshTopology } from 'sofa-ts';

/**
 * TopologyBoundingTrasher: at the end of a step the elements whose barycentre lies outside the
 * box are removed (with the points they leave isolated); bounds belong to the box.
 */
describe('TopologyBoundingTrasher', () => {
  it('removes, at the end of the step, the triangles whose barycentre left the box, and their isolated points', async () => {
    // triangle 0: (0,0), (1,0), (0,1), barycentre (1/3, 1/3); triangle 1: (1,0), (3,0), (3,1), barycentre (7/3, 1/3)
    const sc = await loadSceneFromString(`<Node name="root" dt="0.1" gravity="0 0 0">
  <MechanicalObject name="dofs" position="0 0 0  1 0 0  0 1 0  3 0 0  3 1 0"/>
  <TriangleSetTopologyContainer name="topo" triangles="0 1 2  1 3 4"/>
  <TriangleSetTopologyModifier/>
  <TopologyBoundingTrasher box="-1 -1 -1 ${7 / 3} 1 1" topology="@topo" position="@dofs.position"/>
</Node>`);
    const topo = sc.get<BaseMeshTopology>('/topo')!;
    sc.step(1);
    // the bound 7/3 belongs to the box: nothing removed
    expect(topo.getTriangles().length).to.equal(6);
    // move point 4 so that triangle 1's barycentre leaves the box
    const mo = sc.get<BaseMechanicalState>('/dofs')!;
    mo.x[12] = 3.5;
    mo.touch();
    sc.step(1);
    expect(Array.from(topo.getTriangles())).to.deep.equal([0, 1, 2]);
    expect(mo.size).to.equal(3);
  });
});
