import {
  BaseMapping,
  Bool,
  Node,
  UInt,
  canonicalTemplate,
  isMechanicalState,
  sofaComponent,
  type BaseMechanicalState,
  type SparseMatrixLike,
} from '@sofa-ts/core';
import { createCsr, quatMultiplyAt, quatRotateAt, type CsrMatrix } from '@sofa-ts/linalg';
import { isArticulatedHierarchyContainer, type ArticulatedHierarchyContainer } from './ArticulatedHierarchyContainer.js';
import type { ArticulationCenter } from './ArticulationCenter.js';

function isStateOrNode(o: unknown): o is BaseMechanicalState | Node {
  return isMechanicalState(o) || o instanceof Node;
}

/**
 * SOFA's ArticulatedSystemMapping (ArticulatedSystemPlugin; Vec1d [+ Rigid3d] → Rigid3d): rigid
 * bodies placed by the joint values θ of input1 through the ArticulationCenters of an
 * ArticulatedHierarchyContainer, body 0 copied from frame indexInput2 of input2 when given (else
 * left where it is). Centers are processed in the container's order; for center (p → c) with joint
 * point A = c_p + R_p·posOnParent:
 *   process 0: q_c = q_p, then for each articulation (axis a in the child's orientation so far):
 *              rotation: q_c ← r(a, θ) ⊗ q_c, c_c turned about A;  translation: c_c, A += a·θ;
 *   process 1: q_c = Q ⊗ q_p with Q ← r(R_p·a, Δθ) ⊗ Q accumulated over the steps (Δθ: change since
 *              the previous apply), A += D (D accumulated R_p·a·Δθ), c_c = A − R_c·posOnChild;
 *   process 2: as 1 with the axes in the child's previous orientation, c_c += Σ a·θ after.
 * Velocities (world-frame ω, as the Rigid3d integration uses them), with C the bodies' centres:
 *   ω_c = ω_p + Σ_rot a·θ',   v_c = v_p + ω_p × (C_c − C_p) + Σ_rot a × (C_c − A)·θ' + Σ_trans a·θ',
 *   root: (v_0, ω_0) = (v_r, ω_r);
 * applyJT is its transpose: the forces of the bodies go from child to parent (f_p += f_c,
 * τ_p += τ_c + (C_c − C_p) × f_c), joint j receives a·(τ_c + (C_c − A) × f_c) (rotation) or
 * a·f_c (translation), the root the wrench of body 0. getJ gives the same linear map in CSR (the
 * constraint rows follow it, as SOFA's applyJT on MatrixDeriv). As SOFA (its applyDJT is empty),
 * no geometric stiffness. Processes 1 and 2 keep Q, D and the previous θ (checkpointed).
 */
@sofaComponent({
  name: 'ArticulatedSystemMapping',
  category: 'Mapping',
  module: 'ArticulatedSystemPlugin',
  description: "Mapping between a set of 6D DOF's and a set of angles (µ) using an articulated hierarchy container.",
  templates: ['Vec1d,Rigid3d,Rigid3d'],
})
export class ArticulatedSystemMapping extends BaseMapping {
  readonly input1 = this.initLink<BaseMechanicalState | Node>({
    name: 'input1',
    help: 'the joint values (Vec1d; default: the state of the parent node)',
    accepts: isStateOrNode,
    expected: 'a MechanicalObject (Vec1d)',
  });
  readonly input2 = this.initLink<BaseMechanicalState | Node>({
    name: 'input2',
    help: 'the root frame of the articulated system (Rigid3d, optional)',
    accepts: isStateOrNode,
    expected: 'a MechanicalObject (Rigid3d)',
  });
  readonly output = this.initLink<BaseMechanicalState | Node>({
    name: 'output',
    help: 'the rigid bodies (Rigid3d; default: the state of this node)',
    accepts: isStateOrNode,
    expected: 'a MechanicalObject (Rigid3d)',
  });
  readonly container = this.initLink<ArticulatedHierarchyContainer>({
    name: 'container',
    help: 'Path to ArticulatedHierarchyContainer.',
    accepts: isArticulatedHierarchyContainer,
    expected: 'an ArticulatedHierarchyContainer',
  });
  readonly indexInput2 = this.initData({
    name: 'indexInput2',
    type: UInt,
    default: 0,
    help: 'Corresponding index if the base of the articulated system is attached to input2. Default is last index.',
  });
  readonly mapForces = this.initData({ name: 'mapForces', type: Bool, default: true, help: 'are forces mapped ?' });
  readonly mapConstraints = this.initData({ name: 'mapConstraints', type: Bool, default: true, help: 'are constraints mapped ?' });
  readonly mapMasses = this.initData({ name: 'mapMasses', type: Bool, default: true, help: 'are masses mapped ?' });
  readonly mapMatrices = this.initData({ name: 'mapMatrices', type: Bool, default: false, help: 'are matrix explicit mapped?' });
  readonly applyRestPosition = this.initData({
    name: 'applyRestPosition',
    type: Bool,
    default: false,
    help: 'set to true to apply this mapping to restPosition at init',
  });

