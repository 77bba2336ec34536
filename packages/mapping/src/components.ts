import type { ComponentClass } from '@sofa-ts/core';

/** Every component of @sofa-ts/mapping, registered by module.ts. */
export const mappingComponents: readonly ComponentClass[] = [];
