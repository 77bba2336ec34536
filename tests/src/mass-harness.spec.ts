import { expect } from 'chai';
import { isMass, type BaseForceField, type BaseMass } from 'sofa-ts';
import {
  DenseAccumulator,
  dot,
  findNamed,
  maxAbs,
  maxDiff,
  meshes,
  randomVector,
  registeredOfKind,
  rng,
  sceneOf,
} from './harness-support-test-support.js';

/**
 * The generic mass harness (SOFA's Mass_test), run over every registered mass in a small scene
 * built through the XML path:
 * - addMDx(dx, factor) = factor·M·dx with M assembled by addMToMatrix, M symmetric;
 * - kinetic energy ½·vᵀ·M·v; accFromF the inverse of M (diagonal masses): M·accFromF(f) = f;
 * - gravity f = M·g (g on the translations), its potential −∂E/∂x = f;
 * and the per-vertex and per-edge values of SOFA's conventions, computed here from the mesh:
 * DiagonalMass lumps ρ·|e|/n to each of the n nodes of element e; MeshMatrixMass puts ρ|e|·(vertex,
 * edge) factors (1/3, 1/6) on edges, (1/6, 1/12) on triangles, (1/10, 1/20) on tetrahedra,
 * (1/20, 1/40 on the 12 edges) on hexahedra, and with lumping the row sums on the diagonal;
 * FEMMass integrates ρ·N_i·N_j with one centroid point on tetrahedra (ρV/16 everywhere) and
 * 2×2×2 Gauss points on hexahedra (the exact consistent matrix, ρ·Π(L/6)·(2 or 1) per axis).
 */

const { cube, cubeTetra, cubeHexa, strip, stripTriangles, stripQuads } = meshes;
const P = cube.trim().split(/\s+/).map(Number);
const S = strip.trim().split(/\s+/).map(Number);
const idx = (s: string) => s.trim().split(/\s+/).map(Number);
const pt = (p: number[], i: number) => [p[3 * i], p[3 * i + 1], p[3 * i + 2]] as const;
const sub = (a: readonly number[], b: readonly number[]) => a.map((x, i) => x - b[i]);
const cross = (a: number[], b: number[]) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const tetVolume = (p: number[], t: number[]) =>
  dot(sub(pt(p, t[1]), pt(p, t[0])), cross(sub(pt(p, t[2]), pt(p, t[0])), sub(pt(p, t[3]), pt(p, t[0])))) / 6;
const triArea = (p: number[], t: number[]) => Math.hypot(...cross(sub(pt(p, t[1]), pt(p, t[0])), sub(pt(p, t[2]), pt(p, t[0])))) / 2;
const chunks = (a: number[], n: number) => Array.from({ length: a.length / n }, (_, i) => a.slice(n * i, n * i + n));

/** A scalar n×n matrix (one axis of M). */
type Scalar = (n: number) => Float64Array;
/** Σ over elements of ρ|e|·(vertex factor on the diagonal, edge factor on the element's node pairs). */
function elementMatrix(
  elements: number[][],
  measure: (e: number[]) => number,
  vertex: number,
  edge: number,
  pairs?: (e: number[]) => [number, number][],
): Scalar {
  return (n) => {
    const M = new Float64Array(n * n);
    for (const e of elements) {
      const w = measure(e);
      for (const i of e) M[i * n + i] += w * vertex;
      const ps = pairs ? pairs(e) : e.flatMap((a, i) => e.slice(i + 1).map((b) => [a, b] as [number, number]));
      for (const [a, b] of ps) ((M[a * n + b] += w * edge), (M[b * n + a] += w * edge));
    }
    return M;
  };
}
const lumped =
  (f: Scalar): Scalar =>
  (n) => {
    const M = f(n),
      L = new Float64Array(n * n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) L[i * n + i] += M[i * n + j];
    return L;
  };
/** The 12 edges of a hexahedron in SOFA's node order (0 1 2 3 bottom, 4 5 6 7 top). */
const hexEdges = (e: number[]): [number, number][] =>
  [
    [0, 1],
    [1, 2],
    [2, 3],
    [3, 0],
    [4, 5],
    [5, 6],
    [6, 7],
    [7, 4],
    [0, 4],
    [1, 5],
    [2, 6],
    [3, 7],
  ].map(([a, b]) => [e[a!], e[b!]]);
