import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { host, loadSceneFromString, setHost, softrobots, type BaseMechanicalState, type SerialPort, type SofaScene } from 'sofa-ts';

/**
 * SoftRobots' smaller components in scenes: VolumeFromTetrahedrons against the volume of a box
 * cut into tetrahedra, DataVariationLimiter against its rule worked by hand, SerialPortBridgeGeneric
 * against the packet format its documentation gives and without a port (the scene runs on).
 */

/** The box [0, a]×[0, b]×[0, c] in SOFA's hexahedron vertex order. */
function box(a: number, b: number, c: number): string {
  const u = [
    [0, 0, 0],
    [1, 0, 0],
    [1, 1, 0],
    [0, 1, 0],
    [0, 0, 1],
    [1, 0, 1],
    [1, 1, 1],
    [0, 1, 1],
  ];
  return u.map(([x, y, z]) => `${x! * a} ${y! * b} ${z! * c}`).join('  ');
}

/**
 * Kuhn's six tetrahedra of the box, from corner 0 to corner 6 along each order of the axes
 * (xyz 0 1 2 6, xzy 0 1 5 6, yxz 0 3 2 6, yzx 0 3 7 6, zxy 0 4 5 6, zyx 0 4 7 6); the odd
 * permutations have their last two vertices swapped so that all six have one orientation.
 */
const KUHN = '0 1 2 6  0 1 6 5  0 3 6 2  0 3 7 6  0 4 5 6  0 4 6 7';

describe("softrobots: VolumeFromTetrahedrons (SOFA's VolumeFromVolumetricElements)", () => {
  async function volumeScene(attrs = '', extra = ''): Promise<SofaScene> {
    return loadSceneFromString(`<Node name="root" dt="1" gravity="0 0 0">
      <RequiredPlugin name="SoftRobots"/>
      <DefaultAnimationLoop/>
      <Node name="body">
        <MeshTopology name="mesh" position="${box(2, 3, 4)}" tetrahedra="${KUHN}"/>
        <MechanicalObject name="dofs" template="Vec3d"/>
        <VolumeFromTetrahedrons name="volume" ${attrs}/>
        ${extra}
      </Node>
    </Node>`);
  }
  const volume = (s: SofaScene): number => Number(s.get('body/volume')!.findData('volume')!.value);

  it("the volume of a 2 × 3 × 4 box cut into Kuhn's six tetrahedra is 24", async () => {
    expect(volume(await volumeScene())).to.be.closeTo(24, 1e-12);
  });

  it('with update, the volume follows the positions (the box stretched to 4 × 3 × 4: 48); without, it stays', async () => {
    for (const [update, expected] of [
      ['1', 48],
      ['0', 24],
    ] as const) {
      const s = await volumeScene(`update="${update}"`);
      const dofs = s.get<BaseMechanicalState>('body/dofs')!;
      const x = dofs.findData('position')!;
      const p = Float64Array.from(x.value as Float64Array);
      for (let i = 0; i < p.length; i += 3) p[i] *= 2;
      x.value = p;
      s.step();
      expect(volume(s), `update ${update}`).to.be.closeTo(expected, 1e-12);
    }
  });

  it("SoftRobots' attribute positions is read as position (with a renaming warning): one tetrahedron, |det|/6", async () => {
    const s = await loadSceneFromString(`<Node name="root">
      <RequiredPlugin name="SoftRobots"/>
      <VolumeFromTetrahedrons name="v" positions="0 0 0  2 0 0  0 3 0  0 0 5" tetras="0 2 1 3"/>
    </Node>`);
    expect(Number(s.get('v')!.findData('volume')!.value)).to.be.closeTo((2 * 3 * 5) / 6, 1e-12);
    expect(s.warnings.map((w) => w.message).join('\n')).to.match(/positions.*renamed it 'position'/);
  });
});

