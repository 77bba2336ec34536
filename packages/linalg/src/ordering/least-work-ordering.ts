import { amdOrdering } from './amd.js';
import { factorWork } from './factor-work.js';
import { naturalOrdering } from './natural.js';
import { reverseCuthillMcKeeOfGraph } from './reverse-cuthill-mckee.js';
import { symmetricAdjacency } from './symmetric-pattern.js';

/**
 * A profile ordering replaces approximate minimum degree only when its factor costs at most this
 * fraction of AMD's multiply-adds: the count is a proxy (the supernodes' dense kernels and the
 * solves do not scale with it exactly), and a matrix AMD orders well keeps AMD's factor.
 */
export const PROFILE_ORDERING_GAIN = 0.85;

/**
 * ... and only when it saves at least this many multiply-adds a factorization (about 0.4 ms of the
 * supernodal kernels at 10 Gflop/s). SOFA's own default is AMD, and a small scene keeps SOFA's ordering, whose
 * round-off its reference results carry: with the band of its grid's numbering, the explicit
 * Euler scene of SOFA's state regression list (Component/ODESolver/Forward/EulerExplicitSolver.scn,
 * 528 unknowns, unstable by design) ends 9·10³ away from SOFA's reference, where AMD's factor
 * (1.2 M multiply-adds; 0.3 M more than the band's) matches it.
 */
export const PROFILE_ORDERING_MIN_SAVING = 2e6;

/** The orderings {@link leastWorkOrdering} compares. */
export type LeastWorkMethod = 'AMD' | 'RCM' | 'Natural';

export interface LeastWorkOrdering {
  /** perm (n), new → old. */
  perm: Int32Array;
  method: LeastWorkMethod;
  /** The factor's multiply-adds under the chosen ordering and under AMD's. */
  multiplyAdds: number;
  amdMultiplyAdds: number;
}

/**
 * The fill-reducing ordering of least factorization work among approximate minimum degree, reverse
 * Cuthill–McKee and the natural order (the numbering the mesh came with), with AMD kept unless
 * another needs at most PROFILE_ORDERING_GAIN of its multiply-adds and saves at least
 * PROFILE_ORDERING_MIN_SAVING. Minimum degree is the better ordering for compact meshes; on a
 * slender one (a beam or a soft robot's trunk, long against its cross-section) it leaves
 * separators that cost more than the band of a profile ordering: the
 * 5 x 5 x 31 hexahedra of scenes/softrobots/trunk.scn factorize in 9.3 M multiply-adds in their
 * grid's numbering, 9.7 M by RCM, against 13.4 M with AMD. The choice CHOLMOD makes between its
 * orderings, by the counts of the symbolic analysis. Any pattern (rowPtr (n+1), colInd) is
 * symmetrised first, as amdOrdering does: AMD's permutation is amdOrdering's of the same pattern.
 * Allocates (analysis-time work).
 */
export function leastWorkOrdering(n: number, rowPtr: ArrayLike<number>, colInd: ArrayLike<number>): LeastWorkOrdering {
  const graph = symmetricAdjacency(n, rowPtr, colInd);
  const { ptr, ind } = graph;
  const amd = amdOrdering(n, ptr, ind);
  const amdMultiplyAdds = factorWork(n, ptr, ind, amd).multiplyAdds;
  let best: LeastWorkOrdering = { perm: amd, method: 'AMD', multiplyAdds: amdMultiplyAdds, amdMultiplyAdds };
  if (amdMultiplyAdds < PROFILE_ORDERING_MIN_SAVING) return best; // nothing could save enough
  const profiles: [LeastWorkMethod, Int32Array][] = [
    ['RCM', reverseCuthillMcKeeOfGraph(n, graph)],
    ['Natural', naturalOrdering(n)],
  ];
  for (const [method, perm] of profiles) {
    const multiplyAdds = factorWork(n, ptr, ind, perm).multiplyAdds;
    const worth = multiplyAdds <= PROFILE_ORDERING_GAIN * amdMultiplyAdds && amdMultiplyAdds - multiplyAdds >= PROFILE_ORDERING_MIN_SAVING;
    if (worth && multiplyAdds < best.multiplyAdds) best = { perm, method, multiplyAdds, amdMultiplyAdds };
  }
  return best;
}
