/**
 * The API client reports a transfer's progress as the running total of one request (it starts again
 * at 0 for every part and every retry), and an upload sends several parts of one file at once; the
 * engine's `onBytes` promises the bytes moved since the last call, which only the request's own
 * listener can work out. This wraps the two streaming calls so their listeners get increments.
 */
import type { AssetApi, ProgressListener } from '../api/index.js';

/** A listener of running totals that passes on the increments (a total that drops began a new count). */
export function incrementsOf(listener: ProgressListener): ProgressListener {
  let last = 0;
  return (total) => {
    const increment = total >= last ? total - last : total;
    last = total;
    if (increment > 0) listener(increment);
  };
}

/** The same API, its putPart and downloadToFile listeners told increments instead of running totals. */
export function reportingIncrements(api: AssetApi): AssetApi {
  return {
    ...api,
    putPart: (request) => api.putPart(request.onProgress === undefined ? request : { ...request, onProgress: incrementsOf(request.onProgress) }),
    downloadToFile: (url, tempPath, options) =>
      api.downloadToFile(url, tempPath, options?.onProgress === undefined ? options : { ...options, onProgress: incrementsOf(options.onProgress) }),
  };
}
