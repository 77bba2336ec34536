/**
 * The bounds of an actuator's quantity (its λ or its displacement δ) for one step: the range
 * [min, max] met with the window [last − v, last + v] around the last step's value
 * (v = |maxVariation|; no window when it is not finite). When the two do not meet (the last value
 * lies further than v outside the range, e.g. a joint that starts beyond its limit), the step moves
 * as far as the window allows towards the range: lo = hi = last ± v. Writes lo[i] and hi[i].
 */
export function setVariationWindow(
  lo: Float64Array,
  hi: Float64Array,
  i: number,
  min: number,
  max: number,
  last: number,
  maxVariation: number,
): void {
  const v = Math.abs(maxVariation);
  if (!Number.isFinite(v)) {
    lo[i] = min;
    hi[i] = max;
    return;
  }
  let a = Math.max(min, last - v),
    b = Math.min(max, last + v);
  if (a > b) {
    if (last + v < min) a = b = last + v;
    else if (last - v > max) a = b = last - v;
    else a = b = Math.min(Math.max(last, min), max); // an empty range (min > max): left to the solver to refuse
  }
  lo[i] = a;
  hi[i] = b;
}
