/**
 * Wire types of the asset service (API.md §1–3), shared by the service and the sync client.
 * Plain data only: this folder runs anywhere (no Node, DOM or Electron).
 * Optional members are the ones a foreign (hosted) server may leave out; the client tolerates that.
 */

/** One permission the caller holds (API.md §1). A missing action means "not allowed". */
export interface PermittedAction {
  /** e.g. `ASSET`, `FIELD`, `FIELD_OPTION`, `ASSETS` (account-wide). */
  resourceType: string;
  /** The resource the action applies to, or null when it applies to the whole type. */
  resourceId: string | null;
  /** e.g. `VIEW`, `EDIT`, `DELETE`, `CREATE_ASSETS`. */
  action: string;
}

/** `{ result, permittedActions }`: the envelope of a single resource. */
export interface Envelope<R> {
  result: R;
  permittedActions: PermittedAction[];
}

/** A page of search results (scroll responses add `scrollId`). */
export interface SearchPage<R> {
  results: Envelope<R>[];
  totalResults: number;
  scrollId?: string;
}

/** The answer of a synchronous batch: per-item results keyed by the caller's batchItemId. */
export interface BatchResult<R> {
  successes: Record<string, Envelope<R> | R>;
  failures: Record<string, ErrorBody>;
}

/** The body of every 4xx/5xx answer (Spring-style, plus our stable `code`). */
export interface ErrorBody {
  timestamp: string;
  status: number;
  error: string;
  message: string;
  path: string;
  /** Stable UPPER_SNAKE identifier programs switch on ([ours]; absent on the hosted service). */
  code?: string;
}

export interface User {
  id: string;
  email: string;
  name?: string | null;
  accountId: string;
}

export type LifecycleState = 'STAGED' | 'PENDING_APPROVAL' | 'LIVE' | 'BINNED';

export interface LifecycleStatus {
  state: LifecycleState;
  dateStaged: string | null;
  datePendingApproval: string | null;
  dateLive: string | null;
  stagedBy: string | null;
}

export type FileType = 'IMAGE' | 'VIDEO' | 'AUDIO' | 'DOCUMENT' | 'FONT' | 'OTHER';

export interface MediaType {
  type: string;
  subType: string;
}

export interface AssetFile {
  id: string;
  assetId: string;
  filename: string;
  size: number;
  /** MD5 hex of the bytes. */
  checksum: string;
  /** SHA-256 hex of the bytes ([ours]; absent on the hosted service). */
  sha256?: string;
  mediaType: MediaType;
  fileType: FileType;
  dimensions: { width: number; height: number } | null;
  dateAdded: string;
  addedBy: string | null;
  previewUrl?: string | null;
  /**
   * [ours] Whether the file has a preview: `AVAILABLE` (previewUrl is set; made now or when first
   * asked), `FAILED` (it could not be made: previewUrl is null and previewError says why), `NONE` (no
   * preview for this kind of file). Absent on the hosted service.
   */
  previewState?: 'AVAILABLE' | 'FAILED' | 'NONE';
  /** [ours] Why the preview could not be made, when previewState is FAILED. */
  previewError?: PreviewError;
}

/** [ours] A preview that could not be made: `code` is always PREVIEW_FAILED, `reason` says why. */
export interface PreviewError {
  code: 'PREVIEW_FAILED';
  /** SVG_TOO_COMPLEX, TIME_LIMIT, MEMORY_LIMIT, CRASHED or UNREADABLE. */
  reason: string;
  message: string;
}

export interface Asset {
  id: string;
  accountId: string;
  metadata: { values: Record<string, string[]> };
  currentAssetFile: AssetFile | null;
  lifecycleStatus: LifecycleStatus;
  dateLastModified: string;
}

export interface Field {
  id: string;
  name: string;
  hasFixedOptions: boolean;
  hierarchical: boolean;
  multiValue: boolean;
  /** Sic: the service's spelling. True for the built-in Folders field. */
  indestructable: boolean;
}

export interface FieldOption {
  id: string;
  fieldId: string;
  value: string;
  /** 0-based among siblings. */
  position: number;
  /** Said by the service, with no children counted (wire-shapes.ts); false when it said nothing. */
  leaf: boolean;
  numberOfChildren: number;
  /** The parent with its own parent chain, or null at the top level. Never trusted in search results. */
  parent: FieldOption | null;
}

export type JobState = 'QUEUED' | 'RUNNING' | 'COMPLETED' | 'FAILED';

export interface Job<S = unknown> {
  id: string;
  type: string;
  state: JobState;
  /** 0.0–1.0 */
  progress: number;
  dateCreated: string;
  dateCompleted?: string | null;
  successes?: Record<string, S>;
  failures?: Record<string, ErrorBody>;
  error?: ErrorBody | null;
  /** The job's own result besides its items' (a zipped download job: `DownloadZip`) [ours]. */
  result?: unknown;
  /**
   * On an unfinished job [ours]: the service holds a poll of it until it moves, this long at most, ms.
   * A client may then ask again as soon as an answer shows it moved (docs/api.md, "Job polls are held").
   */
  pollHoldMs?: number;
}

export interface AssetUploadPart {
  partNumber: number;
  /** Signed, expiring URL to PUT the part's bytes to, without the bearer token. */
  url: string;
  /** `start` inclusive, `end` exclusive. */
  byteRange: { start: number; end: number };
}

export interface AssetUpload {
  id: string;
  uploadId: string;
  assetId: string;
  assetFileId: string | null;
  size: number;
  partSize: number;
  expiresAt: string;
  parts: AssetUploadPart[];
}

/** A success item of the asset-and-upload and asset-upload batch jobs. */
export interface UploadJobSuccess {
  assetId: string;
  upload: AssetUpload;
}

/** A success item of the download batch job. */
export interface DownloadItem {
  url: string;
  filename: string;
  size: number;
  checksum: string;
  contentType: string;
}

/** A preset transformation (SERVICE-SPEC.md §2.7): found with `GET /grouped-preset-transformations`. */
export interface PresetTransformation {
  id: string;
  accountId: string;
  name: string;
  groupId: string | null;
  /** 0-based, among the presets of its group. */
  position: number;
  /** What it does: the candidateTransformations of a CUSTOM description (API.md §6) [ours]. */
  candidateTransformations?: unknown[];
}

/** The `result` of a download batch job asked for `zip: true` [ours]: one zip of every item's file. */
export interface DownloadZip {
  /** Signed, expiring, no bearer; honours `Range`. */
  zipUrl: string;
  filename: string;
  size: number;
  /** MD5 hex of the zip's bytes. */
  checksum: string;
}

export interface CustomIntegrationSettings {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}
