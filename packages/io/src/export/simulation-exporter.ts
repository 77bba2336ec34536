import { BaseObject, Bool, Str, UInt, outputFilePath, type SofaEvent } from '@sofa-ts/core';

/**
 * SOFA's BaseSimulationExporter (STLExporter, VisualModelOBJExporter): when to export
 * (exportAtBegin once the scene is initialised, every exportEveryNumberOfSteps-th step end,
 * exportAtEnd at cleanup, nothing when `enable` is false) and where: `filename` (default: the
 * component's name) beside the scene file that declares the exporter, or in the scene's output
 * folder when it has one (core `outputFilePath`; SOFA writes into the working directory, which
 * would litter wherever the command runs), followed, when exporting every N
 * steps, by the export number k = step/N on 5 digits (`out00000.stl`, `out00001.stl`, …).
 */
export abstract class SimulationExporterBase extends BaseObject {
  readonly filename = this.initData({
    name: 'filename',
    type: Str,
    default: '',
    help: 'Path or filename where to export the data.  If missing the name of the component is used.',
  });
  readonly exportEveryNumberOfSteps = this.initData({
    name: 'exportEveryNumberOfSteps',
    type: UInt,
    default: 0,
    help: 'export file only at specified number of steps (0=disable, default=0)',
  });
  readonly exportAtBegin = this.initData({
    name: 'exportAtBegin',
    type: Bool,
    default: false,
    help: 'export file before the simulation starts, once the simulation is initialized (default=false)',
  });
  readonly exportAtEnd = this.initData({
    name: 'exportAtEnd',
    type: Bool,
    default: false,
    help: 'export file when the simulation is over and cleanup is called (default=false)',
  });
  readonly enable = this.initData({ name: 'enable', type: Bool, default: true, help: 'Enable or disable the component. (default=true)' });

  /** Step ends seen so far (the numbering of the files). */
  protected stepCounter = 0;
  readonly checkpointFields: readonly string[] = ['stepCounter'];

  override init(): void {
    this.stepCounter = 0;
  }

  override bwdInit(): void {
    if (this.exportAtBegin.value && this.enable.value) this.write();
  }

  override handleEvent(event: SofaEvent): void {
    if (event.type !== 'AnimateEndEvent' || !this.enable.value) return;
    this.stepCounter++;
    const every = this.exportEveryNumberOfSteps.value;
    if (every > 0 && this.stepCounter % every === 0) this.write();
  }

  /** SOFA's cleanup: the end of the simulation (the CLI calls it after the last step). */
  cleanup(): void {
    if (this.exportAtEnd.value && this.enable.value) this.write();
  }

  /** Writes the file(s) of the current state. */
  abstract write(): void;

  /** The target path without extension: filename (or the name), numbered k = step/N on 5 digits when exporting every N steps. */
  protected targetPath(): string {
    let path = outputFilePath(this, this.filename.value || this.getName());
    const every = this.exportEveryNumberOfSteps.value;
    if (every > 0) path += String(Math.floor(this.stepCounter / every)).padStart(5, '0');
    return path;
  }
}
