import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { CHECKPOINT_FORMAT_VERSION, decodeCheckpoint, encodeCheckpoint } from './checkpoint-encoding.js';
import { sha256Hex } from './sha256.js';
import { CheckpointReader, checkpointFields, checkpointValuesEqual, restoreFields, type CheckpointValue } from './checkpoint-value.js';
import type { IdentityEntry } from './scene-baseline.js';
import { identityDifferences, type SceneCheckpoint } from './scene-checkpoint.js';

/** A NaN with a payload other than the canonical one (its bits must survive). */
function payloadNaN(): number {
  const b = new DataView(new ArrayBuffer(8));
  b.setUint32(0, 0x7ff80000 | 0x1234, false);
  b.setUint32(4, 0xdeadbeef, false);
  return b.getFloat64(0, false);
}

function bitsOf(x: number): string {
  const b = new DataView(new ArrayBuffer(8));
  b.setFloat64(0, x);
  return `${b.getUint32(0).toString(16)}:${b.getUint32(4).toString(16)}`;
}

function sample(extra: Record<string, CheckpointValue> = {}): SceneCheckpoint {
  return {
    step: 12,
    time: 0.24000000000000002,
    identity: [
      { key: '/', cls: 'Node', template: '', data: { dt: 123456789, gravity: 42 } },
      { key: '/dofs', cls: 'MechanicalObject', template: 'Vec3d', data: { position: 2 ** 52 + 1 } },
    ],
    components: [
      {
        key: '/dofs',
        data: [
          { name: 'position', value: { v: Float64Array.of(1, -0, 3) }, isSet: true },
          { name: 'rules', value: { t: 'a b c' }, isSet: false },
        ],
        state: { x: Float64Array.of(1, 2) },
      },
    ],
    simulation: { stepCount: 12, created: [], nodeOrder: [] },
    extra: { ...extra },
  };
}

