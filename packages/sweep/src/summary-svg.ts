import type { RecordValue } from './case-recorder.js';
import type { JournalEntry } from './journal.js';
import { decodeResult } from './result-codec.js';

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const fmt = (x: number): string =>
  x === 0 ? '0' : Math.abs(x) >= 1e4 || Math.abs(x) < 1e-3 ? x.toExponential(2) : String(+x.toPrecision(4));

/** A plotted quantity: its label and one value per case (NaN: none). */
interface Series {
  readonly label: string;
  readonly values: number[];
}

const MAX_SERIES = 12;
const MAX_PARAMS = 6;

/**
 * The sweep's summary plot: for each recorded value at the last step (a number; a vector of at
 * most 3 numbers by component; a longer one by its norm) against each numeric parameter, one
 * scatter panel (one point per case); failed cases are red ticks under the x axis. A parameter
 * given in log (log:, logrand:, loglhs:) gets a log axis.
 */
export function summarySvg(
  title: string,
  entries: readonly JournalEntry[],
  params: readonly { readonly path: string; readonly log: boolean }[],
): string {
  const paramPaths = params.map((p) => p.path);
  const sorted = [...entries].sort((a, b) => a.index - b.index);
  const ok = sorted.filter((e) => e.status === 'ok' && e.result);
  const failed = sorted.filter((e) => e.status === 'failed');
  const series = lastValues(ok.map((e) => decodeResult(e.result!)));
  const numeric = paramPaths.filter((p) => sorted.some((e) => typeof e.params[p] === 'number'));
  const shownSeries = series.slice(0, MAX_SERIES);
  const shownParams = numeric.slice(0, MAX_PARAMS);
  const pw = 300,
    ph = 190,
    top = 50;
  const width = Math.max(1, shownParams.length) * pw + 20;
  const height = top + Math.max(1, shownSeries.length) * ph + 30;
  let body = '';
  shownSeries.forEach((s, i) => {
    shownParams.forEach((p, j) => {
      const xs = ok.map((e) => (typeof e.params[p] === 'number' ? (e.params[p] as number) : NaN));
      const fx = failed.map((e) => (typeof e.params[p] === 'number' ? (e.params[p] as number) : NaN));
      body += panel(s.label, p, params.find((q) => q.path === p)!.log, xs, s.values, fx, 10 + j * pw, top + i * ph, pw, ph);
    });
  });
  const notes: string[] = [`${ok.length} case(s) finished, ${failed.length} failed`];
  if (series.length > MAX_SERIES) notes.push(`${series.length - MAX_SERIES} more recorded value(s) not plotted`);
  if (numeric.length > MAX_PARAMS) notes.push(`${numeric.length - MAX_PARAMS} more parameter(s) not plotted`);
  if (shownSeries.length === 0) notes.push('no numeric value recorded at the last step');
  if (shownParams.length === 0) notes.push('no numeric parameter');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="11">\n<rect width="100%" height="100%" fill="white"/>\n<text x="10" y="18" font-size="13">${esc(title)}</text>\n<text x="10" y="36" fill="#555">${esc(notes.join('; '))}</text>\n${body}</svg>\n`;
}

/** The numbers to plot, one per case: each recorded column at the case's last row. */
function lastValues(results: readonly { columns: readonly { name: string; values: readonly RecordValue[] }[] }[]): Series[] {
  const out = new Map<string, number[]>();
  results.forEach((r, k) => {
    for (const c of r.columns) {
      const v = c.values[c.values.length - 1] ?? null;
      const put = (label: string, x: number): void => {
        if (!out.has(label)) out.set(label, new Array<number>(results.length).fill(NaN));
        out.get(label)![k] = x;
      };
      if (typeof v === 'number') put(c.name, v);
      else if (Array.isArray(v) && v.length <= 3) v.forEach((x, i) => put(`${c.name} ${'xyz'[i]}`, x));
      else if (Array.isArray(v)) put(`|${c.name}|`, Math.sqrt(v.reduce((a, x) => a + x * x, 0)));
    }
  });
  return [...out].map(([label, values]) => ({ label, values }));
}

function panel(
  yLabel: string,
  xLabel: string,
  logAxis: boolean,
  xs: number[],
  ys: number[],
  failedXs: number[],
  x0: number,
  y0: number,
  w: number,
  h: number,
): string {
  const left = 60,
    right = 10,
    top = 22,
    bottom = 34;
  const iw = w - left - right,
    ih = h - top - bottom;
  const finiteX = [...xs, ...failedXs].filter(Number.isFinite);
  const log = logAxis && finiteX.length > 0 && extent(finiteX)[0] > 0;
  const tx = (x: number): number => (log ? Math.log10(x) : x);
  const range = (v: number[]): [number, number] => {
    let [lo, hi] = v.length ? extent(v) : [0, 1];
    if (hi === lo) ((hi += 0.5 * (Math.abs(hi) || 1)), (lo -= 0.5 * (Math.abs(lo) || 1)));
    return [lo, hi];
  };
  const [xlo, xhi] = range(finiteX.map(tx));
  const [ylo, yhi] = range(ys.filter(Number.isFinite));
  const X = (x: number): number => x0 + left + (iw * (tx(x) - xlo)) / (xhi - xlo);
  const Y = (y: number): number => y0 + top + ih * (1 - (y - ylo) / (yhi - ylo));
  let s = `<text x="${x0 + left}" y="${y0 + 14}" font-weight="bold">${esc(yLabel)}</text>\n`;
  s += `<rect x="${x0 + left}" y="${y0 + top}" width="${iw}" height="${ih}" fill="none" stroke="#999"/>\n`;
  s += `<text x="${x0 + left - 4}" y="${y0 + top + 10}" text-anchor="end">${fmt(yhi)}</text><text x="${x0 + left - 4}" y="${y0 + top + ih}" text-anchor="end">${fmt(ylo)}</text>\n`;
  const xl = (v: number): string => fmt(log ? 10 ** v : v);
  s += `<text x="${x0 + left}" y="${y0 + h - 20}">${xl(xlo)}</text><text x="${x0 + left + iw}" y="${y0 + h - 20}" text-anchor="end">${xl(xhi)}</text>\n`;
  s += `<text x="${x0 + left + iw / 2}" y="${y0 + h - 6}" text-anchor="middle">${esc(xLabel)}${log ? ' (log)' : ''}</text>\n`;
  const dots: string[] = [];
  xs.forEach((x, i) => {
    const y = ys[i];
    if (Number.isFinite(x) && Number.isFinite(y))
      dots.push(`<circle cx="${X(x).toFixed(1)}" cy="${Y(y).toFixed(1)}" r="2" fill="#1f77b4" fill-opacity="0.6"/>`);
  });
  for (const x of failedXs)
    if (Number.isFinite(x))
      dots.push(
        `<line x1="${X(x).toFixed(1)}" y1="${y0 + top + ih + 2}" x2="${X(x).toFixed(1)}" y2="${y0 + top + ih + 8}" stroke="#d62728" stroke-width="1.5"/>`,
      );
  return s + dots.join('\n') + '\n';
}

/** [min, max] of finite numbers (a loop: no argument-count limit). */
function extent(v: readonly number[]): [number, number] {
  let lo = Infinity,
    hi = -Infinity;
  for (const x of v) {
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  return [lo, hi];
}
