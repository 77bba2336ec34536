import { AnimateBeginEvent, Bool, Str, contextMeshTopology, resolvePath, sofaComponent, type SofaEvent } from '@sofa-ts/core';
import { BeamPointMapping, beamAtAbscissa } from './beam-point-mapping.js';
import { InterventionalRadiologyController } from './InterventionalRadiologyController.js';
import type { WireBeamInterpolation } from './WireBeamInterpolation.js';

/** A container whose element lists a component may replace (the topology package's containers). */
interface ElementSetTarget {
  setElements(set: { edges?: Uint32Array; positions?: Float64Array }): void;
}

/**
 * SOFA's MultiAdaptiveBeamMapping (BeamAdapter plugin): the collision points of the instruments of
 * an InterventionalRadiologyController along their centre lines (beam-point-mapping.ts). At init
 * the node's edge topology becomes one chain of Σ (nbEdgesCollis of every section) edges per
 * instrument and the output as many points + 1; at each AnimateBeginEvent (after the controller
 * redeployed) the controller spreads the points from the tip back (its collisionPoints), each on
 * the beams of its instrument at its abscissa. The points not deployed gather at the base.
 * BeamAdapter also removes edges of points past an instrument's end, which its walk never
 * produces; the barycentric (contact duplicate) mode is not implemented.
 */
@sofaComponent({
  name: 'MultiAdaptiveBeamMapping',
  category: 'Mapping',
  module: 'BeamAdapter',
  description: 'Collision points along the instruments of an InterventionalRadiologyController (their deployed Bézier beams).',
  templates: ['Rigid3d,Vec3d'],
})
export class MultiAdaptiveBeamMapping extends BeamPointMapping {
  readonly controller = this.initData({
    name: 'controller',
    type: Str,
    default: '',
    help: 'path to the InterventionalRadiologyController (@path; a plain path is accepted with a warning, as BeamAdapter); default: the first one above',
    aliases: ['ircontroller'],
  });
  readonly useCurvAbs = this.initData({
    name: 'useCurvAbs',
    type: Bool,
    default: true,
    help: 'the points keep their abscissae on the instruments (false is not implemented: an error)',
  });
  readonly parallelMapping = this.initData({
    name: 'parallelMapping',
    type: Bool,
    default: false,
    help: 'parallel computation in BeamAdapter; sequential here (the result is the same)',
  });

  private ctrl: InterventionalRadiologyController | undefined;
  private list: readonly WireBeamInterpolation[] = [];
  private abscissae = new Float64Array(0);
  private instrument = new Int32Array(0);

  override init(): void {
    this.resolveEnds();
    this.checkTemplates(['Rigid3d,Vec3d']);
    if (!this.useCurvAbs.value)
      throw this.dataError(this.useCurvAbs, 'useCurvAbs="false" is not implemented for MultiAdaptiveBeamMapping in sofa-ts');
    const path = this.controller.value.trim();
    let ctrl: unknown;
    if (path) {
      if (!path.startsWith('@')) this.warnAbout(this.controller, `'controller' is a link: write "@${path}"`);
      const t = resolvePath(this, path.replace(/^@/, ''));
      ctrl = t?.kind === 'object' ? t.object : undefined;
    } else {
      for (let n = this.context.parent; n && !ctrl; n = n.parent)
        ctrl = n.getObjects((o): o is InterventionalRadiologyController => o instanceof InterventionalRadiologyController)[0];
      if (ctrl) this.warn(`no controller given: ${(ctrl as InterventionalRadiologyController).describe()} found above is used`);
    }
    if (!(ctrl instanceof InterventionalRadiologyController))
      throw this.error(
        path ? `'${path}' is not an InterventionalRadiologyController` : 'no InterventionalRadiologyController: set controller="@…"',
      );
    this.ctrl = ctrl;
    this.list = ctrl.instrumentList;
    if (this.list.length === 0) throw this.error(`${ctrl.describe()} has no instrument yet: put this mapping below the controller's node`);
    // the collision chain: per instrument, its collision edges along x
    const pts: number[] = [0, 0, 0],
      edges: number[] = [];
    let prevX = 0,
      prevEdges = 0;
    for (const ins of this.list) {
      const shape = ins.restShape;
      let lines = 0;
      for (let j = 0; j < shape.sectionCount; j++) lines += shape.sectionAt(j).nbEdgesCollis.value;
      const dx = shape.totalLength / Math.max(1, lines);
      for (let k = 1; k <= lines; k++) pts.push(prevX + k * dx, 0, 0);
      for (let k = 0; k < lines; k++) edges.push(prevEdges + k, prevEdges + k + 1);
      prevX += (lines + 1) * dx;
      prevEdges += lines;
    }
    const topo = contextMeshTopology(this.context);
    const target = topo as unknown as Partial<ElementSetTarget> | undefined;
    if (!topo || typeof target?.setElements !== 'function')
      throw this.error('needs an EdgeSetTopologyContainer in its node (the collision edges it writes)');
    target.setElements({ edges: Uint32Array.from(edges), positions: Float64Array.from(pts) });
    const n = prevEdges + 1;
    this.abscissae = new Float64Array(n);
    this.instrument = new Int32Array(n);
    this.allocatePoints(n);
  }

  override bwdInit(): void {
    this.assign();
  }

  override handleEvent(event: SofaEvent): void {
    if (event instanceof AnimateBeginEvent) this.assign();
  }

  /** The points from the controller, then the output. */
  private assign(): void {
    this.ctrl!.collisionPoints(this.abscissae, this.instrument);
    this.apply();
  }

  protected get pointCount(): number {
    return this.abscissae.length;
  }

  protected locate(i: number): void {
    const ins = this.list[this.instrument[i]],
      pl = this.place;
    pl.y = 0;
    pl.z = 0;
    pl.set = ins.beamCount > 0 ? ins : undefined;
    if (pl.set) beamAtAbscissa(ins, this.abscissae[i], pl);
  }
}
