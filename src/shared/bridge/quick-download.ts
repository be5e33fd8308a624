/**
 * Quick download as it crosses the bridge: find an asset by file name or keywords, fetch it
 * as it is or through one of the service's presets into the Downloads folder, follow its progress, and
 * remember it for the tray. Leaf file of the bridge contract: plain JSON-safe data only, importing
 * nothing (app-state.ts imports it), so no cycle forms.
 */

/** One asset a quick search found. */
export interface QuickSearchResult {
  assetId: string;
  filename: string;
  size: number;
  /** The service's kind of file: IMAGE, VIDEO, DOCUMENT, … */
  fileType: string;
  dimensions: { width: number; height: number } | null;
  /**
   * A signed, expiring thumbnail URL of the service (a small image of our service's, or the hosted
   * service's preview, which may be the whole original: the view scales it), or null when there is none.
   */
  previewUrl: string | null;
  /**
   * The presets that would transform this file (the service says; the others hand it over as it is),
   * or null when the service could not say: then every preset is offered and the download tells.
   */
  presetIds: string[] | null;
}

/** A preset transformation of the service, as the user picks it. */
export interface QuickPreset {
  id: string;
  name: string;
}

export interface QuickDownloadRequest {
  assetId: string;
  /** A preset's id, or null for the original file. */
  presetId: string | null;
}

/** One quick download, from start to the file in place (pushed as `quick-download` events). */
export interface QuickDownloadView {
  /** Grows with every download of this run of the app. */
  id: number;
  assetId: string;
  filename: string;
  presetId: string | null;
  /** The preset's name, or "Original" — also when a preset was asked and the original is what arrived. */
  presetName: string;
  /** What the user should know beyond the name: why the original arrived for a preset; null when nothing. */
  note: string | null;
  status: 'running' | 'done' | 'failed';
  bytesDone: number;
  /** The size the service announced, once the job answered; null before. */
  bytesTotal: number | null;
  /** Where the file landed (absolute), once done. */
  path: string | null;
  /** Why it failed: a BridgeErrorData (`{ name, code, message }`), spelled out to keep this file a leaf. */
  error: { name: string; code: string; message: string } | null;
}

/** A quick download remembered across starts, newest first in the state (the tray's "recent assets"). */
export interface RecentQuickDownload {
  assetId: string;
  filename: string;
  /** The preset used last for this asset (null: the original), which the tray uses again. */
  presetId: string | null;
  presetName: string;
  /** ISO time of the download. */
  at: string;
}

/** What the state says about quick download. */
export interface QuickDownloadState {
  /** The folder downloads land in (the setting, or the system's Downloads folder). */
  folder: string;
  /** Up to 8, newest first, one per asset. */
  recent: RecentQuickDownload[];
  /** The service's presets, once they were read (empty without an account). */
  presets: QuickPreset[];
}
