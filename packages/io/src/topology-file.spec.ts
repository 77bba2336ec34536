import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  compareTopologies,
  formatTopologyFrame,
  parseTopologyText,
  readTopologyFile,
  TopologyWriter,
  type TopologyFrame,
  type TopologyLists,
} from './topology-file.js';

const lists = (edges: number[], triangles: number[] = []): TopologyLists => [
  Uint32Array.from(edges),
  Uint32Array.from(triangles),
  new Uint32Array(0),
  new Uint32Array(0),
  new Uint32Array(0),
];
const frame = (time: number, l: TopologyLists): TopologyFrame => parseTopologyText(formatTopologyFrame(time, l))[0];

describe('io: topology files and the CompareTopology rule', () => {
  it("writes SOFA's format (count, then a line of vertex indices, an empty line for none) and reads it back", () => {
    const text = formatTopologyFrame(0.1, lists([0, 1, 1, 2], [0, 1, 2]));
    expect(text).to.equal('T= 0.1\n  Edges= 2\n0 1 1 2\n  Triangles= 1\n0 1 2\n  Quads= 0\n\n  Tetrahedra= 0\n\n  Hexahedra= 0\n\n');
    const f = parseTopologyText(text + formatTopologyFrame(0.2, lists([])));
    expect(f.map((x) => x.time)).to.deep.equal([0.1, 0.2]);
    expect(f[0].counts).to.deep.equal([2, 1, 0, 0, 0]);
    expect(Array.from(f[0].lists[1])).to.deep.equal([0, 1, 2]);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'topo-')), 'x_topology.txt.gz');
    const w = new TopologyWriter(file);
    w.writeFrame(0, lists([3, 4]));
    w.writeFrame(0.01, lists([]));
    w.close();
    expect(readTopologyFile(file).map((x) => x.counts[0])).to.deep.equal([1, 0]);
  });

  it('a count mismatch adds |Δn|, each differing element adds 1, a kind absent from the reference is not compared', () => {
    const ref = [frame(0, lists([0, 1, 1, 2, 2, 3], [0, 1, 2]))];
    expect(compareTopologies(ref, [frame(0, lists([0, 1, 1, 2, 2, 3], [0, 1, 2]))]).error).to.equal(0);
    // one edge reversed, one different: 2; a missing triangle: 1
    const c = compareTopologies(ref, [frame(0, lists([1, 0, 1, 2, 2, 4], []))]);
    expect(c.perKind).to.deep.equal([2, 1, 0, 0, 0]);
    expect(c.error).to.equal(3);
    expect(c.firstDifference).to.contain('edges 0 is 1 0');
    // ours has triangles the reference does not list (count 0): not compared, as SOFA
    expect(compareTopologies([frame(0, lists([0, 1]))], [frame(0, lists([0, 1], [0, 1, 2]))]).error).to.equal(0);
  });

  it('each frame of ours is compared with the last reference frame due (T ≤ t + 1e-8), a frame with none due is not compared', () => {
    const ref = [frame(0, lists([0, 1])), frame(0.1, lists([0, 2])), frame(0.2, lists([0, 3]))];
    // ours at 0.09999999999999999 (accumulated time) still matches the frame written 0.1
    const ours = [
      frame(0, lists([0, 1])),
      frame(0.09999999999999999, lists([0, 2])),
      frame(0.15, lists([9, 9])),
      frame(0.2, lists([0, 3])),
    ];
    const c = compareTopologies(ref, ours);
    expect(c.framesCompared).to.equal(3);
    expect(c.error).to.equal(0);
    // two reference frames due at once: the last one is used
    expect(compareTopologies(ref, [frame(0.25, lists([0, 3]))]).error).to.equal(0);
    expect(compareTopologies(ref, [frame(0.25, lists([0, 1]))]).error).to.equal(1);
  });
});
