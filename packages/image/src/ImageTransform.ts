import { DataEngine, DataParseError, Enum, Real, printNumber, sofaComponent, tokens, type DataType, type SofaEvent } from '@sofa-ts/core';
import { ImageContainer } from './ImageContainer.js';
import { ONE_IMAGE_TEMPLATES } from './image-support.js';

/** A Vec3d read as SOFA's stream reading does: the first 3 numbers (a Rigid3d "x y z qx qy qz qw"
 *  linked to it gives its translation). */
export const LenientVec3: DataType<Float64Array> = {
  name: 'Vec3d',
  parse: (t) => {
    const ts = tokens(t);
    if (ts.length < 3) throw new DataParseError('3 numbers', `got ${ts.length}`);
    const v = Float64Array.from(ts.slice(0, 3), Number);
    if (v.some((x) => !Number.isFinite(x))) throw new DataParseError('3 finite numbers', `got '${t.trim()}'`);
    return v;
  },
  print: (v) => Array.from(v, printNumber).join(' '),
  clone: (v) => Float64Array.from(v),
};

/** An int that also reads true / false as 1 / 0 (scenes write isPerspective="true"). */
const IntOrBool: DataType<number> = {
  name: 'int',
  parse: (t) => {
    const s = t.trim().toLowerCase();
    if (s === 'true') return 1;
    if (s === 'false') return 0;
    if (!/^[+-]?\d+$/.test(s)) throw new DataParseError('an integer (or true / false)', `got '${t.trim()}'`);
    return Number(s);
  },
  print: (v) => String(v),
  clone: (v) => v,
};

const UPDATES = ['No update', 'Every time step', 'Every draw'] as const;

/**
 * SOFA's ImageTransform: sets the transform of the ImageContainer above it from the Data the scene
 * sets (the others keep the container's values), at init and, with update = 1, at each
 * time step ("Every draw" has no draw in a batch run: it updates at each step too, with a warning).
 */
@sofaComponent({
  name: 'ImageTransform',
  category: 'Engine',
  module: 'image',
  description: 'Set the transform (translation, rotation, voxel size, ...) of the image container above it, once or at each step.',
  templates: ONE_IMAGE_TEMPLATES,
  defaultTemplate: 'ImageUC',
})
export class ImageTransform extends DataEngine {
  readonly translation = this.initData({ name: 'translation', type: LenientVec3, default: new Float64Array(3), help: 'Translation' });
  readonly euler = this.initData({ name: 'euler', type: LenientVec3, default: new Float64Array(3), help: 'Euler angles' });
  readonly scale = this.initData({ name: 'scale', type: LenientVec3, default: Float64Array.of(1, 1, 1), help: 'Voxel size' });
  readonly isPerspective = this.initData({ name: 'isPerspective', type: IntOrBool, default: 0, help: 'Is perspective?' });
  readonly timeOffset = this.initData({ name: 'timeOffset', type: Real, default: 0, help: 'Time offset' });
  readonly timeScale = this.initData({ name: 'timeScale', type: Real, default: 1, help: 'Time scale' });
  readonly updateType = this.initData({ name: 'update', type: Enum(UPDATES), default: UPDATES[0], help: 'Type of update' });
  private container: ImageContainer | undefined;

  override init(): void {
    this.container = this.context.getObject((o): o is ImageContainer => o instanceof ImageContainer, 'up');
    if (!this.container) throw this.error('no ImageContainer in this node or above');
    if (this.updateType.value === UPDATES[2])
      this.warnAbout(this.updateType, "'Every draw': a batch run has no draw; the transform is updated at each time step");
    this.update();
  }

  override handleEvent(event: SofaEvent): void {
    if (event.type === 'AnimateBeginEvent' && this.updateType.value !== UPDATES[0]) this.update();
  }

  protected updateOutputs(): void {
    const c = this.container;
    if (!c) return;
    const t = c.transform.value.clone();
    const p = t.params;
    if (this.translation.isSet) p.set(this.translation.value, 0);
    if (this.euler.isSet) p.set(this.euler.value, 3);
    if (this.scale.isSet) p.set(this.scale.value, 6);
    if (this.isPerspective.isSet) p[11] = this.isPerspective.value;
    if (this.timeOffset.isSet) p[9] = this.timeOffset.value;
    if (this.timeScale.isSet) p[10] = this.timeScale.value;
    t.update();
    c.transform.value = t;
  }
}
