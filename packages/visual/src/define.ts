import { BaseObject, InertComponent, sofaComponent, type ComponentInfo, type DataSpec, type DataType } from '@sofa-ts/core';

/** A component link of an inert component (`topology="@mesh"`): kept, never followed. */
export interface InertLinkSpec {
  readonly name: string;
  readonly help: string;
}

/** One Data declaration of an inert component. */
export function d<T>(name: string, type: DataType<T>, dflt: T, help: string, extra: Partial<DataSpec<T>> = {}): DataSpec<unknown> {
  return { name, type, default: dflt, help, ...extra } as DataSpec<unknown>;
}

/**
 * Defines a component that is inert in a batch run (drawing, GUI, rendering settings): it loads,
 * keeps its SOFA Data and links so scenes can set and link them, and does nothing when stepping.
 * Its description ends with what a batch run does not do, for `sofa-ts components`.
 */
export function inertVisual(
  info: ComponentInfo,
  notDone: string,
  fields: readonly DataSpec<unknown>[],
  links: readonly InertLinkSpec[] = [],
): new () => InertComponent {
  const cls = class extends InertComponent {
    constructor() {
      super();
      for (const f of fields) this.initData(f);
      for (const l of links) {
        this.initLink({
          name: l.name,
          help: l.help,
          accepts: (c: unknown): c is BaseObject => c instanceof BaseObject,
          expected: 'a component',
        });
      }
    }
  };
  Object.defineProperty(cls, 'name', { value: info.name });
  sofaComponent({ ...info, description: `${info.description} Inert in a batch run: ${notDone}.` })(cls);
  return cls;
}
