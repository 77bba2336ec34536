import { Bool, DataEngine, IndexArray, Real, sofaComponent, UInt, Vec3 } from '@sofa-ts/core';
import { Reals, Vec3s } from '../engine-support.js';
import { checkGridSize } from '@sofa-ts/topology';

/**
 * SOFA's GenerateCylinder: a tetrahedral cylinder of axis z, radius R, height H, from `origin`, and
 * its triangulated lateral surface (closed with end caps unless openSurface).
 * Volume points, slice by slice (z_i = i·H/(nZ−1), i < nZ = resHeight): the axis point, then rings
 * j = 1 … nR (radius j·R/nR) of nθ points at angles k·2π/nθ (nR = resRadial, nθ = resCircumferential):
 * (nθ·nR + 1)·nZ points. Between two slices, each angular sector gives a prism around the axis cut
 * into 3 tetrahedra and nR − 1 hexahedra cut into 6: 3·nθ·(nZ−1) + 6·(nR−1)·nθ·(nZ−1) tetrahedra.
 * Surface points: the nθ·nZ points of the outer rings (then, closed, the centre and inner rings of
 * the two caps); 2·nθ·(nZ−1) lateral triangles (+ 2·nθ + 4·(nR−1)·nθ for the caps), oriented
 * outwards. Bézier degrees above 1 are not supported (refused).
 */
@sofaComponent({
  name: 'GenerateCylinder',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Generate',
  description: 'Generate a Cylindrical Tetrahedral Mesh.',
  templates: ['Vec3d'],
  defaultTemplate: 'Vec3d',
})
export class GenerateCylinder extends DataEngine {
  readonly outputTetrahedraPosition = this.initData({
    name: 'output_TetrahedraPosition',
    type: Vec3s,
    default: new Float64Array(0),
    help: 'points of the tetrahedral mesh',
    output: true,
    aliases: ['position', 'output_position'],
  });
  readonly outputTrianglesPosition = this.initData({
    name: 'output_TrianglesPosition',
    type: Vec3s,
    default: new Float64Array(0),
    help: 'points of the triangular surface',
    output: true,
  });
  readonly tetrahedra = this.initData({
    name: 'tetrahedra',
    type: IndexArray(4, 'vector<Tetrahedron>'),
    default: new Uint32Array(0),
    help: 'output mesh tetrahedra',
    output: true,
  });
  readonly triangles = this.initData({
    name: 'triangles',
    type: IndexArray(3, 'vector<Triangle>'),
    default: new Uint32Array(0),
    help: 'output triangular surface',
    output: true,
  });
  readonly bezierTriangleWeights = this.initData({
    name: 'BezierTriangleWeights',
    type: Reals,
    default: new Float64Array(0),
    help: 'weights of rational Bézier triangles (degree > 1 only: not supported)',
    output: true,
  });
  readonly bezierTriangleDegree = this.initData({
    name: 'BezierTriangleDegree',
    type: UInt,
    default: 0,
    help: 'order of the Bézier triangles (only ≤ 1 is supported)',
  });
  readonly bezierTetrahedronWeights = this.initData({
    name: 'BezierTetrahedronWeights',
    type: Reals,
    default: new Float64Array(0),
    help: 'weights of rational Bézier tetrahedra (degree > 1 only: not supported)',
    output: true,
  });
  readonly bezierTetrahedronDegree = this.initData({
    name: 'BezierTetrahedronDegree',
    type: UInt,
    default: 0,
    help: 'order of the Bézier tetrahedra (only ≤ 1 is supported)',
  });
  readonly radius = this.initData({ name: 'radius', type: Real, default: 0.2, help: 'cylinder radius' });
  readonly height = this.initData({ name: 'height', type: Real, default: 1, help: 'cylinder height' });
  readonly origin = this.initData({
    name: 'origin',
    type: Vec3,
    default: new Float64Array(3),
    help: 'cylinder origin point (centre of the bottom)',
  });
  readonly openSurface = this.initData({ name: 'openSurface', type: Bool, default: true, help: 'if the surface is open at its two ends' });
  readonly resCircumferential = this.initData({
    name: 'resCircumferential',
    type: UInt,
    default: 6,
    help: 'resolution in the circumferential direction',
  });
  readonly resRadial = this.initData({ name: 'resRadial', type: UInt, default: 3, help: 'resolution in the radial direction' });
  readonly resHeight = this.initData({
    name: 'resHeight',
    type: UInt,
    default: 5,
    help: 'resolution in the height direction (number of slices)',
  });

  constructor() {
    super();
    this.addInput(
      this.radius,
      this.height,
      this.origin,
      this.openSurface,
      this.resCircumferential,
      this.resRadial,
      this.resHeight,
      this.bezierTriangleDegree,
      this.bezierTetrahedronDegree,
    );
    this.addOutput(
      this.triangles,
      this.outputTrianglesPosition,
      this.bezierTriangleWeights,
      this.tetrahedra,
      this.outputTetrahedraPosition,
      this.bezierTetrahedronWeights,
    );
  }

