import { componentModule } from '@sofa-ts/core';
import { topologyComponents } from './components.js';

export default componentModule('@sofa-ts/topology', topologyComponents);