/** Consistent trilinear mass of an axis-aligned unit cube (2×2×2 Gauss is exact): ρ·Π over axes of (2 or 1)/6. */
function exactHexMass(rho: number, hexa: number[]): Scalar {
  return (n) => {
    const M = new Float64Array(n * n);
    for (const i of hexa)
      for (const j of hexa) {
        const a = pt(P, i),
          b = pt(P, j);
        M[i * n + j] += rho * [0, 1, 2].reduce((s, d) => s * ((a[d] === b[d] ? 2 : 1) / 6), 1);
      }
    return M;
  };
}

const tets = chunks(idx(cubeTetra), 4),
  tris = chunks(idx(stripTriangles), 3),
  quads = chunks(idx(stripQuads), 4),
  hexa = idx(cubeHexa);
const edges = [
  [0, 1],
  [1, 2],
  [3, 4],
  [4, 5],
  [0, 3],
];
const edgeLength = (p: number[]) => (e: number[]) => Math.hypot(...sub(pt(p, e[0]), pt(p, e[1])));
const rho = 3;

const tetMesh = (mass: string) =>
  `<TetrahedronSetTopologyContainer position="${cube}" tetrahedra="${cubeTetra}"/><MechanicalObject name="dofs" position="${cube}"/>${mass}`;
const hexMesh = (mass: string) =>
  `<HexahedronSetTopologyContainer position="${cube}" hexahedra="${cubeHexa}"/><MechanicalObject name="dofs" position="${cube}"/>${mass}`;
const triMesh = (mass: string) =>
  `<TriangleSetTopologyContainer position="${strip}" triangles="${stripTriangles}"/><MechanicalObject name="dofs" position="${strip}"/>${mass}`;
const quadMesh = (mass: string) =>
  `<QuadSetTopologyContainer position="${strip}" quads="${stripQuads}"/><MechanicalObject name="dofs" position="${strip}"/>${mass}`;
const edgeMesh = (mass: string) =>
  `<EdgeSetTopologyContainer position="${strip}" edges="${edges.flat().join(' ')}"/><MechanicalObject name="dofs" position="${strip}"/>${mass}`;

interface Case {
  label: string;
  xml: string;
  /** SOFA's convention for one axis of M, when the harness states one. */
  expected?: Scalar;
  /** Total mass (Σ of one axis of M). */
  total?: number;
  /** Gravity with these point masses instead of M (SOFA's …ForceFieldAndMass: its particle masses ρV/8). */
  gravityMasses?: number[];
}

/**
 * SOFA's Hexahedron(al)FEMForceFieldAndMass element mass: its integrateMass takes node i's corner
 * signs for both nodes, which gives (8/27)·ρV in every 3×3 block (a total of 512/27·ρV, not ρV);
 * sofa-ts keeps SOFA's matrix. Gravity uses the particle masses ρV/8.
 */
function sofaHexFFMass(n: number): Float64Array {
  const M = new Float64Array(n * n);
  for (const i of hexa) for (const j of hexa) M[i * n + j] += (8 / 27) * rho;
  return M;
}