  /** Checkpoint: the incremental state of processes 1 and 2, and the joint axes and points of the last apply (read by applyJ/JT). */
  readonly checkpointFields = ['prevTheta', 'centerRotation', 'centerDisplacement', 'jointAxis', 'jointPos'] as const;

  private joints!: BaseMechanicalState;
  private root: BaseMechanicalState | undefined;
  private to!: BaseMechanicalState;
  private rootIndex = 0;
  private hierarchy!: ArticulatedHierarchyContainer;

  // ---- the hierarchy, compiled at init (nc centers, na articulations) ----
  /** (nc) parent and child body of each center. */
  private parent = new Int32Array(0);
  private child = new Int32Array(0);
  /** (nc) articulationProcess of each center. */
  private process = new Int32Array(0);
  /** (nc × 3) posOnParent, posOnChild. */
  private posOnParent = new Float64Array(0);
  private posOnChild = new Float64Array(0);
  /** (nc + 1) articulations of center c: artStart[c] .. artStart[c+1]. */
  private artStart = new Int32Array(1);
  /** (na) joint index, 1 for a rotation / a translation. */
  private artJoint = new Int32Array(0);
  private artRot = new Uint8Array(0);
  private artTrans = new Uint8Array(0);
  /** (na × 3) unit axis in its local frame. */
  private artAxis = new Float64Array(0);
  /** The centers, in the container's order (their globalPosition is written in place). */
  private centers: ArticulationCenter[] = [];

  // ---- state of the last apply ----
  /** (nJoints × 3) world axis a and point A of each joint at the last apply (SOFA's ArticulationAxis, ArticulationPos). */
  private jointAxis = new Float64Array(0);
  private jointPos = new Float64Array(0);
  /** (nJoints) θ at the previous apply (SOFA's CoordinateBuf, processes 1 and 2). */
  private prevTheta = new Float64Array(0);
  /** (nc × 4) accumulated rotation Q (x, y, z, w), (nc × 3) accumulated displacement D of each center. */
  private centerRotation = new Float64Array(0);
  private centerDisplacement = new Float64Array(0);

  // ---- Jacobians: pattern built at init, values refilled by apply ----
  private J0: CsrMatrix = createCsr(0, 0, new Int32Array(1), new Int32Array(0));
  private J1: CsrMatrix = createCsr(0, 0, new Int32Array(1), new Int32Array(0));
  /** (na·depth entries) for each (body, ancestor articulation): body, articulation, slot in the body's column list. */
  private entBody = new Int32Array(0);
  private entArt = new Int32Array(0);
  private entSlot = new Int32Array(0);
  /** (nOut + 1) columns of body b in J0: colStart[b] .. colStart[b+1]. */
  private colStart = new Int32Array(1);
  /** (nOut) 1 when body b follows the root. */
  private followsRoot = new Uint8Array(0);
  /** (6·nOut) scratch of applyJT: the bodies' wrenches accumulated from the leaves. */
  private wrench = new Float64Array(0);
  private readonly q = new Float64Array(4);
  private readonly t = new Float64Array(6);

