import { componentModule } from '@sofa-ts/core';
import { mappingComponents } from './components.js';

export default componentModule('@sofa-ts/mapping', mappingComponents);
