import { SofaError, isMechanicalState, resolvePath, splitDataPath, type BaseObject, type Data, type Node } from '@sofa-ts/core';
import { StepProbe, allStates, type SofaScene, type StepSample } from 'sofa-ts';
import type { RecordSpec } from './record-spec.js';

/** One recorded value: a number, a text, a vector of numbers, or nothing at that row. */
export type RecordValue = number | string | number[] | null;

/** A recorded column: its name and one value per recorded row. */
export interface RecordColumn {
  readonly name: string;
  readonly values: RecordValue[];
}

/** What one case kept: the recorded rows (step number and simulated time) and the columns. */
export interface CaseRecords {
  readonly steps: number[];
  readonly times: number[];
  readonly columns: RecordColumn[];
}

interface Source {
  readonly column: RecordColumn;
  /** 0: at the last step only; K: every K steps and at the last step. */
  readonly every: number;
  /** The value now; `stepMs` is the wall time of the step just done (NaN at step 0). */
  read(step: number, stepMs: number, sample: () => StepSample): RecordValue;
}

/**
 * Reads what `--record` asks of a running case. Built after init (the scene's Data and states
 * resolved once); `sample` is called at step 0 and after every step, and keeps a row when a record
 * is due: every K steps for `:K` records, and at the last step for all.
 */
export class CaseRecorder implements CaseRecords {
  readonly steps: number[] = [];
  readonly times: number[] = [];
  readonly columns: RecordColumn[] = [];
  private readonly sources: Source[] = [];
  private readonly periods: number[];
  private probe: StepProbe | undefined;
  private readonly checkItems: boolean;
  /** Wall-time totals, written at the last row by `finish`. */
  private wallEnd: { load: RecordColumn; steps: RecordColumn } | undefined;

  /** `checkItems`: check the selected items of vector Data now (false before init, when vectors may be empty). */
  constructor(
    private readonly scene: SofaScene,
    records: readonly RecordSpec[],
    private readonly lastStep: number,
    checkItems = true,
  ) {
    this.checkItems = checkItems;
    const root = scene.root;
    for (const r of records) {
      if (r.kind === 'data') this.addData(root, r);
      else if (r.kind === 'states') {
        for (const s of allStates(root)) {
          const p = objectPath(s.state);
          this.add(`${p}.position`, r.every, () => Array.from(s.state.x));
          this.add(`${p}.velocity`, r.every, () => Array.from(s.state.v));
        }
      } else if (r.kind === 'solver') {
        const fields: [string, (s: StepSample) => number][] = [
          ['iterations', (s) => s.iterations],
          ['residual', (s) => s.residual],
          ['constraintIterations', (s) => s.constraintIterations],
          ['constraintRows', (s) => s.constraintRows],
          ['constraintLambdaMax', (s) => s.constraintLambdaMax],
        ];
        for (const [name, f] of fields) this.add(`solver.${name}`, r.every, (step, _ms, sample) => (step === 0 ? null : f(sample())));
      } else if (r.kind === 'energy') {
        this.add('energy.kinetic', r.every, (_s, _ms, sample) => sample().kinetic);
        this.add('energy.potential', r.every, (_s, _ms, sample) => sample().potential);
      } else {
        if (r.every > 0) this.add('wall.stepMs', r.every, (step, ms) => (step === 0 ? null : ms));
        const load = this.add('wall.loadMs', 0, () => null);
        const steps = this.add('wall.stepsMs', 0, () => null);
        this.wallEnd = { load, steps };
      }
    }
    this.periods = [...new Set(this.sources.map((s) => s.every).filter((k) => k > 0))];
  }

  /** Keeps a row at `step` when a record is due (`stepMs`: wall time of that step, NaN at 0). */
  sample(step: number, stepMs: number): void {
    const last = step === this.lastStep;
    if (!last && !this.periods.some((k) => step % k === 0)) return;
    let cached: StepSample | undefined;
    const sample = (): StepSample => (cached ??= (this.probe ??= new StepProbe(this.scene.root)).sample(step, stepMs));
    this.steps.push(step);
    this.times.push(this.scene.time);
    for (const s of this.sources) {
      const due = last || (s.every > 0 && step % s.every === 0);
      s.column.values.push(due ? s.read(step, stepMs, sample) : null);
    }
  }

