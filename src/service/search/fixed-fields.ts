/**
 * The fixed asset fields of the criterion language (API.md §5) and how each maps onto the assets tables.
 * Expressions are constant SQL over `assets a` (the current file through a correlated subquery); they
 * never contain a value from a request. V1 names map to their V2 replacement for the 400 (API.md §7).
 *
 * - COLLECTIONS: the ids of the collections an asset is in (collection-predicates.ts); FIELD_IS_EMPTY
 *   matches assets in no collection. Sorting on it is refused.
 * - KEYWORDS: the values of the account's built-in Keywords field (resolved per account when compiling).
 * - STAGED: a boolean, true when the lifecycle state is STAGED.
 */
import type { FileType, LifecycleState } from '../../shared/api/resources.js';

export const FIXED_FIELD_NAMES = [
  'ASSET_ID',
  'FILENAME',
  'KEYWORDS',
  'FILE_TYPE',
  'LIFECYCLE_STATE',
  'STAGED',
  'STAGED_BY',
  'DATE_STAGED',
  'DATE_PENDING_APPROVAL',
  'DATE_LIVE',
  'DATE_LAST_ASSET_FILE_ADDED',
  'DATE_LAST_MODIFIED',
  'COLLECTIONS',
  'CHECKSUM',
] as const;

export type FixedFieldName = (typeof FIXED_FIELD_NAMES)[number];

/** How values of a column are read from a criterion and compared. */
export type ColumnType = 'text' | 'date' | 'enum' | 'boolean';

export interface ColumnField {
  kind: 'column';
  /** SQL over `assets a`; NULL when the asset has no value. */
  expr: string;
  type: ColumnType;
  nullable: boolean;
  /** The allowed values of an enum column. */
  enumValues?: readonly string[];
  /** Values are stored lower-case (hex digests): criterion values are lower-cased before comparing. */
  lowerCase?: boolean;
  /** Sort case-insensitively (names). */
  sortNoCase?: boolean;
  /** Equality on it is an index lookup selective enough to drive a search (the asset id). */
  selective?: boolean;
  /** Wildcard matches find their candidates in the file-name trigram index (text-prefilter.ts). */
  fileNameTrigrams?: boolean;
  /** A date with an index of its own: "since T" ranges start from it (compare-sql.ts, dateRangeSql). */
  sinceIndexed?: boolean;
}

/** The asset id over `assets a`: unique, so an order that reaches it is total. */
export const ASSET_ID_SQL = 'a.id';

export type FixedField = ColumnField | { kind: 'keywords' } | { kind: 'collections' };

const currentFile = (column: string): string => `(SELECT f.${column} FROM asset_files f WHERE f.id = a.current_file_id)`;

export const FILE_TYPES: readonly FileType[] = ['IMAGE', 'VIDEO', 'AUDIO', 'DOCUMENT', 'FONT', 'OTHER'];
export const LIFECYCLE_STATES: readonly LifecycleState[] = ['STAGED', 'PENDING_APPROVAL', 'LIVE', 'BINNED'];

const date = (column: string, nullable = true, sinceIndexed = false): ColumnField => ({ kind: 'column', expr: `a.${column}`, type: 'date', nullable, sinceIndexed });

export const FIXED_FIELDS: Record<FixedFieldName, FixedField> = {
  ASSET_ID: { kind: 'column', expr: ASSET_ID_SQL, type: 'text', nullable: false, selective: true },
  FILENAME: { kind: 'column', expr: currentFile('filename'), type: 'text', nullable: true, sortNoCase: true, fileNameTrigrams: true },
  KEYWORDS: { kind: 'keywords' },
  FILE_TYPE: { kind: 'column', expr: currentFile('file_type'), type: 'enum', nullable: true, enumValues: FILE_TYPES },
  LIFECYCLE_STATE: { kind: 'column', expr: 'a.state', type: 'enum', nullable: false, enumValues: LIFECYCLE_STATES },
  STAGED: { kind: 'column', expr: "(a.state = 'STAGED')", type: 'boolean', nullable: false },
  STAGED_BY: { kind: 'column', expr: 'a.staged_by', type: 'text', nullable: true },
  DATE_STAGED: date('date_staged'),
  DATE_PENDING_APPROVAL: date('date_pending_approval'),
  DATE_LIVE: date('date_live'),
  // What a sync poll asks for (changed since T): each has an index of its own (migration 0023).
  DATE_LAST_ASSET_FILE_ADDED: date('date_last_file_added', true, true),
  DATE_LAST_MODIFIED: date('date_last_modified', false, true),
  COLLECTIONS: { kind: 'collections' },
  CHECKSUM: { kind: 'column', expr: currentFile('checksum'), type: 'text', nullable: true, lowerCase: true },
};

/** Fixed names that select by lifecycle state: a criterion naming none of them matches only LIVE assets. */
export const STATE_FIELD_NAMES: readonly string[] = ['LIFECYCLE_STATE', 'STAGED'];

/** V1 search and sort names → their V2 replacement (SERVICE-SPEC §9). STAGING_STATUS is ours. */
export const V1_FIELD_NAMES: Readonly<Record<string, FixedFieldName>> = {
  DATE_ADDED: 'DATE_LIVE',
  ADDED_BY: 'STAGED_BY',
  STAGING_STATUS: 'LIFECYCLE_STATE',
};

export function isFixedFieldName(name: string): name is FixedFieldName {
  return (FIXED_FIELD_NAMES as readonly string[]).includes(name);
}
