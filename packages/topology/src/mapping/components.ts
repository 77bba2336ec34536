import type { ComponentClass } from '@sofa-ts/core';

/** The mapping components of @sofa-ts/topology. */
export const mappingComponents: readonly ComponentClass[] = [];
