import { componentModule } from '@sofa-ts/core';
import { collisionComponents } from './components.js';

export default componentModule('@sofa-ts/collision', collisionComponents);
