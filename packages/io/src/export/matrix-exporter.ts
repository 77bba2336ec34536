import { Int, Str, host } from '@sofa-ts/core';
import { MATRIX_FILE_FORMATS, matrixFileText, type ExportedMatrix, type MatrixFileFormat } from './matrix-file.js';
import { SimulationExporterBase } from './simulation-exporter.js';

/** Entries of the largest matrix written (a 5000 × 5000 matrix: about 50 MB of text when sparse). */
const MAX_DENSE_ENTRIES = 25_000_000;

/**
 * Common part of SOFA's matrix exporters (SofaMatrix's GlobalSystemMatrixExporter and
 * ComplianceMatrixExporter): at each export (every exportEveryNumberOfSteps-th step end, as any
 * simulation exporter) the matrix of the linked component is written to `<filename><k>.<format>`
 * (k the export number on 5 digits) with `precision` significant digits. When there is no matrix
 * to write yet (a solver that does not assemble one, a problem not built), the export says so in a
 * warning and the simulation goes on, as SOFA's.
 */
export abstract class MatrixExporterBase extends SimulationExporterBase {
  readonly format = this.initData({ name: 'format', type: Str, default: 'txt', help: `File format: ${MATRIX_FILE_FORMATS.join(' or ')}` });
  readonly precision = this.initData({
    name: 'precision',
    type: Int,
    default: 6,
    help: 'Number of digits used to write an entry of the matrix, default is 6',
  });

  /** The format written: `format`, or txt when it names none (SOFA's option list keeps its default, with a warning). */
  private fileFormat: MatrixFileFormat = 'txt';

  override init(): void {
    super.init();
    const f = this.format.value.trim();
    const known = MATRIX_FILE_FORMATS.find((o) => o === f);
    this.fileFormat = known ?? 'txt';
    if (!known)
      this.warnAbout(
        this.format,
        `'${f}' is not a matrix file format (${MATRIX_FILE_FORMATS.join(', ')}): txt is written, as SOFA keeps its default option`,
      );
    const p = this.precision.value;
    if (p < 1 || p > 99) this.warnAbout(this.precision, `precision ${p} is read as ${Math.min(99, Math.max(1, p))} significant digits`);
  }

  /** The matrix to write now, or the reason there is none. */
  protected abstract exportedMatrix(): ExportedMatrix | string;

  write(): void {
    const m = this.exportedMatrix();
    if (typeof m === 'string') {
      this.warn(m);
      return;
    }
    if (m.rows * m.cols > MAX_DENSE_ENTRIES) {
      this.warn(
        `the ${m.rows} × ${m.cols} matrix is not written: SOFA's formats print every entry, zeros included, and ${m.rows * m.cols} entries are above the limit of ${MAX_DENSE_ENTRIES} (a text of gigabytes)`,
      );
      return;
    }
    host().writeFile(`${this.targetPath()}.${this.fileFormat}`, matrixFileText(m, this.fileFormat, this.precision.value));
  }
}
