import {
  Bool,
  Indices,
  Real,
  UInt,
  Vec3,
  applyRemoval,
  contextMechanicalState,
  isMechanicalState,
  sofaComponent,
  type BaseMechanicalState,
  type TopologyChange,
} from '@sofa-ts/core';
import { QuadSetTopologyContainer } from '../container/QuadSetTopologyContainer.js';
import { QuadSetTopologyModifier } from '../container/QuadSetTopologyModifier.js';
import { TopologicalMapping } from './topological-mapping.js';

/**
 * SOFA's Edge2QuadTopologicalMapping: the skin of a tube around a curve of edges. Each input point
 * p becomes a circle of N output points p·N + j (j = 0 … N − 1), and each input edge (p0, p1) the N
 * quads (p0·N + j, p1·N + j, p1·N + j', p0·N + j') with j' = (j + 1) mod N; flipNormals reverses
 * their order. `edgeList` restricts the quads to the listed edges. TubularMapping moves the circle
 * points with Rigid3 frames; at init this mapping also places them in the mechanical state of the
 * output's node, when there is one, around the frames of the input's Rigid3 state (centre c,
 * rotation R, θ_j = 2πj/N):
 *   circle:  x = c + ρ·(cos θ_j·R·e_y + sin θ_j·R·e_z)                  (radius ρ)
 *   ellipse: x = c + ρ·cos θ_j·R·Y0 + ρ_f·sin θ_j·R·Z0,  Z0 = focalAxis/|focalAxis|, Y0 = Z0 × e_x
 *            (when radiusFocal is set and positive).
 * Topological changes of the input, as SOFA follows them: edges added → their N quads appended;
 * edges removed → their quads removed (isolated edges too; the points stay, so that point p·N + j
 * keeps following frame p, where SOFA also removes the points left isolated); points added → N
 * circle points each (interpolated from the ancestors' circles). Points removed are not followed
 * (nor are they in SOFA): a warning says so.
 */
@sofaComponent({
  name: 'Edge2QuadTopologicalMapping',
  category: 'TopologicalMapping',
  module: 'Sofa.Component.Topology.Mapping',
  description: 'Special case of mapping where EdgeSetTopology is converted to QuadSetTopology: a tube of quads around a curve of edges.',
})
export class Edge2QuadTopologicalMapping extends TopologicalMapping {
  readonly nbPointsOnEachCircle = this.initData({
    name: 'nbPointsOnEachCircle',
    type: UInt,
    default: 0,
    help: 'Discretization of created circles',
  });
  readonly radius = this.initData({ name: 'radius', type: Real, default: 1, unit: 'length', help: 'Radius of created circles in yz plan' });
  readonly radiusFocal = this.initData({
    name: 'radiusFocal',
    type: Real,
    default: 0,
    unit: 'length',
    help: 'If greater than 0., radius in focal axis of created ellipses',
  });
  readonly focalAxis = this.initData({ name: 'focalAxis', type: Vec3, default: Float64Array.of(0, 0, 1), help: 'In case of ellipses' });
  readonly edgeList = this.initData({
    name: 'edgeList',
    type: Indices,
    default: new Uint32Array(0),
    help: 'list of input edges for the topological mapping: by default, all considered',
  });
  readonly flipNormals = this.initData({
    name: 'flipNormals',
    type: Bool,
    default: false,
    help: 'Flip Normal ? (Inverse point order when creating quad)',
  });

  /** Input edge of each output quad (SOFA's Loc2GlobDataVec), nQuads. */
  private readonly loc2glob: number[] = [];

