/**
 * The faces and edges of a volume container that nobody read before its first change, made only
 * when someone reads them (TopologyContainer's lean mesh).
 *
 * SOFA's containers derive a mesh's triangles and edges at init and keep them up to date through
 * every change; sofa-ts derives them when first read. A removal of volumes (the common change:
 * cutting, carving) needs neither: the volumes, their shells around the vertices and the isolated
 * points are enough. So the first removal, when no face or edge was read, edits a mesh of the volumes
 * alone and records what it did. The first read of a face or an edge afterwards derives them from
 * the volumes as they were at the first change (SOFA's order) and replays the record on the full
 * mesh, which then holds exactly the lists the changes would have left in it (the volumes and
 * points are checked against the lean mesh's), and replaces it. A removal that takes points without
 * the faces and edges they isolate (which the full mesh removes with them, as dangling) and every
 * other kind of change work on the full mesh.
 */
import type { ElementKind } from '../container/topology-container.js';
import type { DynamicMesh } from './dynamic-mesh.js';

/** A change made on the lean mesh, in the order made (topology-modifier-ops.ts, removeVolumesProcess). */
export type LeanChange =
  | {
      readonly op: 'volumes';
      readonly kind: 'tetrahedron' | 'hexahedron';
      readonly sorted: Uint32Array;
      /** removeIsolatedItems: the faces and edges the volumes leave alone go too. */
      readonly isolatedItems: boolean;
      readonly isolatedPoints: boolean;
    }
  | { readonly op: 'points'; readonly sorted: Uint32Array };

/** What the full mesh is made from: the lists at the first change and the changes since. */
export interface DeferredSubElements {
  /** The volume kind the container holds. */
  readonly top: 'tetrahedron' | 'hexahedron';
  /** The kinds derived from the volumes when first read (faces, edges). */
  readonly kinds: readonly ElementKind[];
  /** The volumes at the first change (a copy), and the point count then. */
  readonly initial: Uint32Array;
  readonly nPoints: number;
  readonly log: LeanChange[];
}

/**
 * Applies the lean mesh's changes to the full mesh, as removeVolumesProcess does on a mesh with
 * faces and edges: the volumes removed with the faces and edges they isolate, then those faces and
 * edges (descending), and the points in their own entry.
 */
export function replayLeanChanges(mesh: DynamicMesh, log: readonly LeanChange[]): void {
  for (const c of log) {
    if (c.op === 'points') {
      mesh.removePoints(c.sorted);
      continue;
    }
    const face = c.kind === 'tetrahedron' ? 'triangle' : 'quad';
    const kinds = c.isolatedItems
      ? ([...(mesh.count(face) > 0 ? [face] : []), ...(mesh.count('edge') > 0 ? ['edge'] : [])] as ElementKind[])
      : [];
    const iso = mesh.removeElements(c.kind, c.sorted, kinds, c.isolatedPoints);
    const faces = descending(iso.subs.get(face));
    const edges = descending(iso.subs.get('edge'));
    if (faces.length > 0) mesh.removeElements(face, faces, [], false);
    if (edges.length > 0) mesh.removeElements('edge', edges, [], false);
  }
}

function descending(a: ArrayLike<number> | undefined): Uint32Array {
  return Uint32Array.from(a ?? [])
    .sort()
    .reverse();
}
