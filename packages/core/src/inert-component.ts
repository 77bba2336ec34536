import { BaseObject } from './base-object.js';
import { sofaComponent, type ComponentInfo } from './component-info.js';
import type { DataSpec } from './data.js';

/**
 * A component that takes no part in batch mechanics: it loads, keeps its Data (so scenes can set and
 * link them, and `sofa-ts components` documents them) and does nothing when stepping. Visual and
 * GUI components are of this kind.
 */
export abstract class InertComponent extends BaseObject {
  readonly isInert = true;
}

/** Defines an inert component class from its info and Data declarations (one table, no boilerplate). */
export function inertComponent(info: ComponentInfo, fields: readonly DataSpec<unknown>[]): new () => InertComponent {
  const cls = class extends InertComponent {
    constructor() {
      super();
      for (const f of fields) this.initData(f);
    }
  };
  Object.defineProperty(cls, 'name', { value: info.name });
  sofaComponent(info)(cls);
  return cls;
}