  override init(): void {
    const from = this.inputTopology();
    const to = this.outputContainer(QuadSetTopologyContainer, 'QuadSetTopologyContainer', 'QuadSetTopologyModifier');
    if (!this.radius.isSet && !this.radiusFocal.isSet) throw this.error('no radius (neither radius nor radiusFocal) defined');
    if (this.radius.isSet && !(this.radius.value > 0)) throw this.dataError(this.radius, 'radius is zero or negative');
    if (this.radiusFocal.isSet && !(this.radiusFocal.value > 0))
      this.warnAbout(this.radiusFocal, 'radiusFocal is zero or negative: circles are built');
    const N = this.nbPointsOnEachCircle.value;
    if (N < 1) throw this.error('nbPointsOnEachCircle is 0: the circles need at least one point');
    const edges = from.getEdges(),
      nEdges = edges.length / 2;
    const list = this.edgeList.value;
    for (const e of list)
      if (e >= nEdges) throw this.dataError(this.edgeList, `edge ${e} is out of range: the input ${from.describe()} has ${nEdges} edges`);
    const nbPoints = from.getNbPoints() * N;
    this.placeCirclePoints(from.hasContext ? contextMechanicalState(from.context) : undefined, to, from.getNbPoints());
    const ids = list.length > 0 ? Array.from(list) : Array.from({ length: nEdges }, (_, e) => e);
    this.loc2glob.length = 0;
    to.setElements({ nbPoints, quads: this.quadsOf(ids, edges) });
    this.followInput(from);
  }

  /** (n·N × 4) the quads of the given input edges, appending their origins to loc2glob. */
  private quadsOf(ids: readonly number[], edges: ArrayLike<number>): Uint32Array {
    const N = this.nbPointsOnEachCircle.value,
      flip = this.flipNormals.value;
    const out = new Uint32Array(4 * N * ids.length);
    let o = 0;
    for (const e of ids) {
      const p0 = edges[2 * e],
        p1 = edges[2 * e + 1];
      for (let j = 0; j < N; j++) {
        const j1 = (j + 1) % N;
        const q0 = p0 * N + j,
          q1 = p1 * N + j,
          q2 = p1 * N + j1,
          q3 = p0 * N + j1;
        if (flip) out.set([q3, q2, q1, q0], o);
        else out.set([q0, q1, q2, q3], o);
        o += 4;
        this.loc2glob.push(e);
      }
    }
    return out;
  }

  /** Writes the circle points into the mechanical state of the output's node (SOFA does it at init). */
  private placeCirclePoints(frames: BaseMechanicalState | undefined, to: QuadSetTopologyContainer, nIn: number): void {
    const target = to.hasContext ? to.context.getObject(isMechanicalState, 'local') : undefined;
    if (!target) return;
    if (!frames || frames.stateType.name !== 'Rigid3d') {
      throw this.error(
        `the mechanical state of the input's node ${frames ? `${frames.describe()} is ${frames.stateType.name}` : 'is missing'}: only Rigid3 frames can place the circle points of ${target.describe()}`,
      );
    }
    if (target.stateType.name !== 'Vec3d')
      throw this.error(
        `the output state ${target.describe()} is ${target.stateType.name}; Edge2QuadTopologicalMapping maps Rigid3 to Vec3`,
      );
    if (frames.size < nIn)
      throw this.error(`the input state ${frames.describe()} has ${frames.size} frames for ${nIn} points of the input topology`);
    const N = this.nbPointsOnEachCircle.value;
    const resizable = target as BaseMechanicalState & { resize?: (n: number) => void };
    if (target.size !== nIn * N) {
      if (typeof resizable.resize !== 'function') throw this.error(`output state ${target.describe()} cannot take ${nIn * N} points`);
      resizable.resize(nIn * N);
    }
    const ellipse = this.radiusFocal.isSet && this.radiusFocal.value > 0;
    const rho = this.radius.value,
      rhoF = ellipse ? this.radiusFocal.value : rho;
    // local axes of the circle: (e_y, e_z), or for an ellipse Z0 = focalAxis/|focalAxis|, Y0 = Z0 × e_x
    let Y0 = [0, 1, 0],
      Z0 = [0, 0, 1];
    if (ellipse) {
      const a = this.focalAxis.value,
        l = Math.hypot(a[0], a[1], a[2]);
      if (!(l > 0)) throw this.dataError(this.focalAxis, 'focalAxis is the zero vector');
      Z0 = [a[0] / l, a[1] / l, a[2] / l];
      Y0 = [0, Z0[2], -Z0[1]];
    }
    const xin = frames.x,
      x = target.x,
      Y = [0, 0, 0],
      Z = [0, 0, 0];
    for (let i = 0; i < nIn; i++) {
      const o = 7 * i;
      rotate(Y, xin, o + 3, Y0);
      rotate(Z, xin, o + 3, Z0);
      for (let j = 0; j < N; j++) {
        const th = (2 * Math.PI * j) / N,
          c = Math.cos(th) * rho,
          s = Math.sin(th) * rhoF;
        for (let k = 0; k < 3; k++) x[3 * (i * N + j) + k] = xin[o + k] + c * Y[k] + s * Z[k];
      }
    }
    target.touch();
  }

