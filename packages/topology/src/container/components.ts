import type { ComponentClass } from '@sofa-ts/core';

/** The container components of @sofa-ts/topology. */
export const containerComponents: readonly ComponentClass[] = [];
