import type { ComponentClass } from '@sofa-ts/core';
import { ImageContainer } from './ImageContainer.js';
import { ImageViewer } from './ImageViewer.js';

/** Every component of @sofa-ts/image (SOFA's image plugin), registered by module.ts. */
export const imageComponents: readonly ComponentClass[] = [ImageContainer, ImageViewer];
