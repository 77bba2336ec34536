import { host } from './host/host.js';
import { BaseObject } from './base-object.js';
import { sofaComponent } from './component-info.js';
import { addSceneDataPath } from './data-files.js';
import { Str } from './data-types.js';

/**
 * SOFA's AddDataRepository (and its base AddResourceRepository): adds a folder to the data paths of
 * the scene, searched after those already there, so that the file names of the components that
 * come after it (meshes, textures, state files) are found in it. A relative path is taken from the
 * folder of the file that declares the component (the scene file). In SOFA it acts when the scene is
 * parsed; here the loader adds it for the includes that follow it and the component adds it to the
 * scene's data paths at init, which comes before the init of every component after it.
 */
@sofaComponent({
  name: 'AddDataRepository',
  aliases: ['AddResourceRepository'],
  category: 'SceneUtility',
  module: 'Sofa.Component.SceneUtility',
  description: 'Add a folder to the data paths where the scene looks for its files.',
})
export class AddDataRepository extends BaseObject {
  readonly path = this.initData({
    name: 'path',
    type: Str,
    default: '',
    help: 'folder added to the data paths (relative: from the folder of the scene file)',
  });

  /** The absolute folder added, once initialised. */
  addedPath = '';

  override init(): void {
    const given = this.path.value.trim();
    if (given === '') throw this.error('no path given', "set path='folder/with/data'");
    const h = host();
    const base = this.loc && !/^<.*>$/.test(this.loc.file) ? h.path.dirname(this.loc.file) : h.cwd();
    const dir = h.path.resolve(base, given);
    if (!h.exists(dir)) throw this.error(`'${dir}' does not exist`);
    if (h.isFile(dir)) throw this.error(`'${dir}' is not a folder`);
    this.addedPath = dir;
    addSceneDataPath(this.context.root, dir);
  }
}
