import { BaseObject, Indices, RealArray, contextMeshTopology, isTopology, sofaComponent, type BaseMeshTopology } from '@sofa-ts/core';
import { BaseRodSection } from './rod-sections.js';

/** Below the key point it is written at, an abscissa belongs to the section before (BeamAdapter's EPSILON). */
const EPS = 1e-10;

/** A container whose element lists a component may replace (the topology package's containers). */
interface ElementSetTarget {
  setElements(set: { edges?: Uint32Array; positions?: Float64Array }): void;
}

/**
 * SOFA's WireRestShape (BeamAdapter plugin): the rest shape of an instrument as the sections
 * (RodStraightSection, RodSpireSection) of `wireMaterials`, from the handle to the tip. Their lengths
 * give the key points 0 = k_0 < k_1 < … < k_n = total length; section i covers (k_i, k_{i+1}] (an
 * abscissa is shifted down by 1e-10 and clamped to [0, k_n] first, as BeamAdapter) and gives there
 * the rest frame, the section, the material and the sampling (nbBeams beams over its length for the
 * mechanics, nbEdgesCollis edges for collisions). At init the topology of the node (or `topology`)
 * receives the visual sampling: nbEdgesVisu edges per section, points along x.
 */
@sofaComponent({
  name: 'WireRestShape',
  category: 'Engine',
  module: 'BeamAdapter',
  description: 'Rest shape, sections, materials and sampling of an interventional radiology instrument, from its rod sections.',
  templates: ['Rigid3d'],
})
export class WireRestShape extends BaseObject {
  readonly densityOfBeams = this.initData({
    name: 'densityOfBeams',
    type: Indices,
    default: new Uint32Array(0),
    output: true,
    help: 'number of beams of each section (written at init from the sections)',
  });
  readonly keyPoints = this.initData({
    name: 'keyPoints',
    type: RealArray(1),
    default: new Float64Array(0),
    output: true,
    unit: 'm',
    help: 'curvilinear abscissae of the section ends (written at init from the sections)',
  });
  readonly wireMaterials = this.initLink<BaseRodSection>({
    name: 'wireMaterials',
    help: 'the sections of the instrument, from the handle to the tip (RodStraightSection, RodSpireSection)',
    accepts: (o): o is BaseRodSection => o instanceof BaseRodSection,
    expected: 'rod sections',
    search: 'none',
    multi: true,
  });
  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: "the edge topology that receives the visual sampling (default: the node's)",
    accepts: isTopology,
    expected: 'an edge topology container',
    search: 'none',
  });

  private sections: BaseRodSection[] = [];
  private keys = new Float64Array(0);
  private ready = false;

  override init(): void {
    this.prepare();
  }

  /** Reads the sections and fills the topology (once; the interpolations may come first). */
  prepare(): void {
    if (this.ready) return;
    this.sections = [...this.wireMaterials.getAll()];
    if (this.sections.length === 0)
      throw this.error('no section: link the rod sections with wireMaterials="@StraightSection @SpireSection" (handle to tip)');
    for (const d of [this.densityOfBeams, this.keyPoints])
      if (d.isSet) this.warnAbout(d, `'${d.name}' is an output, computed from the sections: the given value is ignored`);
    const n = this.sections.length;
    this.keys = new Float64Array(n + 1);
    const density = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      const s = this.sections[i];
      s.prepare();
      this.keys[i + 1] = this.keys[i] + s.length.value;
      density[i] = s.nbBeams.value;
    }
    this.keyPoints.value = Float64Array.from(this.keys);
    this.densityOfBeams.value = density;
    this.fillTopology();
    this.ready = true;
  }

  private fillTopology(): void {
    const topo = this.topology.get() ?? contextMeshTopology(this.context);
    if (!topo) {
      this.warn('no topology in this node: the visual sampling of the instrument is not written (AdaptiveBeamMapping has no edges to map)');
      return;
    }
    const target = topo as unknown as Partial<ElementSetTarget>;
    if (typeof target.setElements !== 'function')
      throw this.error(`the topology ${topo.describe()} cannot be rewritten: use an EdgeSetTopologyContainer`);
    const pts: number[] = [0, 0, 0],
      edges: number[] = [];
    for (let i = 0; i < this.sections.length; i++) {
      const nv = Math.max(1, this.sections[i].visualEdges),
        dx = (this.keys[i + 1] - this.keys[i]) / nv;
      for (let k = 1; k <= nv; k++) {
        const p = pts.length / 3;
        pts.push(this.keys[i] + k * dx, 0, 0);
        edges.push(p - 1, p);
      }
    }
    target.setElements({ edges: Uint32Array.from(edges), positions: Float64Array.from(pts) });
  }

  /** Total length of the instrument. */
  get totalLength(): number {
    return this.keys[this.keys.length - 1];
  }

  /** Key points and the beams of each section (the sampling of the controller). */
  get sectionKeys(): Float64Array {
    return this.keys;
  }

  get sectionCount(): number {
    return this.sections.length;
  }

  sectionAt(i: number): BaseRodSection {
    return this.sections[i];
  }

  /** Index of the section of abscissa x (shifted down by 1e-10, clamped). */
  sectionIndexAt(x: number): number {
    const xu = Math.min(Math.max(x - EPS, 0), this.totalLength),
      k = this.keys;
    for (let i = 1; i < k.length; i++) if (xu <= k[i]) return i - 1;
    return k.length - 2;
  }

  /** Total number of beams of all sections (the most beams the instrument can have). */
  get totalBeams(): number {
    let n = 0;
    for (const s of this.sections) n += s.nbBeams.value;
    return n;
  }

  /** The collision edge length at abscissa x: the section's length over its nbEdgesCollis. */
  collisionSampling(x: number): number {
    const i = this.sectionIndexAt(x),
      s = this.sections[i];
    return (this.keys[i + 1] - this.keys[i]) / Math.max(1, s.nbEdgesCollis.value);
  }

  /** The rest frame at abscissa x (7 numbers at out[o..]). */
  restFrame(out: Float64Array, o: number, x: number): void {
    const xu = Math.min(Math.max(x - EPS, 0), this.totalLength),
      i = this.sectionIndexAt(x);
    this.sections[i].restFrame(out, o, xu, this.keys[i]);
  }
}
