import type { RecordValue } from './case-recorder.js';
import type { CaseResult } from './run-case.js';

/**
 * A case result as JSON (the journal's lines, the queue's job results) without losing a bit:
 * JSON prints a double in its shortest exact form and reads it back identical, but has no NaN,
 * ±Infinity or −0, which travel as {"f":"NaN"}, {"f":"Infinity"}, {"f":"-Infinity"}, {"f":"-0"}.
 */
type EncodedNumber = number | { f: 'NaN' | 'Infinity' | '-Infinity' | '-0' };
type EncodedValue = EncodedNumber | string | EncodedNumber[] | null;

export interface EncodedResult {
  steps: number[];
  times: EncodedNumber[];
  columns: { name: string; values: EncodedValue[] }[];
  loadMs: number;
  stepsMs: number;
  warnings: string[];
}

export function encodeNumber(x: number): EncodedNumber {
  if (Number.isFinite(x)) return Object.is(x, -0) ? { f: '-0' } : x;
  return { f: Number.isNaN(x) ? 'NaN' : x > 0 ? 'Infinity' : '-Infinity' };
}

export function decodeNumber(e: EncodedNumber): number {
  return typeof e === 'number' ? e : e.f === '-0' ? -0 : Number(e.f);
}

function encodeValue(v: RecordValue): EncodedValue {
  if (v === null || typeof v === 'string') return v;
  if (typeof v === 'number') return encodeNumber(v);
  return v.map(encodeNumber);
}

function decodeValue(e: EncodedValue): RecordValue {
  if (e === null || typeof e === 'string') return e;
  if (Array.isArray(e)) return e.map(decodeNumber);
  return decodeNumber(e);
}

export function encodeResult(r: CaseResult): EncodedResult {
  return {
    steps: r.steps,
    times: r.times.map(encodeNumber),
    columns: r.columns.map((c) => ({ name: c.name, values: c.values.map(encodeValue) })),
    loadMs: r.loadMs,
    stepsMs: r.stepsMs,
    warnings: r.warnings,
  };
}

export function decodeResult(e: EncodedResult): CaseResult {
  return {
    steps: e.steps,
    times: e.times.map(decodeNumber),
    columns: e.columns.map((c) => ({ name: c.name, values: c.values.map(decodeValue) })),
    loadMs: e.loadMs,
    stepsMs: e.stepsMs,
    warnings: e.warnings,
  };
}
