import { BaseObject, DataExchangeEvent, Str, sofaComponent, type Data, type SofaEvent } from '@sofa-ts/core';

/**
 * MultiThreading's DataExchange: copies the Data `from` links to into the Data `to` links to, after
 * init (bwdInit) and at each DataExchangeEvent (sent by AnimationLoopParallelScheduler after its children's
 * steps). Between two exchanges the destination is its owner's to change (a state steps from the
 * copied value), as in SOFA, where the destination follows a copy that only changes at exchanges.
 * Values of the same type are copied; others go through SOFA's text form, as a Data link does.
 */
@sofaComponent({
  name: 'DataExchange',
  category: 'Engine',
  module: 'MultiThreading',
  description: 'Copies a Data into another after each step of AnimationLoopParallelScheduler.',
  templates: [
    'vector<Vec3d>',
    'vector<Vec2d>',
    'vector<double>',
    'vector<int>',
    'vector<unsigned int>',
    'vector<i>',
    'double',
    'int',
    'bool',
  ],
})
export class DataExchange extends BaseObject {
  readonly from = this.initData({ name: 'from', type: Str, default: '', help: 'link to the source Data (@path/to/component.data)' });
  readonly to = this.initData({ name: 'to', type: Str, default: '', help: 'link to the destination Data (@path/to/component.data)' });

  private source: Data<unknown> | undefined;
  private destination: Data<unknown> | undefined;

  override init(): void {
    super.init();
    this.source = this.from.parent;
    this.destination = this.to.parent;
    if (!this.source || !this.destination) {
      this.warn(
        `${this.source ? '' : "'from' "}${!this.source && !this.destination ? 'and ' : ''}${this.destination ? '' : "'to' "}must link to a Data (@path/to/component.data): nothing is exchanged`,
      );
      return;
    }
    // the link was only to find the destination: it is written to, not followed; and the
    // destination follows nothing else from now on (SOFA replaces its parent by the exchange)
    this.to.setParent(undefined);
    this.destination.setParent(undefined);
  }

  /** The first copy, once the states of the scene are initialised (SOFA's loaders fill them at parse time). */
  override bwdInit(): void {
    this.copy();
  }

  override handleEvent(event: SofaEvent): void {
    if (event instanceof DataExchangeEvent) this.copy();
  }

  private copy(): void {
    const s = this.source,
      d = this.destination;
    if (!s || !d) return;
    const v = s.value,
      dv = d.value;
    if (ArrayBuffer.isView(v) && ArrayBuffer.isView(dv) && v.constructor === dv.constructor) {
      // in place: a state's position Data is its live array
      const a = v as unknown as Float64Array,
        b = dv as unknown as Float64Array;
      if (a.length !== b.length) {
        if (!this.sizeWarned) this.warn(`'from' has ${a.length} values and 'to' ${b.length}: not copied`);
        this.sizeWarned = true;
        return;
      }
      b.set(a);
      d.touch();
      return;
    }
    d.value = s.spec.type.name === d.spec.type.name ? d.spec.type.clone(v) : d.spec.type.parse(s.spec.type.print(v));
  }

  private sizeWarned = false;
}
