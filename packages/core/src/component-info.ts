import { injectable } from 'inversify';

/** What the registry, the factory and the docs know of a component class. */
export interface ComponentInfo {
  /** SOFA class name, as scenes write it (`EulerImplicitSolver`). */
  readonly name: string;
  /** Other names scenes may use (old SOFA names: FixedConstraint → FixedProjectiveConstraint). */
  readonly aliases?: readonly string[];
  /** SOFA's category: 'ODESolver', 'LinearSolver', 'ForceField', 'Mass', ... */
  readonly category: string;
  readonly description: string;
  /** The SOFA module a scene names in RequiredPlugin to use it (Sofa.Component.Mass). */
  readonly module?: string;
  /** Accepted templates in canonical form; empty or absent: the component takes no template. */
  readonly templates?: readonly string[];
  /** The template used when the scene gives none and none can be deduced from the context. */
  readonly defaultTemplate?: string;
}

const infos = new WeakMap<object, ComponentInfo>();

/**
 * Class decorator declaring a component: its SOFA name, aliases, category and templates. It also
 * makes the class injectable, so that the inversify container can construct it (constructor
 * parameters need an explicit `@inject(TOKEN)`: the build emits no reliable design metadata).
 */
export function sofaComponent(info: ComponentInfo) {
  return <C extends abstract new (...args: never[]) => unknown>(cls: C): C => {
    infos.set(cls, info);
    injectable()(cls as never);
    return cls;
  };
}

/** The component info declared on this very class (not inherited), if any. */
export function componentInfoOf(cls: unknown): ComponentInfo | undefined {
  return typeof cls === 'function' ? infos.get(cls) : undefined;
}
