import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { SofaError } from '@sofa-ts/core';
import { formatStateFrame, StateWriter, writeStateFile } from './write-state.js';
import { parseStateText, readStateFile } from './read-state.js';
import { corpusRoot } from './corpus-test-support.js';

const CORPUS = corpusRoot();
const PENDULUM_REFS = path.join(CORPUS, 'regression/references/examples/Benchmark/Analysis');

function expectSofaError(fn: () => unknown, ...fragments: string[]): SofaError {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught, 'an error').to.be.instanceOf(SofaError);
  const err = caught as SofaError;
  for (const f of fragments) expect(err.message).to.contain(f);
  return err;
}

describe('formatStateFrame', () => {
  it('writes T=, X= and V= lines as SOFA WriteState does', () => {
    expect(formatStateFrame(0, [0, 0, 0, 1, 0, 0])).to.equal('T= 0\n  X= 0 0 0 1 0 0\n');
    expect(formatStateFrame(2.99, [0, 0, 0, 0.15310000001, 0, -1.096824])).to.equal('T= 2.99\n  X= 0 0 0 0.1531 0 -1.09682\n');
    expect(formatStateFrame(0.01 * 299, new Float64Array([1e-7, 123456789]), [0.5, -0])).to.equal(
      'T= 2.99\n  X= 1e-07 1.23457e+08\n  V= 0.5 -0\n',
    );
  });

  it('writes an empty state as an empty X= line', () => {
    expect(formatStateFrame(1, [])).to.equal('T= 1\n  X= \n');
  });
});

describe('state files', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-io-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const frames = [
    { time: 0, X: [0, 0, 0, 1, 0, 0], V: [0, 0, 0, 0, 0, 0] },
    { time: 0.01, X: [0, 0, 0, 0.99995095, 0, -0.0098], V: [0, 0, 0, -0.00981, 0, -0.981] },
    { time: 2.99, X: [0, 0, 0, 0.1531, 0, -1.09682] },
  ];

  for (const name of ['state.txt', 'state.txt.gz']) {
    it(`round-trips frames through ${name}`, () => {
      const file = path.join(dir, name);
      const writer = new StateWriter(file);
      for (const f of frames) writer.writeFrame(f.time, f.X, f.V);
      expect(writer.frameCount).to.equal(3);
      writer.close();

      const bytes = fs.readFileSync(file);
      expect(bytes[0] === 0x1f && bytes[1] === 0x8b).to.equal(name.endsWith('.gz'));
      const text = name.endsWith('.gz') ? zlib.gunzipSync(bytes).toString() : bytes.toString();
      expect(text).to.equal(
        'T= 0\n  X= 0 0 0 1 0 0\n  V= 0 0 0 0 0 0\n' +
          'T= 0.01\n  X= 0 0 0 0.999951 0 -0.0098\n  V= 0 0 0 -0.00981 0 -0.981\n' +
          'T= 2.99\n  X= 0 0 0 0.1531 0 -1.09682\n',
      );

      const back = readStateFile(file);
      expect(back.map((f) => f.time)).to.deep.equal([0, 0.01, 2.99]);
      expect(Array.from(back[1].X)).to.deep.equal([0, 0, 0, 0.999951, 0, -0.0098]);
      expect(Array.from(back[1].V!)).to.deep.equal([0, 0, 0, -0.00981, 0, -0.981]);
      expect(back[2].V).to.equal(undefined);
      expect(back[2].X).to.be.instanceOf(Float64Array);
    });
  }

  it('detects gzip by content, not by name', () => {
    const file = path.join(dir, 'compressed.txt');
    writeStateFile(file, frames, { gzip: true });
    expect(readStateFile(file)).to.have.length(3);
  });

  it('writes a valid (empty) gzip file when no frame was written', () => {
    const file = path.join(dir, 'empty.txt.gz');
    new StateWriter(file).close();
    expect(readStateFile(file)).to.deep.equal([]);
  });

  it('writes one gzip member per frame (after an empty one), read back as one stream', () => {
    const file = path.join(dir, 'members.gz');
    const writer = new StateWriter(file);
    for (let k = 0; k < 20; k++) writer.writeFrame(k * 0.01, [k, k + 0.5, -k]);
    writer.close();
    // Each member starts with the gzip magic and the deflate method byte.
    const bytes = fs.readFileSync(file);
    let members = 0;
    for (let i = 0; i + 2 < bytes.length; i++) if (bytes[i] === 0x1f && bytes[i + 1] === 0x8b && bytes[i + 2] === 8) members++;
    expect(members).to.equal(21);
    const back = readStateFile(file);
    expect(back).to.have.length(20);
    expect(Array.from(back[19].X)).to.deep.equal([19, 19.5, -19]);
    expect(back[19].time).to.equal(0.19);
  });

  for (const name of ['out.txt', 'out.txt.gz']) {
    it(`has every frame in ${name} as soon as it is written, before close, and no other file`, () => {
      const file = path.join(dir, name);
      const writer = new StateWriter(file);
      expect(readStateFile(file)).to.deep.equal([]);
      writer.writeFrame(0, [1, 2, 3]);
      writer.writeFrame(0.5, [4, 5, 6]);
      // what a crash or kill -9 would leave: the file as it is now, never closed
      expect(readStateFile(file).map((f) => f.time)).to.deep.equal([0, 0.5]);
      expect(writer.frameCount).to.equal(2);
      expect(writer.lastFrameTime).to.equal(0.5);
      expect(fs.readdirSync(dir)).to.deep.equal([name]);
      writer.close();
      expect(readStateFile(file).map((f) => f.time)).to.deep.equal([0, 0.5]);
      expect(() => writer.writeFrame(1, [1, 2, 3])).to.throw(SofaError, /closed/);
    });
  }

  it('replaces a previous file of the same name', () => {
    const file = path.join(dir, 'out.txt');
    writeStateFile(file, frames);
    writeStateFile(file, [{ time: 5, X: [9, 9, 9] }]);
    expect(fs.readFileSync(file, 'utf8')).to.equal('T= 5\n  X= 9 9 9\n');
    expect(fs.readdirSync(dir)).to.deep.equal(['out.txt']);
  });

  it('reports a gzip file cut inside a frame as truncated', () => {
    const file = path.join(dir, 'cut.txt.gz');
    writeStateFile(file, frames);
    const bytes = fs.readFileSync(file);
    fs.writeFileSync(file, bytes.subarray(0, bytes.length - 5));
    expectSofaError(() => readStateFile(file), 'cut.txt.gz', 'corrupt gzip', 'cut short');
  });

  it('reports a missing file and a corrupt gzip file with the file name', () => {
    expectSofaError(() => readStateFile(path.join(dir, 'nope.txt')), 'nope.txt');
    const bad = path.join(dir, 'bad.gz');
    fs.writeFileSync(bad, Buffer.from([0x1f, 0x8b, 1, 2, 3]));
    expectSofaError(() => readStateFile(bad), 'bad.gz', 'corrupt gzip');
  });
});

