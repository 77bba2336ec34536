/**
 * sofa-ts-plugin-example: a plugin as users write one. A scene loads it with
 *   <RequiredPlugin pluginName="sofa-ts-plugin-example"/>
 * and sofa-ts imports this package: its default export is the inversify ContainerModule that
 * registers the plugin's components.
 */
import { componentModule } from '@sofa-ts/core';
import { LinearDragForceField } from './LinearDragForceField.js';

export { LinearDragForceField };
export default componentModule('sofa-ts-plugin-example', [LinearDragForceField]);
