/**
 * Preset management on a data directory, for `asset-sync preset …`: list, add (from a few flags — a
 * size, a fit, a format — or from full candidate transformations as JSON), remove. Presets added here
 * belong to the whole installation, as the seeded ones do. Works while the service runs (data-dir.ts).
 */
import { z } from 'zod';
import { candidateList, OUTPUT_FORMATS, type CandidateTransformation, type Operation } from '../transforms/transformation-schema.js';
import { candidatesOf, presetsRepo, type PresetRow } from '../transforms/presets-repo.js';
import { AdminError } from './admin-error.js';
import { withDataDir } from './data-dir.js';

export interface PresetSummary {
  id: string;
  name: string;
  group: string | null;
  candidateTransformations: CandidateTransformation[];
}

/** What `preset add` was given. `candidates` (JSON) excludes the shorthand flags. */
export interface PresetInput {
  name: string;
  group?: string | undefined;
  width?: number | undefined;
  height?: number | undefined;
  fit?: string | undefined;
  format?: string | undefined;
  quality?: number | undefined;
  candidates?: string | undefined;
}

/** The candidates a preset made from the shorthand flags has: images transformed, anything else as it is. */
export function candidatesFromFlags(input: PresetInput): CandidateTransformation[] {
  const operations: Operation[] = [];
  if (input.width !== undefined || input.height !== undefined) {
    const fit = input.fit?.toUpperCase() ?? 'INSIDE';
    if (fit !== 'INSIDE' && fit !== 'COVER' && fit !== 'FILL') throw new AdminError('INVALID_INPUT', `--fit must be inside, cover or fill, got "${input.fit ?? ''}".`);
    operations.push({ type: 'RESIZE', width: input.width ?? null, height: input.height ?? null, fit });
  } else if (input.fit !== undefined) {
    throw new AdminError('INVALID_INPUT', '--fit needs --width or --height.');
  }
  if (input.format !== undefined) {
    const format = OUTPUT_FORMATS.find((known) => known === input.format?.toUpperCase().replace(/^JPEG$/, 'JPG'));
    if (format === undefined) throw new AdminError('INVALID_INPUT', `--format must be one of ${OUTPUT_FORMATS.join(', ')}, got "${input.format}".`);
    operations.push({ type: 'CONVERT', format, quality: input.quality ?? null });
  } else if (input.quality !== undefined) {
    throw new AdminError('INVALID_INPUT', '--quality needs --format.');
  }
  if (operations.length === 0) throw new AdminError('INVALID_INPUT', 'A preset needs --width/--height, --format, or --candidates JSON.');
  return [
    { criteria: { type: 'FILE_TYPE_IN', fileTypes: ['IMAGE'] }, transformation: { operations } },
    { criteria: { type: 'MATCH_ALL' }, transformation: { operations: [] } },
  ];
}

function parseCandidates(json: string): CandidateTransformation[] {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new AdminError('INVALID_INPUT', '--candidates is not valid JSON.');
  }
  const parsed = candidateList.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AdminError('INVALID_INPUT', `--candidates is not a list of candidate transformations: ${issue?.path.map(String).join('.') ?? ''}: ${issue?.message ?? 'invalid'}.`);
  }
  return parsed.data;
}

const summary = (row: PresetRow, groups: Map<string, string>): PresetSummary => ({
  id: row.id,
  name: row.name,
  group: row.group_id === null ? null : (groups.get(row.group_id) ?? null),
  candidateTransformations: candidatesOf(row),
});

export async function listPresets(dataDir: string): Promise<PresetSummary[]> {
  return withDataDir(dataDir, undefined, ({ db, account }) => {
    const presets = presetsRepo(db);
    const groups = new Map(presets.groups().map((group) => [group.id, group.name]));
    return presets.visible(account.id).map((row) => summary(row, groups));
  });
}

export async function addPreset(dataDir: string, input: PresetInput): Promise<PresetSummary> {
  const name = z.string().trim().min(1).max(200).safeParse(input.name);
  if (!name.success) throw new AdminError('INVALID_INPUT', 'A preset needs a --name of 1 to 200 characters.');
  const shorthand = [input.width, input.height, input.fit, input.format, input.quality].some((value) => value !== undefined);
  if (input.candidates !== undefined && shorthand) throw new AdminError('INVALID_INPUT', 'Give either --candidates JSON or the size and format flags, not both.');
  const candidates = input.candidates === undefined ? candidatesFromFlags(input) : parseCandidates(input.candidates);
  return withDataDir(dataDir, undefined, ({ db, account }) => {
    const presets = presetsRepo(db);
    if (presets.byName(account.id, name.data) !== undefined) throw new AdminError('PRESET_EXISTS', `A preset named "${name.data}" already exists; remove it first.`);
    const group = input.group === undefined ? undefined : presets.groupByName(input.group);
    if (input.group !== undefined && group === undefined) {
      throw new AdminError('INVALID_INPUT', `No preset group "${input.group}"; the groups are ${presets.groups().map((known) => known.name).join(', ')}.`);
    }
    const row = presets.add({ name: name.data, groupId: group?.id ?? null, candidates, now: new Date().toISOString() });
    return summary(row, new Map(group === undefined ? [] : [[group.id, group.name]]));
  });
}

/** Removes a preset by id or name. */
export async function removePreset(dataDir: string, idOrName: string): Promise<PresetSummary> {
  return withDataDir(dataDir, undefined, ({ db, account }) => {
    const presets = presetsRepo(db);
    const row = presets.get(account.id, idOrName) ?? presets.byName(account.id, idOrName);
    if (row === undefined) throw new AdminError('NO_SUCH_PRESET', `No preset "${idOrName}"; \`asset-sync preset list --data DIR\` shows them.`);
    presets.remove(row);
    return summary(row, new Map());
  });
}