describe('parseStateText', () => {
  it('accepts CRLF line ends, blank lines and X0=/F= lines', () => {
    const frames = parseStateText('T= 0\r\n  X= 1 2\r\n\r\n  X0= 1 2\n  F= 0 -9.81\nT= 1e-05\n  X= 3 4\n');
    expect(frames).to.have.length(2);
    expect(Array.from(frames[0].F!)).to.deep.equal([0, -9.81]);
    expect(frames[1].time).to.equal(1e-5);
  });

  it('locates malformed lines by file, line and column', () => {
    const err = expectSofaError(
      () => parseStateText('T= 0\n  X= 1 2 x3\n', 'f.txt'),
      'f.txt:2:10',
      "invalid number 'x3'",
      'scalar 2 of X=',
    );
    expect(err.loc).to.deep.equal({ file: 'f.txt', line: 2, column: 10 });
    expectSofaError(() => parseStateText('  X= 1 2\n', 'f.txt'), 'f.txt:1:3', 'before any T=');
    expectSofaError(() => parseStateText('T= 0\n  X= 1\nT= 1\nT= 2\n  X= 1\n', 'f.txt'), 'f.txt:3:1', 'T= 1 has no X=');
    expectSofaError(() => parseStateText('T= 0\n  X= 1\n  X= 2\n', 'f.txt'), 'f.txt:3:3', 'second X=');
    expectSofaError(() => parseStateText('T= 0 1\n', 'f.txt'), 'f.txt:1:1', 'exactly one time value');
    expectSofaError(() => parseStateText('T= abc\n', 'f.txt'), 'f.txt:1:4', "invalid time 'abc'");
    expectSofaError(() => parseStateText('T=0\n', 'f.txt'), 'f.txt:1:1', "unexpected 'T=0'");
    expectSofaError(() => parseStateText('T= 0\n  Y= 1\n', 'f.txt'), 'f.txt:2:3', "unexpected 'Y='");
    expectSofaError(() => parseStateText('T= 0\n', 'f.txt'), 'f.txt:1:1', 'no X=');
  });
});

describe('real SOFA reference files', () => {
  before(function () {
    if (!fs.existsSync(PENDULUM_REFS)) this.skip();
  });

  it('reads the Pendulum references', () => {
    const frames = readStateFile(path.join(PENDULUM_REFS, 'Pendulum.scn.reference_0_Particles_mstate.txt.gz'));
    expect(frames.map((f) => f.time)).to.deep.equal([0, 2.99]);
    expect(Array.from(frames[0].X)).to.deep.equal([0, 0, 0, 1, 0, 0]);
    expect(Array.from(frames[1].X)).to.deep.equal([0, 0, 0, 0.1531, 0, -1.09682]);
    expect(frames[1].V).to.equal(undefined);
    const second = readStateFile(path.join(PENDULUM_REFS, 'Pendulum.scn.reference_1_Particles_mstate.txt.gz'));
    expect(Array.from(second[1].X)).to.deep.equal([0, 2, 0, 0.394508, 2, -1.04163]);
  });

  it('writes back byte-identical text for every reference file of the corpus', () => {
    const root = path.join(CORPUS, 'regression/references/examples');
    const files = (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('_mstate.txt.gz'));
    expect(files.length).to.be.greaterThan(40);
    for (const rel of files) {
      const file = path.join(root, rel);
      const original = zlib.gunzipSync(fs.readFileSync(file)).toString();
      const frames = readStateFile(file);
      expect(frames.map((f) => formatStateFrame(f.time, f.X, f.V)).join(''), rel).to.equal(original);
    }
  });
});
