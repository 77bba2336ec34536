import {
  AnimateBeginEvent,
  BaseObject,
  Bool,
  Indices,
  Real,
  RealArray,
  Str,
  contextMeshTopology,
  host,
  isTopology,
  requireDataFile,
  sofaComponent,
  type BaseMeshTopology,
  type SofaEvent,
} from '@sofa-ts/core';
import { isTopologyContainer } from '../container/topology-container.js';
import { EdgeSetTopologyModifier } from '../container/EdgeSetTopologyModifier.js';
import { HexahedronSetTopologyModifier } from '../container/HexahedronSetTopologyModifier.js';
import { PointSetTopologyModifier } from '../container/PointSetTopologyModifier.js';
import { QuadSetTopologyModifier } from '../container/QuadSetTopologyModifier.js';
import { TetrahedronSetTopologyModifier } from '../container/TetrahedronSetTopologyModifier.js';
import { TriangleSetTopologyModifier } from '../container/TriangleSetTopologyModifier.js';

type ModifierClass<M> = abstract new (...args: never[]) => M;

/**
 * SOFA's TopologicalChangeProcessor: replays topological changes read from a text file, at the
 * beginning of the steps (AnimateBeginEvent). The file is a sequence of blocks
 *
 *     T= 0.1
 *       REMOVE= 2                       (the next line: the indices of the elements to remove,
 *     7 8                                of the kind of the first modifier of the topology's node)
 *     T= 0.2
 *       ADD= Tetrahedra 2               (Edges, Triangles [Ancestors a b ...], Quads, Tetrahedra,
 *     0 1 9 3 1 10 9 13                  Hexahedra, PointsInTriangle "tri b0 b1" per point)
 *
 * A block is applied at the first step whose time t (+ shift) reaches its T (t ≥ T, or within a
 * double's epsilon), as SOFA reads the file: lines are consumed up to the first T past t, so when
 * several blocks fall due at once only the last one is applied. A count larger than the indices
 * given reads 0 for the missing ones (SOFA's stream). With useDataInputs, the lists
 * hexahedraToRemove … pointsToRemove are removed once the time passes timeToRemove (then every
 * `interval`). Incisions (INCISE=) are not supported: they are reported and skipped.
 */
