import type { ComponentClass } from '@sofa-ts/core';

/** The volume finite-element force fields of @sofa-ts/mechanics. */
export const volumeFemComponents: readonly ComponentClass[] = [];