  get isLinear(): boolean {
    return false;
  }

  getFrom(): readonly BaseMechanicalState[] {
    return this.root ? [this.joints, this.root] : [this.joints];
  }

  getTo(): BaseMechanicalState | undefined {
    return this.to;
  }

  private resolve(link: BaseMechanicalState | Node | undefined, fallback: Node | undefined, what: string): BaseMechanicalState {
    const node = link instanceof Node ? link : link === undefined ? fallback : undefined;
    const s = node ? node.getObject(isMechanicalState, node === this.context ? 'local' : 'up') : (link as BaseMechanicalState);
    if (!s) throw this.error(`no ${what}`);
    return s;
  }

  override init(): void {
    this.joints = this.resolve(this.input1.get(), this.context.parent ?? undefined, 'joint input: set input1="@path" (Vec1d)');
    this.root = this.input2.get() ? this.resolve(this.input2.get(), undefined, 'root input (input2)') : undefined;
    this.to = this.resolve(this.output.get(), this.context, 'output: set output="@path" or put a MechanicalObject in this node');
    if (this.to === this.joints || this.to === this.root) throw this.error('the output is also an input');
    const actual = `${this.joints.stateType.name},${this.root?.stateType.name ?? 'Rigid3d'},${this.to.stateType.name}`;
    if (actual !== 'Vec1d,Rigid3d,Rigid3d')
      throw this.error(
        `input1, input2 and output must be Vec1d, Rigid3d and Rigid3d (got ${this.joints.stateType.name}, ${this.root?.stateType.name ?? 'none'}, ${this.to.stateType.name})`,
      );
    if (this.template && canonicalTemplate(this.template) !== actual)
      throw this.error(`template '${this.template}' does not match the states (${actual})`);
    this.template = actual;
    this.input1.set(this.joints);
    if (this.root) this.input2.set(this.root);
    this.output.set(this.to);
    if (this.root) {
      const m = this.root.size;
      if (m === 0) throw this.error(`the root input ${this.root.describe()} has no frame`);
      if (!this.indexInput2.isSet) this.rootIndex = m - 1;
      else if (this.indexInput2.value >= m) {
        this.warnAbout(this.indexInput2, `indexInput2 ${this.indexInput2.value} is not below input2's size ${m}: using ${m - 1}, as SOFA`);
        this.rootIndex = m - 1;
      } else this.rootIndex = this.indexInput2.value;
    }
    // SOFA looks for the container below the joint state's node.
    const hierarchy =
      this.container.get() ?? (this.joints.hasContext ? this.joints.context.getObject(isArticulatedHierarchyContainer, 'down') : undefined);
    if (!hierarchy)
      throw this.error(
        'no ArticulatedHierarchyContainer',
        `set container="@path", or put one in the node of ${this.joints.describe()} or below`,
      );
    this.hierarchy = hierarchy;
    this.container.set(hierarchy);
    this.compile();
    this.apply();
    this.applyJ(this.to.v, this.root ? [this.joints.v, this.root.v] : [this.joints.v]);
    if (this.applyRestPosition.value) this.mapPositions(this.to.x0, this.joints.x0, this.root?.x0);
  }

  /**
   * Back to the state after init: the increments of processes 1 and 2 start again from θ = 0 and
   * Q = identity, D = 0 (SOFA's reset re-runs init, which zeroes its previous θ but keeps Q and D).
   */
  override reset(): void {
    this.prevTheta.fill(0);
    this.centerRotation.fill(0);
    for (let c = 0; c < this.parent.length; c++) this.centerRotation[4 * c + 3] = 1;
    this.centerDisplacement.fill(0);
    this.apply();
    this.applyJ(this.to.v, this.root ? [this.joints.v, this.root.v] : [this.joints.v]);
  }

