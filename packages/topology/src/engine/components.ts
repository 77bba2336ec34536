import type { ComponentClass } from '@sofa-ts/core';

/** The engine components of @sofa-ts/topology. */
export const engineComponents: readonly ComponentClass[] = [];
