import { host, sofaComponent } from '@sofa-ts/core';
import { MeshLoader, type MeshBuffers } from './MeshLoader.js';
import { TextScanner, lineTokens } from './text-scanner.js';

/** Vertices per Gmsh element type, for the types SOFA reads (others are skipped). */
const nodesPerType: Record<number, number> = { 1: 2, 2: 3, 3: 4, 4: 4, 5: 8, 6: 6, 8: 3, 9: 6, 11: 10, 15: 1 };

/** Edges of a quadratic triangle and tetrahedron, in Gmsh's order of their mid-edge nodes. */
const quadraticTriangleEdges = [
  [0, 1],
  [1, 2],
  [2, 0],
] as const;
const quadraticTetrahedronEdges = [
  [0, 1],
  [1, 2],
  [0, 2],
  [0, 3],
  [2, 3],
  [1, 3],
] as const;

/**
 * SOFA's MeshGmshLoader: reads Gmsh .msh files, ASCII versions 1 (`$NOD`/`$ELM`), 2 and 4.1
 * (`$MeshFormat`, `$Nodes`, `$Elements`). Element types 1 (edge), 2 (triangle), 3 (quad),
 * 4 (tetrahedron), 5 (hexahedron) are kept, with the first-order part of 8, 9 and 11 (quadratic
 * edge, triangle, tetrahedron) plus their mid-edge points; other types are skipped.
 *
 * Node numbering as SOFA: points are stored in file order. In versions 1 and 2 an element's node
 * numbers are mapped through the node numbers of the `$Nodes` section (holes and shuffles
 * allowed; an unknown number maps to point 0); tags (physical and elementary regions) are read
 * and ignored. In version 4 node tags are ignored and element node number k means point k−1.
 * Unless the scene sets createSubelements, Gmsh meshes get their boundary sub-elements (the
 * triangles and edges of tetrahedra, ...), as in SOFA.
 */
@sofaComponent({
  name: 'MeshGmshLoader',
  category: 'Loader',
  module: 'Sofa.Component.IO.Mesh',
  description: 'Specific mesh loader for Gmsh file format.',
})
export class MeshGmshLoader extends MeshLoader {
  protected readMesh(path: string, out: MeshBuffers): void {
    const s = new TextScanner(host().readText(path, 'latin1'), path);
    const first = s.readLine();
    let version: number;
    if (first !== undefined && first.startsWith('$MeshFormat')) {
      const v = s.readLine();
      const major = v === undefined ? NaN : Number.parseInt(v.trim(), 10);
      if (!Number.isFinite(major)) throw s.fail(`expected the format version (e.g. '2.2 0 8'), found '${v ?? ''}'`);
      const tokens = lineTokens(v!);
      if (tokens[1] !== undefined && tokens[1] !== '0')
        throw s.fail('binary Gmsh files are not supported (file-type 1): save the mesh as ASCII');
      version = major;
      const end = s.readLine();
      if (end === undefined || !end.startsWith('$EndMeshFormat'))
        throw s.fail(`expected '$EndMeshFormat', found '${end ?? 'the end of the file'}'`);
      // Other sections may come before $Nodes in recent versions.
      for (;;) {
        const l = s.readLine();
        if (l === undefined) throw s.fail('reached the end of the file without finding the $Nodes section', 0);
        if (l.startsWith('$Nodes')) break;
      }
    } else if (first !== undefined && first.startsWith('$NOD')) {
      version = 1;
    } else {
      // Not quoted: the file may be anything (a scene must not make sofa-ts print another file's content).
      throw s.fail(`not a Gmsh file: the first line is not '$MeshFormat' or '$NOD'`, 1);
    }
    if (!this.createSubelements.isSet) this.createSubelements.value = true;
    if (version <= 2) this.readV1V2(s, version, out);
    else if (version === 4) this.readV4(s, out);
    else throw s.fail(`Gmsh format version ${version} is not supported (versions 1, 2 and 4.1 are)`, 2);
  }

