import { componentModule } from '@sofa-ts/core';
import { engineComponents } from './components.js';

export default componentModule('@sofa-ts/engine', engineComponents);