describe('softrobots: DataVariationLimiter', () => {
  async function limiterScene(attrs: string): Promise<SofaScene> {
    return loadSceneFromString(`<Node name="root" dt="1" gravity="0 0 0">
      <RequiredPlugin name="SoftRobots"/>
      <DefaultAnimationLoop/>
      <MechanicalObject name="goal" template="Vec3d" position="0 0 0  1 1 1"/>
      <DataVariationLimiter name="limiter" input="@goal.position" ${attrs}/>
    </Node>`);
  }
  const setGoal = (s: SofaScene, v: number[]): void => {
    s.get<BaseMechanicalState>('goal')!.findData('position')!.value = Float64Array.from(v);
  };
  const output = (s: SofaScene): number[] => Array.from(s.get<softrobots.DataVariationLimiter>('limiter')!.output.value);

  it('a jump of 5 > maxJump, nbStep 4: the distance left is 5, 5·(1 − 1/4), ·(1 − 2/4), ·(1 − 3/4), then the output is the input', async () => {
    const s = await limiterScene('listening="1" maxJump="0.5" nbStep="4"');
    expect(output(s)).to.deep.equal([0, 0, 0, 1, 1, 1]);
    expect(s.get<softrobots.DataVariationLimiter>('limiter')!.size.value).to.equal(2);
    setGoal(s, [3, 4, 0, 1, 1, 1]);
    // the distance to (3, 4, 0) along the segment from (0, 0, 0), by the rule's product
    const left = [5, 5 * 0.75, 5 * 0.75 * 0.5, 5 * 0.75 * 0.5 * 0.25];
    for (const d of left) {
      s.step();
      const o = output(s);
      expect(o[0]).to.be.closeTo(3 * (1 - d / 5), 1e-12);
      expect(o[1]).to.be.closeTo(4 * (1 - d / 5), 1e-12);
      expect(o[2]).to.equal(0);
      // the second entry did not jump: it follows its input at once
      expect(o.slice(3)).to.deep.equal([1, 1, 1]);
    }
    // 5·3/32 = 0.46875 ≤ maxJump: the output lands on the input
    s.step();
    expect(output(s)).to.deep.equal([3, 4, 0, 1, 1, 1]);
    // a move of 0.3 ≤ maxJump is followed at once
    setGoal(s, [3, 4, 0.3, 1, 1, 1]);
    s.step();
    expect(output(s)).to.deep.equal([3, 4, 0.3, 1, 1, 1]);
    // reset: the output is back at its initial value
    s.reset();
    expect(output(s)).to.deep.equal([0, 0, 0, 1, 1, 1]);
  });

  it('without listening (as in SOFA) it is told and the output does not move; maxJump < 0 and nbStep 0 are corrected with warnings', async () => {
    const s = await limiterScene('maxJump="-1" nbStep="0"');
    const messages = s.warnings.map((w) => w.message).join('\n');
    expect(messages).to.match(/listening is false/);
    expect(messages).to.match(/maxJump -1 < 0: 0 is used/);
    expect(messages).to.match(/nbStep 0 < 1: 1 is used/);
    setGoal(s, [3, 4, 0, 1, 1, 1]);
    s.step(3);
    expect(output(s)).to.deep.equal([0, 0, 0, 1, 1, 1]);
  });

  it("nbStep 1: the counter stays at 0, a jump above maxJump never moves (SoftRobots' rule as it runs)", async () => {
    const s = await limiterScene('listening="1" maxJump="0.5" nbStep="1"');
    expect(s.warnings.map((w) => w.message).join('\n')).to.match(/nbStep 1: the step counter stays at 0/);
    setGoal(s, [3, 4, 0, 1, 1, 1]);
    s.step(5);
    expect(output(s)).to.deep.equal([0, 0, 0, 1, 1, 1]);
  });
});