  /** Versions 1 and 2: token stream, node numbers mapped through the $Nodes section. */
  private readV1V2(s: TextScanner, version: number, out: MeshBuffers): void {
    const npoints = s.int('the number of nodes');
    // Node number → point; a map, since a node number may be as large as the file likes.
    const pmap = new Map<number, number>();
    for (let i = 0; i < npoints; i++) {
      const index = s.int(`the number of node ${i + 1}`);
      const x = s.number('x'),
        y = s.number('y'),
        z = s.number('z');
      out.positions.push(x, y, z);
      if (index >= 0) pmap.set(index, i);
    }
    const endNodes = s.expectToken("'$ENDNOD' or '$EndNodes'");
    if (!endNodes.startsWith('$ENDNOD') && !endNodes.startsWith('$EndNodes'))
      throw s.fail(`expected '$ENDNOD' or '$EndNodes' after ${npoints} nodes, found '${endNodes}'`);
    const elm = s.expectToken("'$ELM' or '$Elements'");
    if (!elm.startsWith('$ELM') && !elm.startsWith('$Elements')) throw s.fail(`expected '$ELM' or '$Elements', found '${elm}'`);
    const nelems = s.int('the number of elements');
    for (let i = 0; i < nelems; i++) {
      s.int(`the number of element ${i + 1}`);
      const etype = s.int('the element type');
      let nnodes: number;
      if (version === 1) {
        s.int('the physical region');
        s.int('the elementary region');
        nnodes = s.int('the number of nodes of the element');
      } else {
        const ntags = s.int('the number of tags');
        for (let t = 0; t < ntags; t++) s.int('a tag');
        nnodes = nodesPerType[etype] ?? 0;
        if (etype === 6) nnodes = 0; // SOFA's version-2 reader does not know prisms: the line is skipped.
      }
      const nodes: number[] = [];
      for (let n = 0; n < nnodes; n++) {
        const t = s.int('a node number');
        nodes.push(pmap.get(t) ?? 0);
      }
      // As in SOFA's version 1-2 reader, quadratic edges are made unique within an element only.
      if (!this.addElement(etype, nodes, out, new Set<string>())) {
        // Unhandled type: the rest of its line is skipped.
        s.readLine();
      }
    }
    const end = s.token();
    if (end === undefined || (!end.startsWith('$ENDELM') && !end.startsWith('$EndElements'))) {
      throw s.fail(`expected '$ENDELM' or '$EndElements' after ${nelems} elements, found '${end ?? 'the end of the file'}'`);
    }
  }

