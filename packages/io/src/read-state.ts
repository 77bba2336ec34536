/** SOFA's WriteState text format, read back (plain or gzip, told apart by content, not by name). */
import { SofaError, host } from '@sofa-ts/core';
import { parseSofaNumber } from './number-format.js';

/** One recorded time of one mechanical state. */
export interface StateFrame {
  time: number;
  /** All position scalars, point after point. */
  X: Float64Array;
  /** All velocity scalars, when the file has a V= line for this frame. */
  V?: Float64Array;
  /** Rest positions and forces: WriteState can record them too (writeX0, writeF). */
  X0?: Float64Array;
  F?: Float64Array;
}

type VectorKey = 'X' | 'V' | 'X0' | 'F';
const VECTOR_KEYS: Record<string, VectorKey> = { 'X=': 'X', 'V=': 'V', 'X0=': 'X0', 'F=': 'F' };

/** Read a state file, gzip-compressed or not. */
export function readStateFile(filePath: string): StateFrame[] {
  let bytes: Uint8Array;
  try {
    bytes = host().readBytes(filePath);
  } catch (cause) {
    throw new SofaError(`cannot read state file ${filePath}`, { cause });
  }
  return parseStateText(decodeStateBytes(bytes, filePath), filePath);
}

/** The text of a state file's bytes: gunzipped when they start with the gzip magic number. */
export function decodeStateBytes(bytes: Uint8Array, file = '<bytes>'): string {
  if (isGzip(bytes)) {
    try {
      const gunzip = host().gunzip;
      if (!gunzip) throw new Error('this host cannot decompress gzip');
      return new TextDecoder('utf-8').decode(gunzip(bytes));
    } catch (cause) {
      throw new SofaError(`${file}: corrupt gzip data (or cut short: was the run writing it killed?)`, { cause });
    }
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/** gzip streams start with 0x1f 0x8b (RFC 1952). */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** Parse WriteState text into frames. `file` only names the source in error messages. */
export function parseStateText(text: string, file = '<string>'): StateFrame[] {
  const frames: StateFrame[] = [];
  let current: StateFrame | undefined;
  let currentLine = 0;
  const lines = text.split('\n');

  const finish = (): void => {
    if (current && current.X === undefined) {
      throw new SofaError(`frame T= ${current.time} has no X= line`, { loc: { file, line: currentLine, column: 1 } });
    }
  };

  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const line = lines[i].replace(/\r$/, '');
    const tokens = tokenize(line);
    if (tokens.length === 0) continue;
    const [head, ...rest] = tokens;
    const at = (column: number) => ({ file, line: lineNo, column });

    if (head!.text === 'T=') {
      finish();
      if (rest.length !== 1) {
        throw new SofaError(`T= takes exactly one time value, found ${rest.length}`, { loc: at(head!.column) });
      }
      const time = parseSofaNumber(rest[0].text);
      if (time === undefined || !Number.isFinite(time)) {
        throw new SofaError(`invalid time '${rest[0].text}'`, { loc: at(rest[0].column) });
      }
      // X is filled by its own line; a frame without one is reported by finish().
      current = { time } as StateFrame;
      currentLine = lineNo;
      frames.push(current);
      continue;
    }

    const key = VECTOR_KEYS[head!.text];
    if (key === undefined) {
      throw new SofaError(`unexpected '${head!.text}'`, {
        loc: at(head!.column),
        hint: 'a state file line starts with T=, X=, V=, X0= or F= followed by a space',
      });
    }
    if (current === undefined) {
      throw new SofaError(`${head!.text} line before any T= line`, { loc: at(head!.column) });
    }
    if (current[key] !== undefined) {
      throw new SofaError(`second ${head!.text} line in frame T= ${current.time}`, { loc: at(head!.column) });
    }
    const values = new Float64Array(rest.length);
    for (let k = 0; k < rest.length; k++) {
      const value = parseSofaNumber(rest[k].text);
      if (value === undefined) {
        throw new SofaError(`invalid number '${rest[k].text}' (scalar ${k} of ${head!.text})`, { loc: at(rest[k].column) });
      }
      values[k] = value;
    }
    current[key] = values;
  }
  finish();
  return frames;
}

/** Whitespace-separated tokens with their 1-based columns. */
function tokenize(line: string): Array<{ text: string; column: number }> {
  const tokens: Array<{ text: string; column: number }> = [];
  const re = /\S+/g;
  for (let m = re.exec(line); m !== null; m = re.exec(line)) tokens.push({ text: m[0], column: m.index + 1 });
  return tokens;
}