describe('softrobots: SerialPortBridgeGeneric', () => {
  it('packets in the documented formats: [h0, v…], [h0, (MSB, LSB)…], split [h0, first half, h1, second half]', () => {
    expect(Array.from(softrobots.serialPacket([1, 2, 200], [255, 254], false, false))).to.deep.equal([255, 1, 2, 200]);
    // 300 = 1·256 + 44, 65535 = 255·256 + 255
    expect(Array.from(softrobots.serialPacket([1, 300, 65535], [255, 254], true, false))).to.deep.equal([255, 0, 1, 1, 44, 255, 255]);
    expect(Array.from(softrobots.serialPacket([1, 300], [250, 251], true, true))).to.deep.equal([250, 0, 1, 251, 1, 44]);
  });

  const scene = (attrs: string): Promise<SofaScene> =>
    loadSceneFromString(`<Node name="root" dt="0.1" gravity="0 -10 0">
    <RequiredPlugin name="SoftRobots"/>
    <DefaultAnimationLoop/>
    <EulerExplicitSolver symplectic="1"/>
    <MechanicalObject name="dofs" position="0 0 0"/>
    <UniformMass totalMass="1"/>
    <SerialPortBridgeGeneric name="serial" listening="1" baudRate="115200" size="3" packetOut="10 20 30" ${attrs}/>
  </Node>`);

  it('no port opens: a warning located at port says why, the bridge is inactive and the scene runs on without the robot', async () => {
    const missing = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-serial-')), 'ttyACM0');
    const s = await scene(`port="${missing}"`);
    const w = s.warnings.find((e) => /no serial port opened/.test(e.message));
    expect(w, 'a warning').to.not.equal(undefined);
    expect(w!.message).to.contain(missing);
    expect(w!.message).to.match(/ENOENT|no such file/i);
    expect(w!.loc?.line, 'located').to.be.a('number');
    expect(s.get<softrobots.SerialPortBridgeGeneric>('serial')!.inactive).to.equal('no serial port');
    s.step(10);
    // the particle falls as without the bridge: v = 10 steps · dt · g
    expect(s.get<BaseMechanicalState>('dofs')!.v[1]).to.be.closeTo(-10, 1e-12);
  });

  it('with a port, each step sends the packet redundancy times at the end and reads one byte at the beginning', async () => {
    const written: number[][] = [];
    const incoming = [7, 9];
    const opened: string[] = [];
    const previous = host();
    const port: SerialPort = {
      write: (b) => void written.push(Array.from(b)),
      read: (max) => Uint8Array.from(incoming.splice(0, max)),
      close: () => {},
    };
    setHost({ ...previous, openSerialPort: (p, baud) => (opened.push(`${p}@${baud}`), port) });
    try {
      const s = await scene('port="/dev/ttyFAKE" redundancy="2" receive="1" precise="1" header="200"');
      const bridge = s.get<softrobots.SerialPortBridgeGeneric>('serial')!;
      expect(opened).to.deep.equal(['/dev/ttyFAKE@115200']);
      s.step();
      expect(written).to.deep.equal([
        [200, 0, 10, 0, 20, 0, 30],
        [200, 0, 10, 0, 20, 0, 30],
      ]);
      expect(Array.from(bridge.packetIn.value)).to.deep.equal([7]);
      bridge.packetOut.value = Uint32Array.of(1, 2);
      s.step();
      expect(Array.from(bridge.packetIn.value)).to.deep.equal([9]);
      expect(written.length, 'a packetOut of the wrong size is not sent').to.equal(2);
      expect(bridge.inactive).to.equal('packetOut does not match size');
      expect(s.warnings.map((e) => e.message).join('\n')).to.match(/packetOut has 2 values but size is 3/);
    } finally {
      setHost(previous);
    }
  });
});

