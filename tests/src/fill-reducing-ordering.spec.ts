import { expect } from 'chai';
import { resolveDataPath } from '@sofa-ts/core';
import { loadSceneFromString } from 'sofa-ts';

/**
 * FillReducingOrdering (SofaMatrix) with MapIndices, as SofaMatrix's example uses them: a beam and
 * its renumbered copy simulate the same motion vertex for vertex, the numbering is a permutation,
 * and it reduces the fill of the factor (counted by an elimination written here).
 */

/** Entries of the Cholesky factor's strict lower part when the graph's vertices are eliminated in `order`. */
function fill(adjacency: Set<number>[], order: ArrayLike<number>): number {
  const g = adjacency.map((s) => new Set(s));
  const gone = new Set<number>();
  let count = 0;
  for (let k = 0; k < order.length; k++) {
    const v = order[k];
    const rest = [...g[v]].filter((u) => u !== v && !gone.has(u));
    count += rest.length;
    for (const a of rest) for (const b of rest) if (a !== b) g[a].add(b);
    gone.add(v);
  }
  return count;
}

/**
 * A 3 × 3 × 8-vertex beam of tetrahedra (each grid cell cut into six around its diagonal), its
 * vertices numbered at random as a mesher may leave them: a numbering a fill-reducing ordering
 * improves on. Returns the positions, the tetrahedra and the vertices of the face z = 0.
 */
function shuffledBeam(): { position: number[]; tetrahedra: number[]; fixed: number[] } {
  const nx = 3,
    ny = 3,
    nz = 8,
    n = nx * ny * nz;
  const grid = (i: number, j: number, k: number) => i + nx * (j + ny * k);
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const label = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [label[i], label[j]] = [label[j], label[i]];
  }
  const position = new Array<number>(3 * n);
  for (let k = 0; k < nz; k++)
    for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) position.splice(3 * label[grid(i, j, k)], 3, i * 0.5, j * 0.5, k * 0.5);
  const tetrahedra: number[] = [];
  // Kuhn's six tetrahedra of the cube (corners as bits x, y, z) along the diagonal 0 → 7
  const paths = [
    [1, 2, 4],
    [1, 4, 2],
    [2, 1, 4],
    [2, 4, 1],
    [4, 1, 2],
    [4, 2, 1],
  ];
  for (let k = 0; k < nz - 1; k++)
    for (let j = 0; j < ny - 1; j++)
      for (let i = 0; i < nx - 1; i++) {
        const corner = (b: number) => label[grid(i + (b & 1), j + ((b >> 1) & 1), k + ((b >> 2) & 1))];
        for (const [a, b] of paths) tetrahedra.push(corner(0), corner(a), corner(a | b), corner(7));
      }
  const fixed: number[] = [];
  for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) fixed.push(label[grid(i, j, 0)]);
  return { position, tetrahedra, fixed };
}

const mesh = shuffledBeam();
const N = mesh.position.length / 3;

const beam = (reordered: string) => `<Node name="root" dt="0.02" gravity="0 -9.81 0">
  <DefaultAnimationLoop/>
  <Node name="NoReorder">
    <EulerImplicitSolver/>
    <SparseLDLSolver template="CompressedRowSparseMatrixMat3x3d"/>
    <TetrahedronSetTopologyContainer name="topo" position="${mesh.position.join(' ')}" tetrahedra="${mesh.tetrahedra.join(' ')}"/>
    <MechanicalObject name="dofs"/>
    <UniformMass vertexMass="0.1"/>
    <FixedProjectiveConstraint name="fix" indices="${mesh.fixed.join(' ')}"/>
    <TetrahedronFEMForceField youngModulus="2000" poissonRatio="0.3" method="large"/>
  </Node>
  <Node name="Reorder">
    <EulerImplicitSolver/>
    <SparseLDLSolver template="CompressedRowSparseMatrixMat3x3d"/>
    ${reordered}
    <TetrahedronSetTopologyContainer name="topo" tetrahedra="@reorder.tetrahedra" position="@reorder.position"/>
    <MechanicalObject name="dofs" position="@reorder.position"/>
    <UniformMass vertexMass="0.1"/>
    <MapIndices name="perm" template="int" in="@../NoReorder/fix.indices" indices="@reorder.permutation"/>
    <FixedProjectiveConstraint indices="@perm.out"/>
    <TetrahedronFEMForceField youngModulus="2000" poissonRatio="0.3" method="large"/>
  </Node>
</Node>`;

