/**
 * Kernels of SOFA's 3D beam element (BeamFEMForceField): the section properties of a circular
 * (possibly hollow) section and the 12×12 local stiffness of a Timoshenko beam, degrees of freedom
 * per node (u_x, u_y, u_z, θ_x, θ_y, θ_z), x along the beam.
 */

/** Section of a beam: area A, second moments I_y = I_z, polar moment J, shear areas (0: no shear deformation). */
export interface BeamSection {
  A: number;
  Iy: number;
  Iz: number;
  J: number;
  Asy: number;
  Asz: number;
}

/** A circular section of radius r, hollow inside rInner: A = π(r² − r_i²), I = π(r⁴ − r_i⁴)/4, J = 2I; no shear areas (as SOFA). */
export function circularSection(r: number, rInner: number): BeamSection {
  const I = (Math.PI * (r ** 4 - rInner ** 4)) / 4;
  return { A: Math.PI * (r * r - rInner * rInner), Iy: I, Iz: I, J: 2 * I, Asy: 0, Asz: 0 };
}

/**
 * The local stiffness k (12×12, row-major at out[o..o+144)) of a beam of length L, Young modulus E,
 * Poisson ratio ν (G = E/(2(1 + ν))): axial EA/L, torsion GJ/L, and in each bending plane with the
 * shear parameter φ = 24(1 + ν)I/(A_s·L²) (0 without shear area, the Euler–Bernoulli beam):
 *   12EI/(L³(1+φ)), ±6EI/(L²(1+φ)), (4+φ)EI/(L(1+φ)), (2−φ)EI/(L(1+φ)),
 * bending in the xy plane (u_y, θ_z) with I_z, in the xz plane (u_z, θ_y) with I_y.
 */
export function beamStiffness(out: Float64Array, o: number, E: number, nu: number, L: number, s: BeamSection): Float64Array {
  const G = E / (2 * (1 + nu));
  const L2 = L * L,
    L3 = L2 * L,
    EIy = E * s.Iy,
    EIz = E * s.Iz;
  const phiy = s.Asy === 0 ? 0 : (24 * (1 + nu) * s.Iz) / (s.Asy * L2);
  const phiz = s.Asz === 0 ? 0 : (24 * (1 + nu) * s.Iy) / (s.Asz * L2);
  const k = (r: number, c: number, v: number): void => {
    out[o + 12 * r + c] = v;
    out[o + 12 * c + r] = v;
  };
  out.fill(0, o, o + 144);
  const axial = (E * s.A) / L,
    torsion = (G * s.J) / L;
  const ty = (12 * EIz) / (L3 * (1 + phiy)),
    tz = (12 * EIy) / (L3 * (1 + phiz));
  const cy = (6 * EIz) / (L2 * (1 + phiy)),
    cz = (6 * EIy) / (L2 * (1 + phiz));
  const ry = ((4 + phiz) * EIy) / (L * (1 + phiz)),
    rz = ((4 + phiy) * EIz) / (L * (1 + phiy));
  const sy = ((2 - phiz) * EIy) / (L * (1 + phiz)),
    sz = ((2 - phiy) * EIz) / (L * (1 + phiy));
  k(0, 0, axial);
  k(6, 6, axial);
  k(6, 0, -axial);
  k(1, 1, ty);
  k(7, 7, ty);
  k(7, 1, -ty);
  k(2, 2, tz);
  k(8, 8, tz);
  k(8, 2, -tz);
  k(3, 3, torsion);
  k(9, 9, torsion);
  k(9, 3, -torsion);
  k(4, 4, ry);
  k(10, 10, ry);
  k(10, 4, sy);
  k(5, 5, rz);
  k(11, 11, rz);
  k(11, 5, sz);
  // bending–shear couplings
  k(4, 2, -cz);
  k(10, 2, -cz);
  k(8, 4, cz);
  k(10, 8, cz);
  k(5, 1, cy);
  k(11, 1, cy);
  k(7, 5, -cy);
  k(11, 7, -cy);
  return out;
}