  /** Version 4.1: entity blocks of nodes (tags, then coordinates) and of elements. */
  private readV4(s: TextScanner, out: MeshBuffers): void {
    const header = lineTokens(s.readLine() ?? '');
    if (header.length < 2) throw s.fail('expected the $Nodes header: numEntityBlocks numNodes minNodeTag maxNodeTag');
    const nblocks = intOf(s, header[0], 'the number of node blocks');
    for (let b = 0; b < nblocks; b++) {
      const h = lineTokens(s.readLine() ?? '');
      if (h.length < 4) throw s.fail('expected a node block header: entityDim entityTag parametric numNodesInBlock');
      const n = intOf(s, h[3], 'the number of nodes in the block');
      for (let i = 0; i < n; i++) if (s.readLine() === undefined) throw s.fail('the file ends inside a node block');
      for (let i = 0; i < n; i++) {
        const c = lineTokens(s.readLine() ?? '');
        if (c.length < 3) throw s.fail('expected node coordinates x y z');
        // Parametric coordinates, when present, follow x y z and are ignored.
        out.positions.push(realOf(s, c[0], 'x'), realOf(s, c[1], 'y'), realOf(s, c[2], 'z'));
      }
    }
    const endNodes = s.readLine();
    if (endNodes === undefined || !endNodes.startsWith('$EndNodes'))
      throw s.fail(`expected '$EndNodes', found '${endNodes ?? 'the end of the file'}'`);
    const elements = s.readLine();
    if (elements === undefined || !elements.startsWith('$Elements'))
      throw s.fail(`expected '$Elements', found '${elements ?? 'the end of the file'}'`);
    const eh = lineTokens(s.readLine() ?? '');
    const eblocks = intOf(s, eh[0] ?? '', 'the number of element blocks');
    const edgeKeys = new Set<string>();
    for (let b = 0; b < eblocks; b++) {
      const h = lineTokens(s.readLine() ?? '');
      if (h.length < 4) throw s.fail('expected an element block header: entityDim entityTag elementType numElementsInBlock');
      const etype = intOf(s, h[2], 'the element type');
      const count = intOf(s, h[3], 'the number of elements in the block');
      const nnodes = nodesPerType[etype] ?? 0;
      for (let i = 0; i < count; i++) {
        const l = s.readLine();
        if (l === undefined) throw s.fail('the file ends inside an element block');
        const t = lineTokens(l);
        if (t.length < 1 + nnodes)
          throw s.fail(`expected an element tag and ${nnodes} node numbers (type ${etype}), found ${t.length} numbers`);
        const nodes: number[] = [];
        for (let k = 0; k < nnodes; k++) nodes.push(intOf(s, t[1 + k], 'a node number') - 1);
        this.addElement(etype, nodes, out, edgeKeys);
      }
    }
    const end = s.token();
    if (end === undefined || !end.startsWith('$EndElements'))
      throw s.fail(`expected '$EndElements', found '${end ?? 'the end of the file'}'`);
  }

  /** Adds one element of Gmsh type `etype`; false when the type is not one SOFA keeps. */
  private addElement(etype: number, v: number[], out: MeshBuffers, edgeKeys: Set<string>): boolean {
    switch (etype) {
      case 1:
        out.edges.push(v[0], v[1]);
        return true;
      case 2:
        this.addTriangle(out, v[0], v[1], v[2]);
        return true;
      case 3:
        this.addQuad(out, v[0], v[1], v[2], v[3]);
        return true;
      case 4:
        out.tetrahedra.push(v[0], v[1], v[2], v[3]);
        return true;
      case 5:
        out.hexahedra.push(...v.slice(0, 8));
        return true;
      case 8:
        out.edges.push(v[0], v[1]);
        out.highOrderEdgePositions.push(v[2], out.edges.length / 2 - 1, 1, 1);
        return true;
      case 9:
        this.addTriangle(out, v[0], v[1], v[2]);
        this.addQuadraticEdges(v, quadraticTriangleEdges, 3, out, edgeKeys);
        return true;
      case 11:
        out.tetrahedra.push(v[0], v[1], v[2], v[3]);
        this.addQuadraticEdges(v, quadraticTetrahedronEdges, 4, out, edgeKeys);
        return true;
      default:
        return false;
    }
  }

  /** The edges of a quadratic element, each with its mid-edge point (once per edge). */
  private addQuadraticEdges(
    v: number[],
    edges: readonly (readonly [number, number])[],
    firstMid: number,
    out: MeshBuffers,
    edgeKeys: Set<string>,
  ): void {
    edges.forEach(([a, b], j) => {
      const v0 = Math.min(v[a], v[b]),
        v1 = Math.max(v[a], v[b]);
      const k = `${v0},${v1}`;
      if (edgeKeys.has(k)) return;
      edgeKeys.add(k);
      out.edges.push(v0, v1);
      out.highOrderEdgePositions.push(v[firstMid + j], out.edges.length / 2 - 1, 1, 1);
    });
  }
}

function intOf(s: TextScanner, t: string, what: string): number {
  if (!/^[+-]?\d+$/.test(t)) throw s.fail(`expected ${what} (an integer), found '${t}'`);
  return Number(t);
}

function realOf(s: TextScanner, t: string, what: string): number {
  const v = Number(t);
  if (t.trim() === '' || !Number.isFinite(v)) throw s.fail(`expected ${what} (a number), found '${t}'`);
  return v;
}
