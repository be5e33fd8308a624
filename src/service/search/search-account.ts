/**
 * What the compiler needs to know about the caller's account: its id and its fields (custom ones and
 * the built-in Keywords field). Built per request from the fields repository; lookups are memoised for
 * the one compile. Read-only: never changes a field.
 */
import type { FieldsRepo } from '../fields/fields-repo.js';
import type { FolderScope, ScopedAccount } from '../groups/folder-scope.js';

export interface SearchField {
  id: string;
  name: string;
  hasFixedOptions: boolean;
  hierarchical: boolean;
}

export interface SearchAccount {
  readonly accountId: string;
  /** The caller's folder limit: every compiled query keeps to it. */
  readonly folders: FolderScope;
  /** The account's field with this id, or undefined when the account has none. */
  field(fieldId: string): SearchField | undefined;
  /** The built-in Keywords field (the `KEYWORDS` fixed field), if the account has one. */
  keywordsField(): SearchField | undefined;
}

export function searchAccount(fields: FieldsRepo, who: ScopedAccount): SearchAccount {
  const { accountId, folders } = who;
  const seen = new Map<string, SearchField | undefined>();
  return {
    accountId,
    folders,
    field(fieldId) {
      if (!seen.has(fieldId)) seen.set(fieldId, fields.get(accountId, fieldId));
      return seen.get(fieldId);
    },
    keywordsField: () => fields.byRole(accountId, 'KEYWORDS'),
  };
}
