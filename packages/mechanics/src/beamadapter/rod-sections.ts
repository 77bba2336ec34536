import { BaseObject, Real, UInt, nonNegative, positive, sofaComponent } from '@sofa-ts/core';
import type { BeamSection } from '../fem/beam/beam-kernels.js';

/**
 * The sections of an instrument's rest shape (BeamAdapter's BaseRodSectionMaterial): a length of
 * the wire with its material, its circular section and its sampling (beams of the mechanics,
 * edges of the collision and visual models), and its rest curve as frames along the curvilinear
 * abscissa. Section: A = π(r² − r_i²), I_y = I_z = π(r⁴ − r_i⁴)/4, J = I_y + I_z, no shear areas.
 */
export abstract class BaseRodSection extends BaseObject {
  readonly poissonRatio = this.initData({ name: 'poissonRatio', type: Real, default: 0.49, help: 'Poisson ratio of this section' });
  readonly youngModulus = this.initData({
    name: 'youngModulus',
    type: Real,
    default: 5000,
    unit: 'Pa',
    range: positive,
    help: 'Young modulus of this section',
  });
  readonly massDensity = this.initData({
    name: 'massDensity',
    type: Real,
    default: 1,
    unit: 'kg/m³',
    range: nonNegative,
    help: 'density of this section',
  });
  readonly radius = this.initData({
    name: 'radius',
    type: Real,
    default: 1,
    unit: 'm',
    range: positive,
    help: 'outer radius of the section',
  });
  readonly innerRadius = this.initData({
    name: 'innerRadius',
    type: Real,
    default: 0,
    unit: 'm',
    range: nonNegative,
    help: 'inner radius of a hollow section',
  });
  readonly length = this.initData({ name: 'length', type: Real, default: 1, unit: 'm', help: 'length of this section (> 0)' });
  readonly nbBeams = this.initData({ name: 'nbBeams', type: UInt, default: 5, help: 'number of beams of the mechanical model' });
  readonly nbEdgesVisu = this.initData({ name: 'nbEdgesVisu', type: UInt, default: 10, help: 'number of edges of the visual model' });
  readonly nbEdgesCollis = this.initData({
    name: 'nbEdgesCollis',
    type: UInt,
    default: 20,
    help: 'number of edges of the collision model',
  });

  /** The section of the rod, valid after prepare(). */
  readonly section: BeamSection = { A: 0, Iy: 0, Iz: 0, J: 0, Asy: 0, Asz: 0 };
  private ready = false;

  override init(): void {
    this.prepare();
  }

  /** Checks the data and computes the section (once; the rest shape may come first). */
  prepare(): void {
    if (this.ready) return;
    if (!this.nbBeams.isSet) {
      this.warnAbout(
        this.nbBeams,
        `nbBeams is required (BeamAdapter): not set, it is copied from nbEdgesCollis (${this.nbEdgesCollis.value}) as BeamAdapter does`,
      );
      this.nbBeams.value = this.nbEdgesCollis.value;
    }
    this.prepareShape();
    if (!(this.length.value > 0)) throw this.dataError(this.length, `the length of a section must be > 0 (got ${this.length.value})`);
    if (this.nbBeams.value < 1) throw this.dataError(this.nbBeams, 'a section needs at least one beam');
    const r = this.radius.value,
      ri = this.innerRadius.value;
    if (!(r > ri)) throw this.dataError(this.radius, `the radius (${r}) must exceed the inner radius (${ri})`);
    const I = (Math.PI * (r ** 4 - ri ** 4)) / 4;
    Object.assign(this.section, { A: Math.PI * (r * r - ri * ri), Iy: I, Iz: I, J: 2 * I, Asy: 0, Asz: 0 });
    this.ready = true;
  }

  /** What a section kind checks or builds at init (before the length is checked: a mesh section sets it). */
  protected prepareShape(): void {}

  /** Edges of the visual model (the rest shape's topology; a mesh section may have its own count). */
  get visualEdges(): number {
    return this.nbEdgesVisu.value;
  }

  /**
   * The rest frame (p, q: 7 numbers at out[o..]) at curvilinear abscissa x of the wire, this section
   * starting at xStart with the frame (xStart, 0, 0), identity.
   */
  abstract restFrame(out: Float64Array, o: number, x: number, xStart: number): void;
}

/** SOFA's RodStraightSection: a straight length of wire along x. */
@sofaComponent({
  name: 'RodStraightSection',
  category: 'Engine',
  module: 'BeamAdapter',
  description: 'A straight section of an instrument rest shape (WireRestShape): length, material, circular section, sampling.',
  templates: ['Rigid3d'],
})
export class RodStraightSection extends BaseRodSection {
  /** (x, 0, 0), identity. */
  restFrame(out: Float64Array, o: number, x: number, _xStart: number): void {
    out.fill(0, o, o + 7);
    out[o] = x;
    out[o + 6] = 1;
  }
}

/**
 * SOFA's RodSpireSection: a helix of diameter D and pitch h (spireHeight) starting along x at the
 * end of the previous section. Per turn the wire runs ℓ = √(h² + (πD)²); at s = x − x_start,
 * n = s/ℓ turns, θ = 2πn, φ = atan(h/(πD)):
 *   p = (x_start + (D/2)·sin θ, n·h, (D/2)·(cos θ − 1)),  q = q_y(θ) ⊗ q_z(φ).
 * With h = 0 it is the circle of radius D/2 in the x–z plane, tangent (cos θ, 0, −sin θ).
 */
@sofaComponent({
  name: 'RodSpireSection',
  category: 'Engine',
  module: 'BeamAdapter',
  description: 'A helical (spire) section of an instrument rest shape (WireRestShape): diameter, pitch, material, section, sampling.',
  templates: ['Rigid3d'],
})
export class RodSpireSection extends BaseRodSection {
  readonly spireDiameter = this.initData({
    name: 'spireDiameter',
    type: Real,
    default: 0.1,
    unit: 'm',
    range: positive,
    help: 'diameter of the spire',
  });
  readonly spireHeight = this.initData({
    name: 'spireHeight',
    type: Real,
    default: 0.01,
    unit: 'm',
    help: 'height between two turns of the spire',
  });

  restFrame(out: Float64Array, o: number, x: number, xStart: number): void {
    const D = this.spireDiameter.value,
      h = this.spireHeight.value;
    const proj = D * Math.PI,
      turnLength = Math.hypot(h, proj),
      phi = Math.atan(h / proj);
    const n = (x - xStart) / turnLength,
      theta = 2 * Math.PI * n,
      r = D / 2;
    out[o] = xStart + r * Math.sin(theta);
    out[o + 1] = n * h;
    out[o + 2] = r * (Math.cos(theta) - 1);
    // q_y(θ) ⊗ q_z(φ) = (sy·sz, sy·cz, cy·sz, cy·cz)
    const cy = Math.cos(theta / 2),
      sy = Math.sin(theta / 2),
      cz = Math.cos(phi / 2),
      sz = Math.sin(phi / 2);
    out[o + 3] = sy * sz;
    out[o + 4] = sy * cz;
    out[o + 5] = cy * sz;
    out[o + 6] = cy * cz;
  }
}
