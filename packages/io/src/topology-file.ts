/**
 * SOFA's topology files (WriteTopology / ReadTopology format) and its CompareTopology rule.
 *
 * One frame per dump:
 *   T= 0.1
 *     Edges= 3
 *   0 1 1 2 2 0
 *     Triangles= 1
 *   0 1 2
 *     Quads= 0
 *   (empty line)
 *     Tetrahedra= 0
 *
 *     Hexahedra= 0
 *
 * i.e. for each element kind its count, then a line with every vertex index of its elements.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { SofaError, writeFailure } from '@sofa-ts/core';
import { formatSofaNumber } from './number-format.js';
import { decodeStateBytes } from './read-state.js';

/** The element kinds of a topology frame, in file order, with their vertices per element. */
export const TOPOLOGY_KINDS = [
  { key: 'Edges', size: 2 },
  { key: 'Triangles', size: 3 },
  { key: 'Quads', size: 4 },
  { key: 'Tetrahedra', size: 4 },
  { key: 'Hexahedra', size: 8 },
] as const;

export type TopologyKindKey = (typeof TOPOLOGY_KINDS)[number]['key'];

/** The element lists of a topology, flat (n × vertices per element), in TOPOLOGY_KINDS order. */
export type TopologyLists = readonly [Uint32Array, Uint32Array, Uint32Array, Uint32Array, Uint32Array];

export interface TopologyFrame {
  readonly time: number;
  /** Per kind (TOPOLOGY_KINDS order), the count written after `Kind=`. */
  readonly counts: readonly number[];
  /** Per kind, the vertex indices of the elements (as many as the values line holds). */
  readonly lists: readonly Uint32Array[];
}

/** One frame in SOFA's format. */
export function formatTopologyFrame(time: number, lists: TopologyLists): string {
  let text = `T= ${formatSofaNumber(time)}\n`;
  TOPOLOGY_KINDS.forEach((k, i) => {
    const l = lists[i];
    text += `  ${k.key}= ${l.length / k.size}\n${Array.from(l).join(' ')}\n`;
  });
  return text;
}

/** Frames of a topology file's text. */
export function parseTopologyText(text: string, source = '<text>'): TopologyFrame[] {
  const lines = text.split('\n');
  const frames: TopologyFrame[] = [];
  let time: number | undefined;
  let counts: number[] = [];
  let lists: Uint32Array[] = [];
  const flush = (): void => {
    if (time !== undefined) frames.push({ time, counts, lists });
  };
  for (let i = 0; i < lines.length; i++) {
    const words = lines[i].trim().split(/\s+/);
    if (words[0] === 'T=') {
      flush();
      time = Number(words[1]);
      if (!Number.isFinite(time)) throw new SofaError(`${source}:${i + 1}: 'T=' must be followed by a time, got '${words[1] ?? ''}'`);
      counts = TOPOLOGY_KINDS.map(() => 0);
      lists = TOPOLOGY_KINDS.map(() => new Uint32Array(0));
      continue;
    }
    const k = TOPOLOGY_KINDS.findIndex((kind) => words[0] === `${kind.key}=`);
    if (k < 0 || time === undefined) continue;
    counts[k] = Number(words[1]) || 0;
    const values = (lines[i + 1] ?? '').trim();
    lists[k] = values === '' ? new Uint32Array(0) : Uint32Array.from(values.split(/\s+/).map(Number));
    i++;
  }
  flush();
  return frames;
}

/** Frames of a topology file (plain or gzipped). */
export function readTopologyFile(file: string): TopologyFrame[] {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (cause) {
    throw new SofaError(`cannot read topology file ${file}`, { cause });
  }
  return parseTopologyText(decodeStateBytes(bytes, file), file);
}

/** Appends frames to a topology file as they come (a gzip member per frame for a `.gz` name). */
export class TopologyWriter {
  readonly path: string;
  private fd: number | undefined;
  private readonly gzip: boolean;
  /** Bytes of the complete frames written. */
  private bytes = 0;

  constructor(filePath: string) {
    this.path = path.resolve(filePath);
    this.gzip = filePath.endsWith('.gz');
    try {
      fs.mkdirSync(path.dirname(this.path), { recursive: true });
      this.fd = fs.openSync(this.path, 'w');
    } catch (cause) {
      throw writeFailure('topology file', this.path, cause);
    }
  }

