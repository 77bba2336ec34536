import type { ComponentClass } from '@sofa-ts/core';

/** Every component of @sofa-ts/collision, registered by module.ts. */
export const collisionComponents: readonly ComponentClass[] = [];