  /** Reads the centers and articulations, checks the indices, sizes the buffers, builds the Jacobian patterns. */
  private compile(): void {
    const centers = this.hierarchy.getArticulationCenters();
    this.centers = centers;
    const nOut = this.to.size,
      nJ = this.joints.size,
      nc = centers.length;
    if (nc > nJ)
      throw this.error(
        `${this.hierarchy.describe()} has ${nc} articulation centers, more than the ${nJ} values of ${this.joints.describe()}`,
      );
    this.parent = new Int32Array(nc);
    this.child = new Int32Array(nc);
    this.process = new Int32Array(nc);
    this.posOnParent = new Float64Array(3 * nc);
    this.posOnChild = new Float64Array(3 * nc);
    this.artStart = new Int32Array(nc + 1);
    const arts: { joint: number; rot: boolean; trans: boolean; axis: Float64Array }[] = [];
    const childOf = new Int32Array(nOut).fill(-1);
    const placed = new Uint8Array(nOut);
    placed[0] = 1;
    for (let c = 0; c < nc; c++) {
      const ac = centers[c];
      const p = ac.parentIndex.value,
        ch = ac.childIndex.value;
      for (const [what, i] of [
        ['parentIndex', p],
        ['childIndex', ch],
      ] as const)
        if (i >= nOut) throw ac.error(`${what} ${i} is out of range: the output ${this.to.describe()} has ${nOut} bodies`);
      if (p === ch) throw ac.error(`parentIndex and childIndex are both ${p}`);
      if (childOf[ch] >= 0) throw ac.error(`body ${ch} is already the child of ${centers[childOf[ch]].describe()}`);
      childOf[ch] = c;
      if (!placed[p])
        this.warn(
          `${ac.describe()}: its parent body ${p} is placed by a later center (or by none), so it is placed from the previous position of body ${p}, as SOFA does`,
          'list the articulation centers from the root to the leaves',
        );
      placed[ch] = 1;
      this.parent[c] = p;
      this.child[c] = ch;
      this.process[c] = ac.articulationProcess.value;
      this.posOnParent.set(ac.posOnParent.value, 3 * c);
      this.posOnChild.set(ac.posOnChild.value, 3 * c);
      for (const a of ac.getArticulations()) {
        const j = a.articulationIndex.value;
        if (j >= nJ) throw a.error(`articulationIndex ${j} is out of range: ${this.joints.describe()} has ${nJ} values`);
        const ax = a.axis.value,
          len = Math.hypot(ax[0], ax[1], ax[2]);
        if (!(len > 0)) throw a.error('the axis is zero');
        if (!a.rotation.value && !a.translation.value)
          this.warn(`${a.describe()} is neither a rotation nor a translation: joint ${j} moves nothing`);
        arts.push({
          joint: j,
          rot: a.rotation.value,
          trans: a.translation.value,
          axis: Float64Array.of(ax[0] / len, ax[1] / len, ax[2] / len),
        });
      }
      this.artStart[c + 1] = arts.length;
    }
    const na = arts.length;
    this.artJoint = Int32Array.from(arts, (a) => a.joint);
    this.artRot = Uint8Array.from(arts, (a) => (a.rot ? 1 : 0));
    this.artTrans = Uint8Array.from(arts, (a) => (a.trans ? 1 : 0));
    this.artAxis = new Float64Array(3 * na);
    arts.forEach((a, k) => this.artAxis.set(a.axis, 3 * k));
    this.jointAxis = new Float64Array(3 * nJ);
    this.jointPos = new Float64Array(3 * nJ);
    this.prevTheta = new Float64Array(nJ);
    this.centerRotation = new Float64Array(4 * nc);
    for (let c = 0; c < nc; c++) this.centerRotation[4 * c + 3] = 1;
    this.centerDisplacement = new Float64Array(3 * nc);
    this.wrench = new Float64Array(6 * nOut);
    this.buildPatterns(nOut, nc);
  }

