/**
 * What a finished quick download says, in the window's notice and the desktop's notification: the name
 * it landed under (a rendition's name already names its preset), "original" when the file arrived as
 * it is, and why when a preset was asked for and did not apply.
 */
import type { QuickDownloadView } from './quick-download.js';

export function downloadedWords(download: Pick<QuickDownloadView, 'filename' | 'presetId' | 'note'>): string {
  if (download.note !== null) return `Downloaded ${download.filename}: ${download.note}`;
  return download.presetId === null ? `Downloaded ${download.filename} (original).` : `Downloaded ${download.filename}.`;
}
