import { contextMeshTopology, Bool, IndexArray, Real, isTopology, sofaComponent, type BaseMeshTopology, type Data } from '@sofa-ts/core';
import { StiffSpringForceField } from './SpringForceField.js';
import { perTypeValue } from './shared-stiffness.js';

/** No bound, SOFA's InvalidID (the largest unsigned 32-bit index). */
const INVALID_ID = 0xffffffff;

/**
 * SOFA's MeshSpringForceField: one linear spring (SpringForceField's law) on every edge of the
 * node's topology and of its elements. Element types are taken in the order lines, triangles, quads,
 * tetrahedra, hexahedra; each type with a nonzero stiffness or damping adds a spring on every pair
 * of its vertices (all 28 pairs of a hexahedron). A pair of points gets one spring only, from the
 * first element type that reaches it: stiffnesses of shared edges do not add up.
 * For a spring (a, b) with rest length L = |x0_b − x0_a| (rest positions):
 *   ks = stiffness / L,  kd = damping / L      (L > machine epsilon; otherwise the values as given)
 * so that `stiffness` is an elastic modulus times a section. noCompression makes every spring act
 * only when elongated. As in SOFA, the attribute `stiffness` (`damping`) sets the stiffness
 * (damping) of every element type; a per-type attribute written after it overrides it.
 */
