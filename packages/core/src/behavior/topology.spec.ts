import { expect } from 'chai';
import { Node } from '../node.js';
import { BaseObject } from '../base-object.js';
import { BaseMeshTopology, contextMeshTopology, localMeshTopology } from './topology.js';

class Topo extends BaseMeshTopology {
  getNbPoints(): number {
    return 0;
  }
  getPositions(): Float64Array | undefined {
    return undefined;
  }
  getEdges = (): Uint32Array => new Uint32Array(0);
  getTriangles = (): Uint32Array => new Uint32Array(0);
  getQuads = (): Uint32Array => new Uint32Array(0);
  getTetrahedra = (): Uint32Array => new Uint32Array(0);
  getHexahedra = (): Uint32Array => new Uint32Array(0);
}
class Other extends BaseObject {}

function named<T extends BaseObject>(o: T, name: string): T {
  o.name.value = name;
  return o;
}

describe('core: which topology a component gets (SOFA getMeshTopologyLink / getMeshTopology)', () => {
  it('components get the last topology of their node, MechanicalObject the first', () => {
    const root = new Node();
    const node = new Node();
    root.addChild(node);
    const grid = named(new Topo(), 'grid');
    const tetra = named(new Topo(), 'tetra');
    node.addObject(grid);
    node.addObject(new Other());
    node.addObject(tetra);
    expect(contextMeshTopology(node)).to.equal(tetra);
    expect(localMeshTopology(node)).to.equal(grid);
  });

  it('without a topology in the node, the first topology of the nearest ancestor that has one', () => {
    const root = new Node();
    const mid = new Node();
    const leaf = new Node();
    root.addChild(mid);
    mid.addChild(leaf);
    const a = new Topo();
    const b = new Topo();
    root.addObject(new Topo());
    mid.addObject(a);
    mid.addObject(b);
    expect(contextMeshTopology(leaf)).to.equal(a);
    expect(localMeshTopology(leaf)).to.equal(undefined);
  });
});
