/**
 * A closed box mesh for the ray-trace specs: the 8 corners (index x + 2y + 4z of the corner's bits),
 * then one vertex inside each face at fractions (fu, fv) along two of its sides, each face fanned
 * into 4 triangles around it, oriented outwards. Faces in the order +z, −z, +x, −x, +y, −y, so
 * triangle 0 is on the top face. Each corner has 2 triangles on each of its 3 faces: its normal as
 * the normalised sum of its triangles' normals is (±1, ±1, ±1)/√3; a face's vertex has the face's.
 */
export function boxMesh(lo: readonly number[], hi: readonly number[]): { x: number[]; triangles: number[] } {
  const x: number[] = [];
  for (let c = 0; c < 8; c++) x.push(c & 1 ? hi[0] : lo[0], c & 2 ? hi[1] : lo[1], c & 4 ? hi[2] : lo[2]);
  const faces: Array<{ corners: number[]; normal: number[] }> = [
    { corners: [4, 5, 7, 6], normal: [0, 0, 1] },
    { corners: [0, 1, 3, 2], normal: [0, 0, -1] },
    { corners: [1, 3, 7, 5], normal: [1, 0, 0] },
    { corners: [0, 2, 6, 4], normal: [-1, 0, 0] },
    { corners: [2, 3, 7, 6], normal: [0, 1, 0] },
    { corners: [0, 1, 5, 4], normal: [0, -1, 0] },
  ];
  const triangles: number[] = [];
  faces.forEach((f, i) => {
    const fu = 0.3 + 0.07 * i,
      fv = 0.55 - 0.05 * i;
    const [c0, c1, , c3] = f.corners;
    const v = x.length / 3;
    for (let k = 0; k < 3; k++) x.push(x[3 * c0 + k] + fu * (x[3 * c1 + k] - x[3 * c0 + k]) + fv * (x[3 * c3 + k] - x[3 * c0 + k]));
    for (let k = 0; k < 4; k++) {
      const a = f.corners[k],
        b = f.corners[(k + 1) % 4];
      const ea = [0, 1, 2].map((q) => x[3 * a + q] - x[3 * v + q]);
      const eb = [0, 1, 2].map((q) => x[3 * b + q] - x[3 * v + q]);
      const n = [ea[1] * eb[2] - ea[2] * eb[1], ea[2] * eb[0] - ea[0] * eb[2], ea[0] * eb[1] - ea[1] * eb[0]];
      const outwards = n[0] * f.normal[0] + n[1] * f.normal[1] + n[2] * f.normal[2] > 0;
      triangles.push(...(outwards ? [v, a, b] : [v, b, a]));
    }
  });
  return { x, triangles };
}
