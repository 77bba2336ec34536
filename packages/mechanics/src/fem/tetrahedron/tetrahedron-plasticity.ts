/**
 * The plasticity of TetrahedronFEMForceField (SOFA's plasticMaxThreshold, plasticYieldThreshold,
 * plasticCreep), per element: the elastic strain is the total strain s minus the plastic strain p;
 * past the yield threshold (|s − p| > yield) p creeps towards s by creep·(s − p), then |p| is
 * clamped to max, and s becomes the elastic strain s − p. s and p in SOFA's Voigt order
 * (εxx, εyy, εzz, γxy, γyz, γzx); p at plastic[q .. q+6) evolves with the run.
 */
export function elasticStrain(s: Float64Array, plastic: Float64Array, q: number, yieldThreshold: number, max: number, creep: number): void {
  const pl = plastic;
  const e0 = s[0] - pl[q],
    e1 = s[1] - pl[q + 1],
    e2 = s[2] - pl[q + 2],
    e3 = s[3] - pl[q + 3],
    e4 = s[4] - pl[q + 4],
    e5 = s[5] - pl[q + 5];
  if (e0 * e0 + e1 * e1 + e2 * e2 + e3 * e3 + e4 * e4 + e5 * e5 > yieldThreshold * yieldThreshold) {
    const c = creep;
    pl[q] += c * e0;
    pl[q + 1] += c * e1;
    pl[q + 2] += c * e2;
    pl[q + 3] += c * e3;
    pl[q + 4] += c * e4;
    pl[q + 5] += c * e5;
  }
  let n2 = 0;
  for (let k = 0; k < 6; k++) n2 += pl[q + k] * pl[q + k];
  if (n2 > max * max) {
    const scale = max / Math.sqrt(n2);
    for (let k = 0; k < 6; k++) pl[q + k] *= scale;
  }
  for (let k = 0; k < 6; k++) s[k] -= pl[q + k];
}