const cases: Record<string, Case[]> = {
  UniformMass: [
    {
      label: 'totalMass on 8 points',
      xml: `<MechanicalObject name="dofs" position="${cube}"/><UniformMass name="mass" totalMass="2"/>`,
      expected: (n) => diag(n, 2 / 8),
      total: 2,
    },
    {
      label: 'Rigid3d frames',
      xml: '<MechanicalObject name="dofs" template="Rigid3d" position="0 0 0 0 0 0 1  1 0 0 0 0.6 0 0.8"/><UniformMass name="mass" vertexMass="1.5 1 0.3 0 0 0 0.2 0 0 0 0.1"/>',
    },
  ],
  DiagonalMass: [
    {
      label: 'tetrahedra: ρV/4 per node',
      xml: tetMesh(`<DiagonalMass name="mass" massDensity="${rho}"/>`),
      expected: lumpedOf(tets, (t) => rho * tetVolume(P, t), 4),
      total: rho,
    },
    {
      label: 'hexahedra: ρV/8 per node',
      xml: hexMesh(`<DiagonalMass name="mass" massDensity="${rho}"/>`),
      expected: lumpedOf([hexa], () => rho, 8),
      total: rho,
    },
    {
      label: 'triangles: ρA/3 per node',
      xml: triMesh(`<DiagonalMass name="mass" massDensity="${rho}"/>`),
      expected: lumpedOf(tris, (t) => rho * triArea(S, t), 3),
      total: 2 * rho,
    },
    {
      label: 'quads: ρA/4 per node',
      xml: quadMesh(`<DiagonalMass name="mass" massDensity="${rho}"/>`),
      expected: lumpedOf(quads, () => rho, 4),
      total: 2 * rho,
    },
    {
      label: 'edges: ρL/2 per node',
      xml: edgeMesh(`<DiagonalMass name="mass" massDensity="${rho}"/>`),
      expected: lumpedOf(edges, (e) => rho * edgeLength(S)(e), 2),
      total: 5 * rho,
    },
  ],
  MeshMatrixMass: [
    {
      label: 'tetrahedra: ρV/10, ρV/20',
      xml: tetMesh(`<MeshMatrixMass name="mass" massDensity="${rho}"/>`),
      expected: elementMatrix(tets, (t) => rho * tetVolume(P, t), 1 / 10, 1 / 20),
      total: rho,
    },
    {
      label: 'tetrahedra, lumped',
      xml: tetMesh(`<MeshMatrixMass name="mass" massDensity="${rho}" lumping="true"/>`),
      expected: lumped(elementMatrix(tets, (t) => rho * tetVolume(P, t), 1 / 10, 1 / 20)),
      total: rho,
    },
    {
      label: 'hexahedra: ρV/20, ρV/40 on the 12 edges',
      xml: hexMesh(`<MeshMatrixMass name="mass" massDensity="${rho}"/>`),
      expected: elementMatrix([hexa], () => rho, 1 / 20, 1 / 40, hexEdges),
      total: rho,
    },
    {
      label: 'hexahedra, lumped',
      xml: hexMesh(`<MeshMatrixMass name="mass" massDensity="${rho}" lumping="true"/>`),
      expected: lumped(elementMatrix([hexa], () => rho, 1 / 20, 1 / 40, hexEdges)),
      total: rho,
    },
    {
      label: 'triangles: ρA/6, ρA/12',
      xml: triMesh(`<MeshMatrixMass name="mass" massDensity="${rho}"/>`),
      expected: elementMatrix(tris, (t) => rho * triArea(S, t), 1 / 6, 1 / 12),
      total: 2 * rho,
    },
    {
      label: 'triangles, lumped',
      xml: triMesh(`<MeshMatrixMass name="mass" massDensity="${rho}" lumping="true"/>`),
      expected: lumped(elementMatrix(tris, (t) => rho * triArea(S, t), 1 / 6, 1 / 12)),
      total: 2 * rho,
    },
    {
      label: 'edges: ρL/3, ρL/6',
      xml: edgeMesh(`<MeshMatrixMass name="mass" massDensity="${rho}"/>`),
      expected: elementMatrix(edges, (e) => rho * edgeLength(S)(e), 1 / 3, 1 / 6),
      total: 5 * rho,
    },
  ],
  FEMMass: [
    {
      label: 'tetrahedra, centroid rule: ρV/16',
      xml: tetMesh(`<NodalMassDensity property="${rho}"/><FEMMass name="mass" template="Vec3,Tetrahedron"/>`),
      expected: (n) => {
        const M = new Float64Array(n * n);
        for (const t of tets) for (const i of t) for (const j of t) M[i * n + j] += (rho * tetVolume(P, t)) / 16;
        return M;
      },
      total: rho,
    },
    {
      label: 'hexahedra, 2×2×2 Gauss: the consistent matrix',
      xml: hexMesh(`<NodalMassDensity property="${rho}"/><FEMMass name="mass" template="Vec3,Hexahedron"/>`),
      expected: exactHexMass(rho, hexa),
      total: rho,
    },
  ],
  HexahedronFEMForceFieldAndMass: [
    {
      label: `consistent: SOFA's 8/27·ρV in every block`,
      xml: hexMesh(`<HexahedronFEMForceFieldAndMass name="ff" density="${rho}" youngModulus="1000" poissonRatio="0.3"/>`),
      expected: sofaHexFFMass,
      total: (512 / 27) * rho,
      gravityMasses: Array(8).fill(rho / 8),
    },
    {
      label: 'lumpedMass: the row sums, 64/27·ρV',
      xml: hexMesh(`<HexahedronFEMForceFieldAndMass name="ff" density="${rho}" lumpedMass="true" youngModulus="1000" poissonRatio="0.3"/>`),
      expected: lumped(sofaHexFFMass),
      total: (512 / 27) * rho,
      gravityMasses: Array(8).fill(rho / 8),
    },
  ],
  // on a plain hexahedron container: the classical masses (the condensation is pinned by nonuniform-hexahedron.spec)
  NonUniformHexahedronFEMForceFieldAndMass: [
    {
      label: `classical: SOFA's 8/27·ρV in every block`,
      xml: hexMesh(`<NonUniformHexahedronFEMForceFieldAndMass name="ff" density="${rho}" youngModulus="1000" poissonRatio="0.3"/>`),
      expected: sofaHexFFMass,
      total: (512 / 27) * rho,
      gravityMasses: Array(8).fill(rho / 8),
    },
  ],
  // a filled sparse grid cell, homogenized from two finer levels: WᵀMW keeps the total 512/27·ρV; gravity ρV/8 per corner
  HexahedronCompositeFEMForceFieldAndMass: [
    {
      label: 'a filled sparse grid cell: the homogenized matrix keeps 512/27·ρV',
      xml: `<SparseGridRamificationTopology name="topo" n="2 2 2" min="0 0 0" max="1 1 1" nbVirtualFinerLevels="2" finestConnectivity="0" fillWeighted="0"
              position="0.05 0.05 0.05  0.95 0.05 0.05  0.05 0.95 0.05  0.95 0.95 0.05  0.05 0.05 0.95  0.95 0.05 0.95  0.05 0.95 0.95  0.95 0.95 0.95" quads="0 2 3 1  4 5 7 6  0 1 5 4  2 6 7 3  0 4 6 2  1 3 7 5"/>
            <MechanicalObject name="dofs"/>
            <HexahedronCompositeFEMForceFieldAndMass name="ff" nbVirtualFinerLevels="2" density="${rho}" youngModulus="1000" poissonRatio="0.3"/>`,
      total: (512 / 27) * rho,
      gravityMasses: Array(8).fill(rho / 8),
    },
  ],
  HexahedralFEMForceFieldAndMass: [
    {
      label: `consistent: SOFA's 8/27·ρV in every block`,
      xml: hexMesh(`<HexahedralFEMForceFieldAndMass name="ff" density="${rho}" youngModulus="1000" poissonRatio="0.3"/>`),
      expected: sofaHexFFMass,
      total: (512 / 27) * rho,
      gravityMasses: Array(8).fill(rho / 8),
    },
    {
      label: 'lumpedMass: the row sums, 64/27·ρV',
      xml: hexMesh(`<HexahedralFEMForceFieldAndMass name="ff" density="${rho}" lumpedMass="true" youngModulus="1000" poissonRatio="0.3"/>`),
      expected: lumped(sofaHexFFMass),
      total: (512 / 27) * rho,
      gravityMasses: Array(8).fill(rho / 8),
    },
  ],
  AdaptiveBeamForceFieldAndMass: [
    {
      label: 'beam of two elements',
      xml: `<EdgeSetTopologyContainer position="0 0 0  1 0 0  2 0 0" edges="0 1  1 2"/>
            <MechanicalObject name="dofs" template="Rigid3d" position="0 0 0 0 0 0 1  1 0 0 0 0 0 1  2 0 0 0 0 0 1"/>
            <BeamInterpolation radius="0.1" defaultYoungModulus="1e4"/><AdaptiveBeamForceFieldAndMass name="ff" massDensity="${rho}"/>`,
    },
  ],
};

