import {
  contactPointPosition,
  contextMeshTopology,
  findDataFile,
  type ContactPointSet,
  isForceField,
  isMechanicalState,
  isTopology,
  type BaseMechanicalState,
  type BaseObject,
  type Node,
} from '@sofa-ts/core';
import { materialDiffuse, parseColor, type Rgba } from './colors.js';
import { applyDisplayFlags, defaultDisplayFlags, type DisplayFlags } from './display-flags.js';

/** Which display flag shows an item. */
export type DrawCategory = 'visual' | 'behavior' | 'forcefield' | 'interaction' | 'collision' | 'contact';

/**
 * Something the page draws, described once (indices, colors) and updated per frame (positions).
 *   mesh:    triangles (indices nT × 3) over points (n × 3), optional texcoords (n × 2)
 *   lines:   segments (indices nE × 2) over points (n × 3)
 *   points:  points (n × 3), `size` in scene units (sphere radius for sphere collision models)
 *   frames:  rigid frames (n × 7: position, quaternion x y z w), drawn as axes of length `size`
 */
export interface DrawItemInfo {
  id: number;
  /** Scene path of the component drawn (`/Liver/Visu/VisualModel`). */
  path: string;
  category: DrawCategory;
  kind: 'mesh' | 'lines' | 'points' | 'frames';
  color: Rgba;
  indices?: Uint32Array;
  texcoords?: Float32Array;
  /** Texture file (a scene data file path) for a mesh with texcoords. */
  texture?: string;
  /** Point radius or frame axis length (scene units); 0: the page chooses from the scene size. */
  size: number;
  /** Per-point radii of a sphere collision model (n), when they differ. */
  radii?: Float32Array;
  wireframe: boolean;
}

/** A draw item and how to read its positions at each frame. */
export interface DrawItem extends DrawItemInfo {
  /** Number of floats of one point in `read()` (3, or 7 for frames). */
  stride: number;
  /** Current coordinates (n × stride). */
  read(): ArrayLike<number>;
  /** For two-state interaction springs: the second state's coordinates, points appended after read(). */
  read2?: () => ArrayLike<number>;
}

function objectPath(o: BaseObject): string {
  const n = o.context.path;
  return `${n === '/' ? '' : n}/${o.getName()}`;
}

/** Display flags of every node: the VisualStyle of the node or its nearest ancestor that has one. */
export function nodeDisplayFlags(root: Node, warn: (message: string) => void = () => {}): Map<Node, DisplayFlags> {
  const out = new Map<Node, DisplayFlags>();
  const visit = (n: Node, inherited: DisplayFlags): void => {
    let flags = inherited;
    for (const o of n.objects) {
      if (o.className !== 'VisualStyle') continue;
      const r = applyDisplayFlags(flags, String(o.findData('displayFlags')?.value ?? ''));
      flags = r.flags;
      if (r.unknown.length > 0) warn(`${o.describe()}: unknown display flags ${r.unknown.join(' ')}`);
    }
    out.set(n, flags);
    for (const c of n.children) visit(c, flags);
  };
  visit(root, defaultDisplayFlags);
  return out;
}

const f32 = (a: ArrayLike<number>): Float32Array => Float32Array.from(a as ArrayLike<number>);

/** Triangles of a surface: its triangles, then its quads cut in two (0 1 2, 0 2 3). */
function surfaceTriangles(tri: Uint32Array, quads: Uint32Array): Uint32Array {
  const out = new Uint32Array(tri.length + (quads.length / 4) * 6);
  out.set(tri);
  let o = tri.length;
  for (let q = 0; q < quads.length; q += 4) {
    ((out[o++] = quads[q]), (out[o++] = quads[q + 1]), (out[o++] = quads[q + 2]));
    ((out[o++] = quads[q]), (out[o++] = quads[q + 2]), (out[o++] = quads[q + 3]));
  }
  return out;
}

function isVisualModel(o: BaseObject): boolean {
  const info = (o.constructor as { componentInfo?: { category?: string } }).componentInfo;
  const pos = o.findData('position')?.value;
  return (
    (info?.category === 'Visual' || /^(Ogl|Visual)Model$/.test(o.className)) &&
    pos instanceof Float64Array &&
    o.findData('triangles') !== undefined
  );
}

