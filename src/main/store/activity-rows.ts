/**
 * The app's activity entries as the state database keeps them (db/activity-repo.ts) and back. A row
 * whose kind or status this version does not know (written by a newer app) reads as nothing rather
 * than as a kind the window cannot draw.
 */
import type { ActivityRow } from '../db/activity-repo.js';
import type { ActivityEntry, ActivityKind } from '../../shared/bridge/app-events.js';
import type { BridgeErrorData } from '../../shared/bridge/app-state.js';

const kinds: ReadonlySet<string> = new Set<ActivityKind>(['upload', 'download', 'move', 'folder-move', 'delete', 'trash', 'conflict-copy', 'copy-in']);
const statuses: ReadonlySet<string> = new Set<ActivityEntry['status']>(['running', 'done', 'failed']);

const isKind = (kind: string): kind is ActivityKind => kinds.has(kind);
const isStatus = (status: string): status is ActivityEntry['status'] => statuses.has(status);

export function activityRow(entry: ActivityEntry): ActivityRow {
  return {
    id: entry.id,
    folder_id: entry.folderId,
    rel_path: entry.relPath,
    kind: entry.kind,
    from_path: entry.from,
    status: entry.status,
    bytes_done: entry.bytesDone,
    bytes_total: entry.bytesTotal,
    at: entry.at,
    error: entry.error === null ? null : JSON.stringify({ name: entry.error.name, code: entry.error.code, message: entry.error.message }),
  };
}

export function activityEntry(row: ActivityRow): ActivityEntry | undefined {
  const { kind, status } = row;
  if (!isKind(kind) || !isStatus(status)) return undefined;
  return {
    id: row.id,
    folderId: row.folder_id,
    relPath: row.rel_path,
    kind,
    status,
    from: row.from_path,
    bytesDone: row.bytes_done,
    bytesTotal: row.bytes_total,
    at: row.at,
    error: row.error === null ? null : readError(row.error),
  };
}

function readError(text: string): BridgeErrorData {
  const fallback: BridgeErrorData = { name: 'Error', code: 'UNKNOWN', message: 'It failed.' };
  try {
    const data: unknown = JSON.parse(text);
    if (typeof data !== 'object' || data === null) return fallback;
    const field = (key: string): string | undefined => {
      const value: unknown = (data as Record<string, unknown>)[key];
      return typeof value === 'string' ? value : undefined;
    };
    return { name: field('name') ?? fallback.name, code: field('code') ?? fallback.code, message: field('message') ?? fallback.message };
  } catch {
    return fallback;
  }
}