  /**
   * The articulations each body depends on, propagated in the order applyJ follows (a child takes
   * its parent's list at that moment, plus its center's own), and whether it follows the root.
   */
  private buildPatterns(nOut: number, nc: number): void {
    const deps: number[][] = Array.from({ length: nOut }, () => []);
    const rootDep = new Uint8Array(nOut);
    if (this.root) rootDep[0] = 1;
    for (let c = 0; c < nc; c++) {
      const p = this.parent[c],
        ch = this.child[c];
      const own: number[] = [];
      for (let k = this.artStart[c]; k < this.artStart[c + 1]; k++) own.push(k);
      deps[ch] = [...deps[p], ...own];
      rootDep[ch] = rootDep[p];
    }
    this.followsRoot = rootDep;
    // J0: row block of body b has the sorted distinct joints of its articulations as columns.
    this.colStart = new Int32Array(nOut + 1);
    const cols: number[] = [];
    const entB: number[] = [],
      entA: number[] = [],
      entS: number[] = [];
    for (let b = 0; b < nOut; b++) {
      const joints = [...new Set(deps[b].map((k) => this.artJoint[k]))].sort((x, y) => x - y);
      for (const k of deps[b]) {
        entB.push(b);
        entA.push(k);
        entS.push(joints.indexOf(this.artJoint[k]));
      }
      cols.push(...joints);
      this.colStart[b + 1] = cols.length;
    }
    this.entBody = Int32Array.from(entB);
    this.entArt = Int32Array.from(entA);
    this.entSlot = Int32Array.from(entS);
    const rowPtr0 = new Int32Array(6 * nOut + 1),
      colInd0: number[] = [];
    for (let b = 0; b < nOut; b++)
      for (let k = 0; k < 6; k++) {
        for (let s = this.colStart[b]; s < this.colStart[b + 1]; s++) colInd0.push(cols[s]);
        rowPtr0[6 * b + k + 1] = colInd0.length;
      }
    this.J0 = createCsr(6 * nOut, this.joints.size, rowPtr0, Int32Array.from(colInd0));
    // J1: a body that follows the root has the root frame's 6 columns in each of its rows.
    const rowPtr1 = new Int32Array(6 * nOut + 1),
      colInd1: number[] = [];
    const r0 = 6 * this.rootIndex;
    for (let b = 0; b < nOut; b++)
      for (let k = 0; k < 6; k++) {
        if (rootDep[b]) for (let e = 0; e < 6; e++) colInd1.push(r0 + e);
        rowPtr1[6 * b + k + 1] = colInd1.length;
      }
    this.J1 = createCsr(6 * nOut, 6 * (this.root?.size ?? 0), rowPtr1, Int32Array.from(colInd1));
  }

  apply(): void {
    this.mapPositions(this.to.x, this.joints.x, this.root?.x);
    this.fillJacobians();
    this.to.touch();
  }

