import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { el, initScene, objectNamed } from '../container/container-test-support.js';
import type { SparseGridMultipleTopology } from './SparseGridMultipleTopology.js';

/** The axis-aligned box [lo, hi]³ as an OBJ surface (outward quads). */
function boxObj(lo: number, hi: number): string {
  const lines: string[] = [];
  for (let k = 0; k < 8; k++) lines.push(`v ${k & 1 ? hi : lo} ${k & 2 ? hi : lo} ${k & 4 ? hi : lo}`);
  const faces = [
    [0, 2, 3, 1],
    [4, 5, 7, 6],
    [0, 1, 5, 4],
    [2, 6, 7, 3],
    [0, 4, 6, 2],
    [1, 3, 7, 5],
  ];
  for (const q of faces) lines.push(`f ${q.map((v) => v + 1).join(' ')}`);
  return lines.join('\n') + '\n';
}

/**
 * SparseGridMultipleTopology on a grid of unit cells over [0, 4]³ (n = 5): a body whose surface
 * runs through the outer layer of cells and a core through the eight middle cells (no surface on a
 * grid plane, where the side of a cell would be ambiguous). The coefficients expected follow
 * SOFA's rules of assembly, written out here per cell.
 */
describe('SparseGridMultipleTopology', () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'sofa-ts-sgm-'));
    writeFileSync(join(dir, 'body.obj'), boxObj(0.1, 3.9));
    writeFileSync(join(dir, 'core.obj'), boxObj(1.1, 2.9));
    // at the finer level (cells of 0.5) this box crosses the eight fine cells around the centre
    writeFileSync(join(dir, 'small.obj'), boxObj(1.6, 2.4));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const grid = (files: string[], attrs: Record<string, string>): SparseGridMultipleTopology =>
    objectNamed<SparseGridMultipleTopology>(
      initScene(
        el('Node', {}, [
          el('SparseGridMultipleTopology', {
            name: 's',
            min: '0 0 0',
            max: '4 4 4',
            n: '5 5 5',
            fileTopologies: files.map((f) => join(dir, f)).join(' '),
            finestConnectivity: '0',
            fillWeighted: '0',
            ...attrs,
          }),
        ]),
      ),
      's',
    );

  /** The centre of hexahedron h. */
  const centre = (s: SparseGridMultipleTopology, h: number): number[] => {
    const x = s.getPositions()!,
      H = s.getHexahedra();
    const c = [0, 0, 0];
    for (let v = 0; v < 8; v++) for (let k = 0; k < 3; k++) c[k] += x[3 * H[8 * h + v] + k] / 8;
    return c;
  };
  const middle = (c: number[]) => c.every((v) => v > 1 && v < 3);

  it('a cell takes the coefficients of the last surface holding it (the core after the body)', () => {
    const s = grid(['body.obj', 'core.obj'], { stiffnessCoefs: '10 100', massCoefs: '1 0.2' });
    const n = s.getHexahedra().length / 8;
    expect(n).to.equal(64);
    let core = 0;
    for (let h = 0; h < n; h++) {
      const c = centre(s, h);
      expect(s.getStiffnessCoef(h), `cell at ${c}`).to.equal(middle(c) ? 100 : 10);
      // SOFA's coefficients are floats
      expect(s.getMassCoef(h)).to.equal(middle(c) ? Math.fround(0.2) : 1);
      if (middle(c)) core++;
    }
    expect(core).to.equal(8);
  });

  it('fillWeighted: a BOUNDARY cell blends its coefficient half and half with the previous one (0 before any)', () => {
    const s = grid(['body.obj', 'core.obj'], { stiffnessCoefs: '10 100', fillWeighted: '1' });
    const n = s.getHexahedra().length / 8;
    for (let h = 0; h < n; h++) {
      const c = centre(s, h);
      // the outer layer is the body's BOUNDARY: (0 + 10)/2; the middle cells are INSIDE the body and
      // the core's BOUNDARY: (10 + 100)/2
      expect(s.getStiffnessCoef(h), `cell at ${c}`).to.equal(middle(c) ? 55 : 5);
    }
  });

  it("one virtual finer level: a coarse cell's coefficient is the mean of its eight children's", () => {
    const s = grid(['body.obj', 'small.obj'], { stiffnessCoefs: '1 9', nbVirtualFinerLevels: '1' });
    const n = s.getHexahedra().length / 8;
    expect(n).to.equal(64);
    for (let h = 0; h < n; h++) {
      const c = centre(s, h);
      // each of the eight coarse cells around (2, 2, 2) holds one fine cell of the small box: (7·1 + 9)/8
      expect(s.getStiffnessCoef(h), `cell at ${c}`).to.be.closeTo(middle(c) ? 2 : 1, 1e-15);
    }
  });

  it('missing coefficients are 1', () => {
    const s = grid(['body.obj', 'core.obj'], { stiffnessCoefs: '10' });
    const n = s.getHexahedra().length / 8;
    for (let h = 0; h < n; h++) expect(s.getStiffnessCoef(h)).to.equal(middle(centre(s, h)) ? 1 : 10);
  });
});
