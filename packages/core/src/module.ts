import { componentModule } from './registry.js';
import { RequiredPlugin } from './required-plugin.js';

/** Components of the core itself. */
export const coreComponents = [RequiredPlugin] as const;
export default componentModule('@sofa-ts/core', coreComponents);
