import { componentModule } from '@sofa-ts/core';
import { imageComponents } from './components.js';

export default componentModule('@sofa-ts/image', imageComponents);