/** The collision models the viewer knows by their SOFA names. */
const collisionKinds: Record<string, 'mesh' | 'lines' | 'points' | 'spheres'> = {
  TriangleCollisionModel: 'mesh',
  TriangleModel: 'mesh',
  Triangle: 'mesh',
  TriangleModelInRegularGrid: 'mesh',
  LineCollisionModel: 'lines',
  LineModel: 'lines',
  Line: 'lines',
  PointCollisionModel: 'points',
  PointModel: 'points',
  Point: 'points',
  SphereCollisionModel: 'spheres',
  SphereModel: 'spheres',
  Sphere: 'spheres',
};

/**
 * Collects what a scene shows (after init): visual models, mechanical states (points; rigid
 * frames as axes), force fields (springs, element edges), interaction springs, collision models.
 * Every item is returned with its category; the page shows those its node's flags enable.
 */
export function collectDrawItems(
  root: Node,
  warn: (message: string) => void = () => {},
): { items: DrawItem[]; flags: Map<Node, DisplayFlags> } {
  const flags = nodeDisplayFlags(root, warn);
  const items: DrawItem[] = [];
  const add = (it: Omit<DrawItem, 'id' | 'wireframe'>, node: Node): void => {
    items.push({ ...it, id: items.length, wireframe: flags.get(node)?.showWireframe ?? false });
  };
  root.visit((node) => {
    for (const o of node.objects) {
      const path = objectPath(o);
      if (isVisualModel(o)) {
        const pos = o.findData('position')!;
        const tri = (o.findData('triangles')?.value as Uint32Array | undefined) ?? new Uint32Array(0);
        const quads = (o.findData('quads')?.value as Uint32Array | undefined) ?? new Uint32Array(0);
        const color = parseColor(String(o.findData('color')?.value ?? '')) ??
          materialDiffuse(String(o.findData('material')?.value ?? '')) ?? [0.8, 0.8, 0.8, 1];
        const tc = o.findData('texcoords')?.value as Float64Array | undefined;
        const name = String(o.findData('texturename')?.value ?? '');
        // the texture file, found as SOFA finds data files; used when there is one texture coordinate per point
        const texture = name && tc && tc.length / 2 === (pos.value as Float64Array).length / 3 ? findDataFile(o, name) : undefined;
        if (name && !texture)
          warn(
            `${o.describe()}: texture '${name}' not shown (${tc && tc.length / 2 === (pos.value as Float64Array).length / 3 ? 'file not found' : 'no texture coordinate per point'})`,
          );
        add(
          {
            path,
            category: 'visual',
            kind: 'mesh',
            color,
            indices: surfaceTriangles(tri, quads),
            size: 0,
            stride: 3,
            ...(texture ? { texcoords: f32(tc!), texture } : {}),
            read: () => pos.value as Float64Array,
          },
          node,
        );
      } else if (isMechanicalState(o)) {
        const s = o as BaseMechanicalState;
        const t = s.stateType;
        if (t.name.startsWith('Rigid3'))
          add({ path, category: 'behavior', kind: 'frames', color: [1, 1, 1, 1], size: 0, stride: 7, read: () => s.x }, node);
        else if (t.coordSize === 3)
          add({ path, category: 'behavior', kind: 'points', color: [0.9, 0.9, 0.2, 1], size: 0, stride: 3, read: () => s.x }, node);
      } else if (isForceField(o)) {
        const states = o.getMechanicalStates();
        const springs = o.findData('spring')?.value;
        if (
          springs instanceof Float64Array &&
          springs.length > 0 &&
          states.length >= 1 &&
          states.every((s) => s.stateType.coordSize === 3)
        ) {
          // springs: (n × 5) = i, j, ks, kd, l0; two states → j indexes the second one (after the first's points)
          const n1 = states.length === 2 ? states[0].size : 0;
          const idx = new Uint32Array((springs.length / 5) * 2);
          for (let k = 0; k < springs.length / 5; k++) {
            idx[2 * k] = springs[5 * k];
            idx[2 * k + 1] = springs[5 * k + 1] + n1;
          }
          const s0 = states[0],
            s1 = states[1];
          add(
            {
              path,
              category: states.length === 2 && s0 !== s1 ? 'interaction' : 'forcefield',
              kind: 'lines',
              color: [0.2, 0.9, 0.9, 1],
              indices: idx,
              size: 0,
              stride: 3,
              read: () => s0.x,
              ...(s1 && n1 > 0 ? { read2: () => s1.x } : {}),
            },
            node,
          );
          continue;
        }
        if (states.length !== 1 || states[0].stateType.coordSize !== 3 || o.className === 'MouseSpringForceField') continue;
        const topo = contextMeshTopology(node);
        if (!topo || !/FEM|Springs|Elastic|Corotational/.test(o.className)) continue;
        const edges = topo.getEdges();
        if (edges.length === 0) continue;
        const s = states[0];
        add(
          {
            path,
            category: 'forcefield',
            kind: 'lines',
            color: [0.3, 0.3, 1, 1],
            indices: Uint32Array.from(edges),
            size: 0,
            stride: 3,
            read: () => s.x,
          },
          node,
        );
      } else {
        const kind = collisionKinds[o.className];
        if (!kind) continue;
        const s = node.getObject(isMechanicalState, 'local');
        if (!s || (s.stateType.coordSize !== 3 && !s.stateType.name.startsWith('Rigid3'))) continue;
        const color = parseColor(String(o.findData('color')?.value ?? '')) ?? [1, 0, 0, 1];
        const stride = s.stateType.coordSize;
        if (kind === 'spheres') {
          const list = o.findData('listRadius')?.value as Float64Array | undefined;
          const r = Number(o.findData('radius')?.value ?? 1);
          add(
            {
              path,
              category: 'collision',
              kind: 'points',
              color,
              size: r,
              ...(list && list.length > 0 ? { radii: f32(list) } : {}),
              stride,
              read: () => s.x,
            },
            node,
          );
        } else if (kind === 'points') {
          add({ path, category: 'collision', kind: 'points', color, size: 0, stride, read: () => s.x }, node);
        } else {
          const topo = contextMeshTopology(node) ?? node.getObject(isTopology, 'local');
          if (!topo) continue;
          const idx = kind === 'mesh' ? surfaceTriangles(topo.getTriangles(), topo.getQuads()) : Uint32Array.from(topo.getEdges());
          if (idx.length === 0) continue;
          if (stride !== 3) continue;
          add(
            {
              path,
              category: 'collision',
              kind: kind === 'mesh' ? 'mesh' : 'lines',
              color,
              indices: idx,
              size: 0,
              stride,
              read: () => s.x,
            },
            node,
          );
          items[items.length - 1].wireframe = true;
        }
      }
    }
  });
  const contacts = contactItem(root);
  if (contacts) items.push({ ...contacts, id: items.length, wireframe: false });
  return { items, flags };
}

