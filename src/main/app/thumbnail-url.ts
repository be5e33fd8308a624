/**
 * The address the app takes a file's thumbnail from: the service's preview URL, asked for a size. Our
 * service (it says `previewState`, which the hosted one does not) makes a small WEBP for `?size=`. The
 * hosted service knows no `size`, and its preview of a web image is the original file: a thumbnail then
 * costs the whole file, so above ORIGINAL_THUMBNAIL_BYTES there is none (the view shows the file's
 * type), and below it the view scales the original down. Its previews of other files (a document's
 * first page) are web-sized already. `size` is added only for our service: the hosted URL is left as
 * it was signed.
 */
import type { AssetFile } from '../../shared/api/resources.js';

/** The largest original the app fetches from the hosted service for a thumbnail: a typical photo, not a print master. */
export const ORIGINAL_THUMBNAIL_BYTES = 8 * 1024 * 1024;

/** Images whose preview on the hosted service is the file itself (docs/api.md, AssetFile). */
const ORIGINAL_PREVIEWS: ReadonlySet<string> = new Set(['jpeg', 'png', 'gif', 'webp', 'avif', 'svg+xml']);

/** The thumbnail's URL for a box of `px` device pixels, or null when the file has none worth fetching. */
export function thumbnailUrl(file: Pick<AssetFile, 'previewUrl' | 'previewState' | 'mediaType' | 'size'>, px: number): string | null {
  const url = file.previewUrl ?? null;
  if (url === null) return null;
  if (file.previewState !== undefined) {
    const sized = new URL(url);
    sized.searchParams.set('size', String(px));
    return sized.toString();
  }
  const original = file.mediaType.type === 'image' && ORIGINAL_PREVIEWS.has(file.mediaType.subType);
  return original && file.size > ORIGINAL_THUMBNAIL_BYTES ? null : url;
}
