import { host, requireDataFile, type BaseObject } from '@sofa-ts/core';
import { parseAnalyzeHeader, readAnalyze } from './analyze.js';
import { readBmp } from './bmp.js';
import type { ImageFile } from './image-file.js';
import { readInrImage, rotationVectorToMatrix } from './inrimage.js';
import { parseMetaImageHeader, readMetaImage } from './metaimage.js';

const VIDEO = /\.(avi|mov|asf|divx|flv|mpg|m1v|m2v|m4v|mjp|mkv|mpe|movie|ogm|ogg|qt|rm|vob|wmv|xvid|mpeg)$/i;

/** The formats ImageContainer reads, for messages. */
export const IMAGE_FORMATS = 'MetaImage (.mhd/.raw), INRIMAGE (.inr, .inr.gz), Analyze/NIfTI (.hdr/.img, .nii), BMP (.bmp)';

/**
 * Reads the image file `name` of a component, found as SOFA finds data files (the scene's folder,
 * the data paths), by its extension as SOFA's ImageContainer dispatches: a .raw stands for the
 * .mhd beside it. Throws a located error when the file is missing, malformed or of a format
 * sofa-ts does not read.
 */
export function readImageFile(obj: BaseObject, name: string): ImageFile {
  const h = host();
  const lower = name.toLowerCase();
  const fail = (e: unknown): never => {
    throw obj.error(`cannot read image '${name}': ${(e as Error).message}`);
  };
  if (lower.endsWith('.inr.gz') || lower.endsWith('.inr')) {
    const file = requireDataFile(obj, name, 'image file');
    let bytes = h.readBytes(file);
    if (lower.endsWith('.gz')) {
      if (!h.gunzip) throw obj.error(`cannot read '${name}': this host has no gunzip`);
      try {
        bytes = h.gunzip(bytes);
      } catch (e) {
        fail(e);
      }
    }
    try {
      const inr = readInrImage(bytes, name);
      return { ...inr, rotationMatrix: rotationVectorToMatrix(inr.rotationVector) };
    } catch (e) {
      return fail(e);
    }
  }
  if (lower.endsWith('.mhd') || lower.endsWith('.raw')) {
    const headerName = lower.endsWith('.raw') ? name.slice(0, -4) + '.mhd' : name;
    const headerFile = requireDataFile(obj, headerName, 'MetaImage header');
    try {
      const header = parseMetaImageHeader(h.readText(headerFile, 'utf8'));
      const dir = h.path.dirname(headerFile);
      const dataFile = header.dataFile ? h.path.resolve(dir, header.dataFile) : headerFile.replace(/\.mhd$/i, '.raw');
      if (header.dataFile === 'LOCAL') throw new Error('ElementDataFile = LOCAL (data inside the header) is not supported');
      if (!h.isFile(dataFile)) throw new Error(`its data file ${dataFile} is missing`);
      return readMetaImage(header, h.readBytes(dataFile), dataFile);
    } catch (e) {
      return fail(e);
    }
  }
  if (lower.endsWith('.hdr') || lower.endsWith('.nii')) {
    const file = requireDataFile(obj, name, 'Analyze header');
    try {
      const bytes = h.readBytes(file);
      const header = parseAnalyzeHeader(bytes, file);
      if (lower.endsWith('.nii')) return readAnalyze(header, bytes, Math.max(352, Math.round(header.voxOffset)), file);
      const img = file.replace(/\.hdr$/i, '.img');
      if (!h.isFile(img)) throw new Error(`its voxel file ${img} is missing`);
      return readAnalyze(header, h.readBytes(img), 0, img);
    } catch (e) {
      return fail(e);
    }
  }
  if (lower.endsWith('.bmp')) {
    const file = requireDataFile(obj, name, 'image file');
    try {
      return readBmp(h.readBytes(file), file);
    } catch (e) {
      return fail(e);
    }
  }
  if (VIDEO.test(lower))
    throw obj.error(
      `cannot read '${name}': video files are not read by sofa-ts (SOFA reads them through an external ffmpeg)`,
      `formats read: ${IMAGE_FORMATS}`,
    );
  throw obj.error(`cannot read '${name}': not an image format sofa-ts reads`, `formats read: ${IMAGE_FORMATS}`);
}
