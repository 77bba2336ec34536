import {
  Bool,
  contextMeshTopology,
  Indices,
  IndexArray,
  isTopology,
  Real,
  RealArray,
  sofaComponent,
  type BaseMeshTopology,
  type MatrixAccumulator,
  SingleStateForceField,
} from '@sofa-ts/core';
import { addBlock3 } from '@sofa-ts/core';
import { selectAlongPlane } from './pressure-selection.js';

/**
 * SOFA's EdgePressureForceField: a pressure on edges (a line load), shared by the two vertices
 * of each edge e of rest length L_e:
 *   with a nonzero `pressure` vector p:   f_v += p·L_e / 2                       (K = 0)
 *   else with `binormal` b and p_intensity I_e (one value, or one per edge):
 *     f_v += I_e·L_e/2 · n̂_e,   n̂_e = (b̂ × t̂_e)/|b̂ × t̂_e|,   t̂_e = (x_1 − x_0)/|x_1 − x_0|
 *   a load normal to the current edge in the plane orthogonal to b, with
 *   ∂f_v/∂x_1 = −∂f_v/∂x_0 = I_e·L_e/2 · (I − n̂n̂ᵀ)/|b̂ × t̂| · [b̂]× · (I − t̂t̂ᵀ)/|x_1 − x_0|
 *   (SOFA gives no stiffness for it; sofa-ts gives this exact tangent).
 * The edges are `edges` (matched against the topology's edges), else `edgeIndices`, else those
 * whose two vertices satisfy dmin < x0·normal < dmax at rest. SOFA's third mode (no pressure and
 * no binormal: a normal taken from an adjacent triangle in the z = 0 plane) is not supported.
 */
