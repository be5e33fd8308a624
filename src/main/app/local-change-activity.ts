/**
 * The activity entry of a change the app made to a synced folder on disk (a file to the Trash, a move,
 * a conflict copy): every such change is an entry, whether a pass or the user's command made it.
 */
import type { ActivityKind } from '../../shared/bridge/app-events.js';
import type { LocalChange } from '../../shared/sync/transfer-event.js';
import type { NewActivity } from './activity-log.js';

const kinds = { trashed: 'trash', moved: 'move', 'folder-moved': 'folder-move', 'conflict-copy': 'conflict-copy' } as const satisfies Record<LocalChange['change'], ActivityKind>;

export function localChangeActivity(folderId: string, change: LocalChange): NewActivity {
  return { folderId, relPath: change.relPath, kind: kinds[change.change], status: 'done', ...(change.change === 'trashed' ? {} : { from: change.from }) };
}
