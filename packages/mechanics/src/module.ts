import { componentModule } from '@sofa-ts/core';
import { mechanicsComponents } from './components.js';

export default componentModule('@sofa-ts/mechanics', mechanicsComponents);
