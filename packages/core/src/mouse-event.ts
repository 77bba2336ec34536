import { SofaEvent } from './events.js';

/** What happened to the mouse (SOFA's MouseEvent::State). */
export type MouseState =
  'Move' | 'LeftPressed' | 'LeftReleased' | 'RightPressed' | 'RightReleased' | 'MiddlePressed' | 'MiddleReleased' | 'Wheel' | 'Reset';

/**
 * A mouse event sent through the scene graph by a viewer (SOFA's MouseEvent): the state and the
 * pointer position in pixels (posX, posY), the wheel's delta for 'Wheel'. Batch runs send none.
 */
export class MouseEvent extends SofaEvent {
  readonly type = 'MouseEvent';
  constructor(
    readonly state: MouseState,
    readonly posX = 0,
    readonly posY = 0,
    readonly wheelDelta = 0,
  ) {
    super();
  }
}
