import 'reflect-metadata';
import { Container, ContainerModule, type ContainerModuleLoadOptions } from 'inversify';
import type { BaseObject } from './base-object.js';
import { componentInfoOf, type ComponentInfo } from './component-info.js';
import { didYouMean } from './errors.js';

/** A class that constructs a component. */
export type ComponentClass = new (...args: never[]) => BaseObject;

/** One registered component: its declared info, its class and the plugin that brought it. */
export interface ComponentEntry {
  readonly info: ComponentInfo;
  readonly cls: ComponentClass;
  readonly plugin: string;
}

/** Container token under which every component class is bound, named by its SOFA names. */
export const ComponentToken: unique symbol = Symbol.for('sofa-ts.Component');
/** Container token of the registry entries (multi-bound: one per component). */
export const ComponentEntryToken: unique symbol = Symbol.for('sofa-ts.ComponentEntry');

/**
 * Binds components in a plugin's ContainerModule: each class under its SOFA name and aliases
 * (transient: one instance per scene element), plus its registry entry.
 */
export function bindComponents(options: ContainerModuleLoadOptions, plugin: string, classes: readonly ComponentClass[]): void {
  for (const cls of classes) {
    const info = componentInfoOf(cls);
    if (!info) throw new Error(`${cls.name} has no @sofaComponent declaration`);
    const entry: ComponentEntry = { info, cls, plugin };
    options.bind<ComponentEntry>(ComponentEntryToken).toConstantValue(entry);
    for (const name of [info.name, ...(info.aliases ?? [])]) {
      options
        .bind<BaseObject>(ComponentToken)
        .to(cls as never)
        .whenNamed(name);
    }
  }
}

/** The DI module of a package of components: what a plugin package exports as its default. */
export function componentModule(plugin: string, classes: readonly ComponentClass[]): ContainerModule {
  return new ContainerModule((options) => bindComponents(options, plugin, classes));
}

/**
 * SOFA modules and plugins that scenes name in RequiredPlugin and that are part of sofa-ts: the
 * SOFA component modules (`Sofa.Component.Mass`, old `SofaBaseMechanics`...), whose components are
 * all built in (a missing one is reported where the scene uses it), and plugin names whose
 * components sofa-ts provides itself.
 */
export function isBuiltinPluginName(name: string): boolean {
  return (
    /^Sofa([A-Z.]|$)/.test(name) ||
    [
      'SoftRobots',
      'SoftRobots.Inverse',
      'Compliant',
      'CImgPlugin',
      'ArticulatedSystemPlugin',
      'PersistentContact',
      'MultiThreading',
      'BeamAdapter',
      'CollisionOBBCapsule',
      'image',
    ].includes(name)
  );
}

/**
 * The component registry (SOFA ObjectFactory) on an inversify container: creation by SOFA name or
 * alias, the list of components for docs, and the loaded plugins.
 */
export class ComponentRegistry {
  readonly container = new Container();
  private readonly byName = new Map<string, ComponentEntry>();
  private readonly plugins = new Set<string>();

  /** Loads a plugin's DI module and records its components. */
  load(plugin: string, module: ContainerModule): void {
    if (this.plugins.has(plugin)) return;
    this.container.load(module);
    this.plugins.add(plugin);
    this.refresh();
  }

  private refresh(): void {
    this.byName.clear();
    for (const e of this.container.getAll<ComponentEntry>(ComponentEntryToken)) {
      this.byName.set(e.info.name, e);
      for (const a of e.info.aliases ?? []) if (!this.byName.has(a)) this.byName.set(a, e);
    }
  }

  hasPlugin(name: string): boolean {
    return this.plugins.has(name);
  }

  get pluginNames(): readonly string[] {
    return [...this.plugins];
  }

  /** The entry for a SOFA class name or alias. */
  find(name: string): ComponentEntry | undefined {
    return this.byName.get(name);
  }

  /** All entries, one per component (aliases folded), sorted by name. */
  entries(): ComponentEntry[] {
    const seen = new Set<ComponentEntry>();
    for (const e of this.byName.values()) seen.add(e);
    return [...seen].sort((a, b) => a.info.name.localeCompare(b.info.name));
  }

  /** Every accepted name (SOFA names and aliases). */
  names(): string[] {
    return [...this.byName.keys()];
  }

  /** A new instance of the component named `name` (or alias), built by the container. */
  create(name: string): BaseObject {
    if (!this.byName.has(name)) throw new Error(`unknown component '${name}'${suggest(name, this.names())}`);
    return this.container.get<BaseObject>(ComponentToken, { name });
  }
}

function suggest(name: string, names: string[]): string {
  const h = didYouMean(name, names);
  return h ? ` (${h})` : '';
}