  /** The wall-time totals of `wall`, at the last row (when the case reached it). */
  finish(loadMs: number, stepsMs: number): void {
    if (!this.wallEnd || this.steps[this.steps.length - 1] !== this.lastStep) return;
    const i = this.steps.length - 1;
    this.wallEnd.load.values[i] = loadMs;
    this.wallEnd.steps.values[i] = stepsMs;
  }

  private add(name: string, every: number, read: Source['read']): RecordColumn {
    if (this.columns.some((c) => c.name === name)) throw new SofaError(`--record: '${name}' is recorded twice`);
    const column: RecordColumn = { name, values: [] };
    this.columns.push(column);
    this.sources.push({ column, every, read });
    return column;
  }

  private addData(root: Node, r: Extract<RecordSpec, { kind: 'data' }>): void {
    const split = splitDataPath(r.path);
    const target = split ? resolvePath(root, split.objectPath === '' ? '/' : split.objectPath) : undefined;
    const owner = target?.kind === 'object' ? target.object : target?.kind === 'node' ? target.node : undefined;
    const d = owner?.findData(split!.field);
    if (!d) {
      const what = owner
        ? `${target!.kind === 'object' ? target!.object.describe() : `node '${target!.node.getName()}'`} has no Data '${split!.field}'`
        : `no node or object at '${split?.objectPath ?? r.path}'`;
      throw new SofaError(`--record '${r.text}': ${what}`);
    }
    const select = r.select;
    const name = r.text.replace(/:\d+$/, '');
    if (!select) {
      this.add(name, r.every, () => valueOf(d));
      return;
    }
    const tuple = tupleSize(target!.kind === 'object' ? target!.object : undefined, d);
    const pick = (): number[] => {
      const v = d.value;
      if (!isNumberArray(v)) throw new SofaError(`--record '${r.text}': '${r.path}' is not a vector of numbers (${d.spec.type.name})`);
      const out: number[] = [];
      for (const i of select) {
        if (i < 0 || (i + 1) * tuple > v.length)
          throw new SofaError(`--record '${r.text}': item ${i} is out of range (${v.length / tuple} items of ${tuple})`);
        for (let k = 0; k < tuple; k++) out.push(v[i * tuple + k]);
      }
      return out;
    };
    if (this.checkItems) pick();
    this.add(name, r.every, pick);
  }
}

/** A Data value as recorded: numbers and texts as they are, booleans as 0/1, vectors copied, the
 *  rest in SOFA's text syntax. */
function valueOf(d: Data<unknown>): RecordValue {
  const v = d.value;
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') return v;
  if (isNumberArray(v)) return Array.from(v);
  return d.print();
}

/** Numbers per item of a vector Data: a state's coordinates or derivatives per point, else the
 *  size of the type's Vec (vector<Vec3d>: 3), else 1. */
function tupleSize(owner: BaseObject | undefined, d: Data<unknown>): number {
  const v = d.value;
  if (owner && isMechanicalState(owner) && owner.size > 0 && isNumberArray(v) && v.length % owner.size === 0) return v.length / owner.size;
  const m = /Vec(\d)/.exec(d.spec.type.name);
  return m ? Number(m[1]) : 1;
}

function isNumberArray(v: unknown): v is ArrayLike<number> {
  return ArrayBuffer.isView(v) && !(v instanceof DataView) && !(v instanceof BigInt64Array) && !(v instanceof BigUint64Array);
}

/** `/node/child/object`: the scene path of an object (`/object` in the root). */
export function objectPath(o: BaseObject): string {
  return `${nodePath(o.context)}${o.getName()}`;
}

/** `/`, `/node/child/`: a node's scene path with a trailing slash. */
function nodePath(n: Node): string {
  const names: string[] = [];
  for (let x: Node | undefined = n; x?.parent; x = x.parent) names.unshift(x.getName());
  return `/${names.map((s) => `${s}/`).join('')}`;
}
