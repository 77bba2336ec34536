/**
 * Blender's point cache files (`.bphys`) as SOFA's BlenderExporter writes them, little-endian:
 *
 *     "BPHYSICS"            8 bytes
 *     type                  uint32   Blender's cache type: 0 soft body, 1 particles, 2 cloth (hair too)
 *     count                 uint32   points in the file
 *     dataTypes             uint32   bit set of the per-point fields: 6 = location | velocity,
 *                                    22 = location | velocity | rest position (hair)
 *     count × (location, velocity[, rest])   float32 × 3 each, the points from the last to the first
 *
 * Hair (simulation type 3, written as cloth): every strand of nbPtsByHair points is preceded, in
 * the file, by an extra root-tangent point r + (p₁ − r)/|p₁ − r| (r its root, p₁ the next point),
 * velocity 0, rest = location; count = n + n/nbPtsByHair. Rigid frames give their centre and
 * their linear velocity.
 */

/** SOFA's BlenderExporter simulation types (Data simulationType). */
export const BLENDER_SIMULATION = { softBody: 0, particle: 1, cloth: 2, hair: 3 } as const;

const MAGIC = 'BPHYSICS';
const HEADER_BYTES = 20;
/** Blender's BPHYS_DATA flags: location (1 << 1), velocity (1 << 2), rest / xconst (1 << 4), times (1 << 6). */
const LOCATION_VELOCITY = 6;
const LOCATION_VELOCITY_REST = 22;
const TIMES = 64;

/** Points written for n state points: n, plus one root tangent per strand for hair. */
export function bphysPointCount(n: number, simulationType: number, nbPtsByHair: number): number {
  return simulationType === BLENDER_SIMULATION.hair ? n + Math.floor(n / nbPtsByHair) : n;
}

/** Bytes of one frame file. */
export function bphysFrameBytes(n: number, simulationType: number, nbPtsByHair: number): number {
  const perPoint = simulationType === BLENDER_SIMULATION.hair ? 36 : 24;
  return HEADER_BYTES + perPoint * bphysPointCount(n, simulationType, nbPtsByHair);
}

/** The per-point fields of a state: x and x0 (n × coordSize), v (n × derivSize); the first three scalars are used. */
export interface BphysState {
  readonly n: number;
  readonly x: Float64Array;
  readonly v: Float64Array;
  readonly x0: Float64Array;
  readonly coordSize: number;
  readonly derivSize: number;
}

function writeHeader(view: DataView, type: number, count: number, dataTypes: number): void {
  for (let k = 0; k < 8; k++) view.setUint8(k, MAGIC.charCodeAt(k));
  view.setUint32(8, type, true);
  view.setUint32(12, count, true);
  view.setUint32(16, dataTypes, true);
}

/** Three float32 from a[o..o+2] at byte `at`; returns the next byte. */
function put3(view: DataView, at: number, a: Float64Array, o: number): number {
  view.setFloat32(at, a[o], true);
  view.setFloat32(at + 4, a[o + 1], true);
  view.setFloat32(at + 8, a[o + 2], true);
  return at + 12;
}

/**
 * Writes one frame of `s` into out (at least bphysFrameBytes long) and returns its byte length.
 * Hair needs n to be a multiple of nbPtsByHair with at least two points per strand (the caller checks).
 */
export function writeBphysFrame(out: Uint8Array, s: BphysState, simulationType: number, nbPtsByHair: number): number {
  const hair = simulationType === BLENDER_SIMULATION.hair;
  const bytes = bphysFrameBytes(s.n, simulationType, nbPtsByHair);
  const view = new DataView(out.buffer, out.byteOffset, bytes);
  writeHeader(
    view,
    hair ? BLENDER_SIMULATION.cloth : simulationType,
    bphysPointCount(s.n, simulationType, nbPtsByHair),
    hair ? LOCATION_VELOCITY_REST : LOCATION_VELOCITY,
  );
  const cs = s.coordSize,
    ds = s.derivSize;
  let at = HEADER_BYTES;
  for (let i = s.n - 1; i >= 0; i--) {
    if (hair && i % nbPtsByHair === 0) {
      // root tangent t = r + (p₁ − r)/|p₁ − r| (r when p₁ = r), velocity 0, rest t
      const r = cs * i,
        p = cs * (i + 1);
      const dx = s.x[p] - s.x[r],
        dy = s.x[p + 1] - s.x[r + 1],
        dz = s.x[p + 2] - s.x[r + 2];
      const len = Math.hypot(dx, dy, dz);
      const inv = len > 0 ? 1 / len : 0;
      const tx = s.x[r] + dx * inv,
        ty = s.x[r + 1] + dy * inv,
        tz = s.x[r + 2] + dz * inv;
      for (let field = 0; field < 3; field++, at += 12) {
        const velocity = field === 1;
        view.setFloat32(at, velocity ? 0 : tx, true);
        view.setFloat32(at + 4, velocity ? 0 : ty, true);
        view.setFloat32(at + 8, velocity ? 0 : tz, true);
      }
    }
    at = put3(view, at, s.x, cs * i);
    at = put3(view, at, s.v, ds * i);
    if (hair) at = put3(view, at, s.x0, cs * i);
  }
  return bytes;
}

/** The information frame written once for hair (`<base>_000000_00.bphys`): one particle, times (birth 0, life 100, death 100). */
export function bphysHairInfoFrame(): Uint8Array {
  const out = new Uint8Array(HEADER_BYTES + 12);
  const view = new DataView(out.buffer);
  writeHeader(view, BLENDER_SIMULATION.particle, 1, TIMES);
  view.setFloat32(20, 0, true);
  view.setFloat32(24, 100, true);
  view.setFloat32(28, 100, true);
  return out;
}

/** `<base>_<frame, 6 digits>_00.bphys`, Blender's cache file name (index 0). */
export function bphysFileName(base: string, frame: number): string {
  return `${base}_${String(frame).padStart(6, '0')}_00.bphys`;
}
