/** Events sent through the scene graph (SOFA's Event hierarchy, reduced to what components use). */
export abstract class SofaEvent {
  abstract readonly type: string;
  /** A component that consumed the event may stop its propagation. */
  handled = false;
}

/** Sent to every component at the start of an animation step, before any computation. */
export class AnimateBeginEvent extends SofaEvent {
  readonly type = 'AnimateBeginEvent';
  constructor(readonly dt: number) {
    super();
  }
}

/** Sent at the end of an animation step, once time has advanced and mappings are propagated. */
export class AnimateEndEvent extends SofaEvent {
  readonly type = 'AnimateEndEvent';
  constructor(readonly dt: number) {
    super();
  }
}

/** Sent when the simulation is reset to its initial state. */
export class ResetEvent extends SofaEvent {
  readonly type = 'ResetEvent';
}

/** A key pressed (SOFA's KeypressedEvent): `key` is the character, as SOFA's `getKey()`. */
export class KeypressedEvent extends SofaEvent {
  readonly type = 'KeypressedEvent';
  constructor(readonly key: string) {
    super();
  }
}

/** A key released (SOFA's KeyreleasedEvent). */
export class KeyreleasedEvent extends SofaEvent {
  readonly type = 'KeyreleasedEvent';
  constructor(readonly key: string) {
    super();
  }
}

/**
 * Sent through the whole graph by MultiThreading's AnimationLoopParallelScheduler after its
 * children's steps (SOFA's DataExchangeEvent): DataExchange copies its source then.
 */
export class DataExchangeEvent extends SofaEvent {
  readonly type = 'DataExchangeEvent';
  constructor(readonly dt: number) {
    super();
  }
}

/** Sent once through the whole graph after the simulation's init (SOFA's SimulationInitDoneEvent). */
export class SimulationInitDoneEvent extends SofaEvent {
  readonly type = 'SimulationInitDoneEvent';
}
