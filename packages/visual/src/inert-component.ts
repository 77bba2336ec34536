import { BaseObject, sofaComponent, type ComponentInfo, type DataSpec } from '@sofa-ts/core';

/**
 * A component that only matters to a GUI: it loads, keeps its Data (so scenes can link to it and
 * `sofa-ts components` documents it) and does nothing in batch runs.
 */
export abstract class InertComponent extends BaseObject {
  readonly isVisual = true;
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
