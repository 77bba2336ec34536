import type { BaseMeshTopology } from '@sofa-ts/core';
import { BarycentricMapBuilder, type BarycentricMap } from './barycentric-map.js';
import { addElementTerms, elementFrames, elementScore, nodesPerElement, type ElementKind } from './elements.js';

/** Why a mapper could not place the points: thrown as the component's error. */
export class MapperError extends Error {}

/**
 * SOFA's BarycentricMapperMeshTopology, for topologies that are neither set containers nor grids
 * (MeshTopology, GridTopology): every element is tested for every point.
 *   - volumes (tetrahedra, then hexahedra) when there are any,
 *   - else surfaces (triangles, then quads),
 *   - else edges.
 * Each point goes to the element with the smallest SOFA "distance": inside elements score ≤ 0
 * (deeper is better), outside ones the squared distance to their centre; the first element wins
 * ties. Local coordinates are not clamped, so points outside the mesh are extrapolated from the
 * nearest element. Edges: the first edge whose projection coordinate lies in [0, 1], else the last
 * edge with its (extrapolated) coordinate, as SOFA does.
 */
export function meshMapper(topo: BaseMeshTopology, xin: Float64Array, xout: Float64Array, nOut: number): BarycentricMap {
  const nIn = xin.length / 3;
  const b = new BarycentricMapBuilder();
  const tetras = topo.getTetrahedra();
  const hexas = topo.getHexahedra();
  if (tetras.length > 0 || hexas.length > 0) {
    locateNearest(
      b,
      [
        ['tetrahedron', tetras],
        ['hexahedron', hexas],
      ],
      xin,
      xout,
      nOut,
    );
    return b.build(nIn);
  }
  const triangles = topo.getTriangles();
  const quads = topo.getQuads();
  if (triangles.length > 0 || quads.length > 0) {
    locateNearest(
      b,
      [
        ['triangle', triangles],
        ['quad', quads],
      ],
      xin,
      xout,
      nOut,
    );
    return b.build(nIn);
  }
  const edges = topo.getEdges();
  if (edges.length === 0) throw new MapperError('the input topology has no elements (no hexahedra, tetrahedra, quads, triangles or edges)');
  const nE = edges.length / 2;
  const len = new Float64Array(nE);
  const unit = new Float64Array(3 * nE);
  for (let e = 0; e < nE; e++) {
    const a = 3 * edges[2 * e],
      c = 3 * edges[2 * e + 1];
    const dx = xin[c] - xin[a],
      dy = xin[c + 1] - xin[a + 1],
      dz = xin[c + 2] - xin[a + 2];
    const l = Math.sqrt(dx * dx + dy * dy + dz * dz);
    len[e] = l;
    const s = l > 0 ? l : 1;
    unit[3 * e] = dx / s;
    unit[3 * e + 1] = dy / s;
    unit[3 * e + 2] = dz / s;
  }
  for (let i = 0; i < nOut; i++) {
    let coef = 0;
    let chosen = nE - 1;
    for (let e = 0; e < nE; e++) {
      const a = 3 * edges[2 * e];
      coef =
        (unit[3 * e] * (xout[3 * i] - xin[a]) +
          unit[3 * e + 1] * (xout[3 * i + 1] - xin[a + 1]) +
          unit[3 * e + 2] * (xout[3 * i + 2] - xin[a + 2])) /
        len[e];
      if (coef >= 0 && coef <= 1) {
        chosen = e;
        break;
      }
    }
    addElementTerms(b, 'edge', edges, chosen, coef, 0, 0, true);
  }
  return b.build(nIn);
}

/** The exhaustive nearest-element search over one or two element families (in this order). */
function locateNearest(
  b: BarycentricMapBuilder,
  families: Array<[ElementKind, Uint32Array]>,
  xin: Float64Array,
  xout: Float64Array,
  nOut: number,
): void {
  const bases: Float64Array[] = [];
  const centers: Float64Array[] = [];
  const counts = families.map(([kind, elems]) => elems.length / nodesPerElement[kind]);
  families.forEach(([kind, elems], fam) => {
    const n = counts[fam];
    const B = new Float64Array(9 * n);
    const C = new Float64Array(3 * n);
    elementFrames(B, C, kind, xin, elems, n);
    bases.push(B);
    centers.push(C);
  });
  const f = new Float64Array(3);
  for (let i = 0; i < nOut; i++) {
    const px = xout[3 * i],
      py = xout[3 * i + 1],
      pz = xout[3 * i + 2];
    let best = 1e10;
    let bestFam = -1;
    let bestEl = -1;
    let b0 = 0,
      b1 = 0,
      b2 = 0;
    for (let fam = 0; fam < families.length; fam++) {
      const [kind, elems] = families[fam];
      const B = bases[fam];
      const C = centers[fam];
      for (let e = 0; e < counts[fam]; e++) {
        const d = elementScore(f, kind, B, C, xin, elems, e, px, py, pz);
        if (d < best) {
          best = d;
          bestFam = fam;
          bestEl = e;
          b0 = f[0];
          b1 = f[1];
          b2 = f[2];
        }
      }
    }
    if (bestFam < 0) throw new MapperError(`output point ${i} (${px} ${py} ${pz}) is too far from every element of the input topology`);
    const [kind, elems] = families[bestFam];
    addElementTerms(b, kind, elems, bestEl, b0, b1, b2, true);
  }
}
