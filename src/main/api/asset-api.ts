/**
 * AssetApi: everything the sync engine asks of the asset service, as plain data in and out. The HTTP
 * client (create-api-client.ts) implements it against a real server; an in-memory twin can implement
 * it for the deterministic simulation. Keep it narrow: add a member only when the engine needs it, and
 * never let a transport detail (got, streams, headers) leak into a signature. Every failure is an
 * ApiError with a stable `code`.
 */
import type {
  Asset,
  AssetFile,
  AssetUpload,
  DownloadItem,
  DownloadZip,
  PresetTransformation,
  Envelope,
  Field,
  FieldOption,
  LifecycleState,
  SearchPage,
  UploadJobSuccess,
  User,
} from '../../shared/api/resources.js';
import type { ApiError } from './api-error.js';
import type { ServiceFeatures } from '../../shared/api/change-feed.js';
import type { FollowChangesRequest } from './change-events.js';

/** A search criterion (API.md §5), e.g. `{ type: 'FIELD_EQUALS', field, value }`. Built by the engine. */
export type Criterion = { readonly type: string } & Readonly<Record<string, unknown>>;

/** A field reference of an asset search, or a plain option-field name for option searches. */
export type SortField = string | { type: 'FIXED'; fieldName: string } | { type: 'FIELD'; fieldId: string };

export interface Sort {
  field: SortField;
  order: 'ASC' | 'DESC';
}

export interface SearchRequest {
  criterion: Criterion;
  sorts: Sort[];
  /** Paged searches only; from + pageSize ≤ 10,000. */
  from?: number;
  pageSize?: number;
}

/** A job's per-item outcome, keyed by batchItemId (or asset id for selector jobs). */
export interface BatchOutcome<S> {
  /** The job that produced it; null for a synchronous batch. */
  jobId: string | null;
  successes: Record<string, S>;
  failures: Record<string, ApiError>;
  /** The job's own result besides its items', when it has one (a zipped download's zip). */
  result?: unknown;
}

/** How a download job should transform its files, and whether to zip them. */
export interface DownloadRequestOptions {
  /** `{type:'PRESET', presetTransformationId}` or `{type:'CUSTOM', candidateTransformations}` (API.md §6); absent: originals. */
  transformationDescription?: unknown;
  zip?: boolean;
  /**
   * Each item's file as soon as the job reports it, once per item, before the outcome: while the job
   * runs from a service that shows successes then [ours], all at its end from one that does not.
   */
  onItem?: (batchItemId: string, item: DownloadItem) => void;
  /**
   * Each item that failed, as soon as a poll shows it, once per item, before the outcome (which carries
   * its error): so a caller handing files out in the order asked need not wait for the job's end to
   * step past it.
   */
  onItemFailed?: (batchItemId: string) => void;
}

/** A download job's outcome: the items, and the zip of them all when one was asked for. */
export interface DownloadOutcome extends BatchOutcome<DownloadItem> {
  zip?: DownloadZip;
}

/** One part URL the caller wants, optionally bound to the part's MD5 (base64), which the PUT must then send. */
export interface PartUrlRequest {
  partNumber: number;
  contentMd5?: string;
}

/** An upload request item (API.md §4). With no `parts`, URLs for every part come back. */
export interface UploadItem {
  batchItemId?: string;
  /** Full remote path with file name (`/Brand/Logos/logo.png`); sets the asset's folder. */
  path?: string;
  size: number;
  partSize?: number;
  parts?: PartUrlRequest[];
}

/** An upload of a new version (or a resume): names the asset, and `assetFileId: null` for a new file. */
export interface VersionUploadItem extends UploadItem {
  assetId: string;
  assetFileId?: string | null;
}

/** A resume of an existing multipart upload: fresh URLs for the listed (missing) parts. */
export interface ResumeUploadItem extends UploadItem {
  uploadId: string;
  assetId: string;
  assetFileId?: string | null;
  parts: PartUrlRequest[];
}

export interface CompletedPart {
  partNumber: number;
  eTag: string;
}

/** Progress of a transfer: bytes moved so far in this call. */
export type ProgressListener = (bytes: number) => void;