describe('FillReducingOrdering and MapIndices', () => {
  for (const method of ['nestedDissection', 'approximateMinimumDegree']) {
    it(`${method}: the renumbered beam moves as the original, vertex for vertex, with less fill`, async () => {
      const sim = await loadSceneFromString(
        beam(`<FillReducingOrdering name="reorder" mstate="@../NoReorder/dofs" topology="@../NoReorder/topo" orderingMethod="${method}"/>`),
      );
      const get = (path: string): ArrayLike<number> => resolveDataPath(sim.root, path)!.value as ArrayLike<number>;
      const perm = Array.from(get('Reorder/reorder.permutation'));
      const inv = Array.from(get('Reorder/reorder.invPermutation'));
      const n = N;
      expect([...perm].sort((a, b) => a - b)).to.deep.equal(Array.from({ length: n }, (_, i) => i));
      for (let i = 0; i < n; i++) expect(inv[perm[i]]).to.equal(i);
      // the fixed vertices follow their renumbering
      expect(Array.from(get('Reorder/perm.out')).sort((a, b) => a - b)).to.deep.equal(mesh.fixed.map((i) => inv[i]).sort((a, b) => a - b));
      for (let s = 0; s < 10; s++) sim.step();
      const x0 = get('NoReorder/dofs.position');
      const x1 = get('Reorder/dofs.position');
      const rest = mesh.position;
      let moved = 0;
      for (let i = 0; i < n; i++)
        for (let c = 0; c < 3; c++) {
          expect(x1[3 * i + c]).to.be.closeTo(x0[3 * perm[i] + c], 1e-9);
          moved = Math.max(moved, Math.abs(x0[3 * perm[i] + c] - rest[3 * perm[i] + c]));
        }
      expect(moved, 'the beam bends').to.be.greaterThan(1e-3);
      // fill of the vertex graph (two vertices joined when a tetrahedron holds both: the pattern of the
      // stiffness) eliminated in the new order, against the mesh's own numbering
      const adjacency = Array.from({ length: n }, (_, i) => new Set([i]));
      const tets = mesh.tetrahedra;
      for (let e = 0; e < tets.length; e += 4)
        for (let a = 0; a < 4; a++) for (let b = 0; b < 4; b++) adjacency[tets[e + a]].add(tets[e + b]);
      const natural = Array.from({ length: n }, (_, i) => i);
      expect(fill(adjacency, perm)).to.be.lessThan(0.7 * fill(adjacency, natural));
    });
  }

  it("an ordering method that is none of SOFA's keeps the default, with a located warning", async () => {
    const sim = await loadSceneFromString(
      beam(`<FillReducingOrdering name="reorder" mstate="@../NoReorder/dofs" topology="@../NoReorder/topo" orderingMethod="AMD"/>`),
    );
    const w = sim.warnings.find((x) => /'AMD' is not an ordering method/.test(x.message));
    expect(w, 'warning').to.not.equal(undefined);
    expect(String(w)).to.match(/FillReducingOrdering 'reorder'/);
  });

  it('MapIndices: old → new by default (the last position of a repeated index), new → old with transpose, unmapped values kept', async () => {
    const sim = await loadSceneFromString(`<Node name="root">
      <MapIndices name="direct" in="0 2 5 9" indices="2 0 5 1 5"/>
      <MapIndices name="transposed" in="0 2 4 9" indices="2 0 5 1 5" transpose="true"/>
      <MapIndices name="pairs" template="fixed_array<unsigned int,2>" in="0 1  1 2" indices="1 2 0"/>
    </Node>`);
    const out = (name: string) => Array.from(resolveDataPath(sim.root, `${name}.out`)!.value as Uint32Array);
    // p = [2 0 5 1 5]: 2 → 0, 0 → 1, 5 → 4 (last), 1 → 3; 9 has no image
    expect(out('direct')).to.deep.equal([1, 0, 4, 9]);
    // transpose: v → p[v]; 9 is past p
    expect(out('transposed')).to.deep.equal([2, 5, 5, 9]);
    expect(out('pairs')).to.deep.equal([2, 0, 0, 1]);
    expect(resolveDataPath(sim.root, 'direct.outStr')!.value).to.equal('1 0 4 9');
  });
});