describe("softrobots: AnimationEditor (SoftRobots' animation file)", () => {
  // Two points; frame k puts point 0 at (k, 0, 0) and point 1 at (0, 2k, 1). Key frames 0 and 3.
  const FILE =
    [
      'Type: Vec3d',
      'Number of frame: 4',
      'Number of effector: 2',
      'KeyFrames: 0 3',
      '0 0 0 0 0 1 ',
      '1 0 0 0 2 1 ',
      '2 0 0 0 4 1 ',
      '3 0 0 0 6 1 ',
    ].join('\n') + '\n';
  let dir = '';
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-animation-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function animated(attrs: string, text = FILE): Promise<SofaScene> {
    fs.writeFileSync(path.join(dir, 'anim.txt'), text);
    return loadSceneFromString(`<Node name="root" dt="0.01" gravity="0 0 0">
      <RequiredPlugin name="SoftRobots"/>
      <DefaultAnimationLoop/>
      <MechanicalObject name="dofs" template="Vec3d" position="9 9 9  9 9 9"/>
      <AnimationEditor name="anim" template="Vec3d" filename="${path.join(dir, 'anim.txt')}" ${attrs}/>
    </Node>`);
  }
  const x = (s: SofaScene): number[] => Array.from(s.get<BaseMechanicalState>('dofs')!.x);
  const frame = (k: number): number[] => [k, 0, 0, 0, 2 * k, 1];

  it('reads the file: the first step puts frame 0 into the state; with play, one frame per frameTime, stopping at maxKeyFrame', async () => {
    const s = await animated('frameTime="0.01" maxKeyFrame="2"');
    const a = s.get<softrobots.AnimationEditor>('anim')!;
    expect(a.animation.keyFrames).to.deep.equal([0, 3]);
    expect(a.maxKeyFrame.value, 'the file is shorter than maxKeyFrame: raised to 4 + 4/2').to.equal(6);
    expect(x(s)).to.deep.equal([9, 9, 9, 9, 9, 9]);
    s.step();
    expect(x(s)).to.deep.equal(frame(0));
    a.play.value = true;
    for (let k = 1; k <= 3; k++) {
      s.step();
      expect(x(s), `step ${k}`).to.deep.equal(frame(k));
    }
    // cursor 4..6 has no frame: the state keeps frame 3; at 7 > maxKeyFrame play stops at 6
    s.step(4);
    expect(x(s)).to.deep.equal(frame(3));
    expect(a.cursor.value).to.equal(6);
    expect(a.play.value).to.equal(false);
  });

  it('loop: after the last key frame the cursor goes back to 0; a cursor set from outside is shown at the next step', async () => {
    const s = await animated('frameTime="0.02" loop="1" play="1"');
    const a = s.get<softrobots.AnimationEditor>('anim')!;
    const seen: number[] = [];
    for (let k = 0; k < 10; k++) {
      s.step();
      seen.push(x(s)[0]);
    }
    // one frame per two steps; frame 3 is the last key frame, cursor 4 → 0
    expect(seen).to.deep.equal([0, 1, 1, 2, 2, 3, 3, 0, 0, 1]);
    a.play.value = false;
    a.cursor.value = 2;
    s.step();
    expect(x(s)).to.deep.equal(frame(2));
  });

  it('dx: the cursor moves over the frames whose points stay within dx (plus what is carried) of the current frame', async () => {
    // dx 1.5 from frame 0: frame 1 is 1 away (point 0) and 2 (point 1) > 1.5: it stays, 1.5 is carried.
    // Step 2, bound 3: frame 1 passes (1, 2), frame 2 (2, 4) does not: cursor 1, 1.5 carried.
    // Step 3, from frame 1, bound 3: frame 2 (1, 2) passes, frame 3 is the last key frame: the cursor stops there.
    const s = await animated('dx="1.5"');
    const a = s.get<softrobots.AnimationEditor>('anim')!;
    const cursors: number[] = [];
    for (let k = 0; k < 3; k++) {
      s.step();
      cursors.push(a.cursor.value);
      expect(x(s)).to.deep.equal(frame(a.cursor.value));
    }
    expect(cursors).to.deep.equal([0, 1, 3]);
    a.dx.value = -10;
    s.step();
    expect(a.cursor.value).to.equal(0);
    expect(x(s)).to.deep.equal(frame(0));
  });

  it('saveAnimation writes the same format, line for line', async () => {
    const s = await animated('');
    const out = s.get<softrobots.AnimationEditor>('anim')!.saveAnimation(path.join(dir, 'saved.txt'));
    expect(fs.readFileSync(out, 'utf8')).to.equal(FILE);
  });

  it('errors and warnings are located: another template, a short frame, another number of points, no file', async () => {
    let err = '';
    await animated('', FILE.replace('Type: Vec3d', 'Type: Rigid3d')).catch((e: Error) => (err = e.message));
    expect(err).to.match(/holds Rigid3d positions, the state .* is Vec3d/);
    await animated('', FILE.replace('2 0 0 0 4 1 ', '2 0 0 0 4')).catch((e: Error) => (err = e.message));
    expect(err).to.match(/line 7: frame 2 has 5 numbers, 2 points of 3 need 6/);
    const s = await animated('', FILE.replace('Number of effector: 2', 'Number of effector: 1').replace(/ 0 \d 1 $/gm, ''));
    expect(s.warnings.map((w) => w.message).join('\n')).to.match(/animates 1 points, the state .* has 2: the file is not loaded/);
    const none = await loadSceneFromString(`<Node name="root"><RequiredPlugin name="SoftRobots"/><DefaultAnimationLoop/>
      <MechanicalObject name="dofs" position="9 9 9"/><AnimationEditor filename="${path.join(dir, 'none.txt')}"/></Node>`);
    expect(none.warnings.map((w) => w.message).join('\n')).to.match(
      /animation file .*none.txt' not found: the animation is the initial positions alone/,
    );
    none.step(2);
    expect(Array.from(none.get<BaseMechanicalState>('dofs')!.x)).to.deep.equal([9, 9, 9]);
  });
});

