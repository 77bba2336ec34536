import {
  BaseObject,
  Bool,
  UInt,
  contextMeshTopology,
  isMechanicalState,
  outputFilePath,
  type BaseMechanicalState,
  type BaseMeshTopology,
  type SofaEvent,
} from '@sofa-ts/core';

/**
 * What SOFA's exporters share: when to export (exportAtBegin once the scene is initialised,
 * every exportEveryNumberOfSteps-th step end, exportAtEnd at cleanup) and where (`filename`
 * beside the scene file that declares the exporter, or in the scene's output folder: core
 * `outputFilePath`, never the working directory; numbered `<base>_<k><ext>` unless `overwrite`).
 */
export abstract class ExporterBase extends BaseObject {
  readonly exportEveryNumberOfSteps = this.initData({
    name: 'exportEveryNumberOfSteps',
    type: UInt,
    default: 0,
    help: 'export file only at specified number of steps (0=disable)',
  });
  readonly exportAtBegin = this.initData({ name: 'exportAtBegin', type: Bool, default: false, help: 'export file at the initialization' });
  readonly exportAtEnd = this.initData({
    name: 'exportAtEnd',
    type: Bool,
    default: false,
    help: 'export file when the simulation is finished',
  });
  readonly overwrite = this.initData({
    name: 'overwrite',
    type: Bool,
    default: false,
    help: 'overwrite the file, otherwise create a new file at each export, with suffix in the filename',
  });

  protected topology: BaseMeshTopology | undefined;
  protected mstate: BaseMechanicalState | undefined;
  /** Files written so far (numbering). */
  protected nbFiles = 0;
  private steps = 0;
  /** Checkpoint: the step count and the numbering of the files. */
  readonly checkpointFields: readonly string[] = ['nbFiles', 'steps'];

  override init(): void {
    this.topology = contextMeshTopology(this.context);
    this.mstate = this.context.getObject(isMechanicalState, 'local');
    this.nbFiles = 0;
    this.steps = 0;
  }

  override bwdInit(): void {
    if (this.exportAtBegin.value) this.write();
  }

  override handleEvent(event: SofaEvent): void {
    if (event.type !== 'AnimateEndEvent') return;
    this.steps++;
    const every = this.exportEveryNumberOfSteps.value;
    if (every > 0 && this.steps % every === 0) this.write();
  }

  /** SOFA's cleanup: the end of the simulation (the CLI calls it after the last step). */
  cleanup(): void {
    if (this.exportAtEnd.value) this.write();
  }

  /** Writes the file(s) of the current state. */
  abstract write(): void;

  /** `base_<k>ext` (or `base + ext` with overwrite) for a filename and its default extension. */
  protected numberedName(filename: string, ext: string, knownExts: readonly string[]): { file: string; base: string } {
    const name = filename || this.getName();
    const found = knownExts.find((e) => name.toLowerCase().endsWith(e));
    const base = outputFilePath(this, found ? name.slice(0, -found.length) : name);
    const e = found ?? ext;
    return { file: this.overwrite.value ? `${base}${e}` : `${base}_${this.nbFiles}${e}`, base };
  }

  /** Positions (n × 3): the `position` Data when set, else the state's (translations of rigid frames), else the topology's. */
  protected points(position: Float64Array): Float64Array {
    if (position.length > 0) return position;
    const s = this.mstate;
    if (s) {
      const cs = s.stateType.coordSize;
      if (cs === 3) return s.x;
      const out = new Float64Array(3 * s.size);
      for (let i = 0; i < s.size; i++) for (let k = 0; k < Math.min(3, cs); k++) out[3 * i + k] = s.x[cs * i + k];
      return out;
    }
    const p = this.topology?.getPositions();
    if (p) return p;
    throw this.error('nothing to export: no position given, no mechanical state and no topology positions in this node');
  }
}
