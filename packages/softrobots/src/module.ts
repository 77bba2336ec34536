import { componentModule } from '@sofa-ts/core';
import { softRobotsComponents } from './components.js';

export default componentModule('@sofa-ts/softrobots', softRobotsComponents);
