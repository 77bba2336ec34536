import { componentModule } from '@sofa-ts/core';
import { ioComponents } from './components.js';

export default componentModule('@sofa-ts/io', ioComponents);