  override init(): void {
    this.startUpdates();
  }

  protected updateOutputs(): void {
    if (this.bezierTetrahedronDegree.value > 1 || this.bezierTriangleDegree.value > 1)
      throw this.error('Bézier degrees above 1 are not supported', 'leave BezierTetrahedronDegree and BezierTriangleDegree unset');
    const R = this.radius.value,
      H = this.height.value,
      o = this.origin.value;
    const nT = this.resCircumferential.value,
      nR = this.resRadial.value,
      nZ = this.resHeight.value;
    if (nT < 3 || nR < 1 || nZ < 2)
      throw this.error(`resolutions ${nT} ${nR} ${nZ}: expected resCircumferential ≥ 3, resRadial ≥ 1, resHeight ≥ 2`);
    checkGridSize(this, [nT * nR + 1, nZ, 1], this.resHeight);
    const ring = (r: number, z: number, out: number[]): void => {
      for (let k = 0; k < nT; k++) {
        const th = (k * 2 * Math.PI) / nT;
        out.push(r * Math.cos(th) + o[0], r * Math.sin(th) + o[1], z + o[2]);
      }
    };
    // Volume points: axis point then rings, per slice.
    const pos: number[] = [];
    for (let i = 0; i < nZ; i++) {
      const z = (i * H) / (nZ - 1);
      pos.push(o[0], o[1], z + o[2]);
      for (let j = 1; j <= nR; j++) ring((j * R) / nR, z, pos);
    }
    const offZ = nT * nR + 1;
    const tet: number[] = [];
    for (let i = 1; i < nZ; i++) {
      let c0 = i * offZ;
      let prev = nT;
      for (let k = 1; k <= nT; k++) {
        // prism (axis, previous, current) over the slice below, in 3 tetrahedra
        const p = [c0, c0 + prev, c0 + k, c0 - offZ, c0 + prev - offZ, c0 + k - offZ];
        tet.push(p[1], p[0], p[2], p[3], p[1], p[2], p[4], p[3], p[3], p[4], p[5], p[2]);
        prev = k;
      }
      for (let j = 1; j < nR; j++) {
        prev = nT;
        for (let k = 1; k <= nT; k++) {
          const h = [c0 + k, c0 + prev, c0 + k + nT, c0 + prev + nT];
          h.push(h[0] - offZ, h[1] - offZ, h[2] - offZ, h[3] - offZ);
          const [h0, h1, h2, h3, h4, h5, h6, h7] = h as [number, number, number, number, number, number, number, number];
          tet.push(h0, h5, h4, h7, h0, h1, h5, h3, h5, h0, h3, h7, h0, h3, h7, h2, h7, h0, h2, h4, h6, h7, h2, h4);
          prev = k;
        }
        c0 += nT;
      }
    }
    this.outputTetrahedraPosition.value = Float64Array.from(pos);
    this.tetrahedra.value = Uint32Array.from(tet);

    // Surface: outer rings, then (closed) the two caps: centre and inner rings.
    const open = this.openSurface.value;
    const sp: number[] = [];
    for (let i = 0; i < nZ; i++) ring(R, (i * H) / (nZ - 1), sp);
    if (!open) {
      for (let i = 0; i < 2; i++) {
        sp.push(o[0], o[1], i * H + o[2]);
        for (let j = 1; j < nR; j++) ring((j * R) / nR, i * H, sp);
      }
    }
    const tri: number[] = [];
    for (let i = 1; i < nZ; i++) {
      for (let k = 0; k < nT; k++) {
        const k1 = (k + 1) % nT;
        tri.push(i * nT + k, (i - 1) * nT + k, (i - 1) * nT + k1, i * nT + k, (i - 1) * nT + k1, i * nT + k1);
      }
    }
    if (!open) {
      for (let i = 0; i < 2; i++) {
        const c0 = nT * nZ + i * (nT * (nR - 1) + 1);
        const top = i === 1;
        // The outer ring of the cap is the bottom (i = 0) or top (i = 1) ring of the lateral surface.
        const rim = i * (nZ - 1) * nT;
        const inner = (j: number, k: number): number => (j < nR - 1 ? c0 + 1 + j * nT + (k % nT) : rim + (k % nT));
        for (let k = 0; k < nT; k++) {
          const a = nR > 1 ? c0 + 1 + k : rim + k,
            b = nR > 1 ? c0 + 1 + ((k + 1) % nT) : rim + ((k + 1) % nT);
          if (top) tri.push(c0, a, b);
          else tri.push(c0, b, a);
        }
        for (let j = 0; j + 1 < nR; j++) {
          for (let k = 0; k < nT; k++) {
            const a = inner(j, k),
              b = inner(j + 1, k),
              c = inner(j + 1, k + 1),
              d = inner(j, k + 1);
            if (top) tri.push(a, b, c, a, c, d);
            else tri.push(a, c, b, a, d, c);
          }
        }
      }
    }
    this.outputTrianglesPosition.value = Float64Array.from(sp);
    this.triangles.value = Uint32Array.from(tri);
  }
}
