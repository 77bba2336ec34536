import type { BaseObject, Data, DataSpec } from '@sofa-ts/core';

/**
 * SOFA's vectorData: a numbered family of Data whose count another Data sets (nbMeshes, nbImages).
 * The first member is named `base` and answers to `base1` as well (SOFA's alias), so that
 * `src="@loader"` links position and triangles; the others are `base2`, `base3`, … created on
 * demand, when the scene names one or the count grows.
 */
export class VectorData<T> {
  readonly items: Data<T>[] = [];

  constructor(
    readonly base: string,
    private readonly create: (spec: Pick<DataSpec<T>, 'name' | 'aliases' | 'help'>) => Data<T>,
    private readonly help: string,
    private readonly firstIsBase = true,
  ) {
    this.resize(1);
  }

  resize(n: number): void {
    while (this.items.length < n) {
      const k = this.items.length + 1;
      const name = k === 1 && this.firstIsBase ? this.base : `${this.base}${k}`;
      this.items.push(this.create({ name, aliases: k === 1 && this.firstIsBase ? [`${this.base}1`] : [], help: `${this.help} ${k}` }));
    }
  }

  find(name: string): Data<T> | undefined {
    if (!name.startsWith(this.base)) return undefined;
    const m = /^(\d+)$/.exec(name.slice(this.base.length));
    if (!m) return undefined;
    const k = Number(m[1]);
    if (k < 1 || k > 1000) return undefined;
    this.resize(k);
    return this.items[k - 1];
  }
}

/** findData over a component's own Data and its vectors (for the scene reader). */
export function findInVectors(vectors: readonly VectorData<unknown>[], name: string): Data<unknown> | undefined {
  for (const v of vectors) {
    const d = v.find(name);
    if (d) return d;
  }
  return undefined;
}

export type { BaseObject };
