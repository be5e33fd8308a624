/**
 * How a preview that could not be made reads over HTTP: `422 PREVIEW_FAILED`, the message saying why
 * (refused as too complex, stopped over a time or memory limit, unreadable). The asset envelope says
 * the same, with the stable name of that why (render-asset.ts: `previewState`, `previewError`).
 */
import { ServiceError } from '../errors/service-error.js';
import type { PreviewFailure } from './preview-maker.js';

export function previewFailed(failure: PreviewFailure): ServiceError {
  return new ServiceError('PREVIEW_FAILED', `The preview of this file could not be made. ${failure.message} The file itself can still be downloaded.`);
}
