import type { BaseObject } from '@sofa-ts/core';
import { IMAGE_TEMPLATES, pixelTypeOfTemplate, type PixelType } from './image.js';

/** The pixel type of a component's i-th image template ("ImageUC,ImageD": 0 → UC, 1 → D), the
 *  registered default's when the scene gives none. */
export function templatePixelType(obj: BaseObject, i = 0, fallback: PixelType = 'UC'): PixelType {
  const parts = obj.template.split(',');
  return pixelTypeOfTemplate(parts[i] ?? '') ?? fallback;
}

/** Templates of the one-image components (ImageUC first: SOFA's default). */
export const ONE_IMAGE_TEMPLATES: readonly string[] = IMAGE_TEMPLATES;

/** The pairs of templates of filters (input, output) SOFA registers: every type to itself and to
 *  ImageD, and the casts the plugin's scenes use. */
export function imagePairTemplates(extra: readonly string[] = []): string[] {
  const out = new Set<string>(['ImageUC,ImageUC']);
  for (const t of IMAGE_TEMPLATES) {
    out.add(`${t},${t}`);
    out.add(`${t},ImageD`);
  }
  for (const e of extra) out.add(e);
  return [...out];
}
