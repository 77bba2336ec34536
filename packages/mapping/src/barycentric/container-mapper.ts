import type { BaseMeshTopology } from '@sofa-ts/core';
import { BarycentricMapBuilder, type BarycentricMap } from './barycentric-map.js';
import { addElementTerms, elementFrames, elementScore, nodesPerElement, type ElementKind } from './elements.js';
import { MapperError } from './mesh-mapper.js';

/** The elements of one kind of a topology. */
export function elementsOf(topo: BaseMeshTopology, kind: ElementKind): Uint32Array {
  switch (kind) {
    case 'hexahedron':
      return topo.getHexahedra();
    case 'tetrahedron':
      return topo.getTetrahedra();
    case 'quad':
      return topo.getQuads();
    case 'triangle':
      return topo.getTriangles();
    case 'edge':
      return topo.getEdges();
  }
}

/**
 * SOFA's BarycentricMapperTopologyContainer (the mappers of the *SetTopologyContainer topologies:
 * one element kind, chosen by the caller). The search for each output point is accelerated by a
 * spatial hash of cell size h = the mean edge length: every element is registered in the cells its
 * bounding box covers. A point is first tested against the elements of its own cell; with none
 * there, against every element; when the best score's magnitude exceeds h/2, against the elements
 * of the 27 surrounding cells too. Scores as in SOFA (see outsideMeasure): ≤ 0 inside, else the
 * squared distance to the element's centre; the first best wins.
 * Edge sets (where SOFA's mapper computes no coordinates) project the point on the nearest segment
 * and keep the unclamped coordinate along it.
 */
export function containerMapper(
  kind: ElementKind,
  topo: BaseMeshTopology,
  xin: Float64Array,
  xout: Float64Array,
  nOut: number,
): BarycentricMap {
  const elems = elementsOf(topo, kind);
  const k = nodesPerElement[kind];
  const nEl = elems.length / k;
  if (nEl === 0) throw new MapperError(`the input topology has no ${kind} elements`);
  const nIn = xin.length / 3;

  // Cell size: mean edge length (of the topology's edges, else of each element's first edge).
  const edges = topo.getEdges();
  let sum = 0;
  let count = 0;
  const dist = (a: number, c: number): number =>
    Math.sqrt((xin[3 * a] - xin[3 * c]) ** 2 + (xin[3 * a + 1] - xin[3 * c + 1]) ** 2 + (xin[3 * a + 2] - xin[3 * c + 2]) ** 2);
  if (edges.length > 0) {
    for (let e = 0; e < edges.length / 2; e++) sum += dist(edges[2 * e], edges[2 * e + 1]);
    count = edges.length / 2;
  } else {
    for (let e = 0; e < nEl; e++) sum += dist(elems[e * k], elems[e * k + 1]);
    count = nEl;
  }
  const cell = sum / count;
  const conv = 1 / cell;
  const key = (i: number, j: number, l: number): string => `${i},${j},${l}`;

  // Hash of element bounding boxes.
  const table = new Map<string, number[]>();
  for (let e = 0; e < nEl; e++) {
    const lo = [Infinity, Infinity, Infinity];
    const hi = [-Infinity, -Infinity, -Infinity];
    for (let j = 0; j < k; j++) {
      const q = 3 * elems[e * k + j];
      for (let a = 0; a < 3; a++) {
        lo[a] = Math.min(lo[a], xin[q + a]);
        hi[a] = Math.max(hi[a], xin[q + a]);
      }
    }
    const i0 = lo.map((v) => Math.floor(v * conv));
    const i1 = hi.map((v) => Math.floor(v * conv));
    for (let a = i0[0]; a <= i1[0]; a++) {
      for (let c = i0[1]; c <= i1[1]; c++) {
        for (let d = i0[2]; d <= i1[2]; d++) {
          const kk = key(a, c, d);
          let list = table.get(kk);
          if (!list) table.set(kk, (list = []));
          list.push(e);
        }
      }
    }
  }

  // Bases and centres.
  const B = new Float64Array(9 * nEl);
  const C = new Float64Array(3 * nEl);
  elementFrames(B, C, kind, xin, elems, nEl);

  const b = new BarycentricMapBuilder();
  const f = new Float64Array(3);
  let best = Number.MAX_VALUE;
  let bestEl = -1;
  let b0 = 0,
    b1 = 0,
    b2 = 0;
  let px = 0,
    py = 0,
    pz = 0;
  const check = (e: number): void => {
    let d: number;
    if (kind === 'edge') {
      const a = 3 * elems[2 * e],
        c = 3 * elems[2 * e + 1];
      const ux = xin[c] - xin[a],
        uy = xin[c + 1] - xin[a + 1],
        uz = xin[c + 2] - xin[a + 2];
      const uu = ux * ux + uy * uy + uz * uz;
      const t = uu > 0 ? (ux * (px - xin[a]) + uy * (py - xin[a + 1]) + uz * (pz - xin[a + 2])) / uu : 0;
      const tc = Math.min(1, Math.max(0, t));
      d = (px - xin[a] - tc * ux) ** 2 + (py - xin[a + 1] - tc * uy) ** 2 + (pz - xin[a + 2] - tc * uz) ** 2;
      f[0] = t;
      f[1] = 0;
      f[2] = 0;
    } else {
      d = elementScore(f, kind, B, C, xin, elems, e, px, py, pz);
    }
    if (d < best) {
      best = d;
      bestEl = e;
      b0 = f[0];
      b1 = f[1];
      b2 = f[2];
    }
  };
  for (let i = 0; i < nOut; i++) {
    px = xout[3 * i];
    py = xout[3 * i + 1];
    pz = xout[3 * i + 2];
    best = Number.MAX_VALUE;
    bestEl = -1;
    const gx = Math.floor(px * conv),
      gy = Math.floor(py * conv),
      gz = Math.floor(pz * conv);
    for (const e of table.get(key(gx, gy, gz)) ?? []) check(e);
    if (bestEl < 0) {
      for (let e = 0; e < nEl; e++) check(e);
    } else if (Math.abs(best) > cell / 2) {
      for (let a = -1; a <= 1; a++) {
        for (let c = -1; c <= 1; c++) {
          for (let d = -1; d <= 1; d++) for (const e of table.get(key(gx + a, gy + c, gz + d)) ?? []) check(e);
        }
      }
    }
    if (bestEl < 0) throw new MapperError(`output point ${i} (${px} ${py} ${pz}) could not be located in the input topology`);
    addElementTerms(b, kind, elems, bestEl, b0, b1, b2, false);
  }
  return b.build(nIn);
}