/** A local file as the engine last recorded it: what its sameSignature compares (local/file-system.ts). */
export interface FileIdentity {
  size: number;
  mtimeMs: number;
  ino: number;
}

export interface PutPartRequest {
  /** The part's signed URL (from AssetUpload.parts). Never sent the bearer token. */
  url: string;
  filePath: string;
  /**
   * The file the part must come from. When set, the final name of `filePath` is opened without
   * following a symlink and the open descriptor's fstat must show a regular file with this size, mtime
   * and inode, else the PUT fails with LOCAL_FILE_CHANGED before a byte is sent (a path that no longer
   * opens as a file, ENOENT or ELOOP, fails the same way). Checked again on every attempt.
   */
  expected?: FileIdentity;
  /** Byte range of the file, start inclusive, end exclusive (AssetUpload.parts[].byteRange). */
  start: number;
  end: number;
  /** base64 MD5 of the range, when the URL was requested with one. */
  contentMd5?: string;
  /**
   * Asks the service to complete the upload with this PUT when it makes the upload whole (a one-part
   * upload) [ours: header `Asset-Sync-Complete: ?1`]. A service that does answers the completed asset
   * (`completed`); one that ignores the header answers the part alone, and the caller completes as
   * usual. Parts up to 1 MiB only.
   */
  complete?: boolean;
  signal?: AbortSignal;
  onProgress?: ProgressListener;
}

/** What a part PUT answered: its ETag, and the asset when the PUT also completed the upload. */
export interface PartAnswer {
  eTag: string;
  completed?: Asset;
}

export interface DownloadRequestItem {
  batchItemId: string;
  assetId: string;
  /** null = the current file. */
  assetFileId: string | null;
}

export interface DownloadToFileOptions {
  /** Bytes already in the temp file to keep; the rest is asked for with `Range`. 0 = from scratch. */
  resumeFrom?: number;
  /** Sent as `If-Range`, so a changed file restarts from 0 instead of splicing two versions. */
  ifRange?: string;
  /** Hash the bytes on the way: `md5` in the result when the whole file came in this call. */
  md5?: boolean;
  /** fsync the file before resolving (the caller renames it into place next). */
  fsync?: boolean;
  /**
   * Gives the file this modification time (ms) before its fsync, through the handle that wrote it, and
   * answers what it then is (`written`): the caller records the file as it lands without a utimes and an
   * lstat by path.
   */
  mtimeMs?: number;
  signal?: AbortSignal;
  onProgress?: ProgressListener;
}

/** A written file as its handle saw it after the last write (and `mtimeMs`). */
export interface WrittenFile {
  size: number;
  mtimeMs: number;
  ino: number;
  dev: number;
}

export interface DownloadResult {
  /** Bytes in the file when done. */
  size: number;
  /** True when the server honoured the resume (206), false when it sent the whole file. */
  resumed: boolean;
  etag: string | undefined;
  /** MD5 hex of the whole file, when asked for and the download did not resume (else hash the file). */
  md5?: string;
  /** The file after `mtimeMs` was set, when asked for and written through one handle (not under a bandwidth cap). */
  written?: WrittenFile;
}

export interface MetadataValueUpdate {
  fieldId: string;
  type: 'BY_VALUES' | 'BY_IDS';
  values: string[];
  operation?: 'REPLACE' | 'ADD' | 'REMOVE';
}

export type AssetSelector = { type: 'BY_IDS'; assetIds: string[] } | { type: 'BY_CRITERION'; criterion: Criterion };

export interface FieldOptionInput {
  batchItemId: string;
  fieldId: string;
  value: string;
  position?: number;
  parentId: string | null;
}

export interface FieldOptionChange {
  value?: string;
  parentId?: string | null;
  position?: number;
}

export interface AssetChange {
  metadata?: { values: Record<string, string[]> };
  filename?: string;
}

