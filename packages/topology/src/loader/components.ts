import type { ComponentClass } from '@sofa-ts/core';

/** The loader components of @sofa-ts/topology. */
export const loaderComponents: readonly ComponentClass[] = [];
