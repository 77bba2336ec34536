/**
 * The detection outputs of one pair of collision models (SOFA's DetectionOutputVector), as growable
 * structure-of-arrays. For output k:
 *   elem1[k], elem2[k]   elements of model 1 and model 2
 *   id[k]                contact identifier (contacts of equal id are merged by the response)
 *   point0, point1       (3 per output) the closest points, on model 1 and on model 2
 *   normal               (3 per output) unit vector from point0 towards point1 (model 1 → model 2)
 *   value[k]             distance between the points minus the contact distance (< 0: penetration)
 * Arrays grow by doubling and are reused from step to step (`clear` keeps the storage).
 */
export class DetectionOutputs {
  count = 0;
  elem1 = new Int32Array(16);
  elem2 = new Int32Array(16);
  id = new Float64Array(16);
  point0 = new Float64Array(48);
  point1 = new Float64Array(48);
  normal = new Float64Array(48);
  value = new Float64Array(16);

  clear(): void {
    this.count = 0;
  }

  /** Appends an output slot and returns its index (fields to be written by the caller). */
  push(): number {
    if (this.count === this.value.length) this.grow();
    return this.count++;
  }

  /** Removes the last `n` outputs (a test that rejects what it started). */
  pop(n = 1): void {
    this.count -= n;
  }

  private grow(): void {
    const cap = this.value.length * 2;
    const g = <T extends Float64Array | Int32Array>(a: T, size: number): T => {
      const b = new (a.constructor as new (n: number) => T)(size);
      b.set(a);
      return b;
    };
    this.elem1 = g(this.elem1, cap);
    this.elem2 = g(this.elem2, cap);
    this.id = g(this.id, cap);
    this.point0 = g(this.point0, 3 * cap);
    this.point1 = g(this.point1, 3 * cap);
    this.normal = g(this.normal, 3 * cap);
    this.value = g(this.value, cap);
  }
}
