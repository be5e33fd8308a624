/**
 * The search filters an account can show (SERVICE-SPEC §2.10): one per Field, and three hard-coded
 * ones on fixed search fields — DATE_LIVE (free: any date or range, `HARD_CODED_FREE_OPTION` with
 * `searchField` [real]), FILE_TYPE and STAGED (a fixed set of options [ours]). A field's filter has the
 * field's id; a hard-coded filter's id is its search field name. Derived from the schema on every read:
 * nothing to keep in step when fields come and go.
 */
import type { FieldsRepo } from '../fields/fields-repo.js';
import { FILE_TYPES } from '../search/fixed-fields.js';

export type SearchFilter =
  | { id: string; type: 'FIELD'; name: string; fieldId: string }
  | { id: string; type: 'HARD_CODED_FREE_OPTION'; name: string; searchField: 'DATE_LIVE' }
  | { id: string; type: 'HARD_CODED_FIXED_OPTION'; name: string; searchField: 'FILE_TYPE' | 'STAGED'; options: readonly string[] };

const HARD_CODED: readonly SearchFilter[] = [
  { id: 'DATE_LIVE', type: 'HARD_CODED_FREE_OPTION', name: 'Date live', searchField: 'DATE_LIVE' },
  { id: 'FILE_TYPE', type: 'HARD_CODED_FIXED_OPTION', name: 'File type', searchField: 'FILE_TYPE', options: FILE_TYPES },
  { id: 'STAGED', type: 'HARD_CODED_FIXED_OPTION', name: 'Staged', searchField: 'STAGED', options: ['true', 'false'] },
];

/** Every filter of the account: the hard-coded ones, then one per field in the fields' name order. */
export function searchFilters(fields: FieldsRepo, accountId: string): SearchFilter[] {
  const ofFields = fields.list(accountId).map((field): SearchFilter => ({ id: field.id, type: 'FIELD', name: field.name, fieldId: field.id }));
  return [...HARD_CODED, ...ofFields];
}
