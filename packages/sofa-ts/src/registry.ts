import { ComponentRegistry, coreModule } from '@sofa-ts/core';
import { collisionModule } from '@sofa-ts/collision';
import { compliantModule } from '@sofa-ts/compliant';
import { constraintModule } from '@sofa-ts/constraint';
import { engineModule } from '@sofa-ts/engine';
import { imageModule } from '@sofa-ts/image';
// io's components through its browser-safe entries (its index also holds Node-only file tools)
import ioModule from '@sofa-ts/io/module';
import { exportModule } from '@sofa-ts/io/export';
import { mappingModule } from '@sofa-ts/mapping';
import { mechanicsModule } from '@sofa-ts/mechanics';
import { solversModule } from '@sofa-ts/solvers';
import { softRobotsModule } from '@sofa-ts/softrobots';
import { topologyModule } from '@sofa-ts/topology';
import { visualModule } from '@sofa-ts/visual';

/** The built-in packages of components, by package name. */
export const standardModules = [
  ['@sofa-ts/core', coreModule],
  ['@sofa-ts/topology', topologyModule],
  ['@sofa-ts/engine', engineModule],
  ['@sofa-ts/mechanics', mechanicsModule],
  ['@sofa-ts/mapping', mappingModule],
  ['@sofa-ts/solvers', solversModule],
  ['@sofa-ts/visual', visualModule],
  ['@sofa-ts/collision', collisionModule],
  ['@sofa-ts/compliant', compliantModule],
  ['@sofa-ts/constraint', constraintModule],
  ['@sofa-ts/softrobots', softRobotsModule],
  ['@sofa-ts/image', imageModule],
  ['@sofa-ts/io', ioModule],
  ['@sofa-ts/io/export', exportModule],
] as const;

/** A registry holding every standard component (plugins are added per scene by RequiredPlugin). */
export function createRegistry(): ComponentRegistry {
  const r = new ComponentRegistry();
  for (const [name, module] of standardModules) r.load(name, module);
  return r;
}