describe('softrobots: CommunicationController (ZeroMQ, the npm package zeromq)', function () {
  this.timeout(20000);
  const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
  const controllers: softrobots.CommunicationController[] = [];
  afterEach(() => {
    for (const c of controllers.splice(0)) c.close();
  });
  async function node(attrs: string): Promise<{ scene: SofaScene; cc: softrobots.CommunicationController }> {
    const scene = await loadSceneFromString(`<Node name="root" dt="0.1">
      <RequiredPlugin name="SoftRobots"/>
      <DefaultAnimationLoop/>
      <CommunicationController name="cc" listening="1" ${attrs}/>
    </Node>`);
    const cc = scene.get<softrobots.CommunicationController>('cc')!;
    controllers.push(cc);
    return { scene, cc };
  }
  const values = (cc: softrobots.CommunicationController): number[][] => cc.data.map((d) => Array.from(d.value));
  type Zmq = {
    Subscriber: new (o?: object) => { connect(a: string): void; subscribe(): void; receive(): Promise<Uint8Array[]>; close(): void };
    Publisher: new () => { bind(a: string): Promise<void>; send(m: string): Promise<void>; close(): void };
  };
  const zmq = async (): Promise<Zmq> => (await import('zeromq' as string)) as Zmq;

  it("publish/subscribe between two scenes: the receiver's fields become the sender's values, exactly", async () => {
    const { scene: a } = await node('job="sender" port="47311" nbDataField="2" data1="3.25" data2="1e-7"');
    const { scene: b, cc } = await node('job="receiver" port="47311" nbDataField="2" timeOut="5000"');
    await sleep(500); // the subscription reaches the publisher (ZeroMQ drops what is published before)
    a.step();
    b.step();
    expect(values(cc)).to.deep.equal([[3.25], [1e-7]]);
    expect(cc.inactive).to.equal(undefined);
  });

  it("the sender's message, read by a plain zeromq subscriber, is SOFA's text: template, then per field its count and numbers", async () => {
    const { scene } = await node('template="Vec3d" job="sender" port="47312" nbDataField="2" data1="1 2 3  4 5 6" data2="0.5 0 0"');
    const z = await zmq();
    const sub = new z.Subscriber({ receiveTimeout: 5000 });
    sub.subscribe();
    sub.connect('tcp://localhost:47312');
    await sleep(500);
    scene.step();
    const [frame] = await sub.receive();
    sub.close();
    expect(new TextDecoder().decode(frame)).to.equal('Vec3d 2 1 2 3 4 5 6 1 0.5 0 0 ');
  });

  it('a receiver reads a message written as SoftRobots writes it (six decimals, a comma as decimal point)', async () => {
    const z = await zmq();
    const pub = new z.Publisher();
    await pub.bind('tcp://*:47313');
    const { scene, cc } = await node('job="receiver" port="47313" nbDataField="2" timeOut="5000"');
    await sleep(500);
    await pub.send('double 1.500000 2,250000 ');
    await sleep(200);
    scene.step();
    pub.close();
    expect(values(cc)).to.deep.equal([[1.5], [2.25]]);
  });

  it('no message within timeOut, or one of another template: a warning, the controller stops and the scene runs on', async () => {
    const { scene, cc } = await node('job="receiver" port="47314" timeOut="200"');
    scene.step(3);
    expect(cc.inactive).to.equal('no message within timeOut');
    expect(
      scene.warnings.filter((w) => /no message within timeOut; the controller communicates nothing more/.test(w.message)),
    ).to.have.length(1);
    expect(scene.time).to.be.closeTo(0.3, 1e-12);
    const z = await zmq();
    const pub = new z.Publisher();
    await pub.bind('tcp://*:47315');
    const other = await node('job="receiver" port="47315" timeOut="5000"');
    await sleep(500);
    await pub.send('Vec3d 1 0 0 0 ');
    await sleep(200);
    other.scene.step();
    pub.close();
    expect(other.cc.inactive).to.match(/template 'Vec3d', this controller is double/);
  });

  it('a port that cannot be bound is an error at init, located, with the reason', async () => {
    let err = '';
    await node('job="sender" port="not-a-port"').catch((e: Error) => (err = e.message));
    expect(err).to.match(/CommunicationController 'cc'.*no ZeroMQ socket \(sender on port not-a-port\)/s);
  });
});