@sofaComponent({
  name: 'TopologicalChangeProcessor',
  category: 'Topology',
  module: 'Sofa.Component.Topology.Utility',
  description: 'Read topological changes from a file (or Data lists) and apply them during the simulation.',
})
export class TopologicalChangeProcessor extends BaseObject {
  readonly filename = this.initData({ name: 'filename', type: Str, default: '', help: 'input file name for topological changes' });
  readonly listChanges = this.initData({
    name: 'listChanges',
    type: RealArray(0, 'vector<Real>'),
    default: new Float64Array(0),
    help: '0 for adding, 1 for removing, 2 for cutting and associated indices (unused, as in SOFA)',
  });
  readonly interval = this.initData({
    name: 'interval',
    type: Real,
    default: 0,
    unit: 's',
    help: 'time between two removals with useDataInputs',
  });
  readonly shift = this.initData({
    name: 'shift',
    type: Real,
    default: 0,
    unit: 's',
    help: 'shift between times in the file and times when they will be read',
  });
  readonly loop = this.initData({
    name: 'loop',
    type: Bool,
    default: false,
    help: 'set to true to re-read the file when reaching the end',
  });
  readonly useDataInputs = this.initData({
    name: 'useDataInputs',
    type: Bool,
    default: false,
    help: 'remove the elements of the Data lists rather than read a file',
  });
  readonly timeToRemove = this.initData({
    name: 'timeToRemove',
    type: Real,
    default: 0,
    unit: 's',
    help: 'with useDataInputs, time after which the lists are removed',
  });
  readonly pointsToRemove = this.initData({
    name: 'pointsToRemove',
    type: Indices,
    default: new Uint32Array(0),
    help: 'list of point IDs to be removed',
  });
  readonly edgesToRemove = this.initData({
    name: 'edgesToRemove',
    type: Indices,
    default: new Uint32Array(0),
    help: 'list of edge IDs to be removed',
  });
  readonly trianglesToRemove = this.initData({
    name: 'trianglesToRemove',
    type: Indices,
    default: new Uint32Array(0),
    help: 'list of triangle IDs to be removed',
  });
  readonly quadsToRemove = this.initData({
    name: 'quadsToRemove',
    type: Indices,
    default: new Uint32Array(0),
    help: 'list of quad IDs to be removed',
  });
  readonly tetrahedraToRemove = this.initData({
    name: 'tetrahedraToRemove',
    type: Indices,
    default: new Uint32Array(0),
    help: 'list of tetrahedron IDs to be removed',
  });
  readonly hexahedraToRemove = this.initData({
    name: 'hexahedraToRemove',
    type: Indices,
    default: new Uint32Array(0),
    help: 'list of hexahedron IDs to be removed',
  });
  readonly saveIndicesAtInit = this.initData({
    name: 'saveIndicesAtInit',
    type: Bool,
    default: false,
    help: 'save the incisions to do at init (incisions are not supported)',
  });
  readonly epsilonSnapPath = this.initData({
    name: 'epsilonSnapPath',
    type: Real,
    default: 0.1,
    help: 'epsilon snap path of incisions (not supported)',
  });
  readonly epsilonSnapBorder = this.initData({
    name: 'epsilonSnapBorder',
    type: Real,
    default: 0.25,
    help: 'epsilon snap border of incisions (not supported)',
  });
  readonly draw = this.initData({ name: 'draw', type: Bool, default: false, help: 'draw information', group: 'Visualization' });

  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'the topology to change (default: the topology of this node, or above)',
    accepts: isTopology,
    expected: 'a topology container',
  });

  private topo: BaseMeshTopology | undefined;
  /** The file's lines and the read position (SOFA reads the file as a stream). */
  private lines: string[] = [];
  private cursor = 0;
  private nextTime = 0;
  private loopTime = 0;
  private lastTime = 0;
  private warnedIncision = false;

  /**
   * The container this changes builds its editable mesh now (TopologyContainer.prepareChanges):
   * the first change does not pay for its faces, edges and shells, as in SOFA.
   */
  override bwdInit(): void {
    super.bwdInit();
    const c = this.topo;
    if (isTopologyContainer(c)) c.prepareChanges();
  }

  override init(): void {
    this.topo = this.topology.get() ?? contextMeshTopology(this.context);
    if (!this.topo) throw this.error('no topology in this node or above: set topology="@path" to the container to change');
    this.topology.set(this.topo);
    if (!this.useDataInputs.value) this.readDataFile();
  }

  override reset(): void {
    if (!this.useDataInputs.value) this.readDataFile();
  }

  private readDataFile(): void {
    const name = this.filename.value.trim();
    if (name === '')
      throw this.error(
        'no file of topological changes given',
        "set filename='changes.txt' (or useDataInputs='1' with the lists to remove)",
      );
    const file = requireDataFile(this, name, 'file of topological changes');
    // through the host (files of a browser's viewer too)
    const h = host();
    let text: string;
    if (file.endsWith('.gz')) {
      if (!h.gunzip) throw this.error(`${file} is gzip-compressed, and this host cannot decompress gzip`);
      text = new TextDecoder('utf-8').decode(h.gunzip(h.readBytes(file)));
    } else text = h.readText(file);
    this.lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
    this.cursor = 0;
    this.nextTime = 0;
    this.lastTime = 0;
    this.loopTime = 0;
  }

  override handleEvent(event: SofaEvent): void {
    if (!(event instanceof AnimateBeginEvent) || !this.topo) return;
    if (this.useDataInputs.value) this.removeDataLists(this.context.getTime());
    else this.processFile(this.context.getTime() + this.shift.value);
  }

  /** SOFA's readNext: the lines of the last block due at `time`. */
  private readNext(time: number): string[] {
    this.lastTime = time;
    const due = (t: number): boolean => t < time || Math.abs(t - time) < Number.EPSILON;
    let valid: string[] = [];
    while (due(this.nextTime)) {
      if (this.cursor >= this.lines.length) {
        if (!this.loop.value) break;
        this.cursor = 0;
        this.loopTime = this.nextTime;
      }
      const line = this.lines[this.cursor++];
      const words = line.trim().split(/\s+/);
      if (words[0] === 'T=') {
        const t = Number(words[1]);
        this.nextTime = (Number.isFinite(t) ? t : 0) + this.loopTime;
        if (due(this.nextTime)) valid = [];
      }
      if (due(this.nextTime)) valid.push(line);
    }
    return valid;
  }

  private processFile(time: number): void {
    const lines = this.readNext(time);
    for (let i = 0; i < lines.length;) {
      const words = lines[i].trim().split(/\s+/);
      const cmd = words[0];
      if (cmd === 'ADD=') {
        const values = numbers(lines[i + 1]);
        this.add(words.slice(1), values);
        i += 2;
      } else if (cmd === 'REMOVE=') {
        const n = Math.max(0, Math.floor(Number(words[1]) || 0));
        const values = numbers(lines[i + 1]);
        // a missing index reads 0, as SOFA's stream extraction leaves it
        const ids = Array.from({ length: n }, (_, k) => values[k] ?? 0);
        if (values.length < n)
          this.warn(`REMOVE= ${n} at T=${this.lastTime} lists ${values.length} indices: the missing ones are read as 0, as SOFA does`);
        this.modifier(PointSetTopologyModifier, 'topology modifier').removeItems(ids);
        i += 2;
      } else if (cmd === 'INCISE=') {
        if (!this.warnedIncision) this.warn('incisions (INCISE=) are not supported: skipped');
        this.warnedIncision = true;
        i += 2;
      } else i++;
    }
  }

  /** ADD= <kind> <n> [Ancestors a0 a1 ...] with the values on the next line. */
  private add(words: string[], values: number[]): void {
    const kind = words[0] ?? '';
    const n = Math.max(0, Math.floor(Number(words[1]) || 0));
    const take = (k: number): number[] => Array.from({ length: n * k }, (_, i) => values[i] ?? 0);
    switch (kind) {
      case 'PointInTriangle':
      case 'PointsInTriangle': {
        const topo = this.topo!;
        const tri = topo.getTriangles();
        const ancestors: number[][] = [];
        const coefs: number[][] = [];
        for (let i = 0; i < n; i++) {
          const t = values[3 * i] ?? 0;
          const b0 = values[3 * i + 1] ?? 0;
          const b1 = values[3 * i + 2] ?? 0;
          if (3 * t + 2 >= tri.length)
            throw this.error(`PointsInTriangle: triangle ${t} does not exist (the topology has ${tri.length / 3})`);
          ancestors.push([tri[3 * t], tri[3 * t + 1], tri[3 * t + 2]]);
          coefs.push([b0, b1, 1 - b0 - b1]);
        }
        this.modifier(TriangleSetTopologyModifier, 'TriangleSetTopologyModifier').addPoints(n, ancestors, coefs, true);
        return;
      }
      case 'Edge':
      case 'Edges':
        return this.modifier(EdgeSetTopologyModifier, 'EdgeSetTopologyModifier').addEdges(take(2));
      case 'Triangle':
      case 'Triangles': {
        const token = words[2];
        let ancestors: number[][] | undefined;
        if (token === 'Ancestors' || token === 'Ancestor') ancestors = Array.from({ length: n }, (_, i) => [Number(words[3 + i]) || 0]);
        return this.modifier(TriangleSetTopologyModifier, 'TriangleSetTopologyModifier').addTriangles(
          take(3),
          ancestors,
          ancestors ? ancestors.map(() => []) : undefined,
        );
      }
      case 'Quad':
      case 'Quads':
        return this.modifier(QuadSetTopologyModifier, 'QuadSetTopologyModifier').addQuads(take(4));
      case 'Tetrahedron':
      case 'Tetrahedra':
        return this.modifier(TetrahedronSetTopologyModifier, 'TetrahedronSetTopologyModifier').addTetrahedra(take(4));
      case 'Hexahedron':
      case 'Hexahedra':
        return this.modifier(HexahedronSetTopologyModifier, 'HexahedronSetTopologyModifier').addHexahedra(take(8));
      default:
        this.warn(
          `ADD= '${kind}' is not a kind of element this processor adds (Edges, Triangles, Quads, Tetrahedra, Hexahedra, PointsInTriangle): skipped`,
        );
    }
  }

  /** With useDataInputs: the lists are removed once the time passes timeToRemove. */
  private removeDataLists(time: number): void {
    if (this.timeToRemove.value >= time) return;
    const lists: Array<[Uint32Array, ModifierClass<PointSetTopologyModifier>, string]> = [
      [this.hexahedraToRemove.value, HexahedronSetTopologyModifier, 'HexahedronSetTopologyModifier'],
      [this.tetrahedraToRemove.value, TetrahedronSetTopologyModifier, 'TetrahedronSetTopologyModifier'],
      [this.quadsToRemove.value, QuadSetTopologyModifier, 'QuadSetTopologyModifier'],
      [this.trianglesToRemove.value, TriangleSetTopologyModifier, 'TriangleSetTopologyModifier'],
      [this.edgesToRemove.value, EdgeSetTopologyModifier, 'EdgeSetTopologyModifier'],
      [this.pointsToRemove.value, PointSetTopologyModifier, 'PointSetTopologyModifier'],
    ];
    for (const [ids, cls, name] of lists) if (ids.length > 0) this.modifier(cls, name).removeItems(Array.from(ids));
    // next removal after `interval`, else never again
    this.timeToRemove.value = this.interval.value !== 0 ? this.timeToRemove.value + this.interval.value : Number.POSITIVE_INFINITY;
  }

  /** The first modifier of the given class in the topology's node, else above (SOFA's context lookup). */
  private modifier<M extends PointSetTopologyModifier>(cls: ModifierClass<M>, name: string): M {
    const topo = this.topo!;
    for (let n = topo.hasContext ? topo.context : undefined; n; n = n.parent) {
      const m = n.objects.find((o): o is M => o instanceof cls);
      if (m) return m;
    }
    throw this.error(`no ${name} next to the topology ${topo.describe()}`, `add <${name}/> to the node of the topology container`);
  }
}

function numbers(line: string | undefined): number[] {
  if (line === undefined) return [];
  const out: number[] = [];
  for (const w of line.trim().split(/\s+/)) {
    if (w === '') continue;
    const v = Number(w);
    if (!Number.isFinite(v)) break;
    out.push(v);
  }
  return out;
}