  /** Appends a frame; a write that fails is cut back to the last complete frame and throws with
   *  the system's reason. */
  writeFrame(time: number, lists: TopologyLists): void {
    if (this.fd === undefined) throw new SofaError(`topology file already closed: ${this.path}`);
    const text = Buffer.from(formatTopologyFrame(time, lists), 'utf8');
    const bytes = this.gzip ? zlib.gzipSync(text) : text;
    try {
      let offset = 0;
      while (offset < bytes.length) offset += fs.writeSync(this.fd, bytes, offset, bytes.length - offset);
    } catch (cause) {
      try {
        fs.ftruncateSync(this.fd, this.bytes);
      } catch {
        // the write's failure is the one reported
      }
      throw writeFailure('topology file', this.path, cause);
    }
    this.bytes += bytes.length;
  }

  close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    fs.closeSync(fd);
  }
}

/** What comparing a topology with its reference gave (SOFA's CompareTopology). */
export interface TopologyComparison {
  /** Σ over compared frames and kinds of the errors (0: identical). */
  readonly error: number;
  /** Per kind (TOPOLOGY_KINDS order), its share of the error. */
  readonly perKind: readonly number[];
  /** Frames of ours that had a reference frame to be compared with. */
  readonly framesCompared: number;
  /** The first difference found, for the report. */
  readonly firstDifference?: string;
}

/**
 * SOFA's CompareTopology rule. At each frame of ours (time t), the reference frames with
 * T ≤ t + 1e-8 not used yet are read and the last of them is compared (none read: no comparison,
 * as SOFA's ReadTopology). For each element kind whose reference count n is not 0: a count
 * mismatch adds |Δn|, otherwise each element differing from the reference's (vertex by vertex, in
 * order) adds 1.
 */
export function compareTopologies(reference: readonly TopologyFrame[], ours: readonly TopologyFrame[]): TopologyComparison {
  const perKind = TOPOLOGY_KINDS.map(() => 0);
  let next = 0;
  let compared = 0;
  let firstDifference: string | undefined;
  for (const frame of ours) {
    let ref: TopologyFrame | undefined;
    while (next < reference.length && reference[next].time <= frame.time + 1e-8) ref = reference[next++];
    if (!ref) continue;
    compared++;
    TOPOLOGY_KINDS.forEach((kind, k) => {
      const n = ref.counts[k];
      if (n === 0) return;
      const mine = frame.lists[k];
      const nMine = mine.length / kind.size;
      if (nMine !== n) {
        perKind[k] += Math.abs(n - nMine);
        firstDifference ??= `T=${formatSofaNumber(frame.time)}: ${n} ${kind.key.toLowerCase()} in the reference, ${nMine} here`;
        return;
      }
      const r = ref.lists[k];
      for (let e = 0; e < n; e++) {
        for (let j = 0; j < kind.size; j++) {
          if (r[e * kind.size + j] !== mine[e * kind.size + j]) {
            perKind[k]++;
            firstDifference ??= `T=${formatSofaNumber(frame.time)}: ${kind.key.toLowerCase()} ${e} is ${Array.from(mine.subarray(e * kind.size, (e + 1) * kind.size)).join(' ')}, the reference has ${Array.from(r.subarray(e * kind.size, (e + 1) * kind.size)).join(' ')}`;
            break;
          }
        }
      }
    });
  }
  return {
    error: perKind.reduce((a, b) => a + b, 0),
    perKind,
    framesCompared: compared,
    ...(firstDifference !== undefined ? { firstDifference } : {}),
  };
}

// ---- reference names ----------------------------------------------------------------------------

/** The reference file of compared topology `index` named `name`: `<root>/<rel>.reference_<i>_<name>_topology.txt.gz`. */
export function referenceTopologyPath(referenceRoot: string, sceneRelative: string, index: number, name: string): string {
  return `${path.join(referenceRoot, sceneRelative)}.reference_${index}_${name}_topology.txt.gz`;
}

/** True when the scene has topology references (any `<rel>.reference_*_topology.txt*` file). */
export function hasReferenceTopologies(referenceRoot: string, sceneRelative: string): boolean {
  const base = path.join(referenceRoot, sceneRelative);
  const prefix = path.basename(base) + '.reference_';
  try {
    return fs.readdirSync(path.dirname(base)).some((f) => f.startsWith(prefix) && /_topology\.txt(\.gz)?$/.test(f));
  } catch {
    return false;
  }
}