describe('checkpoint file', () => {
  it('round-trips every kind of value bit for bit: NaN payloads, −0, ±Infinity, every typed array, nested lists and records, Unicode', () => {
    const nan = payloadNaN();
    const values: Record<string, CheckpointValue> = {
      numbers: [0, -0, 1.5, -1e-320, Number.MAX_VALUE, Infinity, -Infinity, nan],
      strings: ['', 'é∂ 漢字 🙂', 'a\u0000b'],
      flags: [true, false, null],
      f64: Float64Array.of(nan, -0, 1 / 3),
      f32: Float32Array.of(0.1, -2),
      i32: Int32Array.of(-1, 2 ** 31 - 1),
      u32: Uint32Array.of(2 ** 32 - 1),
      i16: Int16Array.of(-32768),
      u16: Uint16Array.of(65535),
      i8: Int8Array.of(-128),
      u8: Uint8Array.of(255),
      u8c: Uint8ClampedArray.of(7),
      view: new Float64Array(new Float64Array([9, 8, 7, 6]).buffer, 8, 2),
      nested: { a: [{ b: Int32Array.of(3) }, []], c: {} },
    };
    const c = sample(values);
    const back = decodeCheckpoint(encodeCheckpoint(c));
    expect(back.step).to.equal(12);
    expect(back.time).to.equal(0.24000000000000002);
    expect(back.identity).to.deep.equal(c.identity);
    for (const [k, v] of Object.entries(values)) expect(checkpointValuesEqual(back.extra[k], v), k).to.equal(true);
    const f = back.extra['f64'] as Float64Array;
    expect(bitsOf(f[0])).to.equal(bitsOf(nan));
    expect(Object.is(f[1], -0)).to.equal(true);
    expect(Object.is((back.extra['numbers'] as number[])[1], -0)).to.equal(true);
    expect((back.extra['view'] as Float64Array).length).to.equal(2);
    expect(back.components[0].data[1].value).to.deep.equal({ t: 'a b c' });
    expect(back.components[0].data[0].isSet).to.equal(true);
  });

  it('refuses a damaged file before reading it: a flipped byte, a truncated file, bytes after the end, another format version, not a checkpoint', () => {
    const bytes = encodeCheckpoint(sample({ big: new Float64Array(100).fill(1) }));
    const flipped = bytes.slice();
    flipped[Math.floor(bytes.length / 2)] ^= 0x10;
    expect(() => decodeCheckpoint(flipped, 'f.ckpt')).to.throw(/f\.ckpt: damaged: the SHA-256 checksum does not match/);
    expect(() => decodeCheckpoint(bytes.subarray(0, bytes.length - 7), 'f.ckpt')).to.throw(/f\.ckpt: truncated: \d+ bytes, \d+ expected/);
    expect(() => decodeCheckpoint(bytes.subarray(0, 20), 'f.ckpt')).to.throw(/truncated/);
    const longer = new Uint8Array(bytes.length + 3);
    longer.set(bytes);
    expect(() => decodeCheckpoint(longer, 'f.ckpt')).to.throw(/3 unexpected byte\(s\) after the end/);
    const v2 = bytes.slice();
    new DataView(v2.buffer).setUint32(8, CHECKPOINT_FORMAT_VERSION + 1, true);
    expect(() => decodeCheckpoint(v2, 'f.ckpt')).to.throw(
      /format version 2; this sofa-ts reads version 1 \(it was written by a newer sofa-ts\)/,
    );
    expect(() => decodeCheckpoint(new TextEncoder().encode('T= 0\n  X= 1 2 3\n'), 'states.txt')).to.throw(
      /states\.txt: not a sofa-ts checkpoint/,
    );
  });

  it("SHA-256 is FIPS 180-4's: the standard vectors and Node's digest on lengths around the block boundaries", () => {
    expect(sha256Hex(new Uint8Array(0))).to.equal('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex(new TextEncoder().encode('abc'))).to.equal('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex(new TextEncoder().encode('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'))).to.equal(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
    for (const n of [1, 55, 56, 63, 64, 65, 119, 120, 1000, 100003]) {
      const data = Uint8Array.from({ length: n }, (_, i) => (i * 131 + 7) & 255);
      expect(sha256Hex(data), `${n} bytes`).to.equal(createHash('sha256').update(data).digest('hex'));
    }
  });
});

describe('checkpoint fields and records', () => {
  it('restores arrays of the same length in place (views stay views), others replaced; numbers, booleans, records assigned', () => {
    const global = new Float64Array(6);
    const obj = {
      view: global.subarray(2, 4),
      grown: new Float64Array(0),
      count: 3,
      flag: false,
      side: { w: new Float64Array(2) },
      gone: undefined as Float64Array | undefined,
    };
    const names = ['view', 'grown', 'count', 'flag', 'side', 'gone'];
    const saved = checkpointFields(
      {
        view: Float64Array.of(7, 8),
        grown: Float64Array.of(1, 2, 3),
        count: 5,
        flag: true,
        side: { w: Float64Array.of(4, 5) },
        gone: undefined,
      },
      names,
      'test',
    );
    const view = obj.view;
    restoreFields(obj, new CheckpointReader(saved, 'test'), names);
    expect(obj.view).to.equal(view);
    expect([...global]).to.deep.equal([0, 0, 7, 8, 0, 0]);
    expect([...obj.grown]).to.deep.equal([1, 2, 3]);
    expect(obj.count).to.equal(5);
    expect(obj.flag).to.equal(true);
    expect([...obj.side.w]).to.deep.equal([4, 5]);
    expect(obj.gone).to.equal(undefined);
  });

  it('names the component and the key of a record that does not fit', () => {
    const r = new CheckpointReader({ sol: Int32Array.of(1), n: 'x' }, '/Liver/solver (EulerImplicitSolver)');
    expect(() => r.array('sol', Float64Array)).to.throw(
      /\/Liver\/solver \(EulerImplicitSolver\): 'sol' should be a Float64Array, got a Int32Array of 1/,
    );
    expect(() => r.number('n')).to.throw(/'n' should be a number, got a string \(x\)/);
    expect(() => r.number('missing')).to.throw(/'missing' should be a number, it is missing/);
    expect(() => checkpointFields({ a: 1 }, ['b'], 'X')).to.throw(/X lists 'b' in checkpointFields, but has no such field/);
    expect(() => restoreFields({ a: new Float64Array(2) }, new CheckpointReader({ a: 3 }, 'X'), ['a'])).to.throw(
      /X\.a: the saved value \(a number \(3\)\) does not fit the field \(Float64Array\)/,
    );
  });

  it('lists what differs between two scene descriptions, one line each', () => {
    const saved = sample().identity;
    expect(identityDifferences(saved, saved)).to.deep.equal([]);
    const current: IdentityEntry[] = [
      { key: '/', cls: 'Node', template: '', data: { dt: 1, gravity: 42 } },
      { key: '/dofs', cls: 'MechanicalObject', template: 'Rigid3d', data: { position: 2 ** 52 + 1 } },
      { key: '/extra', cls: 'UniformMass', template: 'Vec3d', data: {} },
    ];
    expect(identityDifferences(saved, current)).to.deep.equal([
      "node /: Data 'dt' differs from the checkpoint's scene",
      "/dofs (MechanicalObject) has template 'Rigid3d', 'Vec3d' in the checkpoint's scene",
      "/extra (UniformMass) is in this scene, not in the checkpoint's",
    ]);
  });
});
