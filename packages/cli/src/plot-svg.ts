import type { StepSample } from 'sofa-ts';

interface Series {
  label: string;
  color: string;
  values: number[];
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const fmt = (x: number): string =>
  x === 0 ? '0' : Math.abs(x) >= 1e4 || Math.abs(x) < 1e-3 ? x.toExponential(2) : String(+x.toPrecision(4));

/** One panel: series against the step number, a linear or log10 y axis, min/max labels, a legend. */
function panel(title: string, steps: number[], series: Series[], y0: number, w: number, h: number, log = false): string {
  const left = 70,
    right = 160,
    top = 24,
    bottom = 28;
  const pw = w - left - right,
    ph = h - top - bottom;
  const tr = (v: number): number => (log ? Math.log10(Math.max(v, 1e-300)) : v);
  const all = series.flatMap((s) =>
    s.values
      .filter(Number.isFinite)
      .filter((v) => !log || v > 0)
      .map(tr),
  );
  let lo = all.length ? Math.min(...all) : 0,
    hi = all.length ? Math.max(...all) : 1;
  if (hi === lo) ((hi += 0.5 * (Math.abs(hi) || 1)), (lo -= 0.5 * (Math.abs(lo) || 1)));
  const s0 = steps[0] ?? 0,
    s1 = steps[steps.length - 1] ?? 1;
  const X = (s: number): number => left + (pw * (s - s0)) / (s1 - s0 || 1);
  const Y = (v: number): number => y0 + top + ph * (1 - (tr(v) - lo) / (hi - lo));
  const label = (v: number): string => (log ? `1e${v.toFixed(1)}` : fmt(v));
  let out = `<text x="${left}" y="${y0 + 16}" font-weight="bold">${esc(title)}</text>\n`;
  out += `<rect x="${left}" y="${y0 + top}" width="${pw}" height="${ph}" fill="none" stroke="#999"/>\n`;
  out += `<text x="${left - 4}" y="${y0 + top + 10}" text-anchor="end">${label(hi)}</text><text x="${left - 4}" y="${y0 + top + ph}" text-anchor="end">${label(lo)}</text>\n`;
  out += `<text x="${left}" y="${y0 + h - 8}">step ${s0}</text><text x="${left + pw}" y="${y0 + h - 8}" text-anchor="end">${s1}</text>\n`;
  series.forEach((s, k) => {
    const pts = s.values
      .map((v, i) => (Number.isFinite(v) && (!log || v > 0) ? `${X(steps[i]).toFixed(1)},${Y(v).toFixed(1)}` : ''))
      .filter(Boolean);
    if (pts.length) out += `<polyline fill="none" stroke="${s.color}" stroke-width="1.5" points="${pts.join(' ')}"/>\n`;
    out += `<rect x="${left + pw + 10}" y="${y0 + top + 14 * k}" width="10" height="3" fill="${s.color}"/><text x="${left + pw + 24}" y="${y0 + top + 5 + 14 * k}">${esc(s.label)}</text>\n`;
  });
  return out;
}

const colors = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#17becf'];

/**
 * `sofa-ts run --plot FILE.svg`: per step, the kinetic and potential energy, the solver
 * iterations, the last residual (log scale), the constraint multipliers and the chosen Data.
 */
export function plotSvg(title: string, samples: readonly StepSample[]): string {
  const steps = samples.map((s) => s.step);
  const col = (f: (s: StepSample) => number): number[] => samples.map(f);
  const panels: [string, Series[], boolean][] = [
    [
      'energy (J)',
      [
        { label: 'kinetic', color: colors[0], values: col((s) => s.kinetic) },
        { label: 'potential', color: colors[1], values: col((s) => s.potential) },
        { label: 'total', color: colors[2], values: col((s) => s.kinetic + s.potential) },
      ],
      false,
    ],
    [
      'iterations',
      [
        { label: 'ODE/linear', color: colors[0], values: col((s) => s.iterations) },
        { label: 'constraint', color: colors[3], values: col((s) => s.constraintIterations) },
      ],
      false,
    ],
    ['residual (log)', [{ label: 'ODE/linear', color: colors[4], values: col((s) => s.residual) }], true],
  ];
  if (samples.some((s) => s.constraintRows > 0))
    panels.push([
      'constraints',
      [
        { label: 'max |λ|', color: colors[3], values: col((s) => s.constraintLambdaMax) },
        { label: 'rows', color: colors[5], values: col((s) => s.constraintRows) },
      ],
      false,
    ]);
  const names = Object.keys(samples[0]?.data ?? {});
  if (names.length)
    panels.push([
      'chosen Data (value or norm)',
      names.map((n, k) => ({ label: n, color: colors[k % colors.length], values: col((s) => s.data[n] ?? NaN) })),
      false,
    ]);
  const w = 900,
    h = 200;
  const body = panels.map(([t, s, log], i) => panel(t, steps, s, 30 + i * h, w, h, log)).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${30 + panels.length * h}" font-family="sans-serif" font-size="11">\n<rect width="100%" height="100%" fill="white"/>\n<text x="10" y="18" font-size="13">${esc(title)}</text>\n${body}</svg>\n`;
}
