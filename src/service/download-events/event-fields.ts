/**
 * The queryable fields of a download event, as fixed field names of the criterion language (the same
 * `{ "type": "FIXED", "fieldName": … }` references as asset search), each mapped onto a column of
 * `download_events e`. Expressions are constant SQL; no request value ever reaches them. USER_TYPE,
 * DOWNLOAD_TYPE and TRANSFORMATION_TYPE are closed value sets (SERVICE-SPEC §2.6); DATE_DOWNLOADED takes
 * dates and ranges as asset dates do.
 */
import type { ColumnField } from '../search/fixed-fields.js';
import { DOWNLOAD_TYPES, TRANSFORMATION_TYPES, USER_TYPES } from './download-events-repo.js';

const text = (column: string, nullable: boolean): ColumnField => ({ kind: 'column', expr: `e.${column}`, type: 'text', nullable });
const closedSet = (column: string, values: readonly string[]): ColumnField => ({ kind: 'column', expr: `e.${column}`, type: 'enum', nullable: false, enumValues: values });

export const EVENT_FIELDS = {
  EVENT_ID: text('id', false),
  ASSET_ID: text('asset_id', false),
  ASSET_FILE_ID: text('asset_file_id', false),
  USER_ID: text('user_id', true),
  PORTAL_ID: text('portal_id', true),
  ASSET_SHARE_ID: text('asset_share_id', true),
  USER_TYPE: closedSet('user_type', USER_TYPES),
  DOWNLOAD_TYPE: closedSet('download_type', DOWNLOAD_TYPES),
  TRANSFORMATION_TYPE: closedSet('transformation_type', TRANSFORMATION_TYPES),
  PRESET_TRANSFORMATION_ID: text('preset_transformation_id', true),
  DATE_DOWNLOADED: { kind: 'column', expr: 'e.date_downloaded', type: 'date', nullable: false },
} as const satisfies Record<string, ColumnField>;

export type EventFieldName = keyof typeof EVENT_FIELDS;

export function isEventFieldName(name: string): name is EventFieldName {
  return Object.hasOwn(EVENT_FIELDS, name);
}

export const EVENT_FIELD_NAMES: readonly EventFieldName[] = Object.keys(EVENT_FIELDS).filter(isEventFieldName);
