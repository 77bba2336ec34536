import type { ComponentClass } from '@sofa-ts/core';

/** The grid components of @sofa-ts/topology. */
export const gridComponents: readonly ComponentClass[] = [];
