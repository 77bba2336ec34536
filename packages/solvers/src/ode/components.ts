import type { ComponentClass } from '@sofa-ts/core';

/** Components of this folder, registered by the package's module.ts. */
export const odeComponents: readonly ComponentClass[] = [];
