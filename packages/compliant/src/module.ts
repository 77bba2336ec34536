import { componentModule } from '@sofa-ts/core';
import { compliantComponents } from './components.js';

export default componentModule('@sofa-ts/compliant', compliantComponents);