  override handleTopologyChange(change: TopologyChange): void {
    const out = this.outputModifier(QuadSetTopologyModifier);
    const N = this.nbPointsOnEachCircle.value;
    switch (change.type) {
      case 'endOfChanges':
        return out.notifyEndingEvent();
      case 'pointsAdded': {
        // N circle points per input point, circle point j interpolated from the ancestors' point j
        const anc: number[][] = [],
          coefs: number[][] = [];
        for (let i = 0; i < change.indices.length; i++) {
          for (let j = 0; j < N; j++) {
            anc.push((change.ancestors?.[i] ?? []).map((a) => a * N + j));
            coefs.push([...(change.coefs?.[i] ?? [])]);
          }
        }
        return out.addPoints(change.indices.length * N, anc, coefs, false);
      }
      case 'pointsRemoved':
        this.warn('points removed from the input are not followed (nor are they in SOFA): the output keeps its circles');
        return;
      case 'elementsAdded':
        if (change.kind === 'edge') out.addQuads(this.quadsOf(Array.from(change.indices), this.inputMesh().view('edge')));
        return;
      case 'elementsRemoved':
        if (change.kind === 'edge') this.edgesRemoved(change.indices, out);
        return;
    }
  }

  /** Input edges about to be removed (descending; the input's last edge takes each slot): their quads leave the output. */
  private edgesRemoved(removed: Uint32Array, out: QuadSetTopologyModifier): void {
    const l2g = this.loc2glob;
    let last = this.inputMesh().count('edge') - 1;
    for (const k of removed) {
      const quads: number[] = [];
      for (let q = 0; q < l2g.length; q++) if (l2g[q] === k) quads.push(q);
      quads.sort((a, b) => b - a);
      // the output's quads move as the modifier moves them (last into each removed slot)
      l2g.length = applyRemoval(l2g, 1, l2g.length, quads);
      if (quads.length > 0) out.removeQuads(quads, true, false);
      // the input's last edge takes slot k
      for (let q = 0; q < l2g.length; q++) if (l2g[q] === last) l2g[q] = k;
      last--;
    }
  }
}

/** out = R(q)·v, q (x y z w) at qs[qo..qo+4]. */
function rotate(out: number[], qs: ArrayLike<number>, qo: number, v: readonly number[]): void {
  const x = qs[qo],
    y = qs[qo + 1],
    z = qs[qo + 2],
    w = qs[qo + 3];
  const vx = v[0],
    vy = v[1],
    vz = v[2];
  const tx = 2 * (y * vz - z * vy),
    ty = 2 * (z * vx - x * vz),
    tz = 2 * (x * vy - y * vx);
  out[0] = vx + w * tx + (y * tz - z * ty);
  out[1] = vy + w * ty + (z * tx - x * tz);
  out[2] = vz + w * tz + (x * ty - y * tx);
}