describe('softrobots: InteractiveControl (UDP datagrams to a motor board)', () => {
  it('SplitFloat bytes: m·2^e with m in [0.5, 1), trunc(m·2²³) little-endian with the sign in bit 23, then e', () => {
    const bytes = (v: number): number[] => {
      const b = new Uint8Array(4);
      softrobots.floatToSplitBytes(v, b, 0);
      return Array.from(b);
    };
    expect(bytes(1)).to.deep.equal([0, 0, 0x40, 1]); // 0.5·2¹
    expect(bytes(-1)).to.deep.equal([0, 0, 0xc0, 1]);
    expect(bytes(2.5)).to.deep.equal([0, 0, 0x50, 2]); // 0.625·2²
    // float32 π = 0.78539818…·2², ·2²³ = 6588397.5 → 0x6487ED
    expect(bytes(Math.PI)).to.deep.equal([0xed, 0x87, 0x64, 2]);
    // float32 0.1 = 0.80000001…·2⁻³, ·2²³ = 6710886.5 → 0x666666, exponent −3 = 0xFD
    expect(bytes(0.1)).to.deep.equal([0x66, 0x66, 0x66, 0xfd]);
    expect(bytes(0)).to.deep.equal([0, 0, 0, 0]);
    expect(bytes(NaN)).to.deep.equal([0, 0, 0, 0x7f]);
    expect(bytes(Infinity)).to.deep.equal([0x7f, 0xff, 0xff, 0x7f]);
    expect(bytes(-Infinity)).to.deep.equal([0x80, 0, 0, 0x7f]);
  });

  it('the set_setpoint datagram: fields at their bytes and the 28-bit rotating checksum as id', () => {
    const d = softrobots.setpointDatagram({ mode: 3, motor: 1, setpoint: 1, time100us: 0 });
    expect(d.length).to.equal(30);
    // checksum of bytes 4…29 (address 00 03, byte 9 = 3 << 5 | 1 = 0x61, setpoint 00 00 40 01),
    // worked out apart from this code: 0x27280, so bytes 0–3 are 0x10 | 0, 0x02, 0x72, 0x80
    expect(Array.from(d.subarray(0, 14))).to.deep.equal([0x10, 0x02, 0x72, 0x80, 0, 0, 0, 0x00, 0x03, 0x61, 0, 0, 0x40, 1]);
    expect(Array.from(d.subarray(14))).to.deep.equal(new Array(16).fill(0));
    expect(d[9] & 0x10, 'the unchanged bit').to.equal(0);
    expect(softrobots.setpointDatagram({ mode: 0, motor: 0, setpoint: softrobots.UNCHANGED, time100us: 0 })[9] & 0x10).to.equal(0x10);
  });

  it('each step sends one datagram to address:port, which a UDP listener receives', async () => {
    const dgram = await import('node:dgram');
    const listener = dgram.createSocket('udp4');
    const got: Buffer[] = [];
    listener.on('message', (m) => got.push(m));
    await new Promise<void>((r) => listener.bind(0, '127.0.0.1', () => r()));
    const port = listener.address().port;
    const s = await loadSceneFromString(`<Node name="root" dt="0.1">
      <RequiredPlugin name="SoftRobots"/>
      <DefaultAnimationLoop/>
      <InteractiveControl name="motor" address="127.0.0.1" port="${port}" mode="3" motorIndex="2"/>
    </Node>`);
    const c = s.get<softrobots.InteractiveControl>('motor')!;
    c.findData('manual setpoint')!.value = 2.5;
    s.step(3);
    for (let k = 0; k < 50 && got.length < 3; k++) await new Promise((r) => setTimeout(r, 20));
    c.close();
    listener.close();
    expect(got.length).to.equal(3);
    for (const m of got) {
      expect(m.length).to.equal(30);
      expect(m[0] >> 4, 'set_setpoint').to.equal(1);
      expect(m[9], 'mode 3, motor 2').to.equal((3 << 5) | 2);
      expect(Array.from(m.subarray(10, 14))).to.deep.equal([0, 0, 0x50, 2]);
      expect([m[7], m[8]]).to.deep.equal([0x00, 0x03]);
    }
  });
});