@sofaComponent({
  name: 'MeshSpringForceField',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.Spring',
  description:
    'Springs on the edges of a mesh (lines, triangles, quads, tetrahedra, hexahedra), with per-element-type stiffness and damping.',
  templates: ['Vec3d', 'Vec2d', 'Vec1d'],
})
export class MeshSpringForceField extends StiffSpringForceField {
  readonly linesStiffness = this.initData({
    name: 'linesStiffness',
    type: Real,
    default: 0,
    unit: 'N',
    help: 'stiffness of the springs on lines (divided by the rest length)',
  });
  readonly linesDamping = this.initData({
    name: 'linesDamping',
    type: Real,
    default: 0,
    unit: 'N·s',
    help: 'damping of the springs on lines (divided by the rest length)',
  });
  readonly trianglesStiffness = this.initData({
    name: 'trianglesStiffness',
    type: Real,
    default: 0,
    unit: 'N',
    help: 'stiffness of the springs on the edges of triangles',
  });
  readonly trianglesDamping = this.initData({
    name: 'trianglesDamping',
    type: Real,
    default: 0,
    unit: 'N·s',
    help: 'damping of the springs on the edges of triangles',
  });
  readonly quadsStiffness = this.initData({
    name: 'quadsStiffness',
    type: Real,
    default: 0,
    unit: 'N',
    help: 'stiffness of the springs between the vertices of quads (edges and diagonals)',
  });
  readonly quadsDamping = this.initData({
    name: 'quadsDamping',
    type: Real,
    default: 0,
    unit: 'N·s',
    help: 'damping of the springs between the vertices of quads',
  });
  readonly tetrahedraStiffness = this.initData({
    name: 'tetrahedraStiffness',
    type: Real,
    default: 0,
    unit: 'N',
    help: 'stiffness of the springs on the edges of tetrahedra',
    aliases: ['tetrasStiffness'],
  });
  readonly tetrahedraDamping = this.initData({
    name: 'tetrahedraDamping',
    type: Real,
    default: 0,
    unit: 'N·s',
    help: 'damping of the springs on the edges of tetrahedra',
    aliases: ['tetrasDamping'],
  });
  readonly cubesStiffness = this.initData({
    name: 'cubesStiffness',
    type: Real,
    default: 0,
    unit: 'N',
    help: 'stiffness of the springs between the vertices of hexahedra (edges, face and body diagonals)',
  });
  readonly cubesDamping = this.initData({
    name: 'cubesDamping',
    type: Real,
    default: 0,
    unit: 'N·s',
    help: 'damping of the springs between the vertices of hexahedra',
  });
  readonly noCompression = this.initData({ name: 'noCompression', type: Bool, default: false, help: 'springs act only when elongated' });
  readonly drawMinElongationRange = this.initData({
    name: 'drawMinElongationRange',
    type: Real,
    default: 8,
    help: 'min range of elongation for the colors (red elongation, blue neutral, green compression)',
    group: 'Visualization',
  });
  readonly drawMaxElongationRange = this.initData({
    name: 'drawMaxElongationRange',
    type: Real,
    default: 15,
    help: 'max range of elongation for the colors',
    group: 'Visualization',
  });
  readonly drawSpringSize = this.initData({
    name: 'drawSpringSize',
    type: Real,
    default: 8,
    help: 'width of the drawn lines',
    group: 'Visualization',
  });
  readonly localRange = this.initData({
    name: 'localRange',
    type: IndexArray(2, 'Vec2u'),
    default: Uint32Array.of(INVALID_ID, INVALID_ID),
    help: 'optional range [first, last] of point indices: springs with a point before first, or with both points after last, are left out',
  });

  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'the topology giving the edges and elements (default: the one of this node or an ancestor)',
    accepts: isTopology,
    expected: 'a topology',
  });

  /** The topology's changeRevision the springs were built for: a topological change rebuilds them. */
  private builtRevision = -1;

  override addForce(f: readonly Float64Array[], x: readonly Float64Array[], v: readonly Float64Array[]): void {
    const topo = this.topology.get();
    if (topo && topo.changeRevision !== this.builtRevision) this.buildSprings();
    super.addForce(f, x, v);
  }

  protected override buildSprings(): void {
    const s1 = this.object1.get()!;
    const s2 = this.object2.get()!;
    const m1: number[] = [],
      m2: number[] = [],
      ks: number[] = [],
      kd: number[] = [],
      rest: number[] = [];
    if (s1 === s2) {
      const topo = this.topology.get() ?? contextMeshTopology(this.context);
      if (!topo) throw this.error('no topology: MeshSpringForceField needs a topology in its node (or set topology="@path")');
      this.topology.set(topo);
      this.builtRevision = topo.changeRevision;
      const N = this.N;
      const x0 = s1.x0;
      const lr = this.localRange.value;
      const lo = lr.length === 2 ? lr[0] : INVALID_ID;
      const hi = lr.length === 2 ? lr[1] : INVALID_ID;
      const seen = new Set<number>();
      const n = s1.size;
      const add = (a: number, b: number, k: number, d: number): void => {
        if (lo !== INVALID_ID && (a < lo || b < lo)) return;
        if (hi !== INVALID_ID && a > hi && b > hi) return;
        if (a >= n || b >= n) throw this.error(`the topology names point ${Math.max(a, b)}, but ${s1.describe()} has ${n} points`);
        const key = a < b ? a * n + b : b * n + a;
        if (seen.has(key)) return;
        seen.add(key);
        let l2 = 0;
        for (let c = 0; c < N; c++) {
          const u = x0[b * N + c] - x0[a * N + c];
          l2 += u * u;
        }
        const l = Math.sqrt(l2);
        m1.push(a);
        m2.push(b);
        ks.push(l > Number.EPSILON ? k / l : k);
        kd.push(l > Number.EPSILON ? d / l : d);
        rest.push(l);
      };
      // Each element type in SOFA's order, all pairs of vertices of each element in SOFA's order.
      const types: [Uint32Array, number, readonly (readonly [number, number])[], Data<number>, Data<number>][] = [
        [topo.getEdges(), 2, LINE_PAIRS, this.linesStiffness, this.linesDamping],
        [topo.getTriangles(), 3, TRIANGLE_PAIRS, this.trianglesStiffness, this.trianglesDamping],
        [topo.getQuads(), 4, TETRA_PAIRS, this.quadsStiffness, this.quadsDamping],
        [topo.getTetrahedra(), 4, TETRA_PAIRS, this.tetrahedraStiffness, this.tetrahedraDamping],
        [topo.getHexahedra(), 8, HEXA_PAIRS, this.cubesStiffness, this.cubesDamping],
      ];
      for (const [elems, size, pairs, kData, dData] of types) {
        const k = perTypeValue(kData, this.stiffness);
        const d = perTypeValue(dData, this.damping);
        if (k === 0 && d === 0) continue;
        for (let e = 0; e + size <= elems.length; e += size) {
          for (const [i, j] of pairs) add(elems[e + i], elems[e + j], k, d);
        }
      }
    }
    const count = m1.length;
    this.allocate(count);
    for (let i = 0; i < count; i++) {
      this.a[i] = m1[i];
      this.b[i] = m2[i];
      this.ks[i] = ks[i];
      this.kd[i] = kd[i];
      this.rest[i] = rest[i];
    }
    this.elongOnly.fill(this.noCompression.value ? 1 : 0);
    this.active.fill(1);
  }
}

const LINE_PAIRS = [[0, 1]] as const;
const TRIANGLE_PAIRS = [
  [0, 1],
  [0, 2],
  [1, 2],
] as const;
/** The six pairs of four vertices (quads and tetrahedra). */
const TETRA_PAIRS = [
  [0, 1],
  [0, 2],
  [0, 3],
  [1, 2],
  [1, 3],
  [2, 3],
] as const;
/** The 28 pairs of eight vertices, (k, j) for k < j. */
const HEXA_PAIRS: readonly (readonly [number, number])[] = Array.from({ length: 8 }, (_, k) =>
  Array.from({ length: 7 - k }, (_, j) => [k, k + 1 + j] as const),
).flat();
