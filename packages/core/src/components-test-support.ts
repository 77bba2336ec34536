import { BaseObject } from './base-object.js';
import { sofaComponent } from './component-info.js';
import { Bool, Enum, Int, Real, RealArray, Str } from './data-types.js';
import { ComponentRegistry, componentModule } from './registry.js';
import { BaseAnimationLoop } from './behavior/solvers.js';

/** Test components exercising every kind of Data, links and init order. */
@sofaComponent({ name: 'TestLoop', category: 'AnimationLoop', description: 'test loop' })
export class TestLoop extends BaseAnimationLoop {
  steps = 0;
  step(dt: number): void {
    this.steps++;
    this.context.setTime(this.context.getTime() + dt);
  }
}

export const initOrder: string[] = [];

@sofaComponent({
  name: 'TestSource',
  aliases: ['OldTestSource'],
  category: 'Engine',
  description: 'a data source',
  templates: ['Vec3d', 'Rigid3d'],
  defaultTemplate: 'Vec3d',
})
export class TestSource extends BaseObject {
  readonly position = this.initData({ name: 'position', type: RealArray(3), default: new Float64Array(0), help: 'points' });
  readonly count = this.initData({ name: 'count', type: Int, default: 0, help: 'a count' });
  readonly label = this.initData({ name: 'label', type: Str, default: '', help: 'a label' });
  override init(): void {
    initOrder.push(`init ${this.getName()}`);
  }
  override bwdInit(): void {
    initOrder.push(`bwdInit ${this.getName()}`);
  }
}

@sofaComponent({ name: 'TestSink', category: 'Engine', description: 'a data sink' })
export class TestSink extends BaseObject {
  readonly position = this.initData({ name: 'position', type: RealArray(3), default: new Float64Array(0), help: 'points' });
  readonly stiffness = this.initData({ name: 'stiffness', type: Real, default: 1, help: 'a real', aliases: ['k'] });
  readonly enabled = this.initData({ name: 'enabled', type: Bool, default: true, help: 'a bool' });
  readonly method = this.initData({ name: 'method', type: Enum(['small', 'large']), default: 'large', help: 'an option' });
  readonly count = this.initData({ name: 'count', type: Int, default: 0, help: 'a count', renamedFrom: ['oldCount'] });
  readonly source = this.initLink({
    name: 'source',
    help: 'a source',
    accepts: (o: unknown): o is TestSource => o instanceof TestSource,
    expected: 'a TestSource',
    search: 'up',
  });
  override init(): void {
    initOrder.push(`init ${this.getName()}`);
  }
}

export function testRegistry(): ComponentRegistry {
  const r = new ComponentRegistry();
  r.load('test', componentModule('test', [TestLoop, TestSource, TestSink]));
  return r;
}
