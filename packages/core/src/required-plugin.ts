import { BaseObject } from './base-object.js';
import { sofaComponent } from './component-info.js';
import { Bool, StringArray } from './data-types.js';

/**
 * SOFA's RequiredPlugin. Plugins are loaded when the scene is read (before any component is
 * created): SOFA module names (Sofa.Component.Mass, ...) are built in; any other name is imported
 * as an npm package whose default export is a ContainerModule of components.
 */
@sofaComponent({
  name: 'RequiredPlugin',
  category: 'SceneUtility',
  module: 'Sofa.Core',
  description: 'Load the required plugins (SOFA modules are built in; other names are npm packages).',
})
export class RequiredPlugin extends BaseObject {
  readonly pluginName = this.initData({
    name: 'pluginName',
    type: StringArray,
    default: [],
    help: 'plugin names to load (default: the name of this component)',
  });
  readonly stopAfterFirstNameFound = this.initData({
    name: 'stopAfterFirstNameFound',
    type: Bool,
    default: false,
    help: 'stop after the first plugin name that loads successfully',
  });
  readonly stopAfterFirstSuffixFound = this.initData({
    name: 'stopAfterFirstSuffixFound',
    type: Bool,
    default: true,
    help: 'accepted for compatibility (library suffixes do not apply to npm packages)',
  });
  readonly requireAll = this.initData({
    name: 'requireAll',
    type: Bool,
    default: true,
    help: 'fail if any of the plugins cannot be loaded',
  });
  readonly loadedPlugins = this.initData({
    name: 'loadedPlugins',
    type: StringArray,
    default: [],
    help: 'plugins that were loaded',
    output: true,
  });

  /** The names this element asks for: pluginName, or its own name. */
  requestedNames(): string[] {
    const names = this.pluginName.value;
    return names.length > 0 ? names : this.getName() ? [this.getName()] : [];
  }
}
