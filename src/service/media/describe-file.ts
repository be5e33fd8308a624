/**
 * What a stored file is: media type from its first bytes (file-type), falling back to the name's
 * extension (mime), the coarse fileType class, and pixel dimensions of images (sharp reads only headers).
 */
import { fileTypeFromFile } from 'file-type';
import mime from 'mime';
import sharp from 'sharp';
import type { FileType, MediaType } from '../../shared/api/resources.js';

export interface FileDescription {
  mediaType: MediaType;
  fileType: FileType;
  dimensions: { width: number; height: number } | null;
}

const fontTypes = new Set(['font', 'application/font-woff', 'application/vnd.ms-fontobject', 'application/x-font-ttf']);
const documentSubtypes = /^(pdf|msword|rtf|vnd\.|x-iwork|postscript|epub|json|xml|x-indesign|illustrator)/;

export function classify(media: MediaType): FileType {
  const full = `${media.type}/${media.subType}`;
  if (media.type === 'font' || fontTypes.has(full)) return 'FONT';
  if (media.type === 'image') return 'IMAGE';
  if (media.type === 'video') return 'VIDEO';
  if (media.type === 'audio') return 'AUDIO';
  if (media.type === 'text' || (media.type === 'application' && documentSubtypes.test(media.subType))) return 'DOCUMENT';
  return 'OTHER';
}

function splitMediaType(value: string): MediaType {
  const [type = 'application', subType = 'octet-stream'] = value.toLowerCase().split(';')[0]?.trim().split('/') ?? [];
  return { type, subType };
}

export async function describeFile(path: string, filename: string, size: number): Promise<FileDescription> {
  const sniffed = size > 0 ? await fileTypeFromFile(path).catch(() => undefined) : undefined;
  const mediaType = splitMediaType(sniffed?.mime ?? mime.getType(filename) ?? 'application/octet-stream');
  const fileType = classify(mediaType);
  let dimensions: FileDescription['dimensions'] = null;
  if (fileType === 'IMAGE' && size > 0) {
    const metadata = await sharp(path, { failOn: 'none' }).metadata().catch(() => undefined);
    if (metadata !== undefined) {
      // EXIF orientations 5–8 are rotated by 90°: report what a viewer shows.
      const rotated = (metadata.orientation ?? 1) >= 5;
      dimensions = rotated ? { width: metadata.height, height: metadata.width } : { width: metadata.width, height: metadata.height };
    }
  }
  return { mediaType, fileType, dimensions };
}