describe('softrobots: PREquivalentStiffnessForceField in a static scene', () => {
  // Frame 0 clamped, frame 1 at (2, 0, 0): with frame 0 fixed the link's translation residual is
  // p₁ − p₁⁰ exactly, so a force F on frame 1 moves it by C·F (C diagonal), however large; a torque
  // T about z turns it by c₆·T about z and does not move it.
  const c = [0.5, 0.25, 0.2, 0.1, 0.05, 0.04];
  let dir = '';
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-pr-'));
    fs.writeFileSync(path.join(dir, 'compliance.txt'), Array.from({ length: 36 }, (_, k) => (k % 7 === 0 ? c[k / 7] : 0)).join(' '));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const solve = async (load: string): Promise<number[]> => {
    const s = await loadSceneFromString(`<Node name="root" dt="1" gravity="0 0 0">
      <RequiredPlugin name="SoftRobots"/>
      <StaticSolver newton_iterations="30" absolute_correction_tolerance_threshold="1e-15" relative_correction_tolerance_threshold="1e-14" absolute_residual_tolerance_threshold="1e-15" relative_residual_tolerance_threshold="1e-14"/>
      <SparseLDLSolver template="CompressedRowSparseMatrixd"/>
      <MechanicalObject name="frames" template="Rigid3d" position="0 0 0 0 0 0 1  2 0 0 0 0 0 1"/>
      <PREquivalentStiffnessForceField complianceFile="${path.join(dir, 'compliance.txt')}"/>
      <FixedProjectiveConstraint indices="0"/>
      <ConstantForceField indices="1" forces="${load}"/>
    </Node>`);
    s.step();
    return Array.from(s.get<BaseMechanicalState>('frames')!.x.subarray(7, 14));
  };

  it('a force F on the free frame moves it by C·F', async () => {
    const x = await solve('3 -5 2 0 0 0');
    const expected = [2 + 3 * c[0], -5 * c[1], 2 * c[2], 0, 0, 0, 1];
    for (let k = 0; k < 7; k++) expect(x[k]).to.be.closeTo(expected[k], 1e-9);
  });

  it('a torque T about z turns it by c₆·T about z', async () => {
    const x = await solve('0 0 0 0 0 10');
    const a = 10 * c[5];
    const expected = [2, 0, 0, 0, 0, Math.sin(a / 2), Math.cos(a / 2)];
    for (let k = 0; k < 7; k++) expect(x[k]).to.be.closeTo(expected[k], 1e-9);
  });
});