  /** out = φ(θ, root): the bodies placed center after center (SOFA's apply). */
  private mapPositions(out: Float64Array, theta: Float64Array, rootX: Float64Array | undefined): void {
    const q = this.q;
    if (rootX) out.set(rootX.subarray(7 * this.rootIndex, 7 * this.rootIndex + 7), 0);
    const nc = this.parent.length;
    const ax = this.jointAxis,
      ap = this.jointPos;
    for (let c = 0; c < nc; c++) {
      const p = 7 * this.parent[c],
        ch = 7 * this.child[c],
        pp = 3 * c;
      const Q = this.centerRotation,
        D = this.centerDisplacement,
        g = this.centers[c].globalPosition.value;
      // the child's orientation before this apply (process 2 reads its axes in it)
      q[0] = out[ch + 3];
      q[1] = out[ch + 4];
      q[2] = out[ch + 5];
      q[3] = out[ch + 6];
      // A = c_p + R_p·posOnParent
      quatRotateAt(g, 0, out, p + 3, this.posOnParent, pp);
      g[0] += out[p];
      g[1] += out[p + 1];
      g[2] += out[p + 2];
      const k0 = this.artStart[c],
        k1 = this.artStart[c + 1];
      const process = this.process[c];
      if (process === 0) {
        // the child at rest on the parent: q_c = q_p, c_c = c_p + R_p·(posOnParent − posOnChild)
        for (let i = 0; i < 4; i++) out[ch + 3 + i] = out[p + 3 + i];
        const t = this.t;
        for (let i = 0; i < 3; i++) t[i] = this.posOnParent[pp + i] - this.posOnChild[pp + i];
        quatRotateAt(t, 3, out, p + 3, t, 0);
        for (let i = 0; i < 3; i++) out[ch + i] = out[p + i] + t[3 + i];
        let Ax = g[0],
          Ay = g[1],
          Az = g[2];
        for (let k = k0; k < k1; k++) {
          const j = this.artJoint[k],
            v = theta[j];
          // a = R_c·axis (the child's orientation so far)
          quatRotateAt(ax, 3 * j, out, ch + 3, this.artAxis, 3 * k);
          if (this.artRot[k]) {
            axisAngle(q, ax, 3 * j, v);
            // turn the child about A: c_c = A + r·(c_c − A), q_c = r ⊗ q_c
            t[0] = out[ch] - Ax;
            t[1] = out[ch + 1] - Ay;
            t[2] = out[ch + 2] - Az;
            quatRotateAt(t, 3, q, 0, t, 0);
            out[ch] = Ax + t[3];
            out[ch + 1] = Ay + t[4];
            out[ch + 2] = Az + t[5];
            quatMultiplyAt(out, ch + 3, q, 0, out, ch + 3);
            normalizeQuat(out, ch + 3);
          }
          if (this.artTrans[k]) {
            const dx = ax[3 * j] * v,
              dy = ax[3 * j + 1] * v,
              dz = ax[3 * j + 2] * v;
            out[ch] += dx;
            out[ch + 1] += dy;
            out[ch + 2] += dz;
            Ax += dx;
            Ay += dy;
            Az += dz;
          }
          ap[3 * j] = Ax;
          ap[3 * j + 1] = Ay;
          ap[3 * j + 2] = Az;
        }
      } else {
        // processes 1 and 2: increments since the previous apply
        const t = this.t;
        if (process === 2) D[pp] = D[pp + 1] = D[pp + 2] = 0;
        for (let k = k0; k < k1; k++) {
          const j = this.artJoint[k],
            dv = theta[j] - this.prevTheta[j];
          if (process === 1) quatRotateAt(ax, 3 * j, out, p + 3, this.artAxis, 3 * k);
          else quatRotateAt(ax, 3 * j, q, 0, this.artAxis, 3 * k);
          if (this.artRot[k]) {
            axisAngle(t, ax, 3 * j, dv);
            quatMultiplyAt(Q, 4 * c, t, 0, Q, 4 * c);
            normalizeQuat(Q, 4 * c);
          }
          if (this.artTrans[k]) {
            // process 1 accumulates the increments, process 2 takes the whole values
            const s = process === 1 ? dv : theta[j];
            D[pp] += ax[3 * j] * s;
            D[pp + 1] += ax[3 * j + 1] * s;
            D[pp + 2] += ax[3 * j + 2] * s;
          }
        }
        if (process === 1) for (let i = 0; i < 3; i++) g[i] += D[pp + i];
        for (let k = k0; k < k1; k++) {
          const j = this.artJoint[k];
          ap[3 * j] = g[0];
          ap[3 * j + 1] = g[1];
          ap[3 * j + 2] = g[2];
        }
        // q_c = Q ⊗ q_p, c_c = A − R_c·posOnChild (+ D for process 2)
        quatMultiplyAt(out, ch + 3, Q, 4 * c, out, p + 3);
        normalizeQuat(out, ch + 3);
        quatRotateAt(t, 0, out, ch + 3, this.posOnChild, pp);
        for (let i = 0; i < 3; i++) out[ch + i] = g[i] - t[i] + (process === 2 ? D[pp + i] : 0);
      }
    }
    this.prevTheta.set(theta);
    for (const ac of this.centers) ac.globalPosition.touch();
  }

