/**
 * The page worker's code: renders the first page of a document with MuPDF (the `mupdf` WASM build,
 * loaded from `workerData.mupdfUrl` on first use) into tightly packed RGB pixels, scaled so the longer
 * side is `size` px. MuPDF's work is synchronous and a large page takes seconds, so it runs here, never
 * on the service's event loop (document-renderer.ts carries the messages).
 *
 * Plain JavaScript evaluated from a string, as digest-worker-source.ts, so the same code runs from tsc
 * output, under vitest (which cannot load .ts workers) and inside a bundled app.
 *
 * Messages: `{ seq, path?, bytes?, mediaType, size }` (the document from a file, read here, or its
 * bytes), answered first with `{ seq, started: true }`, then with `{ seq, width, height, pixels }`
 * (the pixels' buffer transferred) or `{ seq, error }`.
 */
export const pageWorkerSource = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
let loading;
const mupdf = () => (loading ??= import(workerData.mupdfUrl));

function firstPage(mupdf, bytes, mediaType, size) {
  const document = mupdf.Document.openDocument(bytes, mediaType);
  try {
    if (document.countPages() === 0) throw new Error('the document has no pages');
    const page = document.loadPage(0);
    try {
      const [x0, y0, x1, y1] = page.getBounds();
      const scale = size / Math.max(1, x1 - x0, y1 - y0);
      const pixmap = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false);
      try {
        const width = pixmap.getWidth();
        const height = pixmap.getHeight();
        const stride = pixmap.getStride();
        const source = pixmap.getPixels();
        // Rows may be padded: copy them out tightly, and out of the WASM heap.
        const pixels = new Uint8Array(width * height * 3);
        for (let row = 0; row < height; row++) pixels.set(source.subarray(row * stride, row * stride + width * 3), row * width * 3);
        return { width, height, pixels };
      } finally {
        pixmap.destroy();
      }
    } finally {
      page.destroy();
    }
  } finally {
    document.destroy();
  }
}

parentPort.on('message', async (message) => {
  const { seq } = message;
  try {
    const library = await mupdf();
    parentPort.postMessage({ seq, started: true });
    const bytes = message.bytes === undefined ? readFileSync(message.path) : message.bytes;
    const page = firstPage(library, bytes, message.mediaType, message.size);
    parentPort.postMessage({ seq, ...page }, [page.pixels.buffer]);
  } catch (error) {
    parentPort.postMessage({ seq, error: String((error && error.message) || error) });
  }
});
`;
