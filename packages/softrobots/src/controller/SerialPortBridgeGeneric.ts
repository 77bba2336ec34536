import {
  AnimateBeginEvent,
  AnimateEndEvent,
  BaseObject,
  Bool,
  IndexArray,
  Str,
  UInt,
  host,
  sofaComponent,
  type SerialPort,
  type SofaEvent,
} from '@sofa-ts/core';
import { serialPacket } from './serial-packet.js';

/**
 * SoftRobots' SerialPortBridgeGeneric: sends `packetOut` to a serial port (an Arduino driving the
 * real robot) at the end of every step, in the format of serial-packet.ts, `redundancy` times;
 * with `receive`, reads one byte into `packetIn` at the beginning of every step (without waiting:
 * SoftRobots waits up to 20 ms).
 *
 * When the port does not open, the component says where and why (a located warning, as SOFA's
 * "No serial port found") and turns inactive (`inactive` says why; SOFA marks it invalid): the scene
 * runs on without the hardware. A packetOut whose length is not `size` turns it inactive too, as
 * in SoftRobots. The port is opened by the
 * host (host().openSerialPort: Node's opens the device and sets the baud rate with GNU stty, Linux); a host
 * without serial ports is reported the same way. Values are bytes (0…255), or 16-bit (0…65535) with
 * `precise` (SoftRobots' vector<unsigned char> keeps only 8 bits of them, sofa-ts sends 16). As in
 * SOFA, events reach it only with `listening` set.
 */
@sofaComponent({
  name: 'SerialPortBridgeGeneric',
  category: 'SoftRobots',
  module: 'SoftRobots',
  description:
    'Send data (ex: force, displacement, pressure…) through the usb port. Usually used to send data to an Arduino card to control the real robot.',
})
export class SerialPortBridgeGeneric extends BaseObject {
  readonly port = this.initData({ name: 'port', type: Str, default: '', help: 'serial port name (/dev/ttyACM0, COM3)' });
  readonly baudRate = this.initData({ name: 'baudRate', type: UInt, default: 0, help: 'transmission speed (baud)' });
  readonly packetOut = this.initData({
    name: 'packetOut',
    type: IndexArray(1, 'vector<unsigned char>'),
    default: new Uint32Array(0),
    help: 'data to send: integers 0…255 (0…65535 with precise), below the header value; the header is sent first',
  });
  readonly packetIn = this.initData({
    name: 'packetIn',
    type: IndexArray(1, 'vector<unsigned char>'),
    default: new Uint32Array(0),
    help: 'data received (one byte per step, with receive)',
    output: true,
  });
  readonly header = this.initData({
    name: 'header',
    type: IndexArray(1, 'vector<unsigned char>'),
    default: Uint32Array.of(255, 254),
    help: 'header bytes: the first starts each packet, the second starts its second half with splitPacket',
  });
  readonly size = this.initData({
    name: 'size',
    type: UInt,
    default: 0,
    help: 'number of values of packetOut (a packetOut of another length turns the bridge inactive)',
  });
  readonly precise = this.initData({
    name: 'precise',
    type: Bool,
    default: false,
    help: 'send each value as two bytes: [header[0], (MSB, LSB)·size]',
  });
  readonly splitPacket = this.initData({
    name: 'splitPacket',
    type: Bool,
    default: false,
    help: 'precise mode only: split the data bytes in two halves, the second after header[1]',
  });
  readonly redundancy = this.initData({ name: 'redundancy', type: UInt, default: 1, help: 'each packet is sent that number of times' });
  readonly receive = this.initData({
    name: 'receive',
    type: Bool,
    default: false,
    help: 'if true, reads one byte from the port at the beginning of each step',
  });

  private serial: SerialPort | undefined;
  /** Why the bridge sends nothing (SOFA turns it invalid; here the rest of the scene must still step). */
  inactive: string | undefined;

  override init(): void {
    this.inactive = undefined;
    if (this.splitPacket.value && !this.precise.value) {
      this.warnAbout(this.splitPacket, 'splitPacket is only used in precise mode: false is used');
      this.splitPacket.value = false;
    }
    const h = this.header.value;
    for (const b of h) if (b > 255) throw this.dataError(this.header, `header byte ${b} is above 255`);
    if (h.length < (this.splitPacket.value ? 2 : 1)) {
      this.warnAbout(
        this.header,
        `header has ${h.length} byte(s), ${this.splitPacket.value ? 'two are needed with splitPacket' : 'one is needed'}: 255 254 is used`,
      );
      this.header.value = Uint32Array.of(255, 254);
    }
    if (this.redundancy.value < 1) {
      this.warnAbout(this.redundancy, 'redundancy 0: 1 is used');
      this.redundancy.value = 1;
    }
    if (!this.listening.value)
      this.warn('listening is false: as in SOFA, the bridge receives no step events and sends nothing', 'set listening="true"');
    this.open();
  }

  private open(): void {
    const h = host();
    const where = `port '${this.port.value}' at ${this.baudRate.value} baud`;
    if (!h.openSerialPort) {
      this.warnAbout(
        this.port,
        `no serial port opened (${where}): this host has no serial ports; the component is inactive, the scene runs without the robot`,
      );
      this.inactive = 'no serial port';
      return;
    }
    try {
      if (this.port.value === '') throw new Error('no port given');
      this.serial = h.openSerialPort(this.port.value, this.baudRate.value);
    } catch (e) {
      this.warnAbout(
        this.port,
        `no serial port opened (${where}): ${(e as Error).message}; the component is inactive, the scene runs without the robot`,
        'connect the robot, or give its port in port (and baudRate)',
      );
      this.inactive = 'no serial port';
    }
  }

  /** The packet the next step would send (serial-packet.ts), or undefined when packetOut does not match size. */
  packet(): Uint8Array | undefined {
    const v = this.packetOut.value,
      max = this.precise.value ? 0xffff : 0xff;
    if (v.length !== this.size.value) return undefined;
    for (const x of v) if (x > max) return undefined;
    return serialPacket(v, this.header.value, this.precise.value, this.splitPacket.value);
  }

  override handleEvent(event: SofaEvent): void {
    if (!this.listening.value || this.inactive !== undefined || !this.serial) return;
    try {
      if (event instanceof AnimateBeginEvent && this.receive.value) {
        const got = this.serial.read(1);
        if (got.length === 1) this.packetIn.value = Uint32Array.of(got[0]);
      } else if (event instanceof AnimateEndEvent) {
        const p = this.packet();
        if (!p) {
          const v = this.packetOut.value;
          this.warnAbout(
            this.packetOut,
            v.length !== this.size.value
              ? `packetOut has ${v.length} values but size is ${this.size.value}: the bridge turns inactive and sends nothing (make them match what the robot's microcontroller expects)`
              : `a value of packetOut is above ${this.precise.value ? 65535 : 255}: the bridge turns inactive and sends nothing`,
          );
          this.inactive = 'packetOut does not match size';
          return;
        }
        for (let r = 0; r < this.redundancy.value; r++) this.serial.write(p);
      }
    } catch (e) {
      this.warnAbout(this.port, `serial port '${this.port.value}' failed: ${(e as Error).message}; the component turns inactive`);
      this.inactive = 'serial port failed';
    }
  }

  override reset(): void {
    // the port stays open; a bridge made inactive by bad data stays so (as in SOFA)
  }
}
