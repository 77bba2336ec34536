import uPlot from 'uplot';
import type { StepSample } from 'sofa-ts/browser';

/** Live charts (uPlot): energies, and solver iterations with ms/step, over the last `keep` steps. */
export class Charts {
  private readonly cols: number[][] = [[], [], [], [], []];
  /** Charted Data: their labels, and per label the values (aligned with cols[0]). */
  private dataNames: string[] = [];
  private dataCols: number[][] = [];
  private dataPlot: any;
  private energy: any;
  private solver: any;
  private dirty = false;

  constructor(
    private readonly host: HTMLElement,
    private readonly keep = 600,
  ) {
    const width = Math.max(200, host.clientWidth - 10);
    const axes = [
      { stroke: '#aaa', grid: { stroke: '#333' } },
      { stroke: '#aaa', grid: { stroke: '#333' }, size: 60 },
    ];
    this.energy = new uPlot(
      {
        width,
        height: 140,
        title: 'energy (J)',
        scales: { x: { time: false } },
        axes,
        legend: { show: true },
        series: [{ label: 'step' }, { label: 'kinetic', stroke: '#4fc3f7' }, { label: 'potential', stroke: '#ffb74d' }],
      },
      [[], [], []],
      host,
    );
    this.solver = new uPlot(
      {
        width,
        height: 140,
        title: 'solver',
        legend: { show: true },
        axes: [...axes, { side: 1, scale: 'ms', stroke: '#aaa', grid: { show: false } }],
        series: [{ label: 'step' }, { label: 'iterations', stroke: '#81c784' }, { label: 'ms/step', stroke: '#e57373', scale: 'ms' }],
        scales: { x: { time: false }, ms: {} },
      },
      [[], [], []],
      host,
    );
    setInterval(() => this.redraw(), 250);
  }

  add(s: StepSample): void {
    const c = this.cols;
    const last = c[0].length > 0 ? c[0][c[0].length - 1] : -1;
    if (s.step === last) return; // the same step again (a frame sent on pause or play)
    if (s.step < last) this.clear(); // after a reset
    (c[0].push(s.step), c[1].push(s.kinetic), c[2].push(s.potential), c[3].push(s.iterations + s.constraintIterations), c[4].push(s.ms));
    this.dataNames.forEach((n, k) => this.dataCols[k].push(s.data[n] ?? NaN));
    if (c[0].length > this.keep) for (const col of [...c, ...this.dataCols]) col.shift();
    this.dirty = true;
  }

  /** The Data charted from now on (a third chart; values or norms per step). */
  setData(names: string[]): void {
    this.dataPlot?.destroy();
    this.dataPlot = undefined;
    this.dataNames = names;
    this.dataCols = names.map(() => this.cols[0].map(() => NaN));
    if (names.length === 0) return;
    const colors = ['#ba68c8', '#4db6ac', '#fff176', '#f06292', '#90a4ae'];
    this.dataPlot = new uPlot(
      {
        width: Math.max(200, this.host.clientWidth - 10),
        height: 140,
        title: 'Data (value or norm)',
        scales: { x: { time: false } },
        axes: [
          { stroke: '#aaa', grid: { stroke: '#333' } },
          { stroke: '#aaa', grid: { stroke: '#333' }, size: 60 },
        ],
        series: [{ label: 'step' }, ...names.map((n, k) => ({ label: n.split('/').pop(), stroke: colors[k % colors.length] }))],
      },
      [this.cols[0], ...this.dataCols],
      this.host,
    );
  }

  clear(): void {
    for (const col of [...this.cols, ...this.dataCols]) col.length = 0;
    this.dirty = true;
  }

  private redraw(): void {
    if (!this.dirty) return;
    this.dirty = false;
    const c = this.cols;
    this.energy.setData([c[0], c[1], c[2]]);
    this.solver.setData([c[0], c[3], c[4]]);
    this.dataPlot?.setData([c[0], ...this.dataCols]);
  }
}
