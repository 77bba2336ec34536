import { BaseObject } from './base-object.js';
import { sofaComponent } from './component-info.js';
import { Str } from './data-types.js';

/**
 * SOFA's MakeAlias: from this element on, `alias` names the component `targetcomponent` in the
 * scene (the scene builder applies it when it creates this component; nothing happens at run time).
 */
@sofaComponent({
  name: 'MakeAlias',
  category: 'SceneUtility',
  module: 'Sofa.Component.SceneUtility',
  description: 'Give a component another name for the elements that follow in the scene.',
})
export class MakeAlias extends BaseObject {
  readonly targetcomponent = this.initData({
    name: 'targetcomponent',
    type: Str,
    default: '',
    help: 'the registered component name the alias stands for',
  });
  readonly alias = this.initData({ name: 'alias', type: Str, default: '', help: 'the new name' });
}

/**
 * SOFA's MakeDataAlias: from this element on, the attribute `alias` of every `componentname`
 * element sets its Data `dataname` (applied by the scene builder).
 */
@sofaComponent({
  name: 'MakeDataAlias',
  category: 'SceneUtility',
  module: 'Sofa.Component.SceneUtility',
  description: 'Give a Data of a component another attribute name for the elements that follow in the scene.',
})
export class MakeDataAlias extends BaseObject {
  readonly componentname = this.initData({ name: 'componentname', type: Str, default: '', help: 'the component whose Data gets an alias' });
  readonly dataname = this.initData({ name: 'dataname', type: Str, default: '', help: 'the Data that gets an alias' });
  readonly alias = this.initData({ name: 'alias', type: Str, default: '', help: 'the attribute name that will set the Data' });
}
