import { formatCppNumber } from '../number-format.js';

/**
 * A matrix as SOFA's matrix exporters see it (sofa::defaulttype::matrixExporterMap): its size and
 * one dense row at a time (`row(i, out)` fills out[0..cols) with row i, zeros included), so that a
 * sparse matrix is written without a dense copy of itself.
 */
export interface ExportedMatrix {
  readonly rows: number;
  readonly cols: number;
  row(i: number, out: Float64Array): void;
}

/** The file formats of SOFA's matrix exporters (their `format` Data), with their extension. */
export const MATRIX_FILE_FORMATS = ['txt', 'csv'] as const;
export type MatrixFileFormat = (typeof MATRIX_FILE_FORMATS)[number];

/**
 * The text of a matrix file, entries printed as `std::setprecision(precision)` prints a double:
 * - `txt`, SOFA's BaseMatrix stream operator: `[`, then per row a new line with `[`, each entry
 *   preceded by a space, and ` ]`; ` ]` at the end (no final new line);
 * - `csv`: one line per row, entries separated by commas, each line ended by a new line (nothing
 *   for a matrix without columns).
 */
export function matrixFileText(m: ExportedMatrix, format: MatrixFileFormat, precision: number): string {
  const row = new Float64Array(m.cols);
  const parts: string[] = [];
  if (format === 'txt') {
    parts.push('[');
    for (let i = 0; i < m.rows; i++) {
      m.row(i, row);
      let line = '\n[';
      for (let j = 0; j < m.cols; j++) line += ' ' + formatCppNumber(row[j], precision);
      parts.push(line + ' ]');
    }
    parts.push(' ]');
    return parts.join('');
  }
  if (m.cols === 0) return '';
  for (let i = 0; i < m.rows; i++) {
    m.row(i, row);
    let line = formatCppNumber(row[0], precision);
    for (let j = 1; j < m.cols; j++) line += ',' + formatCppNumber(row[j], precision);
    parts.push(line + '\n');
  }
  return parts.join('');
}

/** A compressed-row matrix (sorted or not, duplicates summed) seen row by row. */
export function csrRows(A: { rows: number; cols: number; rowPtr: Int32Array; colInd: Int32Array; values: Float64Array }): ExportedMatrix {
  return {
    rows: A.rows,
    cols: A.cols,
    row(i, out) {
      out.fill(0);
      // a stored entry is printed as stored (a -0 stays -0); repeated columns are summed
      let last = -1;
      for (let k = A.rowPtr[i]; k < A.rowPtr[i + 1]; k++) {
        const c = A.colInd[k];
        if (c > last) out[c] = A.values[k];
        else out[c] += A.values[k];
        last = Math.max(last, c);
      }
    },
  };
}

/** A dense row-major n × m matrix seen row by row. */
export function denseRows(values: Float64Array, rows: number, cols: number): ExportedMatrix {
  return { rows, cols, row: (i, out) => out.set(values.subarray(i * cols, (i + 1) * cols)) };
}
