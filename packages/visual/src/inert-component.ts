export { InertComponent, inertComponent } from '@sofa-ts/core';
