import { componentModule } from './registry.js';
import { AddDataRepository } from './add-resource-repository.js';
import { RequiredPlugin } from './required-plugin.js';

/** Components of the core itself. */
export const coreComponents = [RequiredPlugin, AddDataRepository] as const;
export default componentModule('@sofa-ts/core', coreComponents);
