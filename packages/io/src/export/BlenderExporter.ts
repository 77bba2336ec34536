import { Int, Str, host, inClosed, positive, sofaComponent, type BaseMechanicalState, type Data, type SofaEvent } from '@sofa-ts/core';
import { localMechanicalState, outputFilePath } from '../playback/playback-files.js';
import { BLENDER_SIMULATION, bphysFileName, bphysFrameBytes, bphysHairInfoFrame, writeBphysFrame } from './bphys-format.js';
import { SimulationExporterBase } from './simulation-exporter.js';

/**
 * SOFA's BlenderExporter: the state of the node's MechanicalObject (Vec3d, or the centres of
 * Rigid3d frames) as Blender point cache files, one per frame, to replace a cached soft body,
 * particle system, cloth or hair simulation (copy them into the `blendcache_*` folder of the
 * .blend file). Format: bphys-format.ts.
 * At the beginning of every `step`-th animation step (AnimateBeginEvent, the first one included)
 * the state is written to `<path>/<baseName>_<k>_00.bphys`, k = 1, 2, … on 6 digits; for hair an
 * information frame `<baseName>_000000_00.bphys` is written at init.
 * Where sofa-ts departs from SOFA: relative paths are beside the scene file (SOFA: the working
 * directory); an empty baseName is the component's name (SOFA writes `_000001_00.bphys`); `enable`
 * = false writes nothing; hair needs whole strands (n a multiple of nbPtsByHair, at least two points
 * each: SOFA's header miscounts the others). filename, exportEveryNumberOfSteps, exportAtBegin and
 * exportAtEnd, inherited from SOFA's BaseSimulationExporter, are not used (as in SOFA): a warning
 * says so when a scene sets them. Smoke and fluid caches are not written (SOFA's neither).
 */
@sofaComponent({
  name: 'BlenderExporter',
  category: 'Exporter',
  module: 'Sofa.Component.IO.Mesh',
  description:
    "Export the simulation result as blender point cache files (`path/baseName_NNNNNN_00.bphys`, frame NNNNNN, at the beginning of every 'step'-th step; soft body, particles, cloth, hair). " +
    'Not written: smoke and fluid caches (as in SOFA). Hair needs whole strands of nbPtsByHair points. filename, exportEveryNumberOfSteps, exportAtBegin and exportAtEnd are not used (as in SOFA), with a warning; enable=0 writes nothing.',
  templates: ['Vec3d', 'Rigid3d'],
})
export class BlenderExporter extends SimulationExporterBase {
  readonly path = this.initData({
    name: 'path',
    type: Str,
    default: '',
    help: "output folder (relative: beside the scene file; default: the scene's folder)",
  });
  readonly baseName = this.initData({
    name: 'baseName',
    type: Str,
    default: '',
    help: "base name of the files, `baseName_NNNNNN_00.bphys` for frame NNNNNN (default: the component's name)",
  });
  readonly simulationType = this.initData({
    name: 'simulationType',
    type: Int,
    default: 0,
    range: inClosed(0, 3),
    help: 'simulation type (0: soft body, 1: particles, 2: cloth, 3: hair)',
  });
  readonly simulationStep = this.initData({
    name: 'step',
    type: Int,
    default: 2,
    range: positive,
    help: 'save the simulation result every step frames',
  });
  readonly nbPtsByHair = this.initData({
    name: 'nbPtsByHair',
    type: Int,
    default: 20,
    range: positive,
    help: 'number of points of each hair strand (simulationType 3)',
  });

  private state: BaseMechanicalState | undefined;
  /** Path of the files without the `_<frame>_00.bphys` suffix. */
  private base = '';
  /** One frame's bytes (bphysFrameBytes), sized at init and when the state's size changes. */
  private buffer = new Uint8Array(0);
  /** AnimateBeginEvents seen since init (or reset). */
  private frameCounter = 0;
  override readonly checkpointFields: readonly string[] = ['frameCounter'];

  override init(): void {
    super.init();
    const state = localMechanicalState(this);
    const type = state.stateType.name;
    if (type !== 'Vec3d' && type !== 'Rigid3d') throw this.error(`BlenderExporter writes Vec3d or Rigid3d states, not ${type}`);
    this.state = state;
    const notUsed: Data<unknown>[] = [this.filename, this.exportEveryNumberOfSteps, this.exportAtBegin, this.exportAtEnd];
    for (const d of notUsed) {
      if (d.isSet)
        this.warnAbout(
          d,
          `${d.name} is not used by BlenderExporter (nor by SOFA's): frames are written every 'step' animation steps, named from path and baseName`,
        );
    }
    this.base = outputFilePath(this, host().path.join(this.path.value, this.baseName.value || this.getName()));
    this.frameCounter = 0;
    this.checkState();
    if (this.simulationType.value === BLENDER_SIMULATION.hair && this.enable.value)
      this.writeFile(bphysFileName(this.base, 0), bphysHairInfoFrame());
  }

  /** No export at init (SOFA's BlenderExporter writes at the beginning of steps only). */
  override bwdInit(): void {}

  /** No export at cleanup (as in SOFA). */
  override cleanup(): void {}

  override reset(): void {
    this.frameCounter = 0;
  }

  override handleEvent(event: SofaEvent): void {
    if (event.type !== 'AnimateBeginEvent') return;
    if (this.enable.value && this.frameCounter % this.simulationStep.value === 0) this.write();
    this.frameCounter++;
  }

  /** Writes the frame of the current state, numbered frameCounter/step + 1. */
  write(): void {
    const s = this.state!;
    this.checkState();
    const bytes = writeBphysFrame(
      this.buffer,
      { n: s.size, x: s.x, v: s.v, x0: s.x0, coordSize: s.stateType.coordSize, derivSize: s.stateType.derivSize },
      this.simulationType.value,
      this.nbPtsByHair.value,
    );
    const frame = Math.floor(this.frameCounter / this.simulationStep.value) + 1;
    this.writeFile(bphysFileName(this.base, frame), this.buffer.subarray(0, bytes));
  }

  /** Hair strands are whole; the frame buffer fits the state's size. */
  private checkState(): void {
    const n = this.state!.size;
    const nb = this.nbPtsByHair.value;
    if (this.simulationType.value === BLENDER_SIMULATION.hair && (nb < 2 || n % nb !== 0)) {
      throw this.dataError(
        this.nbPtsByHair,
        `hair needs strands of at least two points and ${n} points in whole strands: nbPtsByHair=${nb} does not divide them`,
      );
    }
    const bytes = bphysFrameBytes(n, this.simulationType.value, nb);
    if (this.buffer.length < bytes) this.buffer = new Uint8Array(bytes);
  }

  private writeFile(file: string, bytes: Uint8Array): void {
    const h = host();
    if (h.isFile(file) && h.isReadOnly?.(file))
      throw this.error(`'${file}' is read-only: BlenderExporter does not overwrite it`, 'write to another path or baseName');
    try {
      h.writeFile(file, bytes);
    } catch (e) {
      // the host's message names the file and the system's reason
      throw this.error((e as Error).message);
    }
  }
}
