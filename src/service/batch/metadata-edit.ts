/**
 * The metadata edit of a batch job (API.md §6): per field, values given as text (`BY_VALUES`) or as
 * option ids (`BY_IDS`), applied with `REPLACE`, `ADD` or `REMOVE`. Everything that can be checked
 * without the assets is checked when the job is created (400 at once): the field exists, option ids
 * belong to it, text values name exactly one of its options (a `/Parent/Child` path picks one in a
 * tree), a single-value field is not given two values. What depends on each asset (ADD to a
 * single-value field that already has a value) fails that asset alone.
 */
import { z } from 'zod';
import type { Db } from '../db/open-database.js';
import { ServiceError } from '../errors/service-error.js';
import type { FieldRecord, FieldsRepo } from '../fields/fields-repo.js';
import type { FieldOptionsRepo, OptionRow } from '../fields/field-options-repo.js';
import { MAX_TEXT_VALUE } from '../assets/asset-values.js';

export const valueUpdateSchema = z.object({
  fieldId: z.string().min(1).max(200),
  type: z.enum(['BY_VALUES', 'BY_IDS']),
  values: z.array(z.string().max(MAX_TEXT_VALUE)).max(1000),
  operation: z.enum(['REPLACE', 'ADD', 'REMOVE']).default('REPLACE'),
});
export type ValueUpdate = z.infer<typeof valueUpdateSchema>;

/** An update with its values in stored form (option ids for option fields). */
export interface ResolvedUpdate {
  fieldId: string;
  operation: ValueUpdate['operation'];
  values: string[];
}

export interface MetadataEditDeps {
  db: Db;
  fields: FieldsRepo;
  fieldOptions: FieldOptionsRepo;
  /**
   * Options the caller may see (the folder policy's): a name (BY_VALUES) finds no other, so a hidden
   * folder's name answers as one that is not there. Ids are checked against the scope afterwards.
   */
  visible?: (option: OptionRow) => boolean;
}

export function resolveUpdates(deps: MetadataEditDeps, accountId: string, updates: readonly ValueUpdate[]): ResolvedUpdate[] {
  return updates.map((update, index) => {
    const where = `metadataFieldValueUpdates[${index}]`;
    const field = deps.fields.get(accountId, update.fieldId);
    if (field === undefined) throw new ServiceError('INVALID_FIELD_VALUE', `${where}.fieldId: no field with id "${update.fieldId}".`);
    const values = [...new Set(update.values.map((value) => (field.hasFixedOptions ? optionId(deps, field, update.type, value, where) : value)))];
    if (!field.multiValue && update.operation !== 'REMOVE' && values.length > 1) {
      throw new ServiceError('INVALID_FIELD_VALUE', `${where}: "${field.name}" takes one value, got ${values.length}.`);
    }
    return { fieldId: field.id, operation: update.operation, values };
  });
}

function optionId(deps: MetadataEditDeps, field: FieldRecord, type: ValueUpdate['type'], value: string, where: string): string {
  const seen = (option: OptionRow | undefined): OptionRow | undefined => (option !== undefined && (deps.visible?.(option) ?? true) ? option : undefined);
  if (type === 'BY_IDS') {
    if (deps.fieldOptions.get(field.accountId, value)?.field_id !== field.id) {
      throw new ServiceError('INVALID_FIELD_VALUE', `${where}: "${value}" is not an option of "${field.name}".`);
    }
    return value;
  }
  if (field.hierarchical && value.startsWith('/')) {
    let parentId: string | null = null;
    for (const segment of value.slice(1).split('/')) {
      const option = seen(deps.fieldOptions.childByValue(field.id, parentId, segment.normalize('NFC')));
      if (option === undefined) throw new ServiceError('INVALID_FIELD_VALUE', `${where}: "${field.name}" has no option at "${value}".`);
      parentId = option.id;
    }
    if (parentId === null) throw new ServiceError('INVALID_FIELD_VALUE', `${where}: "${value}" names no option.`);
    return parentId;
  }
  const matches = deps.db
    .prepare<[string, string], OptionRow>('SELECT * FROM field_options WHERE field_id = ? AND value = ?')
    .all(field.id, value.normalize('NFC'))
    .filter((option) => seen(option) !== undefined);
  const [match] = matches;
  if (match === undefined) throw new ServiceError('INVALID_FIELD_VALUE', `${where}: "${field.name}" has no option "${value}".`);
  if (matches.length > 1) {
    throw new ServiceError('INVALID_FIELD_VALUE', `${where}: "${value}" is the value of several options of "${field.name}"; give its /path or use BY_IDS.`);
  }
  return match.id;
}

/** The values a field holds after one update. */
export function applyUpdate(current: readonly string[], update: ResolvedUpdate): string[] {
  switch (update.operation) {
    case 'REPLACE':
      return [...update.values];
    case 'ADD':
      return [...new Set([...current, ...update.values])];
    case 'REMOVE':
      return current.filter((value) => !update.values.includes(value));
  }
}
