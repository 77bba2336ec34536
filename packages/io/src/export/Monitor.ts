import {
  BaseObject,
  Bool,
  Indices,
  Real,
  Str,
  host,
  isMechanicalState,
  outputFilePath,
  sofaComponent,
  type BaseMechanicalState,
  type CheckpointReader,
  type CheckpointRecord,
  type SofaEvent,
} from '@sofa-ts/core';

/**
 * SOFA's Monitor: writes the positions, velocities and forces of chosen points of its node's
 * state to text files for gnuplot — `<fileName>_x.txt`, `_v.txt`, `_f.txt` — one line per step
 * (at init, then after every step): the time, then the coordinates of each index in order. Its
 * drawing Data (showPositions, colors, trajectories) are kept for the viewer and do nothing here.
 */
@sofaComponent({
  name: 'Monitor',
  category: 'Exporter',
  module: 'Sofa.Component.Playback',
  description: 'Monitoring of particles: positions, velocities and forces of chosen indices written to gnuplot files.',
})
export class Monitor extends BaseObject {
  readonly indices = this.initData({
    name: 'indices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'MechanicalObject points to monitor',
  });
  readonly ExportPositions = this.initData({
    name: 'ExportPositions',
    type: Bool,
    default: false,
    help: 'export monitored positions as gnuplot file',
  });
  readonly ExportVelocities = this.initData({
    name: 'ExportVelocities',
    type: Bool,
    default: false,
    help: 'export monitored velocities as gnuplot file',
  });
  readonly ExportForces = this.initData({
    name: 'ExportForces',
    type: Bool,
    default: false,
    help: 'export monitored forces as gnuplot file',
  });
  readonly fileName = this.initData({
    name: 'fileName',
    type: Str,
    default: '',
    help: 'name of the plot files to be generated (default: the component name)',
  });
  readonly showPositions = this.initData({
    name: 'showPositions',
    type: Bool,
    default: true,
    help: 'see the monitored positions',
    group: 'Visualization',
  });
  readonly showVelocities = this.initData({
    name: 'showVelocities',
    type: Bool,
    default: false,
    help: 'see the monitored velocities',
    group: 'Visualization',
  });
  readonly showForces = this.initData({
    name: 'showForces',
    type: Bool,
    default: false,
    help: 'see the monitored forces',
    group: 'Visualization',
  });
  readonly showTrajectories = this.initData({
    name: 'showTrajectories',
    type: Bool,
    default: false,
    help: 'print the trajectory of monitored particles',
    group: 'Visualization',
  });
  readonly sizeFactor = this.initData({
    name: 'sizeFactor',
    type: Real,
    default: 1,
    help: 'factor to multiply to arrows',
    group: 'Visualization',
  });
  readonly PositionsColor = this.initData({
    name: 'PositionsColor',
    type: Str,
    default: '1 1 0 1',
    help: 'define the color of positions',
    group: 'Visualization',
  });
  readonly VelocitiesColor = this.initData({
    name: 'VelocitiesColor',
    type: Str,
    default: '1 1 0 1',
    help: 'define the color of velocities',
    group: 'Visualization',
  });
  readonly ForcesColor = this.initData({
    name: 'ForcesColor',
    type: Str,
    default: '1 1 0 1',
    help: 'define the color of forces',
    group: 'Visualization',
  });
  readonly TrajectoriesColor = this.initData({
    name: 'TrajectoriesColor',
    type: Str,
    default: '1 1 0 1',
    help: 'define the color of the trajectories',
    group: 'Visualization',
  });

  private state!: BaseMechanicalState;
  private files: { kind: 'x' | 'v' | 'f'; file: string }[] = [];

  override init(): void {
    const s = this.context.getObject(isMechanicalState, 'local');
    if (!s) throw this.error('no mechanical state in this node');
    this.state = s;
    for (const i of this.indices.value)
      if (i >= s.size) throw this.error(`index ${i} is out of range: ${s.describe()} has ${s.size} points`);
    const base = outputFilePath(this, this.fileName.value || this.getName());
    const idx = Array.from(this.indices.value).join(' ');
    const n = this.indices.value.length;
    this.files = [];
    const open = (on: boolean, kind: 'x' | 'v' | 'f', what: string): void => {
      if (!on) return;
      const file = `${base}_${kind}.txt`;
      host().writeFile(
        file,
        `# Gnuplot File : ${what} of ${n} particle(s) Monitored\n# 1st Column : time, others : particle(s) number ${idx}\n`,
      );
      this.files.push({ kind, file });
    };
    open(this.ExportPositions.value, 'x', 'positions');
    open(this.ExportVelocities.value, 'v', 'velocities');
    open(this.ExportForces.value, 'f', 'forces');
  }

  override bwdInit(): void {
    this.record();
  }

  /** Checkpoint: the files as written so far (small: a line per step); a resumed run writes them back and appends. */
  checkpointState(): CheckpointRecord {
    return { files: this.files.map(({ file }) => host().readBytes(file)) };
  }

  restoreState(saved: CheckpointReader): void {
    const contents = saved.list('files');
    if (contents.length !== this.files.length)
      throw this.error(`checkpoint: ${contents.length} monitored file(s), ${this.files.length} expected`);
    this.files.forEach(({ file }, i) => {
      const c = contents[i];
      if (!(c instanceof Uint8Array)) throw this.error(`checkpoint: the content of ${file} is missing`);
      host().writeFile(file, c);
    });
  }

  override handleEvent(event: SofaEvent): void {
    if (event.type === 'AnimateEndEvent') this.record();
  }

  /** One line per file: time, then each monitored point's coordinates. */
  private record(): void {
    const s = this.state;
    for (const { kind, file } of this.files) {
      const vec = kind === 'x' ? s.x : kind === 'v' ? s.v : s.f;
      const size = kind === 'x' ? s.stateType.coordSize : s.stateType.derivSize;
      const parts: string[] = [String(this.context.getTime())];
      for (const i of this.indices.value) parts.push(Array.from(vec.subarray(size * i, size * i + size), String).join(' '));
      host().writeFile(file, `${parts.join('\t')}\n`, { append: true });
    }
  }
}
