import { host } from '@sofa-ts/core';

/**
 * SOFA's data paths for a scene inside a SOFA tree (what a SOFA build's DataRepository holds):
 * ROOT/share and ROOT/examples for the nearest folder ROOT above the scene that holds both, so that
 * a scene under ROOT/examples and a plugin's scene under ROOT/applications/plugins/X/examples find
 * meshes and `Objects/` includes there as in SOFA. None for a scene outside a SOFA tree. loadScene
 * searches them after the user's data paths and SOFA_DATA_PATH.
 */
export function sofaTreeDataPaths(scene: string): string[] {
  const h = host();
  for (let dir = h.path.dirname(h.path.resolve(scene)); ; dir = h.path.dirname(dir)) {
    if (h.path.basename(dir) === 'examples' && h.exists(h.path.join(dir, '..', 'share'))) return [h.path.resolve(dir, '..', 'share'), dir];
    if (h.exists(h.path.join(dir, 'share')) && h.exists(h.path.join(dir, 'examples')))
      return [h.path.join(dir, 'share'), h.path.join(dir, 'examples')];
    if (h.path.dirname(dir) === dir) return [];
  }
}
