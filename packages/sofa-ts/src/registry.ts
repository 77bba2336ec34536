import { ComponentRegistry, coreModule } from '@sofa-ts/core';
import { mechanicsModule } from '@sofa-ts/mechanics';
import { solversModule } from '@sofa-ts/solvers';
import { visualModule } from '@sofa-ts/visual';

/** The built-in packages of components, by package name. */
export const standardModules = [
  ['@sofa-ts/core', coreModule],
  ['@sofa-ts/mechanics', mechanicsModule],
  ['@sofa-ts/solvers', solversModule],
  ['@sofa-ts/visual', visualModule],
] as const;

/** A registry holding every standard component (plugins are added per scene by RequiredPlugin). */
export function createRegistry(): ComponentRegistry {
  const r = new ComponentRegistry();
  for (const [name, module] of standardModules) r.load(name, module);
  return r;
}
