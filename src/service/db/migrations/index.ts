/** The numbered migrations, in order. Append only: a shipped migration is never edited. */
import initial from './0001-initial.js';
import uploadReplacesFile from './0002-upload-replaces-file.js';
import search from './0003-search.js';
import uploadPartsWithoutRowid from './0004-upload-parts-without-rowid.js';
import inlineBlobs from './0005-inline-blobs.js';
import transformations from './0006-transformations.js';
import seedPresets from './0007-seed-presets.js';
import changeFeed from './0008-change-feed.js';
import collections from './0009-collections.js';
import sharesPortalsGuestUploads from './0010-shares-portals-guest-uploads.js';
import groups from './0011-groups.js';
import commentsAndSavedSearches from './0012-comments-saved-searches.js';
import downloadEvents from './0013-download-events.js';
import searchFiltersFieldViewsSuggestions from './0014-search-filters-field-views-suggestions.js';
import administration from './0015-administration.js';
import staffSessions from './0016-staff-sessions.js';
import jobItemResults from './0017-job-item-results.js';
import guestUploadOfUpload from './0018-guest-upload-of-upload.js';
import revokedGrants from './0019-revoked-grants.js';
import previewFailures from './0020-preview-failures.js';
import textTrigrams from './0021-text-trigrams.js';
import fileNameIndexTail from './0022-file-name-index-tail.js';
import changeDateIndexes from './0023-change-date-indexes.js';
import assetIdScopeIndex from './0024-asset-id-scope-index.js';

export const migrations: readonly string[] = [
  initial,
  uploadReplacesFile,
  search,
  uploadPartsWithoutRowid,
  inlineBlobs,
  transformations,
  seedPresets,
  changeFeed,
  collections,
  sharesPortalsGuestUploads,
  groups,
  commentsAndSavedSearches,
  downloadEvents,
  searchFiltersFieldViewsSuggestions,
  administration,
  staffSessions,
  jobItemResults,
  guestUploadOfUpload,
  revokedGrants,
  previewFailures,
  textTrigrams,
  fileNameIndexTail,
  changeDateIndexes,
  assetIdScopeIndex,
];
