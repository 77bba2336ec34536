import { componentModule } from '@sofa-ts/core';
import { visualComponents } from './components.js';

export default componentModule('@sofa-ts/visual', visualComponents);