interface PenaltyContacts {
  className: string;
  sides: [ContactPointSet, ContactPointSet];
  count: number;
  normal: Float64Array;
  ks: Float64Array;
  pen: Float64Array;
  object1: { get(): BaseMechanicalState | undefined };
  object2: { get(): BaseMechanicalState | undefined };
}
interface LagrangianContacts {
  contactGeometry: { count: number; P: Float64Array; Q: Float64Array; normal: Float64Array; row: Int32Array };
}
interface ConstraintSolverLike {
  isConstraintSolver: true;
  problem: { n: number; force: Float64Array };
}

/**
 * Contacts, drawn as segments that change every step: for each contact the segment between its
 * two points (penalty contacts: the points now; Lagrangian contacts: at detection), then its
 * force along the normal (penalty: k·penetration; Lagrangian: λ_n of the constraint solver),
 * scaled so that the largest is a tenth of the scene's size. Contact components are created
 * during the steps, so they are looked up at each frame.
 */
function contactItem(root: Node): Omit<DrawItem, 'id' | 'wireframe'> | undefined {
  let hasCollision = false;
  let solver: ConstraintSolverLike | undefined;
  let size = 0;
  root.visit((n) => {
    for (const o of n.objects) {
      if (collisionKinds[o.className]) hasCollision = true;
      if ((o as { isConstraintSolver?: boolean }).isConstraintSolver) solver ??= o as unknown as ConstraintSolverLike;
      if (isMechanicalState(o) && o.stateType.coordSize === 3) for (let i = 0; i < o.x.length; i++) size = Math.max(size, Math.abs(o.x[i]));
    }
  });
  if (!hasCollision && !solver) return undefined;
  const p = new Float64Array(3),
    q = new Float64Array(3);
  const read = (): Float64Array => {
    const seg: number[] = [];
    const forces: [number, number, number, number, number, number, number][] = [];
    root.visit((n) => {
      for (const o of n.objects) {
        if (o.className === 'PenalityContactForceField') {
          const c = o as unknown as PenaltyContacts;
          const s1 = c.object1.get(),
            s2 = c.object2.get();
          if (!s1 || !s2) continue;
          for (let k = 0; k < c.count; k++) {
            contactPointPosition(p, 0, s1.x, c.sides[0], k);
            contactPointPosition(q, 0, s2.x, c.sides[1], k);
            seg.push(p[0], p[1], p[2], q[0], q[1], q[2]);
            forces.push([q[0], q[1], q[2], c.normal[3 * k], c.normal[3 * k + 1], c.normal[3 * k + 2], c.ks[k] * Math.max(0, c.pen[k])]);
          }
        } else if ((o as unknown as Partial<LagrangianContacts>).contactGeometry) {
          const g = (o as unknown as LagrangianContacts).contactGeometry;
          for (let k = 0; k < g.count; k++) {
            const b = 3 * k;
            seg.push(g.Q[b], g.Q[b + 1], g.Q[b + 2], g.P[b], g.P[b + 1], g.P[b + 2]);
            const r = g.row[k];
            const lambda = solver && r < solver.problem.n ? solver.problem.force[r] : 0;
            forces.push([g.P[b], g.P[b + 1], g.P[b + 2], g.normal[b], g.normal[b + 1], g.normal[b + 2], lambda]);
          }
        }
      }
    });
    let fmax = 0;
    for (const f of forces) fmax = Math.max(fmax, Math.abs(f[6]));
    const scale = fmax > 0 ? (0.1 * Math.max(size, 1e-9)) / fmax : 0;
    for (const [x, y, z, nx, ny, nz, f] of forces)
      if (f !== 0) seg.push(x, y, z, x + scale * f * nx, y + scale * f * ny, z + scale * f * nz);
    return Float64Array.from(seg);
  };
  return { path: '(contacts)', category: 'contact', kind: 'lines', color: [1, 0.3, 0.2, 1], size: 0, stride: 3, read };
}