function diag(n: number, m: number): Float64Array {
  const M = new Float64Array(n * n);
  for (let i = 0; i < n; i++) M[i * n + i] = m;
  return M;
}
/** ρ|e|/nodes on each node of each element. */
function lumpedOf(elements: number[][], measure: (e: number[]) => number, nodes: number): Scalar {
  return (n) => {
    const M = new Float64Array(n * n);
    for (const e of elements) for (const i of e) M[i * n + i] += measure(e) / nodes;
    return M;
  };
}

const untestable: Record<string, string> = {};

describe("mass harness (M, addMDx, energies, accFromF, gravity and SOFA's mass values of every registered mass)", () => {
  // masses, and the force fields that are also masses (their companion mass is `<name>_mass`)
  const registered = registeredOfKind((o) => isMass(o) || /ForceFieldAndMass$/.test(o.className));

  it('covers every registered mass, or lists it with the reason', () => {
    expect(
      registered.filter((n) => !(n in cases) && !(n in untestable)),
      'masses with neither a case nor a reason',
    ).to.deep.equal([]);
    expect(Object.keys(cases).filter((n) => !registered.includes(n))).to.deep.equal([]);
  });

  let seed = 300;
  for (const [name, variants] of Object.entries(cases)) {
    for (const c of variants) {
      const s = seed++;
      it(`${name}: ${c.label}`, async () => {
        const g = [0.5, -9.81, 2];
        const scene = await sceneOf(c.xml, `gravity="${g.join(' ')}"`);
        const andMass = name.endsWith('ForceFieldAndMass');
        const mass = findNamed<BaseMass>(scene.root, andMass ? 'ff_mass' : 'mass');
        if (andMass) expect(findNamed(scene.root, 'ff').className).to.equal(name);
        else expect(mass.className).to.equal(name);
        const st = mass.getMechanicalState();
        const d = st.stateType.derivSize,
          np = st.size,
          n = np * d;
        const M = new DenseAccumulator(n);
        mass.addMToMatrix(M, 1);
        for (let i = 0; i < n; i++)
          for (let j = 0; j < i; j++) expect(M.get(i, j), `M symmetric (${i}, ${j})`).to.be.closeTo(M.get(j, i), 1e-14 * maxAbs(M.a));
        const rand = rng(s);
        const dx = randomVector(n, 1, rand);
        const out = randomVector(n, 1, rand),
          before = Float64Array.from(out);
        mass.addMDx(out, dx, 0.7);
        const Mdx = M.times(dx);
        expect(
          maxDiff(
            out.map((o, i) => o - before[i]),
            Mdx.map((a) => 0.7 * a),
          ),
          'addMDx accumulates factor·M·dx',
        ).to.be.below(1e-13 * Math.max(1, maxAbs(Mdx)));
        const v = randomVector(n, 1, rand);
        expect(mass.getKineticEnergy(v)).to.be.closeTo(0.5 * dot(v, M.times(v)), 1e-13 * Math.max(1, dot(v, M.times(v))));
        if (mass.isDiagonal) {
          const f = randomVector(n, 1, rand),
            a = new Float64Array(n);
          mass.accFromF(a, f);
          expect(maxDiff(M.times(a), f), 'M·accFromF(f) = f').to.be.below(1e-12 * maxAbs(f));
        }
        // gravity: f = M·G with G = g on each point's translation
        const G = new Float64Array(n);
        for (let p = 0; p < np; p++) for (let k = 0; k < Math.min(3, d); k++) G[p * d + k] = g[k];
        const fg = new Float64Array(n);
        mass.addForce(fg, Float64Array.from(st.x), new Float64Array(n));
        // a …ForceFieldAndMass adds gravity in the force field's addForce (at rest: no elastic force)
        if (andMass) findNamed<BaseForceField>(scene.root, 'ff').addForce([fg], [Float64Array.from(st.x)], [new Float64Array(n)]);
        // expected gravity: M·G, or the given point masses times g
        const MG = c.gravityMasses ? G.map((gi, i) => gi * c.gravityMasses![Math.floor(i / d)]) : M.times(G);
        expect(maxDiff(fg, MG), c.gravityMasses ? 'gravity f = m_i·g' : 'gravity f = M·g').to.be.below(1e-12 * maxAbs(fg));
        if (st.stateType.coordSize === d) {
          const x = Float64Array.from(st.x),
            h = 1e-3;
          for (let j = 0; j < n; j++) {
            const xp = Float64Array.from(x),
              xm = Float64Array.from(x);
            xp[j] += h;
            xm[j] -= h;
            expect(-(mass.getPotentialEnergy(xp) - mass.getPotentialEnergy(xm)) / (2 * h), 'f = −∂E/∂x').to.be.closeTo(
              fg[j],
              1e-9 * Math.max(1, maxAbs(fg)),
            );
          }
        }
        // SOFA's values: one axis of M is the scalar matrix of the convention, the others equal
        if (c.expected) {
          const E = c.expected(np);
          for (let i = 0; i < np; i++)
            for (let j = 0; j < np; j++)
              for (let a = 0; a < d; a++)
                for (let b = 0; b < d; b++)
                  expect(M.get(i * d + a, j * d + b), `M(${i}·${a}, ${j}·${b})`).to.be.closeTo(
                    a === b ? E[i * np + j] : 0,
                    1e-13 * maxAbs(E),
                  );
        }
        if (c.total !== undefined) {
          let t = 0;
          for (let i = 0; i < np; i++) for (let j = 0; j < np; j++) t += M.get(i * d, j * d);
          expect(t, 'total mass').to.be.closeTo(c.total, 1e-12 * c.total);
        }
      });
    }
  }
});
