import type { Node } from './node.js';

/**
 * The number of threads SOFA's MultiThreading components use: `nbThreads` of the nearest
 * TaskSchedulerSettings in the node or its ancestors when positive, else one per core (SOFA's 0).
 */
export function schedulerThreads(node: Node | undefined): number {
  for (let n = node; n; n = n.parent) {
    for (const o of n.objects) {
      if (o.className !== 'TaskSchedulerSettings') continue;
      const v = Number(o.findData('nbThreads')?.value ?? 0);
      if (v > 0) return Math.floor(v);
    }
  }
  return hardwareThreads();
}

/** Cores of this machine (1 where it cannot be known). */
export function hardwareThreads(): number {
  const g = globalThis as { process?: { getBuiltinModule?: (id: string) => unknown }; navigator?: { hardwareConcurrency?: number } };
  try {
    const os = g.process?.getBuiltinModule?.('node:os') as { availableParallelism?: () => number } | undefined;
    if (os?.availableParallelism) return os.availableParallelism();
  } catch {
    // no os module: fall through
  }
  return g.navigator?.hardwareConcurrency ?? 1;
}
