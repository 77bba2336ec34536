export { imageComponents } from './components.js';
export { default as imageModule } from './module.js';
export * from './image.js';
export * from './image-transform.js';
export * from './ImageContainer.js';
export * from './ImageViewer.js';
export { readImageFile, IMAGE_FORMATS } from './io/read-image-file.js';
export * from './MeshToImageEngine.js';
export * from './ImageFilter.js';
