import { BaseObject, Bool, Str, UInt, host, outputFilePath, type SofaEvent } from '@sofa-ts/core';
import { sofaComponent } from '@sofa-ts/core';
import { ImageData, SofaImage } from './image.js';
import { ImageLPTransform, ImageTransformData } from './image-transform.js';
import { ONE_IMAGE_TEMPLATES } from './image-support.js';
import { metaImageFiles } from './io/metaimage-writer.js';

/**
 * SOFA's ImageExporter: writes `image` with its `transform` as a MetaImage (name.mhd + name.raw;
 * a .raw name writes the .mhd beside it) at init (exportAtBegin), every exportEveryNumberOfSteps
 * steps, and at the end (exportAtEnd). Files go beside the scene, or under the run's output folder;
 * never into the working directory.
 */
@sofaComponent({
  name: 'ImageExporter',
  category: 'Exporter',
  module: 'image',
  description: 'Save an image (MetaImage .mhd/.raw) at the beginning, every n steps or at the end of the simulation.',
  templates: ONE_IMAGE_TEMPLATES,
  defaultTemplate: 'ImageUC',
})
export class ImageExporter extends BaseObject {
  readonly image = this.initData({ name: 'image', type: ImageData, default: SofaImage.empty(), help: 'image' });
  readonly transform = this.initData({
    name: 'transform',
    type: ImageTransformData,
    default: new ImageLPTransform(),
    help: 'image transform',
  });
  readonly filename = this.initData({ name: 'filename', type: Str, default: '', help: 'output file' });
  readonly exportEveryNbSteps = this.initData({
    name: 'exportEveryNumberOfSteps',
    type: UInt,
    default: 0,
    help: 'export file only at specified number of steps (0=disable)',
  });
  readonly exportAtBegin = this.initData({ name: 'exportAtBegin', type: Bool, default: false, help: 'export file at the initialization' });
  readonly exportAtEnd = this.initData({
    name: 'exportAtEnd',
    type: Bool,
    default: false,
    help: 'export file when the simulation is finished',
  });
  private steps = 0;
  readonly checkpointFields: readonly string[] = ['steps'];

  override init(): void {
    const f = this.filename.value.trim();
    if (!/\.(mhd|raw)$/i.test(f))
      throw this.dataError(this.filename, `cannot write '${f}': sofa-ts writes images as MetaImage only (a .mhd or .raw filename)`);
    this.steps = 0;
  }

  override bwdInit(): void {
    if (this.exportAtBegin.value) this.write();
  }

  override handleEvent(event: SofaEvent): void {
    if (event.type !== 'AnimateEndEvent') return;
    this.steps++;
    const every = this.exportEveryNbSteps.value;
    if (every > 0 && this.steps % every === 0) this.write();
  }

  /** SOFA's cleanup: the end of the simulation. */
  cleanup(): void {
    if (this.exportAtEnd.value) this.write();
  }

  /** Writes the .mhd and .raw files; returns the header's path. */
  write(): string {
    const img = this.image.value;
    if (img.isEmpty) throw this.error('no image to export (image is empty)');
    const h = host();
    const header = outputFilePath(this, this.filename.value.trim().replace(/\.raw$/i, '.mhd'));
    const rawPath = header.replace(/\.mhd$/i, '.raw');
    const files = metaImageFiles(img, this.transform.value, h.path.basename(rawPath));
    h.writeFile(header, files.header);
    h.writeFile(rawPath, files.raw);
    return header;
  }
}