  /** J0 and J1 at the positions of the last apply: for body b and joint j at A with axis a, (a × (C_b − A), a) or (a, 0). */
  private fillJacobians(): void {
    const x = this.to.x,
      v0 = this.J0.values,
      cs = this.colStart;
    v0.fill(0);
    for (let e = 0; e < this.entBody.length; e++) {
      const b = this.entBody[e],
        k = this.entArt[e],
        j = this.artJoint[k];
      const n = cs[b + 1] - cs[b],
        base = 6 * cs[b] + this.entSlot[e];
      const a0 = this.jointAxis[3 * j],
        a1 = this.jointAxis[3 * j + 1],
        a2 = this.jointAxis[3 * j + 2];
      if (this.artRot[k]) {
        const r0 = x[7 * b] - this.jointPos[3 * j],
          r1 = x[7 * b + 1] - this.jointPos[3 * j + 1],
          r2 = x[7 * b + 2] - this.jointPos[3 * j + 2];
        v0[base] += a1 * r2 - a2 * r1;
        v0[base + n] += a2 * r0 - a0 * r2;
        v0[base + 2 * n] += a0 * r1 - a1 * r0;
        v0[base + 3 * n] += a0;
        v0[base + 4 * n] += a1;
        v0[base + 5 * n] += a2;
      }
      if (this.artTrans[k]) {
        v0[base] += a0;
        v0[base + n] += a1;
        v0[base + 2 * n] += a2;
      }
    }
    if (!this.root) return;
    // root block of body b: [[I, −[C_b − C_0]×], [0, I]]
    const v1 = this.J1.values;
    let o = 0;
    for (let b = 0; b < this.followsRoot.length; b++) {
      if (!this.followsRoot[b]) continue;
      const r0 = x[7 * b] - x[0],
        r1 = x[7 * b + 1] - x[1],
        r2 = x[7 * b + 2] - x[2];
      v1.fill(0, o, o + 36);
      for (let k = 0; k < 6; k++) v1[o + 7 * k] = 1;
      // v += ω × r = −[r]×·ω
      v1[o + 4] = r2;
      v1[o + 5] = -r1;
      v1[o + 9] = -r2;
      v1[o + 11] = r0;
      v1[o + 15] = r1;
      v1[o + 16] = -r0;
      o += 36;
    }
  }

  applyJ(out: Float64Array, ins: readonly Float64Array[]): void {
    const dq = ins[0],
      x = this.to.x,
      ax = this.jointAxis,
      ap = this.jointPos;
    out.fill(0);
    if (this.root) out.set(ins[1].subarray(6 * this.rootIndex, 6 * this.rootIndex + 6), 0);
    for (let c = 0; c < this.parent.length; c++) {
      const p = this.parent[c],
        ch = this.child[c];
      const o = 6 * ch,
        op = 6 * p;
      const wx = out[op + 3],
        wy = out[op + 4],
        wz = out[op + 5];
      out[o + 3] += wx;
      out[o + 4] += wy;
      out[o + 5] += wz;
      // v_c = v_p + ω_p × (C_c − C_p)
      const Cx = x[7 * ch],
        Cy = x[7 * ch + 1],
        Cz = x[7 * ch + 2];
      const rx = Cx - x[7 * p],
        ry = Cy - x[7 * p + 1],
        rz = Cz - x[7 * p + 2];
      out[o] = out[op] + (wy * rz - wz * ry);
      out[o + 1] = out[op + 1] + (wz * rx - wx * rz);
      out[o + 2] = out[op + 2] + (wx * ry - wy * rx);
      for (let k = this.artStart[c]; k < this.artStart[c + 1]; k++) {
        const j = this.artJoint[k],
          s = dq[j];
        const a0 = ax[3 * j] * s,
          a1 = ax[3 * j + 1] * s,
          a2 = ax[3 * j + 2] * s;
        if (this.artRot[k]) {
          // v_c += (a·θ') × (C_c − A),  ω_c += a·θ'
          const dx = Cx - ap[3 * j],
            dy = Cy - ap[3 * j + 1],
            dz = Cz - ap[3 * j + 2];
          out[o] += a1 * dz - a2 * dy;
          out[o + 1] += a2 * dx - a0 * dz;
          out[o + 2] += a0 * dy - a1 * dx;
          out[o + 3] += a0;
          out[o + 4] += a1;
          out[o + 5] += a2;
        }
        if (this.artTrans[k]) {
          out[o] += a0;
          out[o + 1] += a1;
          out[o + 2] += a2;
        }
      }
    }
  }

