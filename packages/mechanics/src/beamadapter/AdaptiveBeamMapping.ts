import { BaseObject, Bool, Real, RealArray, isMechanicalState, sofaComponent } from '@sofa-ts/core';
import { BeamPointMapping, beamAtAbscissa } from './beam-point-mapping.js';
import { isBeamSet, type BeamSet } from './beam-set.js';

/**
 * SOFA's AdaptiveBeamMapping (BeamAdapter plugin): points along the beams of a BeamInterpolation or
 * a WireBeamInterpolation (beam-point-mapping.ts). Point i is (s_i, y_i, z_i): the output's
 * positions once every component is initialised, unless `points` is given. With useCurvAbs, s_i is
 * a curvilinear abscissa on the instrument, placed at each step on the beams deployed (BeamAdapter's
 * getBeamAtCurvAbs: before the first beam, at its start); else s_i = beam index + barycentric
 * coordinate.
 */
@sofaComponent({
  name: 'AdaptiveBeamMapping',
  category: 'Mapping',
  module: 'BeamAdapter',
  description:
    'Points along the Bézier beams of a BeamInterpolation or WireBeamInterpolation (visual, collision or mechanical models of instruments).',
  templates: ['Rigid3d,Vec3d'],
})
export class AdaptiveBeamMapping extends BeamPointMapping {
  readonly useCurvAbs = this.initData({
    name: 'useCurvAbs',
    type: Bool,
    default: true,
    help: 'if true, the first coordinate of a point is its curvilinear abscissa (kept as the beams change); else beam index + barycentric coordinate',
  });
  readonly points = this.initData({
    name: 'points',
    type: RealArray(3),
    default: new Float64Array(0),
    help: 'mapped points (abscissa or beam coordinate, then y, z in the beam frame); default: the output positions at init',
  });
  readonly proximity = this.initData({
    name: 'proximity',
    type: Real,
    default: 0,
    help: 'lever of constraints at the surface of the beams: not implemented (an error when > 0)',
  });
  readonly nbPointsPerBeam = this.initData({
    name: 'nbPointsPerBeam',
    type: Real,
    default: 0,
    help: 'points resampled on every beam: not implemented (an error when > 0)',
  });
  readonly contactDuplicate = this.initData({
    name: 'contactDuplicate',
    type: Bool,
    default: false,
    help: 'copy of another mapping gathering contact points: not implemented (an error when true)',
  });
  readonly parallelMapping = this.initData({
    name: 'parallelMapping',
    type: Bool,
    default: false,
    help: 'parallel computation in BeamAdapter; sequential here (the result is the same)',
  });
  readonly interpolation = this.initLink<BeamSet & BaseObject>({
    name: 'interpolation',
    help: 'the BeamInterpolation or WireBeamInterpolation (default: the first one of the input state’s node)',
    accepts: (o): o is BeamSet & BaseObject => isBeamSet(o) && o instanceof BaseObject,
    expected: 'a BeamInterpolation or a WireBeamInterpolation',
    search: 'none',
  });

  private interp: BeamSet | undefined;
  private pts: Float64Array = new Float64Array(0);

  override init(): void {
    this.resolveEnds();
    this.checkTemplates(['Rigid3d,Vec3d']);
    if (this.proximity.value > 0) throw this.dataError(this.proximity, 'proximity (constraint levers) is not implemented in sofa-ts');
    if (this.nbPointsPerBeam.value > 0)
      throw this.dataError(this.nbPointsPerBeam, 'nbPointsPerBeam (resampled points) is not implemented in sofa-ts');
    if (this.contactDuplicate.value) throw this.dataError(this.contactDuplicate, 'contactDuplicate is not implemented in sofa-ts');
    let interp = this.interpolation.get();
    if (!interp) {
      const node = this.from.context;
      interp = node.getObjects((o): o is BeamSet & BaseObject => isBeamSet(o) && o instanceof BaseObject)[0];
      if (!interp) throw this.error(`no BeamInterpolation or WireBeamInterpolation beside ${this.from.describe()}: set interpolation="@…"`);
      this.interpolation.set(interp);
    }
    interp.prepare();
    if (interp.getState() !== this.from)
      throw this.error(
        `the interpolation ${(interp as BaseObject).describe()} is on ${interp.getState().describe()}, the input is ${this.from.describe()}`,
      );
    if (interp.dofToNode)
      throw this.error(
        `the beams of ${(interp as BaseObject).describe()} have DOF-to-node transformations (dofsAndBeamsAligned="false"), which this mapping does not follow in sofa-ts: its points would sit off the beams`,
      );
    this.interp = interp;
  }

  /** The points, from the output once every component placed it (Edge2QuadTopologicalMapping, loaders). */
  override bwdInit(): void {
    let pts: Float64Array = this.points.value;
    if (pts.length === 0) {
      const n = this.outputSize();
      pts = Float64Array.from(this.outputPositions().subarray(0, 3 * n));
      if (n === 0) this.warn('no point to map: the output is empty and points="…" is not given');
      this.points.value = pts;
    }
    this.pts = pts;
    this.allocatePoints(pts.length / 3);
    this.apply();
    if (isMechanicalState(this.to)) this.applyJ(this.to.v, [this.from.v]);
  }

  protected get pointCount(): number {
    return this.pts.length / 3;
  }

  protected locate(i: number): void {
    const it = this.interp!,
      p = this.pts,
      pl = this.place,
      nB = it.beamCount,
      s = p[3 * i];
    pl.y = p[3 * i + 1];
    pl.z = p[3 * i + 2];
    pl.set = nB === 0 ? undefined : it;
    if (nB === 0) return;
    if (this.useCurvAbs.value) return beamAtAbscissa(it, s, pl);
    const b = Math.floor(s);
    if (b >= 0 && b < nB) {
      pl.beam = b;
      pl.bary = s - b;
      return;
    }
    this.warnAbout(
      this.points,
      `point ${i} is on beam ${b}, outside the ${nB} beams: it is placed at the ${b < 0 ? 'start of the first' : 'end of the last'}`,
    );
    pl.beam = b < 0 ? 0 : nB - 1;
    pl.bary = b < 0 ? 0 : 1;
  }
}