@sofaComponent({
  name: 'EdgePressureForceField',
  category: 'ForceField',
  module: 'Sofa.Component.MechanicalLoad',
  description: 'Pressure (force per unit length) applied on a set of edges.',
  templates: ['Vec3d'],
})
export class EdgePressureForceField extends SingleStateForceField {
  readonly pressure = this.initData({
    name: 'pressure',
    type: RealArray(0, 'Deriv'),
    default: new Float64Array(0),
    unit: 'N/m',
    help: 'pressure force per unit length (a vector)',
  });
  readonly edgeIndices = this.initData({
    name: 'edgeIndices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the edges the pressure is applied to',
  });
  readonly edges = this.initData({
    name: 'edges',
    type: IndexArray(2, 'vector<Edge>'),
    default: new Uint32Array(0),
    help: 'list of edges the pressure is applied to',
  });
  readonly normal = this.initData({
    name: 'normal',
    type: RealArray(0, 'Coord'),
    default: new Float64Array(0),
    help: 'normal direction for the plane selection of edges',
  });
  readonly dmin = this.initData({
    name: 'dmin',
    type: Real,
    default: 0,
    unit: 'm',
    help: 'minimum distance from the origin along the normal direction',
  });
  readonly dmax = this.initData({
    name: 'dmax',
    type: Real,
    default: 0,
    unit: 'm',
    help: 'maximum distance from the origin along the normal direction',
  });
  readonly arrowSizeCoef = this.initData({
    name: 'arrowSizeCoef',
    type: Real,
    default: 0,
    help: 'size of the drawn arrows (0: no arrows, sign: direction of drawing)',
    group: 'Visualization',
  });
  readonly intensity = this.initData({
    name: 'p_intensity',
    type: RealArray(1),
    default: new Float64Array(0),
    unit: 'N/m',
    help: 'pressure intensity on the edge normals (one value, or one per edge)',
  });
  readonly binormal = this.initData({
    name: 'binormal',
    type: RealArray(0, 'Coord'),
    default: new Float64Array(0),
    help: 'binormal of the 2D plane',
  });
  readonly showForces = this.initData({
    name: 'showForces',
    type: Bool,
    default: false,
    help: 'draw arrows of edge pressures',
    group: 'Visualization',
  });

  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'link to the topology container (default: the topology of the context)',
    accepts: isTopology,
    expected: 'a topology',
  });

  /** Loaded edges, (m × 2); rest lengths and intensities I_e·L_e/2 (follower mode), (m). */
  private pairs = new Uint32Array(0);
  private lengths = new Float64Array(0);
  private loads = new Float64Array(0);
  /** Unit binormal, (3), or undefined in the constant mode. */
  private b: Float64Array | undefined;
  /** ∂f_v/∂x_1 per edge (follower mode), (m × 9). */
  private blocks = new Float64Array(0);
  /** Scratch: [b̂]×·(I − t̂t̂ᵀ) (9), n̂, t̂ and a column (3 each). */
  private readonly tmp = new Float64Array(9);
  private readonly nv = new Float64Array(3);
  private readonly tv = new Float64Array(3);
  private readonly cv = new Float64Array(3);

  override init(): void {
    super.init();
    const s = this.states[0];
    if (!this.template) this.template = s.stateType.name;
    if (s.stateType.name !== 'Vec3d')
      throw this.error(`EdgePressureForceField needs a Vec3d state, ${s.describe()} is ${s.stateType.name}`);
    const topo = this.topology.get() ?? contextMeshTopology(this.context);
    if (!topo) throw this.error('no topology: add an edge topology in this node or above, or set topology="@path"');
    this.topology.set(topo);
    const all = topo.getEdges();
    let list: number[] = [];
    if (this.dmin.value !== this.dmax.value)
      list = selectAlongPlane(this, all, 2, s.x0, this.normal.value, this.dmin.value, this.dmax.value);
    if (this.edgeIndices.value.length > 0) list = Array.from(this.edgeIndices.value);
    const given = this.edges.value;
    if (given.length > 0) {
      list = [];
      for (let i = 0; i < given.length; i += 2) {
        let found = -1;
        for (let e = 0; e < all.length / 2; e++) if (all[2 * e] === given[i] && all[2 * e + 1] === given[i + 1]) found = e;
        if (found < 0) throw this.error(`edge (${given[i]}, ${given[i + 1]}) of 'edges' is not an edge of ${topo.describe()}`);
        list.push(found);
      }
    }
    if (list.length === 0)
      this.warn('no edge selected: the pressure acts on nothing', 'give edges, edgeIndices, or normal with dmin < dmax');
    const m = list.length;
    this.pairs = new Uint32Array(2 * m);
    this.lengths = new Float64Array(m);
    const x0 = s.x0;
    list.forEach((e, i) => {
      if (2 * e + 2 > all.length) throw this.error(`edge ${e} is out of range: ${topo.describe()} has ${all.length / 2} edges`);
      const a = all[2 * e],
        b = all[2 * e + 1];
      if (a >= s.size || b >= s.size) throw this.error(`edge ${e} names point ${Math.max(a, b)}, but ${s.describe()} has ${s.size} points`);
      this.pairs[2 * i] = a;
      this.pairs[2 * i + 1] = b;
      this.lengths[i] = Math.hypot(x0[3 * b] - x0[3 * a], x0[3 * b + 1] - x0[3 * a + 1], x0[3 * b + 2] - x0[3 * a + 2]);
    });
    const p = this.pressure.value;
    if (p.length !== 0 && p.length !== 3) throw this.error(`'pressure' needs 3 numbers, got ${p.length}`);
    this.b = undefined;
    if (!(p.length === 3 && Math.hypot(...p) > 0)) {
      const I = this.intensity.value;
      if (I.length === 0) throw this.error('no load: give a nonzero pressure vector, or p_intensity with a binormal');
      if (this.binormal.value.length !== 3)
        throw this.error(
          "SOFA's mode without pressure and without binormal (normals from the adjacent triangles) is not supported",
          'give binormal="0 0 1" (the normal of the plane of the edges), or a pressure vector',
        );
      const bn = Math.hypot(...this.binormal.value);
      if (!(bn > 0)) throw this.error(`'binormal' is zero`);
      this.b = Float64Array.from(this.binormal.value, (v) => v / bn);
      this.loads = Float64Array.from({ length: m }, (_, i) => ((I.length > 1 && i < I.length ? I[i] : I[0]) * this.lengths[i]) / 2);
      this.blocks = new Float64Array(9 * m);
    }
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], _v: readonly Float64Array[]): void {
    const out = f[0],
      xs = x[0],
      P = this.pairs;
    if (!this.b) {
      const p = this.pressure.value;
      for (let i = 0; i < this.lengths.length; i++) {
        const s = this.lengths[i] / 2;
        for (let j = 0; j < 2; j++) for (let k = 0; k < 3; k++) out[3 * P[2 * i + j] + k] += p[k] * s;
      }
      return;
    }
    const b = this.b,
      T = this.tmp;
    for (let i = 0; i < this.loads.length; i++) {
      const a = 3 * P[2 * i],
        c = 3 * P[2 * i + 1];
      // t̂ = u/|u|, w = b̂ × t̂, n̂ = w/|w|
      const ux = xs[c] - xs[a],
        uy = xs[c + 1] - xs[a + 1],
        uz = xs[c + 2] - xs[a + 2];
      const ul = Math.hypot(ux, uy, uz);
      const tx = ux / ul,
        ty = uy / ul,
        tz = uz / ul;
      const wx = b[1] * tz - b[2] * ty,
        wy = b[2] * tx - b[0] * tz,
        wz = b[0] * ty - b[1] * tx;
      const wl = Math.hypot(wx, wy, wz);
      const n = this.nv,
        t = this.tv,
        col = this.cv;
      n[0] = wx / wl;
      n[1] = wy / wl;
      n[2] = wz / wl;
      t[0] = tx;
      t[1] = ty;
      t[2] = tz;
      const load = this.loads[i];
      for (let k = 0; k < 3; k++) {
        out[a + k] += load * n[k];
        out[c + k] += load * n[k];
      }
      // ∂f/∂x_1 = load·(I − n̂n̂ᵀ)/|w| · [b̂]× · (I − t̂t̂ᵀ)/|u|:  first T = [b̂]×·(I − t̂t̂ᵀ)
      for (let c2 = 0; c2 < 3; c2++) {
        for (let q = 0; q < 3; q++) col[q] = (q === c2 ? 1 : 0) - t[q] * t[c2];
        T[c2] = b[1] * col[2] - b[2] * col[1];
        T[3 + c2] = b[2] * col[0] - b[0] * col[2];
        T[6 + c2] = b[0] * col[1] - b[1] * col[0];
      }
      const scale = load / (wl * ul);
      const B = this.blocks;
      for (let r = 0; r < 3; r++) {
        for (let c2 = 0; c2 < 3; c2++) {
          let sum = 0;
          for (let q = 0; q < 3; q++) sum += ((r === q ? 1 : 0) - n[r] * n[q]) * T[3 * q + c2];
          B[9 * i + 3 * r + c2] = scale * sum;
        }
      }
    }
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    if (!this.b) return;
    const k = this.kFactorWithRayleigh(kFactor, bFactor),
      out = df[0],
      d = dx[0],
      P = this.pairs,
      B = this.blocks;
    for (let i = 0; i < this.loads.length; i++) {
      const a = 3 * P[2 * i],
        c = 3 * P[2 * i + 1];
      const d0 = d[c] - d[a],
        d1 = d[c + 1] - d[a + 1],
        d2 = d[c + 2] - d[a + 2];
      for (let r = 0; r < 3; r++) {
        const g = k * (B[9 * i + 3 * r] * d0 + B[9 * i + 3 * r + 1] * d1 + B[9 * i + 3 * r + 2] * d2);
        out[a + r] += g;
        out[c + r] += g;
      }
    }
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    if (!this.b) return;
    const P = this.pairs;
    for (let i = 0; i < this.loads.length; i++) {
      const a = 3 * P[2 * i],
        c = 3 * P[2 * i + 1];
      for (let j = 0; j < 2; j++) {
        const row = j === 0 ? a : c;
        addBlock3(acc, row, a, this.blocks, 9 * i, -kFactor);
        addBlock3(acc, row, c, this.blocks, 9 * i, kFactor);
      }
    }
  }

  /** Rest lengths of the loaded edges. */
  get restLengths(): Float64Array {
    return this.lengths;
  }
}