/** The item descriptions sent once to the page (no functions). */
export function describeItems(
  items: readonly DrawItem[],
  flags: Map<Node, DisplayFlags>,
  root: Node,
): { items: DrawItemInfo[]; shown: number[] } {
  const infos = items.map(({ read: _r, read2: _r2, stride: _s, ...info }) => info);
  const shown: number[] = [];
  const nodeOf = new Map<string, Node>();
  root.visit((n) => {
    for (const o of n.objects) nodeOf.set(objectPath(o), n);
  });
  for (const it of items) {
    const f = flags.get(nodeOf.get(it.path)!) ?? flags.get(root) ?? defaultDisplayFlags;
    const on =
      it.category === 'contact'
        ? f.showCollisionModels || f.showInteractionForceFields
        : it.category === 'visual'
          ? f.showVisualModels
          : it.category === 'behavior'
            ? f.showBehaviorModels
            : it.category === 'forcefield'
              ? f.showForceFields
              : it.category === 'interaction'
                ? f.showInteractionForceFields
                : f.showCollisionModels;
    if (on) shown.push(it.id);
  }
  return { items: infos, shown };
}

/** Copies every item's current coordinates into one Float32Array; offsets[i] is item i's start. */
export function packFrame(items: readonly DrawItem[]): { data: Float32Array; offsets: Uint32Array } {
  const offsets = new Uint32Array(items.length + 1);
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    offsets[i + 1] = offsets[i] + it.read().length + (it.read2 ? it.read2().length : 0);
  }
  const data = new Float32Array(offsets[items.length]);
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    const a = it.read();
    let o = offsets[i];
    for (let k = 0; k < a.length; k++) data[o++] = a[k];
    if (it.read2) {
      const b = it.read2();
      for (let k = 0; k < b.length; k++) data[o++] = b[k];
    }
  }
  return { data, offsets };
}
