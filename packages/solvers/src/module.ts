import { componentModule } from '@sofa-ts/core';
import { solverComponents } from './components.js';

export default componentModule('@sofa-ts/solvers', solverComponents);
