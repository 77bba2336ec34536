import { componentModule } from './registry.js';
import { AddDataRepository } from './add-resource-repository.js';
import { MakeAlias, MakeDataAlias } from './factory-alias.js';
import { RequiredPlugin } from './required-plugin.js';

/** Components of the core itself. */
export const coreComponents = [RequiredPlugin, MakeAlias, MakeDataAlias, AddDataRepository] as const;
export default componentModule('@sofa-ts/core', coreComponents);
