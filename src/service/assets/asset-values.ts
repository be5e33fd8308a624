/**
 * Validates metadata values against their fields before they are stored: the field must exist,
 * option fields take ids of their own options, single-value fields take one value.
 */
import type { Db } from '../db/open-database.js';
import { ServiceError } from '../errors/service-error.js';
import type { FieldsRepo } from '../fields/fields-repo.js';

export const MAX_TEXT_VALUE = 10_000;

export function validateValues(db: Db, fields: FieldsRepo, accountId: string, values: Record<string, string[]>): Record<string, string[]> {
  const optionOf = db.prepare<[string, string], { id: string }>('SELECT id FROM field_options WHERE id = ? AND field_id = ?');
  const clean: Record<string, string[]> = {};
  for (const [fieldId, list] of Object.entries(values)) {
    const field = fields.get(accountId, fieldId);
    if (field === undefined) throw new ServiceError('INVALID_FIELD_VALUE', `No field with id "${fieldId}".`);
    const unique = [...new Set(list)];
    if (!field.multiValue && unique.length > 1) {
      throw new ServiceError('INVALID_FIELD_VALUE', `"${field.name}" takes one value, got ${unique.length}.`);
    }
    for (const value of unique) {
      if (field.hasFixedOptions) {
        if (optionOf.get(value, field.id) === undefined) throw new ServiceError('INVALID_FIELD_VALUE', `"${value}" is not an option of "${field.name}".`);
      } else if (value.length > MAX_TEXT_VALUE) {
        throw new ServiceError('INVALID_FIELD_VALUE', `A value of "${field.name}" is longer than ${MAX_TEXT_VALUE} characters.`);
      }
    }
    clean[fieldId] = unique;
  }
  return clean;
}