  applyJT(ins: readonly Float64Array[], out: Float64Array): void {
    const fq = ins[0],
      x = this.to.x,
      ax = this.jointAxis,
      ap = this.jointPos,
      w = this.wrench;
    w.set(out);
    for (let c = this.parent.length - 1; c >= 0; c--) {
      const p = this.parent[c],
        ch = this.child[c];
      const o = 6 * ch,
        op = 6 * p;
      const fx = w[o],
        fy = w[o + 1],
        fz = w[o + 2];
      const Cx = x[7 * ch],
        Cy = x[7 * ch + 1],
        Cz = x[7 * ch + 2];
      // f_p += f_c,  τ_p += τ_c + (C_c − C_p) × f_c
      const rx = Cx - x[7 * p],
        ry = Cy - x[7 * p + 1],
        rz = Cz - x[7 * p + 2];
      w[op] += fx;
      w[op + 1] += fy;
      w[op + 2] += fz;
      w[op + 3] += w[o + 3] + (ry * fz - rz * fy);
      w[op + 4] += w[o + 4] + (rz * fx - rx * fz);
      w[op + 5] += w[o + 5] + (rx * fy - ry * fx);
      for (let k = this.artStart[c + 1] - 1; k >= this.artStart[c]; k--) {
        const j = this.artJoint[k];
        const a0 = ax[3 * j],
          a1 = ax[3 * j + 1],
          a2 = ax[3 * j + 2];
        if (this.artRot[k]) {
          // a·(τ_c + (C_c − A) × f_c)
          const dx = Cx - ap[3 * j],
            dy = Cy - ap[3 * j + 1],
            dz = Cz - ap[3 * j + 2];
          fq[j] += a0 * (w[o + 3] + (dy * fz - dz * fy)) + a1 * (w[o + 4] + (dz * fx - dx * fz)) + a2 * (w[o + 5] + (dx * fy - dy * fx));
        }
        if (this.artTrans[k]) fq[j] += a0 * fx + a1 * fy + a2 * fz;
      }
    }
    if (this.root) {
      const fr = ins[1],
        r = 6 * this.rootIndex;
      for (let i = 0; i < 6; i++) fr[r + i] += w[i];
    }
  }

  getJ(input: number): SparseMatrixLike {
    return input === 0 ? this.J0 : this.J1;
  }
}

/** out[0..4) = the rotation of angle φ about the unit axis a[ao..ao+3) (SOFA's axisToQuat). */
function axisAngle(out: Float64Array, a: Float64Array, ao: number, phi: number): void {
  const s = Math.sin(phi / 2);
  out[0] = a[ao] * s;
  out[1] = a[ao + 1] * s;
  out[2] = a[ao + 2] * s;
  out[3] = Math.cos(phi / 2);
}

/** Normalises the quaternion at q[o..o+4) when its squared norm is off 1 by more than 1e-10 (SOFA's Quat::normalize). */
function normalizeQuat(q: Float64Array, o: number): void {
  const m = q[o] * q[o] + q[o + 1] * q[o + 1] + q[o + 2] * q[o + 2] + q[o + 3] * q[o + 3];
  if (Math.abs(m - 1) <= 1e-10) return;
  if (m === 0) {
    q[o + 3] = 1;
    return;
  }
  const s = 1 / Math.sqrt(m);
  for (let i = 0; i < 4; i++) q[o + i] *= s;
}
