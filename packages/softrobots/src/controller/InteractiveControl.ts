import { AnimateBeginEvent, BaseObject, Bool, RealArray, Real, Str, UInt, sofaComponent, type SofaEvent } from '@sofa-ts/core';
import { setpointDatagram } from './motor-datagram.js';

interface WorkerLike {
  postMessage(m: Uint8Array): void;
  unref(): void;
  terminate(): Promise<number>;
}

/**
 * SoftRobots' InteractiveControl: at the beginning of every step it sends one set_setpoint
 * datagram (motor-datagram.ts) over UDP to the motor board at address:port — motor `motorIndex`
 * (its two low bits, as the board reads them), feedback `mode` (0 stop, 1 velocity, 2 torque/current,
 * 3 position), the setpoint `manual setpoint`. As in SoftRobots, the value sent is `manual setpoint`
 * (its code marks it temporary); `setpoint` is only printed (in mm, ×1000) with
 * printCableDisplacement, and `rotorDiameter` is not used. The board's answers are not read
 * (SoftRobots reads and drops them). `useNetwork` false (a serial link) is not provided by
 * SoftRobots either: the datagrams are sent in any case, with a warning. Datagrams leave from a
 * worker thread (udp-worker.ts) so that they go out during a synchronous run; a send failure is
 * told at the next step. Without worker threads (a browser) it is an error at init.
 */
@sofaComponent({
  name: 'InteractiveControl',
  category: 'SoftRobots',
  module: 'SoftRobots',
  description: 'Controls external motors via network (UDP datagrams to a motor board).',
})
export class InteractiveControl extends BaseObject {
  readonly motorIndex = this.initData({
    name: 'motorIndex',
    type: UInt,
    default: 0,
    help: 'index of the controlled motor (the board reads its two low bits)',
  });
  readonly mode = this.initData({
    name: 'mode',
    type: UInt,
    default: 0,
    help: 'feedback control mode: 0 stop, 1 velocity (r/s), 2 torque/current (A or Nm), 3 position (degrees or revolutions)',
  });
  readonly setPoint = this.initData({
    name: 'setpoint',
    type: RealArray(1, 'Vec1f'),
    default: Float64Array.of(0),
    help: 'desired setpoint (a cable displacement, printed with printCableDisplacement; not sent, as in SoftRobots)',
  });
  readonly rotorDiameter = this.initData({
    name: 'rotorDiameter',
    type: Real,
    default: 0.008,
    unit: 'm',
    help: 'diameter of the actuator rotor (not used, as in SoftRobots)',
  });
  readonly manualSetpoint = this.initData({
    name: 'manual setpoint',
    type: Real,
    default: 0,
    help: 'the setpoint sent to the motor (unit depends on mode)',
  });
  readonly address = this.initData({ name: 'address', type: Str, default: '169.254.8.220', help: 'IP address of the motor board' });
  readonly port = this.initData({ name: 'port', type: UInt, default: 1994, help: 'UDP destination port' });
  readonly useNetwork = this.initData({
    name: 'useNetwork',
    type: Bool,
    default: true,
    help: 'if true, use the network (a serial link is not provided, by SoftRobots either)',
  });
  readonly printCableDisplacement = this.initData({
    name: 'printCableDisplacement',
    type: Bool,
    default: false,
    help: 'if true, prints the cable displacement setpoint[0]·1000 (mm) at each step',
  });

  private worker: WorkerLike | undefined;
  private status = new Int32Array(new SharedArrayBuffer(4 + 256), 0, 1);
  private reportedErrors = 0;
  /** Datagrams sent since init (for the user and the tests). */
  sent = 0;

  constructor() {
    super();
    // SoftRobots' InteractiveControl listens by default
    this.listening.value = true;
    this.listening.isSet = false;
  }

  override init(): void {
    if (!this.useNetwork.value)
      this.warnAbout(
        this.useNetwork,
        'useNetwork false: a serial link is not provided (by SoftRobots either); the datagrams are sent over the network',
      );
    if (this.port.value < 1 || this.port.value > 65535)
      throw this.dataError(this.port, `port ${this.port.value} is not a UDP port (1…65535)`);
    const proc = (globalThis as { process?: { getBuiltinModule?(id: string): unknown } }).process;
    const wt = proc?.getBuiltinModule?.('node:worker_threads') as { Worker: new (url: URL, o: object) => WorkerLike } | undefined;
    if (!wt) throw this.error('no UDP: this host has no worker threads (Node is needed)');
    this.close();
    const shared = new SharedArrayBuffer(4 + 256);
    this.status = new Int32Array(shared, 0, 1);
    this.reportedErrors = 0;
    this.worker = new wt.Worker(new URL('./udp-worker.js', import.meta.url), {
      workerData: { address: this.address.value.trim(), port: this.port.value, status: shared },
    });
    this.worker.unref();
  }

  /** Stops the sending thread. */
  close(): void {
    void this.worker?.terminate();
    this.worker = undefined;
  }

  override handleEvent(event: SofaEvent): void {
    if (!this.listening.value || !(event instanceof AnimateBeginEvent) || !this.worker) return;
    const errors = Atomics.load(this.status, 0);
    if (errors > this.reportedErrors) {
      const text = new TextDecoder().decode(new Uint8Array(this.status.buffer, 4)).replace(/\0+$/, '');
      this.warnAbout(
        this.address,
        `${errors - this.reportedErrors} datagram(s) to ${this.address.value}:${this.port.value} failed: ${text}`,
      );
      this.reportedErrors = errors;
    }
    if (this.printCableDisplacement.value) console.log(`Cable displacement: ${this.setPoint.value[0] * 1000} mm`);
    const d = setpointDatagram({
      mode: this.mode.value,
      motor: this.motorIndex.value,
      setpoint: this.manualSetpoint.value,
      time100us: Math.floor((Date.now() % 1000) * 10),
    });
    this.worker.postMessage(d);
    this.sent++;
  }
}
