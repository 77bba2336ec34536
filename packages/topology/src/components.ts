import type { ComponentClass } from '@sofa-ts/core';

/** Every component of @sofa-ts/topology, registered by module.ts. */
export const topologyComponents: readonly ComponentClass[] = [];
