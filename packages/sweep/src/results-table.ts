import * as fs from 'node:fs';
import { writeFailure } from '@sofa-ts/core';
import { parquetWriteBuffer, type ColumnSource, type SchemaElement } from 'hyparquet-writer';
import type { RecordValue } from './case-recorder.js';
import type { JournalEntry } from './journal.js';
import { decodeResult } from './result-codec.js';

/** A column of the results table: one value per row, and the type it is written as. */
export interface TableColumn {
  readonly name: string;
  /** 'int' (case index, step), 'double', 'text', or 'list' (a vector of doubles). */
  readonly type: 'int' | 'double' | 'text' | 'list';
  readonly values: RecordValue[];
}

/**
 * The results table: one row per case and recorded step, cases in sweep order. Columns: `case`
 * (the identity), `index`, one per parameter (its path), `step`, `time` (simulated, s), then one
 * per recorded value (null where that record was not due at the row's step).
 */
export function resultsTable(entries: readonly JournalEntry[], paramPaths: readonly string[]): TableColumn[] {
  const ok = entries.filter((e) => e.status === 'ok' && e.result).sort((a, b) => a.index - b.index);
  const meta: Record<string, RecordValue[]> = { case: [], index: [], step: [], time: [] };
  const params: RecordValue[][] = paramPaths.map(() => []);
  const records = new Map<string, RecordValue[]>();
  let rows = 0;
  for (const e of ok) {
    const r = decodeResult(e.result!);
    for (const c of r.columns) if (!records.has(c.name)) records.set(c.name, new Array<RecordValue>(rows).fill(null));
    for (let i = 0; i < r.steps.length; i++) {
      meta['case'].push(e.id);
      meta['index'].push(e.index);
      meta['step'].push(r.steps[i]);
      meta['time'].push(r.times[i]);
      paramPaths.forEach((p, k) => params[k].push(e.params[p] ?? null));
    }
    for (const [name, col] of records) {
      const c = r.columns.find((x) => x.name === name);
      for (let i = 0; i < r.steps.length; i++) col.push(c ? (c.values[i] ?? null) : null);
    }
    rows += r.steps.length;
  }
  const taken = new Set(['case', 'index', 'step', 'time', ...paramPaths]);
  return [
    { name: 'case', type: 'text', values: meta['case'] },
    { name: 'index', type: 'int', values: meta['index'] },
    ...paramPaths.map((p, k) => ({ name: p, type: typeOf(params[k]), values: params[k] })),
    { name: 'step', type: 'int', values: meta['step'] },
    { name: 'time', type: 'double', values: meta['time'] },
    ...[...records].map(([name, values]) => ({ name: taken.has(name) ? `${name} (recorded)` : name, type: typeOf(values), values })),
  ];
}

/** A column's type from its values: all numbers → double, all vectors → list, else text. */
function typeOf(values: readonly RecordValue[]): TableColumn['type'] {
  let numbers = true,
    lists = true;
  for (const v of values) {
    if (v === null) continue;
    if (typeof v !== 'number') numbers = false;
    if (!Array.isArray(v)) lists = false;
  }
  return numbers ? 'double' : lists ? 'list' : 'text';
}

/** A value as text: numbers in shortest exact form (NaN, Infinity, -Infinity), vectors space separated. */
function asText(v: RecordValue): string | null {
  if (v === null) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(Object.is(v, -0) ? '-0' : v);
  return v.map((x) => (Object.is(x, -0) ? '-0' : String(x))).join(' ');
}

/**
 * Writes the table as Parquet (hyparquet-writer, snappy): text columns as UTF8 strings, numbers as
 * DOUBLE, vectors as LIST<DOUBLE>, the case index and step as INT32, nulls where nothing was
 * recorded. `metadata` goes into the file's key-value metadata. Written beside and renamed, so a
 * reader never sees half a file.
 */
export function writeParquet(file: string, table: readonly TableColumn[], metadata: Record<string, string> = {}): void {
  const schema: SchemaElement[] = [{ name: 'root', num_children: table.length }];
  const columnData: ColumnSource[] = [];
  for (const c of table) {
    if (c.type === 'list') {
      schema.push(
        { name: c.name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
        { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
        { name: 'element', type: 'DOUBLE', repetition_type: 'REQUIRED' },
      );
      columnData.push({ name: c.name, data: c.values as (number[] | null)[] });
    } else if (c.type === 'text') {
      schema.push({
        name: c.name,
        type: 'BYTE_ARRAY',
        converted_type: 'UTF8',
        repetition_type: c.name === 'case' ? 'REQUIRED' : 'OPTIONAL',
      });
      columnData.push({ name: c.name, data: c.values.map(asText) });
    } else if (c.type === 'int') {
      schema.push({ name: c.name, type: 'INT32', repetition_type: 'REQUIRED' });
      columnData.push({ name: c.name, data: Int32Array.from(c.values as number[]) });
    } else {
      schema.push({ name: c.name, type: 'DOUBLE', repetition_type: 'OPTIONAL' });
      columnData.push({ name: c.name, data: c.values as (number | null)[] });
    }
  }
  const buf = parquetWriteBuffer({
    columnData,
    schema,
    kvMetadata: Object.entries(metadata).map(([key, value]) => ({ key, value })),
    createdBy: 'sofa-ts sweep',
  });
  writeAtomically(file, new Uint8Array(buf));
}

/** Writes the table as CSV (RFC 4180): a header of column names, numbers in shortest exact form,
 *  vectors as space-separated numbers (SOFA's text syntax for vectors), empty cells for nulls. */
export function writeCsv(file: string, table: readonly TableColumn[]): void {
  const rows = table[0]?.values.length ?? 0;
  const lines = [table.map((c) => csvCell(c.name)).join(',')];
  for (let i = 0; i < rows; i++) lines.push(table.map((c) => csvCell(asText(c.values[i] ?? null))).join(','));
  writeAtomically(file, lines.join('\n') + '\n');
}

/** The failed cases as CSV: index, case, the parameters, attempts, step reached, error message. */
export function writeFailuresCsv(file: string, entries: readonly JournalEntry[], paramPaths: readonly string[]): void {
  const failed = entries.filter((e) => e.status === 'failed').sort((a, b) => a.index - b.index);
  const lines = [['index', 'case', ...paramPaths, 'attempts', 'step', 'error'].map(csvCell).join(',')];
  for (const e of failed)
    lines.push(
      [
        String(e.index),
        e.id,
        ...paramPaths.map((p) => asText(e.params[p] ?? null)),
        String(e.attempts),
        String(e.step ?? ''),
        e.error ?? '',
      ]
        .map(csvCell)
        .join(','),
    );
  writeAtomically(file, lines.join('\n') + '\n');
}

function csvCell(s: string | null): string {
  if (s === null) return '';
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The whole file or none: a temporary file renamed over `file`; on a failed write (a full disk)
 *  the temporary file is removed and the error says the system's reason. */
export function writeAtomically(file: string, content: string | Uint8Array): void {
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    fs.writeFileSync(tmp, content);
    fs.renameSync(tmp, file);
  } catch (cause) {
    fs.rmSync(tmp, { force: true });
    throw writeFailure('the sweep results', file, cause);
  }
}
