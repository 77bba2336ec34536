import type { ComponentClass } from '@sofa-ts/core';

/** The triangle finite-element force fields of @sofa-ts/mechanics. */
export const triangleFemComponents: readonly ComponentClass[] = [];