export interface AssetApi {
  // Account
  currentUser(): Promise<Envelope<User>>;
  /** A user of the account, by id (NOT_FOUND for one of another account). */
  getUser(id: string): Promise<User>;
  /** The id of the Folders field. */
  foldersFieldId(): Promise<string>;
  listFields(): Promise<Field[]>;
  /** What the service offers beyond API.md [ours]: `{}` from a service that does not say (the hosted one). */
  serviceFeatures(): Promise<ServiceFeatures>;
  /**
   * Follows the account's change feed [ours] (one connection, no retries): resolves when the service
   * ends the stream or the signal aborts; rejects with CHANGE_CURSOR_UNKNOWN for a refused cursor, or a
   * transport code when the connection drops.
   */
  followChanges(request: FollowChangesRequest): Promise<void>;

  // Field options (folders)
  getFieldOption(id: string): Promise<FieldOption>;
  searchFieldOptions(request: SearchRequest): Promise<SearchPage<FieldOption>>;
  /** Every child of `parentId` (null: the top level of the field), all pages, by position. `parent` is not trusted. */
  listFieldOptionChildren(fieldId: string, parentId: string | null): Promise<FieldOption[]>;
  createFieldOptions(items: FieldOptionInput[]): Promise<BatchOutcome<FieldOption>>;
  changeFieldOption(id: string, change: FieldOptionChange): Promise<FieldOption>;
  deleteFieldOption(id: string): Promise<void>;

  // Assets
  getAsset(id: string): Promise<Asset>;
  changeAsset(id: string, change: AssetChange): Promise<Asset>;
  /** Permanent. The engine moves assets to BINNED instead (transitionLifecycle). */
  deleteAsset(id: string): Promise<void>;
  listAssetFiles(assetId: string): Promise<AssetFile[]>;

  // Search
  searchAssets(request: SearchRequest): Promise<SearchPage<Asset>>;
  /** totalResults of a criterion (a pageSize 0 search): cheap change polling. */
  countAssets(criterion: Criterion): Promise<number>;
  /** Every page of a scroll search, the latest scrollId sent each time; ends at an empty page. */
  scrollAssets(request: Omit<SearchRequest, 'from'>, signal?: AbortSignal): AsyncIterable<SearchPage<Asset>>;

  // Uploads
  /** New assets with their uploads (asset-and-upload batch job). Not repeated on an ambiguous failure. */
  createAssetsWithUploads(items: UploadItem[], onCreated?: (jobId: string) => void): Promise<BatchOutcome<UploadJobSuccess>>;
  /**
   * What an asset-and-upload job made, by its id (polled until it ends): how a restarted client finds
   * the assets of a job whose answer it never heard, when it heard the job's id.
   */
  uploadJobOutcome(jobId: string): Promise<BatchOutcome<UploadJobSuccess>>;
  /** New versions of existing assets (asset-upload batch job). */
  createVersionUploads(items: VersionUploadItem[]): Promise<BatchOutcome<UploadJobSuccess>>;
  /** One upload, answered at once (`POST /asset-uploads`). */
  createUpload(item: VersionUploadItem): Promise<AssetUpload>;
  /** Fresh URLs for the listed parts of an existing upload. */
  resumeUpload(item: ResumeUploadItem): Promise<AssetUpload>;
  /** Streams the byte range to the signed URL; answers the ETag. */
  putPart(request: PutPartRequest): Promise<PartAnswer>;
  completeUpload(completion: { assetId: string; uploadId: string; parts: CompletedPart[] }): Promise<Asset>;

  // Batch jobs
  editMetadata(selector: AssetSelector, updates: MetadataValueUpdate[]): Promise<BatchOutcome<unknown>>;
  transitionLifecycle(selector: AssetSelector, targetState: LifecycleState): Promise<BatchOutcome<unknown>>;

  // Downloads
  requestDownloads(items: DownloadRequestItem[], options?: DownloadRequestOptions): Promise<DownloadOutcome>;
  /** Every preset transformation the account offers, grouped ones first. */
  listPresetTransformations(): Promise<PresetTransformation[]>;
  /** Per asset (1–1000), the ids of the presets that would transform its current file (the others hand it over as it is). */
  presetsForAssets(assetIds: readonly string[]): Promise<Map<string, string[]>>;
  /** Streams a signed URL into `tempPath` (resuming with Range); the caller verifies, fsyncs and renames. */
  downloadToFile(url: string, tempPath: string, options?: DownloadToFileOptions): Promise<DownloadResult>;
}
